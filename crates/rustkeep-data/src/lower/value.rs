//! One field value, lowered by its [`FieldType`]: scalars with their bounds, names of the closed
//! vocabularies, references, ranges, and the lists that hold structure (handed to the other parts).

use crate::text::Span;
use crate::tree::{Table, Val};

use super::{int_of, num_of, type_name};
use super::{Ctx, Lower, DV};
use crate::diag::{toml_string, Code};
use crate::model::*;
use crate::suggest;
use crate::vocab::{self, *};

impl Lower<'_> {
    /// What `f` makes of each table of the list `v`, in a vector of exactly their number (when
    /// none is dropped): `filter_map` cannot tell its length ahead, and a grown vector keeps up to
    /// half its room empty. The model holds hundreds of thousands of these short lists.
    /// Whether `s` is one of the names of `rows`, a closed list of the vocabulary (of `noun`s);
    /// reported as `code` when it is not.
    pub(super) fn known_name(&mut self, code: Code, noun: &str, s: &str, span: Span, rows: &'static [(&'static str, &'static str)]) -> bool {
        if rows.iter().any(|r| r.0 == s) {
            return true;
        }
        self.unknown_name(code, noun, s, span, rows.iter().map(|r| r.0), &[], None);
        false
    }

    fn each_table<T>(&mut self, name: &str, v: &DV<'_>, mut f: impl FnMut(&mut Self, &Table<'_>, Span) -> Option<T>) -> Vec<T> {
        let tables = self.tables(name, v);
        let mut out = Vec::with_capacity(tables.len());
        out.extend(tables.into_iter().filter_map(|(t, s)| f(self, t, s)));
        out
    }

    /// Lowers one field value by its type. `None` means it was reported.
    pub(super) fn value(&mut self, def: &'static FieldDef, v: &DV<'_>, ctx: Ctx) -> Option<Value> {
        let name = def.name;
        let span = v.span();
        match def.ty {
            FieldType::Id | FieldType::Overrides => self.id_value(name, v).map(|s| Value::Str(s.value)),
            FieldType::Str => self.string(name, v).map(|s| Value::Str(s.to_string())),
            FieldType::Tag => self.string(name, v).map(|s| Value::Str(s.to_string())),
            FieldType::Grid => {
                let s = self.string(name, v)?;
                self.grid(s, span).map(Value::Grid)
            }
            FieldType::Bool => match v.get_ref() {
                Val::Boolean(b) => Some(Value::Bool(*b)),
                _ => {
                    self.wrong_type(name, "a boolean (`true` or `false`)", v);
                    None
                }
            },
            FieldType::True => match v.get_ref() {
                Val::Boolean(b) => Some(Value::Bool(*b)),
                _ => {
                    self.wrong_type(name, "`true`", v);
                    None
                }
            },
            FieldType::Int { min, max } => match int_of(v.get_ref()) {
                Some(Ok(n)) if n > max && n >= min => {
                    let (max, n) = (crate::text::thousands(max.unsigned_abs()), crate::text::thousands(n.unsigned_abs()));
                    self.diag(Code::ValueOutOfRange, span, format!("`{name}` is at most {max}, not {n}: the limit keeps every run bounded"));
                    None
                }
                Some(Ok(n)) if n >= min => Some(Value::Int(n)),
                Some(Ok(n)) => {
                    let code = if name == field::WEIGHT { Code::InvalidWeight } else { ctx.range_code() };
                    self.diag(code, span, format!("`{name}` must be an integer ≥ {min}, not {n}"));
                    None
                }
                Some(Err(())) => {
                    self.diag(ctx.range_code(), span, format!("`{name}` is too large: integers are 64-bit"));
                    None
                }
                None => {
                    if name == field::WEIGHT {
                        let got = type_name(v.get_ref());
                        self.diag(Code::InvalidWeight, span, format!("`weight` must be an integer ≥ 1, not {got}"));
                    } else {
                        self.wrong_type(name, &format!("an integer ≥ {min}"), v);
                    }
                    None
                }
            },
            FieldType::Float { min, exclusive } => {
                let Some(x) = num_of(v.get_ref()) else {
                    self.wrong_type(name, &def.ty.describe(), v);
                    return None;
                };
                let ok = x.is_finite() && if exclusive { x > min } else { x >= min };
                if !ok {
                    self.diag(ctx.range_code(), span, format!("`{name}` must be {}, not {x}", def.ty.describe()));
                    return None;
                }
                Some(Value::Float(x))
            }
            FieldType::Chance | FieldType::Fraction => {
                let Some(x) = num_of(v.get_ref()) else {
                    self.wrong_type(name, &def.ty.describe(), v);
                    return None;
                };
                if !(x > 0.0 && x <= 1.0) {
                    let code = if def.ty == FieldType::Chance { Code::WrongType } else { ctx.range_code() };
                    self.diag(code, span, format!("`{name}` must be {}, not {x}", def.ty.describe()));
                    return None;
                }
                Some(Value::Float(x))
            }
            FieldType::Number => match num_of(v.get_ref()) {
                Some(x) if x.is_finite() => Some(Value::Float(x)),
                Some(_) => {
                    self.diag(ctx.range_code(), span, format!("`{name}` must be a finite number"));
                    None
                }
                None => {
                    self.wrong_type(name, "a number", v);
                    None
                }
            },
            FieldType::Enum(options) => {
                let s = self.string(name, v)?;
                if options.contains(&s) {
                    return Some(Value::Str(s.to_string()));
                }
                let suggestion = suggest::closest_judged(s, options.iter().copied());
                let msg = format!("`{s}` is not a valid `{name}`; expected {}", def.ty.describe());
                let d = self.diag(Code::WrongType, span, msg);
                if let Some((sug, safety)) = suggestion {
                    *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug), safety);
                }
                None
            }
            FieldType::Glyph => {
                let s = self.string(name, v)?;
                match vocab::glyph_problem(s) {
                    None => Some(Value::Str(s.to_string())),
                    Some(why) => {
                        self.diag(Code::WrongType, span, format!("{} is not a valid `{name}`: {why}", toml_string(s)));
                        None
                    }
                }
            }
            FieldType::Color => {
                let s = self.string(name, v)?;
                if vocab::is_color(s) {
                    return Some(Value::Str(s.to_string()));
                }
                let msg = if s.starts_with('#') {
                    format!("{} is not a valid `{name}`: a hex colour is `#` and six hex digits, `#rrggbb`", toml_string(s))
                } else {
                    format!("`{s}` is not a valid `{name}`; expected one of {} or `#rrggbb`", suggest::list(COLORS.iter().map(|c| c.0)))
                };
                let suggestion = suggest::closest_judged(s, COLORS.iter().map(|c| c.0));
                let d = self.diag(Code::WrongType, span, msg);
                if let Some((sug, safety)) = suggestion.filter(|_| !s.starts_with('#')) {
                    *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug), safety);
                }
                None
            }
            FieldType::DamageType => {
                let s = self.string(name, v)?;
                self.known_name(Code::UnknownDamageType, "damage type", s, span, DAMAGE_TYPES).then(|| Value::Str(s.to_string()))
            }
            FieldType::Attribute => {
                let s = self.string(name, v)?;
                self.known_name(Code::UnknownAttribute, "attribute", s, span, ATTRIBUTES).then(|| Value::Str(s.to_string()))
            }
            FieldType::Who => {
                let s = self.string(name, v)?;
                match s {
                    who::SELF | who::TARGET => Some(Value::Str(s.to_string())),
                    _ => {
                        let code = if ctx == Ctx::Action { Code::MalformedAction } else { Code::MalformedCondition };
                        let suggestion = suggest::closest_judged(s, who::ALL.iter().copied())
                            .or_else(|| (s.trim().eq_ignore_ascii_case("player")).then_some((who::SELF, crate::diag::Applicability::Unsafe)));
                        let mut msg = format!("`{name}` must be `self` or `target`, not {}", toml_string(s));
                        if s.trim().eq_ignore_ascii_case("player") {
                            msg.push_str(": there is no `player` here — `self` is the bearer, which is the player in a quest, a floor's or prefab's trigger and in `use`, `on_create` and `on_talk` actions; `target` is the other side of the event");
                        }
                        let d = self.diag(code, span, msg);
                        if let Some((sug, safety)) = suggestion {
                            *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug), safety);
                        }
                        None
                    }
                }
            }
            FieldType::Ref(kind) => self.reference(kind, name, v).map(Value::Ref),
            FieldType::Bound { integer } => self.bound(name, integer, v).map(Value::Bound),
            FieldType::StartAt => match v.get_ref() {
                Val::Boolean(b) => Some(Value::Bool(*b)),
                Val::String(_) => self.reference(RefKind::Registry(Registry::Floors), name, v).map(Value::Ref),
                _ => {
                    self.wrong_type(name, "`true` (the dungeon's first floor) or a floor ID", v);
                    None
                }
            },
            FieldType::RefList(kind) => {
                // One ID where a list of them goes (`creatures = "m:rat"`) means the list of that
                // one: said once, with the fix that writes the brackets, and read as that list, so
                // that nothing is claimed missing that it names.
                if let Val::String(_) = v.get_ref() {
                    let written = self.text.get(v.span()).unwrap_or_default().to_string();
                    let d = self.diag(Code::WrongType, v.span(), format!("`{name}` must be a list of IDs: write `[{written}]`, not `{written}`"));
                    *d = d.clone().with_fix("put the ID in a list", format!("[{written}]"), crate::diag::Applicability::Safe);
                    return self.reference(kind, name, v).map(|r| Value::RefList(vec![r]));
                }
                let items = self.array(name, v)?;
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    if let Some(r) = self.reference(kind, name, item) {
                        out.push(r);
                    }
                }
                Some(Value::RefList(out))
            }
            FieldType::Tags => {
                let items = self.array(name, v)?;
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let Some(s) = self.string(field::TAGS, item) else { continue };
                    if !vocab::is_valid_id(s) {
                        self.invalid_id(s, item.span(), "tag");
                        continue;
                    }
                    let sp = Sp::new(item.span(), s.to_string());
                    self.tag_defs.push(sp.clone());
                    out.push(sp);
                }
                Some(Value::Tags(out))
            }
            FieldType::Range => self.range(name, v).map(Value::Range),
            FieldType::AttributeTable => {
                let Val::Table(t) = v.get_ref() else {
                    self.wrong_type(name, "a table attribute → number", v);
                    return None;
                };
                let mut out = Vec::with_capacity(t.len());
                for (key, val) in t.iter() {
                    let attr = key.get_ref().as_ref();
                    if !self.known_name(Code::UnknownAttribute, "attribute", attr, key.span(), ATTRIBUTES) {
                        continue;
                    }
                    match num_of(val.get_ref()) {
                        Some(x) if x.is_finite() => out.push((Sp::new(key.span(), attr.to_string()), x)),
                        _ => self.wrong_type(attr, "a number", val),
                    }
                }
                Some(Value::Attributes(out))
            }
            FieldType::Modifiers => Some(Value::Modifiers(self.each_table(name, v, Self::modifier))),
            FieldType::Triggers => Some(Value::Triggers(self.each_table(name, v, |l, t, s| Some(l.trigger(t, s))))),
            FieldType::Actions => Some(Value::Actions(self.each_table(name, v, Self::action))),
            FieldType::Ai => Some(Value::Ai(self.each_table(name, v, |l, t, s| Some(l.ai_rule(t, s))))),
            FieldType::Conditions => Some(Value::Conditions(self.each_table(name, v, Self::condition))),
            FieldType::Event => {
                let s = self.string(name, v)?;
                match EventKind::from_name(s) {
                    Some(e) => Some(Value::Event(e)),
                    None => {
                        self.unknown_name(Code::UnknownEvent, "event", s, span, EVENTS.iter().map(|e| e.name), EVENT_ALIASES, None);
                        None
                    }
                }
            }
            FieldType::When => self.when(v).map(Value::When),
            FieldType::Paths => {
                let items = self.array(name, v)?;
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    if let Some(s) = self.string(name, item) {
                        out.push(Sp::new(item.span(), s.to_string()));
                    }
                }
                Some(Value::Strs(out))
            }
            FieldType::Actor => {
                let s = self.string(name, v)?;
                if crate::scenario::Actor::parse(s).is_some() {
                    Some(Value::Str(s.to_string()))
                } else {
                    self.diag(Code::WrongType, span, format!("`{name}` must be `player` or `enemy:N`, not {}", toml_string(s)));
                    None
                }
            }
            // Tables whose content depends on their neighbours (a scenario's player, enemies and
            // steps, a step's action and payload) are read where that is known
            // (`lower/scenario.rs`); here only their shape is checked.
            FieldType::Table(_) | FieldType::Payload | FieldType::Action => {
                if !matches!(v.get_ref(), Val::Table(_)) {
                    self.wrong_type(name, "a table", v);
                }
                None
            }
            FieldType::TableList(_) => {
                self.tables(name, v);
                None
            }
            FieldType::LootEntries => {
                let entries: Vec<LootEntry> = self.each_table(name, v, Self::loot_entry);
                // The draw needs the total weight in 64 bits; past that the table cannot be rolled
                // (found by the hostile-input tests: `check` was silent while `loot` refused).
                let mut total: u64 = 0;
                for e in &entries {
                    if let Some(w) = e.weight {
                        match total.checked_add(w) {
                            Some(t) => total = t,
                            None => {
                                self.diag(
                                    Code::InvalidWeight,
                                    e.span.clone(),
                                    format!("the weights of this table add up to more than {}: scale them down", u64::MAX),
                                );
                                break;
                            }
                        }
                    }
                }
                Some(Value::LootEntries(entries))
            }
        }
    }

    fn range(&mut self, name: &str, v: &DV<'_>) -> Option<Range> {
        match v.get_ref() {
            Val::Integer(_) => match int_of(v.get_ref()) {
                Some(Ok(n)) if (0..=u32::MAX as i64).contains(&n) => Some(Range { min: n as u32, max: n as u32 }),
                _ => {
                    self.diag(Code::InvalidRange, v.span(), format!("`{name}` must be at least 0 (and at most {})", u32::MAX));
                    None
                }
            },
            Val::String(s) => match parse_range(s) {
                Ok(r) => Some(r),
                Err(why) => {
                    // `1..3`, `1–3`, `1 to 3`, `1, 3`: the bounds are plain, only the separator is not.
                    let meant = ["..", "–", "—", " to ", ",", ":"].iter().find_map(|sep| {
                        let (a, b) = s.split_once(sep)?;
                        let r = parse_range(&format!("{}-{}", a.trim(), b.trim())).ok()?;
                        Some(format!("{}-{}", r.min, r.max))
                    });
                    let msg = match &meant {
                        Some(m) => format!("`{name}` = {} is not a valid range: write `\"{m}\"` (min-max, both included)", toml_string(s)),
                        None => {
                            format!("`{name}` = {} is not a valid range: {why}; write a number such as `\"2\"` or min-max such as `\"1-3\"`", toml_string(s))
                        }
                    };
                    let d = self.diag(Code::InvalidRange, v.span(), msg);
                    if let Some(m) = meant {
                        // Whether `1..3` means 1 to 3 or (as in Rust) 1 to 2 is the author's call.
                        *d = d.clone().with_fix(format!("write `\"{m}\"`"), toml_string(&m), crate::diag::Applicability::Unsafe);
                    }
                    None
                }
            },
            _ => {
                self.wrong_type(name, "a range: an integer or a string like \"1-3\"", v);
                None
            }
        }
    }
    /// A bound: a number, or a table of `at_least` and `below` (at least one, with
    /// `at_least < below`). `integer`: counts, whole and not negative. A chance and a win rate are
    /// shares from 0 to 1: a bound no share meets can never hold.
    fn bound(&mut self, name: &str, integer: bool, v: &DV<'_>) -> Option<Bound> {
        let b = self.any_bound(name, integer, v)?;
        if matches!(name, field::CHANCE | field::WIN_RATE) {
            let never = b.exact.is_some_and(|x| !(0.0..=1.0).contains(&x)) || b.at_least.is_some_and(|a| a > 1.0) || b.below.is_some_and(|c| c <= 0.0);
            if never {
                let written = self.text.get(v.span()).unwrap_or_default().to_string();
                self.diag(Code::MalformedExpectation, v.span(), format!("`{name}` is a share from 0 to 1, so `{name} = {written}` can never hold"));
                return None;
            }
        }
        Some(b)
    }

    fn any_bound(&mut self, name: &str, integer: bool, v: &DV<'_>) -> Option<Bound> {
        let span = v.span();
        let number = |l: &mut Self, key: &str, v: &DV<'_>| -> Option<f64> {
            let shown = if key == name { format!("`{name}`") } else { format!("`{name}.{key}`") };
            match num_of(v.get_ref()) {
                Some(x) if !x.is_finite() => {
                    l.diag(Code::WrongType, v.span(), format!("{shown} must be a finite number"));
                    None
                }
                Some(x) if integer && (x.fract() != 0.0 || x < 0.0) => {
                    l.diag(Code::WrongType, v.span(), format!("{shown} counts, so it must be a whole number ≥ 0, not {x}"));
                    None
                }
                Some(x) => Some(x),
                None => {
                    let got = type_name(v.get_ref());
                    l.diag(Code::WrongType, v.span(), format!("{shown} must be a number, not {got}"));
                    None
                }
            }
        };
        match v.get_ref() {
            Val::Table(t) => {
                let mut b = Bound { span: span.clone(), exact: None, at_least: None, below: None };
                let mut ok = true;
                for (key, value) in t.iter() {
                    match key.get_ref().as_ref() {
                        k @ (field::AT_LEAST | field::BELOW) => match number(self, k, value) {
                            Some(x) if k == field::AT_LEAST => b.at_least = Some(x),
                            Some(x) => b.below = Some(x),
                            None => ok = false,
                        },
                        other => {
                            let sug = suggest::closest(other, [field::AT_LEAST, field::BELOW]).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
                            self.diag(Code::UnknownField, key.span(), format!("a bound has no field `{other}`{sug} Fields: `at_least`, `below`"));
                            ok = false;
                        }
                    }
                }
                if !ok {
                    return None;
                }
                match (b.at_least, b.below) {
                    (None, None) => {
                        self.diag(Code::MalformedExpectation, span, format!("`{name}` bounds nothing: give `at_least`, `below` or both"));
                        None
                    }
                    (Some(a), Some(c)) if a >= c => {
                        let msg = format!("`{name}` can never hold: `at_least = {a}` is not below `below = {c}` (`below` is exclusive)");
                        self.diag(Code::MalformedExpectation, span, msg);
                        None
                    }
                    _ => Some(b),
                }
            }
            _ => {
                let x = number(self, name, v)?;
                Some(Bound { span, exact: Some(x), at_least: None, below: None })
            }
        }
    }
}

/// Parses a range string: `"2"` or `"1-3"`.
fn parse_range(s: &str) -> Result<Range, String> {
    let num = |p: &str| -> Result<u32, String> {
        let p = p.trim();
        if p.is_empty() {
            return Err("a bound is missing".into());
        }
        if !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{p}` is not a whole number ≥ 0"));
        }
        p.parse::<u32>().map_err(|_| format!("`{p}` is too large"))
    };
    let (min, max) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let n = num(s)?;
            (n, n)
        }
    };
    if min > max {
        return Err(format!("the minimum {min} is greater than the maximum {max}"));
    }
    Ok(Range { min, max })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The model is kept whole for the life of a check or a language server: its lists hold
    /// exactly what they need, no room to grow (a quarter of the model was empty room before).
    #[test]
    fn the_lists_of_the_model_have_no_spare_room() {
        use crate::model::Value;
        let project = crate::project::Project::with_bundled_core();
        let mut lists = 0;
        for f in &project.files {
            let Some(facts) = crate::db::lower_source(f) else { continue };
            for e in &facts.entries {
                assert_eq!(e.fields.capacity(), e.fields.len(), "{}", f.path);
                for field in &e.fields {
                    let (len, cap) = match &field.value {
                        Value::Actions(v) => (v.len(), v.capacity()),
                        Value::Conditions(v) => (v.len(), v.capacity()),
                        Value::Modifiers(v) => (v.len(), v.capacity()),
                        Value::LootEntries(v) => (v.len(), v.capacity()),
                        Value::Triggers(v) => (v.len(), v.capacity()),
                        _ => continue,
                    };
                    assert_eq!(cap, len, "`{}` in {}", field.def.name, f.path);
                    lists += 1;
                }
            }
        }
        assert!(lists > 100, "only {lists} lists in the core");
    }

    #[test]
    fn ranges() {
        assert_eq!(parse_range("1-3"), Ok(Range { min: 1, max: 3 }));
        assert_eq!(parse_range("2"), Ok(Range { min: 2, max: 2 }));
        assert_eq!(parse_range("0-0"), Ok(Range { min: 0, max: 0 }));
        assert!(parse_range("2-").is_err());
        assert!(parse_range("3-1").is_err());
        assert!(parse_range("-1").is_err());
        assert!(parse_range("a").is_err());
        assert!(parse_range("99999999999").is_err());
    }
}
