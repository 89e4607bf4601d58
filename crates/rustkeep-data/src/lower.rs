//! Reading one data file: recoverable TOML parsing, then every registry entry walked against the
//! schema of [`crate::vocab`] into the typed model of [`crate::model`].
//!
//! Parsing never fails (architecture invariant 2): the result is whatever could be read plus the
//! diagnostics for the rest. One bad entry yields one precise diagnostic; its neighbours are still
//! read. Everything here is local to the file, so the result can be cached per file and recomputed
//! only when the file changes (the language server does).

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::diag::{toml_string, Code, Diagnostic, Loc};
use crate::model::*;
use crate::source::FileId;
use crate::suggest;
use crate::text::Span;
use crate::vocab::{self, *};

type DV<'i> = Spanned<DeValue<'i>>;

/// Everything one data file contributes.
#[derive(Clone, Debug, Default)]
pub struct FileFacts {
    pub entries: Vec<Entry>,
    pub balance: Vec<BalanceSetting>,
    pub refs: Vec<Reference>,
    /// Tags carried (`tags = [...]` of items and creatures).
    pub tag_defs: Vec<Sp<String>>,
    pub diagnostics: Vec<Diagnostic>,
    pub allows: Vec<AllowComment>,
    pub has_syntax_errors: bool,
    /// Quests named by `start_quest` anywhere in this file, gathered while lowering so that the
    /// cross-file rules need not walk every action again after each keystroke.
    pub started_quests: Vec<String>,
}

/// Parses and lowers one data file.
pub fn lower_file(file: FileId, text: &str, invalid_utf8_at: Option<usize>) -> FileFacts {
    let mut facts = FileFacts { allows: allow_comments(text), ..FileFacts::default() };
    if let Some(at) = invalid_utf8_at {
        facts.has_syntax_errors = true;
        facts.diagnostics.push(Diagnostic::new(Code::TomlSyntax, Loc { file, span: at..at + 1 }, "invalid UTF-8: TOML files must be UTF-8 encoded"));
        return facts;
    }
    let (root, errors) = parse_toml(text);
    let mut lower = Lower::new(file, text);
    for e in &errors {
        let span = e.span().unwrap_or(0..0);
        lower.diag(Code::TomlSyntax, span, e.message().trim().to_string());
    }
    for (span, msg) in scalar_errors(text, &root) {
        lower.diag(Code::TomlSyntax, span, msg);
    }
    facts.has_syntax_errors = lower.diags.iter().any(|d| d.code == Code::TomlSyntax);
    lower.document(&root);
    drop(root);
    if facts.has_syntax_errors {
        // A file that does not parse is read as far as it goes so that its definitions still
        // count, but the only diagnostics it shows are the syntax errors: the rest would be
        // guesses about what the recovery made of the broken part.
        lower.diags.retain(|d| d.code == Code::TomlSyntax);
    }
    // Kept for the whole session (and by the language server between edits): no growth slack.
    facts.entries = lower.entries;
    facts.entries.shrink_to_fit();
    facts.balance = lower.balance;
    facts.refs = lower.refs;
    facts.refs.shrink_to_fit();
    facts.tag_defs = lower.tag_defs;
    facts.tag_defs.shrink_to_fit();
    facts.diagnostics.extend(lower.diags);
    facts.started_quests = started_quests(&facts.entries);
    facts
}

/// The quests that `start_quest` actions of these entries name: in triggers (a quest's reward
/// included), `ai` rules and the registries' own action lists.
fn started_quests(entries: &[Entry]) -> Vec<String> {
    let mut out = Vec::new();
    let mut scan = |actions: &[Action]| {
        for a in actions {
            if let ActionData::StartQuest { quest } = &a.data {
                out.push(quest.value.clone());
            }
        }
    };
    for e in entries {
        for f in &e.fields {
            match &f.value {
                Value::Actions(a) => scan(a),
                Value::Triggers(ts) => ts.iter().for_each(|t| scan(&t.actions)),
                Value::Ai(rs) => rs.iter().for_each(|r| scan(&r.actions)),
                _ => {}
            }
        }
    }
    out
}

/// Recoverable TOML parsing. The `toml` crate bounds its own nesting depth, so hostile input
/// cannot overflow the stack here.
pub fn parse_toml(text: &str) -> (Spanned<DeTable<'_>>, Vec<toml::de::Error>) {
    DeTable::parse_recoverable(text)
}

/// What the parser leaves for the deserializer to refuse: integers that are not 64-bit integers
/// in their radix, floats that do not parse, and a second byte-order mark at the start.
pub fn scalar_errors(text: &str, root: &Spanned<DeTable<'_>>) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    if text.starts_with('\u{feff}') {
        out.push((0..3, "a byte-order mark may only appear once, at the very start of the file".to_string()));
    }
    let mut stack: Vec<&DV<'_>> = root.get_ref().values().collect();
    while let Some(v) = stack.pop() {
        match v.get_ref() {
            DeValue::Integer(i) if i64::from_str_radix(i.as_str(), i.radix()).is_err() => {
                out.push((v.span(), format!("`{}` is not a valid 64-bit integer", &text[v.span()])));
            }
            DeValue::Float(f) if f.as_str().parse::<f64>().is_err() => {
                out.push((v.span(), format!("`{}` is not a valid float", &text[v.span()])));
            }
            DeValue::Array(a) => stack.extend(a.iter()),
            DeValue::Table(t) => stack.extend(t.values()),
            _ => {}
        }
    }
    out
}

/// Finds `# rustkeep: allow(code, …) -- reason` comments.
pub fn allow_comments(text: &str) -> Vec<AllowComment> {
    let mut out = Vec::new();
    if !text.contains("rustkeep:") {
        return out;
    }
    for (line, raw) in text.lines().enumerate() {
        let Some(hash) = raw.find('#') else { continue };
        let comment = raw[hash + 1..].trim_start();
        let Some(rest) = comment.strip_prefix("rustkeep:") else { continue };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("allow(") else { continue };
        let Some(close) = rest.find(')') else { continue };
        let codes = rest[..close].split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect();
        out.push(AllowComment { line, codes });
    }
    out
}

/// Which code reports a value out of its range, by where the value stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Plain,
    Check,
    Action,
    Loot,
}

impl Ctx {
    fn range_code(self) -> Code {
        match self {
            Ctx::Plain | Ctx::Loot => Code::WrongType,
            Ctx::Check => Code::MalformedCondition,
            Ctx::Action => Code::MalformedAction,
        }
    }
}

pub(crate) struct Lower<'t> {
    pub(crate) file: FileId,
    text: &'t str,
    pub(crate) diags: Vec<Diagnostic>,
    entries: Vec<Entry>,
    balance: Vec<BalanceSetting>,
    refs: Vec<Reference>,
    tag_defs: Vec<Sp<String>>,
    errors: usize,
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

fn int_of(v: &DeValue<'_>) -> Option<Result<i64, ()>> {
    match v {
        DeValue::Integer(i) => Some(i64::from_str_radix(i.as_str(), i.radix()).map_err(|_| ())),
        _ => None,
    }
}

fn num_of(v: &DeValue<'_>) -> Option<f64> {
    match v {
        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok().map(|n| n as f64).or_else(|| {
            // Beyond i64: still a number, just a very large one.
            i.as_str().parse::<f64>().ok()
        }),
        DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
        _ => None,
    }
}

impl<'t> Lower<'t> {
    pub(crate) fn new(file: FileId, text: &'t str) -> Lower<'t> {
        Lower { file, text, diags: Vec::new(), entries: Vec::new(), balance: Vec::new(), refs: Vec::new(), tag_defs: Vec::new(), errors: 0 }
    }

    pub(crate) fn loc(&self, span: Span) -> Loc {
        Loc { file: self.file, span }
    }

    pub(crate) fn diag(&mut self, code: Code, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        if code.default_severity() == crate::diag::Severity::Error {
            self.errors += 1;
        }
        let d = Diagnostic::new(code, self.loc(span), message);
        self.diags.push(d);
        self.diags.last_mut().expect("just pushed")
    }

    /// SPEC §5 places `malformed-condition` / `malformed-action` on the check or action itself
    /// (its inline table or header); the value that does not fit becomes a related span.
    fn retarget(&mut self, from: usize, code: Code, table: &Span) {
        for d in &mut self.diags[from..] {
            if d.code == code && d.loc.span != *table {
                let value = d.loc.clone();
                d.loc.span = table.clone();
                d.related.insert(0, crate::diag::Related { message: "the value that does not fit".into(), loc: value });
            }
        }
    }

    fn wrong_type(&mut self, what: &str, expected: &str, v: &DV<'_>) {
        let got = type_name(v.get_ref());
        self.diag(Code::WrongType, v.span(), format!("`{what}` must be {expected}, not {got}"));
    }

    fn document(&mut self, root: &Spanned<DeTable<'_>>) {
        for (key, value) in root.get_ref().iter() {
            let name = key.get_ref().as_ref();
            if name == BALANCE_KEY {
                self.balance_table(value);
                continue;
            }
            let Some(registry) = Registry::from_key(name) else {
                let candidates = REGISTRIES.iter().map(|r| r.key).chain([BALANCE_KEY]);
                let suggestion = suggest::closest(name, candidates);
                let mut msg = format!("`{name}` is not a registry");
                if let Some(s) = suggestion {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                msg.push_str(&format!(" Registries: {}, and the table `[balance]`", suggest::list(REGISTRIES.iter().map(|r| r.key))));
                let span = key.span();
                let d = self.diag(Code::UnknownRegistry, span, msg);
                if let Some(s) = suggestion {
                    *d = d.clone().with_fix(format!("rename to `{s}`"), s);
                }
                continue;
            };
            match value.get_ref() {
                DeValue::Array(items) => {
                    for item in items.iter() {
                        match item.get_ref() {
                            DeValue::Table(t) => self.entry(registry, t, item.span()),
                            _ => self.wrong_type(name, "an array of tables", item),
                        }
                    }
                }
                DeValue::Table(_) => {
                    self.diag(Code::WrongType, key.span(), format!("`{name}` must be an array of tables: write `[[{name}]]`, not `[{name}]`"));
                }
                _ => self.wrong_type(name, "an array of tables", value),
            }
        }
    }

    fn balance_table(&mut self, value: &DV<'_>) {
        let DeValue::Table(t) = value.get_ref() else {
            self.wrong_type(BALANCE_KEY, "a table", value);
            return;
        };
        for (def, key_span, v) in self.known_fields(t, BALANCE_FIELDS, Code::UnknownField, &"`[balance]`") {
            if let Some(Value::Float(x)) = self.value(def, v, Ctx::Plain) {
                self.balance.push(BalanceSetting { key: def.name, key_span, value: x });
            }
        }
    }

    /// Splits a table into its known fields, reporting unknown keys. Returns them in source order.
    fn known_fields<'a, 'i>(
        &mut self,
        table: &'a DeTable<'i>,
        defs: &'static [FieldDef],
        code: Code,
        what: &dyn std::fmt::Display,
    ) -> Vec<(&'static FieldDef, Span, &'a DV<'i>)> {
        let mut out = Vec::with_capacity(table.len());
        for (key, value) in table.iter() {
            let name = key.get_ref().as_ref();
            match defs.iter().find(|d| d.name == name) {
                Some(def) => out.push((def, key.span(), value)),
                None => {
                    let present: Vec<&str> = table.keys().map(|k| k.get_ref().as_ref()).collect();
                    let suggestion = suggest::closest(name, defs.iter().map(|d| d.name).filter(|n| !present.contains(n)));
                    let mut msg = format!("{what} has no field `{name}`");
                    if let Some(s) = suggestion {
                        msg.push_str(&format!("; did you mean `{s}`?"));
                    }
                    msg.push_str(&format!(" Fields: {}", suggest::list(defs.iter().map(|d| d.name))));
                    let span = key.span();
                    let d = self.diag(code, span, msg);
                    if let Some(s) = suggestion {
                        *d = d.clone().with_fix(format!("rename to `{s}`"), s);
                    }
                }
            }
        }
        out
    }

    fn require(&mut self, present: &[(&'static FieldDef, Span, &DV<'_>)], defs: &'static [FieldDef], span: Span, what: &dyn std::fmt::Display, skip: &[&str]) {
        for def in defs.iter().filter(|d| d.required && !skip.contains(&d.name)) {
            if !present.iter().any(|(d, _, _)| d.name == def.name) {
                self.diag(Code::MissingField, span.clone(), format!("{what} is missing the required field `{}` ({})", def.name, def.ty.describe()));
            }
        }
    }

    fn entry(&mut self, registry: Registry, table: &DeTable<'_>, span: Span) {
        let rdef = registry.def();
        // Messages are formatted only when a diagnostic is raised: this runs for every entry.
        let present = self.known_fields(table, rdef.fields, Code::UnknownField, &format_args!("this {} (`[[{}]]`)", rdef.noun, rdef.key));
        let has_overrides = present.iter().any(|(d, _, _)| d.name == field::OVERRIDES);
        let skip: &[&str] = if has_overrides { &[field::ID] } else { &[] };
        self.require(&present, rdef.fields, span.clone(), &format_args!("this {} (`[[{}]]`)", rdef.noun, rdef.key), skip);

        let mut entry =
            Entry { registry, file: self.file, span: span.clone(), id: None, overrides: None, fields: Vec::with_capacity(present.len()), quest_trigger: None };
        let errors_before = self.errors;
        for (def, key_span, v) in present {
            match def.ty {
                FieldType::Id | FieldType::Overrides => {
                    if let Some(id) = self.id_value(def.name, v) {
                        if def.ty == FieldType::Id {
                            entry.id = Some(id);
                        } else {
                            entry.overrides = Some(id);
                        }
                    }
                }
                _ => {
                    if let Some(value) = self.value(def, v, Ctx::Plain) {
                        entry.fields.push(Field { def, key_span, span: v.span(), value });
                    }
                }
            }
        }
        if registry == Registry::Quests {
            let mut t = trigger_from_fields(span, &entry.fields);
            t.broken |= self.errors > errors_before;
            entry.quest_trigger = Some(Box::new(t));
        }
        self.entries.push(entry);
    }

    /// An `id` or `overrides` value: a string matching the ID grammar.
    fn id_value(&mut self, what: &str, v: &DV<'_>) -> Option<Sp<String>> {
        let DeValue::String(s) = v.get_ref() else {
            self.wrong_type(what, "an ID string `namespace:name`", v);
            return None;
        };
        if !vocab::is_valid_id(s) {
            self.invalid_id(s, v.span(), "ID");
            return None;
        }
        Some(Sp::new(v.span(), s.to_string()))
    }

    fn invalid_id(&mut self, s: &str, span: Span, what: &str) {
        let fixed = s.trim().to_lowercase().replace([' ', '-'], "_");
        let msg = format!("`{s}` is not a valid {what}: IDs are `namespace:name` in lower case letters, digits and `_` (`{ID_GRAMMAR}`)");
        let d = self.diag(Code::InvalidId, span, msg);
        if vocab::is_valid_id(&fixed) {
            *d = d.clone().with_fix(format!("write `{fixed}`"), toml_string(&fixed));
        }
    }

    fn reference(&mut self, kind: RefKind, context: &'static str, v: &DV<'_>) -> Option<Sp<String>> {
        let DeValue::String(s) = v.get_ref() else {
            self.wrong_type(context, &format!("a {} ID string", kind.describe()), v);
            return None;
        };
        if !vocab::is_valid_id(s) {
            self.invalid_id(s, v.span(), if kind == RefKind::Tag { "tag" } else { "ID" });
            return None;
        }
        self.refs.push(Reference { span: v.span(), id: s.to_string(), kind, context });
        Some(Sp::new(v.span(), s.to_string()))
    }

    fn string<'a>(&mut self, what: &str, v: &'a DV<'_>) -> Option<&'a str> {
        match v.get_ref() {
            DeValue::String(s) => Some(s.as_ref()),
            _ => {
                self.wrong_type(what, "a string", v);
                None
            }
        }
    }

    fn array<'a, 'i>(&mut self, what: &str, v: &'a DV<'i>) -> Option<&'a [DV<'i>]> {
        match v.get_ref() {
            DeValue::Array(a) => Some(a),
            _ => {
                self.wrong_type(what, "an array", v);
                None
            }
        }
    }

    fn tables<'a, 'i>(&mut self, what: &str, v: &'a DV<'i>) -> Vec<(&'a DeTable<'i>, Span)> {
        let Some(items) = self.array(what, v) else { return Vec::new() };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item.get_ref() {
                DeValue::Table(t) => out.push((t, item.span())),
                _ => self.wrong_type(what, "a list of tables", item),
            }
        }
        out
    }

    /// Lowers one field value by its type. `None` means it was reported.
    fn value(&mut self, def: &'static FieldDef, v: &DV<'_>, ctx: Ctx) -> Option<Value> {
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
                DeValue::Boolean(b) => Some(Value::Bool(*b)),
                _ => {
                    self.wrong_type(name, "a boolean (`true` or `false`)", v);
                    None
                }
            },
            FieldType::True => match v.get_ref() {
                DeValue::Boolean(b) => Some(Value::Bool(*b)),
                _ => {
                    self.wrong_type(name, "`true`", v);
                    None
                }
            },
            FieldType::Int { min } => match int_of(v.get_ref()) {
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
                let suggestion = suggest::closest(s, options.iter().copied());
                let msg = format!("`{s}` is not a valid `{name}`; expected {}", def.ty.describe());
                let d = self.diag(Code::WrongType, span, msg);
                if let Some(sug) = suggestion {
                    *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug));
                }
                None
            }
            FieldType::DamageType => {
                let s = self.string(name, v)?;
                if vocab::is_damage_type(s) {
                    return Some(Value::Str(s.to_string()));
                }
                self.unknown_name(Code::UnknownDamageType, "damage type", s, span, DAMAGE_TYPES.iter().map(|d| d.0), &[]);
                None
            }
            FieldType::Attribute => {
                let s = self.string(name, v)?;
                if vocab::is_attribute(s) {
                    return Some(Value::Str(s.to_string()));
                }
                self.unknown_name(Code::UnknownAttribute, "attribute", s, span, ATTRIBUTES.iter().map(|d| d.0), &[]);
                None
            }
            FieldType::Who => {
                let s = self.string(name, v)?;
                match s {
                    who::SELF | who::TARGET => Some(Value::Str(s.to_string())),
                    _ => {
                        let code = if ctx == Ctx::Action { Code::MalformedAction } else { Code::MalformedCondition };
                        let suggestion = suggest::closest(s, who::ALL.iter().copied());
                        let d = self.diag(code, span, format!("`{name}` must be `self` or `target`, not {}", toml_string(s)));
                        if let Some(sug) = suggestion {
                            *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug));
                        }
                        None
                    }
                }
            }
            FieldType::Ref(kind) => self.reference(kind, name, v).map(Value::Ref),
            FieldType::RefList(kind) => {
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
                let DeValue::Table(t) = v.get_ref() else {
                    self.wrong_type(name, "a table attribute → number", v);
                    return None;
                };
                let mut out = Vec::with_capacity(t.len());
                for (key, val) in t.iter() {
                    let attr = key.get_ref().as_ref();
                    if !vocab::is_attribute(attr) {
                        self.unknown_name(Code::UnknownAttribute, "attribute", attr, key.span(), ATTRIBUTES.iter().map(|d| d.0), &[]);
                        continue;
                    }
                    match num_of(val.get_ref()) {
                        Some(x) if x.is_finite() => out.push((Sp::new(key.span(), attr.to_string()), x)),
                        _ => self.wrong_type(attr, "a number", val),
                    }
                }
                Some(Value::Attributes(out))
            }
            FieldType::Modifiers => {
                let tables = self.tables(name, v);
                Some(Value::Modifiers(tables.into_iter().filter_map(|(t, s)| self.modifier(t, s)).collect()))
            }
            FieldType::Triggers => {
                let tables = self.tables(name, v);
                Some(Value::Triggers(tables.into_iter().map(|(t, s)| self.trigger(t, s)).collect()))
            }
            FieldType::Actions => {
                let tables = self.tables(name, v);
                Some(Value::Actions(tables.into_iter().filter_map(|(t, s)| self.action(t, s)).collect()))
            }
            FieldType::Ai => {
                let tables = self.tables(name, v);
                Some(Value::Ai(tables.into_iter().map(|(t, s)| self.ai_rule(t, s)).collect()))
            }
            FieldType::Conditions => {
                let tables = self.tables(name, v);
                Some(Value::Conditions(tables.into_iter().filter_map(|(t, s)| self.check(t, s)).collect()))
            }
            FieldType::Event => {
                let s = self.string(name, v)?;
                match Event::from_name(s) {
                    Some(e) => Some(Value::Event(e)),
                    None => {
                        self.unknown_name(Code::UnknownEvent, "event", s, span, EVENTS.iter().map(|e| e.name), EVENT_ALIASES);
                        None
                    }
                }
            }
            FieldType::When => self.when(v).map(Value::When),
            FieldType::LootEntries => {
                let tables = self.tables(name, v);
                let entries: Vec<LootEntry> = tables.into_iter().filter_map(|(t, s)| self.loot_entry(t, s)).collect();
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

    /// Reports a name that is not in a closed vocabulary, with "did you mean" and the full list.
    fn unknown_name<'a>(
        &mut self,
        code: Code,
        noun: &str,
        s: &str,
        span: Span,
        names: impl Iterator<Item = &'a str> + Clone,
        aliases: &'a [(&'a str, &'a str)],
    ) {
        let suggestion = suggest::closest_with_aliases(s, names.clone(), aliases);
        let mut msg = format!("`{s}` is not {} {noun}", if noun.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" });
        if let Some(sug) = suggestion {
            msg.push_str(&format!("; did you mean `{sug}`?"));
        }
        let plural = if noun.ends_with('s') { format!("{noun}es") } else { format!("{noun}s") };
        let plural = plural[..1].to_uppercase() + &plural[1..];
        if suggestion.is_none() {
            msg.push('.');
        }
        msg.push_str(&format!(" {plural}: {}", suggest::list(names)));
        let d = self.diag(code, span, msg);
        if let Some(sug) = suggestion {
            *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug));
        }
    }

    fn range(&mut self, name: &str, v: &DV<'_>) -> Option<Range> {
        match v.get_ref() {
            DeValue::Integer(_) => match int_of(v.get_ref()) {
                Some(Ok(n)) if (0..=u32::MAX as i64).contains(&n) => Some(Range { min: n as u32, max: n as u32 }),
                _ => {
                    self.diag(Code::InvalidRange, v.span(), format!("`{name}` must be at least 0 (and at most {})", u32::MAX));
                    None
                }
            },
            DeValue::String(s) => match parse_range(s) {
                Ok(r) => Some(r),
                Err(why) => {
                    self.diag(Code::InvalidRange, v.span(), format!("`{name}` = {} is not a valid range: {why}; write `\"2\"` or `\"1-3\"`", toml_string(s)));
                    None
                }
            },
            _ => {
                self.wrong_type(name, "a range: an integer or a string like \"1-3\"", v);
                None
            }
        }
    }

    fn grid(&mut self, s: &str, span: Span) -> Option<Grid> {
        // Map decoded characters back to the source where the literal has no escapes, so that a
        // bad glyph can be pointed at exactly.
        let raw = &self.text[span.clone()];
        let body_offset = literal_body_offset(raw, s).map(|o| span.start + o);
        let lines: Vec<(usize, &str)> = {
            let mut offs = Vec::new();
            let mut pos = 0;
            for line in s.split('\n') {
                offs.push((pos, line.strip_suffix('\r').unwrap_or(line)));
                pos += line.len() + 1;
            }
            offs
        };
        let first = lines.iter().position(|(_, l)| !l.trim().is_empty());
        let last = lines.iter().rposition(|(_, l)| !l.trim().is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            self.diag(Code::InvalidPrefabGrid, span, "the grid is empty: write at least one row of glyphs");
            return None;
        };
        let rows = &lines[first..=last];
        let width = rows[0].1.chars().count();
        let mut ok = true;
        for (i, (off, row)) in rows.iter().enumerate() {
            for (ci, ch) in row.char_indices() {
                if !GRID_GLYPHS.iter().any(|(g, _)| *g == ch) {
                    let glyphs = GRID_GLYPHS.iter().map(|(g, n)| format!("`{g}` {n}")).collect::<Vec<_>>().join(", ");
                    let shown = if ch == ' ' { "a space".to_string() } else { format!("`{}`", ch.escape_debug()) };
                    let msg = format!("row {} of the grid has {shown}, which is not a glyph. Glyphs: {glyphs}", i + 1);
                    let at = body_offset.map(|b| b + off + ci..b + off + ci + ch.len_utf8());
                    let d = self.diag(Code::InvalidPrefabGrid, span.clone(), msg);
                    if let Some(at) = at {
                        let loc = Loc { file: d.loc.file, span: at };
                        *d = d.clone().with_related(loc, "the unknown glyph");
                    }
                    ok = false;
                    break;
                }
            }
            let w = row.chars().count();
            if w != width {
                let msg = format!("row {} of the grid is {w} glyphs wide, but the first row is {width}: rows must have equal width", i + 1);
                let at = body_offset.map(|b| b + off..b + off + row.len());
                let d = self.diag(Code::InvalidPrefabGrid, span.clone(), msg);
                if let Some(at) = at {
                    let loc = Loc { file: d.loc.file, span: at };
                    *d = d.clone().with_related(loc, "the ragged row");
                }
                ok = false;
            }
        }
        ok.then(|| Grid { rows: rows.iter().map(|(_, r)| r.to_string()).collect() })
    }

    fn modifier(&mut self, table: &DeTable<'_>, span: Span) -> Option<Modifier> {
        let present = self.known_fields(table, MODIFIER_FIELDS, Code::UnknownField, &"a modifier");
        self.require(&present, MODIFIER_FIELDS, span.clone(), &"this modifier", &[]);
        let before = self.errors;
        let has_add = present.iter().any(|(d, _, _)| d.name == field::ADD);
        let has_mul = present.iter().any(|(d, _, _)| d.name == field::MULTIPLY);
        if !has_add && !has_mul {
            self.diag(Code::MissingField, span.clone(), "this modifier needs one of `add` or `multiply`");
        } else if has_add && has_mul {
            let key = present.iter().find(|(d, _, _)| d.name == field::MULTIPLY).map(|p| p.1.clone()).unwrap_or(span.clone());
            self.diag(Code::WrongType, key, "a modifier takes exactly one of `add` or `multiply`: split it into two modifiers");
        }
        let mut attribute = None;
        let mut op = None;
        let mut condition = Vec::new();
        for (def, _, v) in present {
            match (def.name, self.value(def, v, Ctx::Plain)) {
                (field::ATTRIBUTE, Some(Value::Str(s))) => attribute = Some(s),
                (field::ADD, Some(Value::Float(x))) => op = Some(ModOp::Add(x)),
                (field::MULTIPLY, Some(Value::Float(x))) => op = Some(ModOp::Multiply(x)),
                (field::CONDITION, Some(Value::Conditions(c))) => condition = c,
                _ => {}
            }
        }
        if self.errors > before {
            return None;
        }
        Some(Modifier { span, attribute: attribute?, op: op?, condition })
    }

    fn trigger(&mut self, table: &DeTable<'_>, span: Span) -> Trigger {
        let before = self.errors;
        let present = self.known_fields(table, TRIGGER_FIELDS, Code::UnknownField, &"a trigger");
        self.require(&present, TRIGGER_FIELDS, span.clone(), &"this trigger", &[]);
        let mut fields = Vec::new();
        for (def, key_span, v) in present {
            if let Some(value) = self.value(def, v, Ctx::Plain) {
                fields.push(Field { def, key_span, span: v.span(), value });
            }
        }
        let mut t = trigger_from_fields(span, &fields);
        t.broken |= self.errors > before;
        t
    }

    fn ai_rule(&mut self, table: &DeTable<'_>, span: Span) -> AiRule {
        let before = self.errors;
        let present = self.known_fields(table, AI_FIELDS, Code::UnknownField, &"an `ai` rule");
        let mut rule = AiRule { span, condition: Vec::new(), actions: Vec::new(), broken: false };
        for (def, _, v) in present {
            match self.value(def, v, Ctx::Plain) {
                Some(Value::Conditions(c)) => rule.condition = c,
                Some(Value::Actions(a)) => rule.actions = a,
                _ => {}
            }
        }
        rule.broken = self.errors > before;
        rule
    }

    fn when(&mut self, v: &DV<'_>) -> Option<Vec<When>> {
        let DeValue::Table(t) = v.get_ref() else {
            self.wrong_type(field::WHEN, "a table of event filters, e.g. `{ damage_type = \"fire\" }`", v);
            return None;
        };
        let mut out = Vec::new();
        for (key, val) in t.iter() {
            let name = key.get_ref().as_ref();
            let Some(field) = WhenField::from_name(name) else {
                let suggestion = suggest::closest(name, WHEN_FIELDS.iter().map(|w| w.name));
                let mut msg = format!("`{name}` is not a `when` field of any event");
                if let Some(s) = suggestion {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                if suggestion.is_none() {
                    msg.push('.');
                }
                msg.push_str(&format!(" `when` fields: {}", suggest::list(WHEN_FIELDS.iter().map(|w| w.name))));
                let d = self.diag(Code::UnknownWhenField, key.span(), msg);
                if let Some(s) = suggestion {
                    *d = d.clone().with_fix(format!("rename to `{s}`"), s);
                }
                continue;
            };
            let Some(s) = self.string(name, val) else { continue };
            let ok = match field.def().value {
                WhenValue::DamageType => {
                    if vocab::is_damage_type(s) {
                        true
                    } else {
                        self.unknown_name(Code::UnknownDamageType, "damage type", s, val.span(), DAMAGE_TYPES.iter().map(|d| d.0), &[]);
                        false
                    }
                }
                WhenValue::Outcome => {
                    if OUTCOMES.contains(&s) {
                        true
                    } else {
                        let msg = format!("`{name}` must be `{}` or `{}`, not {}", outcome::VICTORY, outcome::FLED, toml_string(s));
                        let d = self.diag(Code::WrongType, val.span(), msg);
                        if let Some(sug) = suggest::closest(s, OUTCOMES.iter().copied()) {
                            *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug));
                        }
                        false
                    }
                }
                WhenValue::Id(r) => self.reference(RefKind::Registry(r), field.name(), val).is_some(),
            };
            if ok {
                out.push(When { field, key_span: key.span(), value: Sp::new(val.span(), s.to_string()) });
            }
        }
        Some(out)
    }

    /// The discriminator of a check or action: its name, or `None` if reported.
    fn discriminator<'a>(&mut self, table: &'a DeTable<'_>, key: &str, span: Span, what: &str) -> Option<(&'a str, Span)> {
        let Some((_, v)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == key) else {
            self.diag(Code::MissingField, span, format!("this {what} has no `{key}`: say which {what} it is"));
            return None;
        };
        match v.get_ref() {
            DeValue::String(s) => Some((s.as_ref(), v.span())),
            _ => {
                self.wrong_type(key, "a string", v);
                None
            }
        }
    }

    fn check(&mut self, table: &DeTable<'_>, span: Span) -> Option<Check> {
        let (name, name_span) = self.discriminator(table, field::CHECK, span.clone(), "check")?;
        let Some(kind) = CheckKind::from_name(name) else {
            self.unknown_name(Code::UnknownCheck, "check", name, name_span, CHECKS.iter().map(|c| c.name), CHECK_ALIASES);
            return None;
        };
        let cdef = kind.def();
        let before = self.errors;
        let first_diag = self.diags.len();
        let defs = check_fields(kind);
        let present = self.known_fields(table, defs, Code::UnknownField, &format_args!("the check `{}`", cdef.name));
        self.require(&present, defs, span.clone(), &format_args!("this `{}` check", cdef.name), &[]);
        let mut who = None;
        let mut who_span = span.clone();
        let mut not = false;
        let mut tag = None;
        let mut attribute = None;
        let mut at_least = None;
        let mut below = None;
        let mut item = None;
        let mut count = 1u32;
        let mut fraction = None;
        for (def, _, v) in &present {
            let value = self.value(def, v, Ctx::Check);
            match (def.name, value) {
                (field::WHO, Some(Value::Str(s))) => {
                    who = Some(if s == who::SELF { Who::SelfBearer } else { Who::Target });
                    who_span = v.span();
                }
                (field::NOT, Some(Value::Bool(b))) => not = b,
                (field::VALUE, Some(Value::Ref(r))) => tag = Some(r),
                (field::VALUE, Some(Value::Float(x))) => fraction = Some(x),
                (field::ATTRIBUTE, Some(Value::Str(s))) => attribute = Some(s),
                (field::AT_LEAST, Some(Value::Float(x))) => at_least = Some(x),
                (field::BELOW, Some(Value::Float(x))) => below = Some(x),
                (field::ITEM, Some(Value::Ref(r))) => item = Some(r),
                (field::COUNT, Some(Value::Int(n))) => count = n.min(u32::MAX as i64) as u32,
                _ => {}
            }
        }
        if kind == CheckKind::Attribute {
            let has = |n: &str| present.iter().any(|(d, _, _)| d.name == n);
            if !has(field::AT_LEAST) && !has(field::BELOW) {
                self.diag(Code::MalformedCondition, span.clone(), "an `attribute` check needs `at_least`, `below` or both");
            } else if let (Some(a), Some(b)) = (at_least, below) {
                if a >= b {
                    self.diag(Code::MalformedCondition, span.clone(), format!("`at_least` ({a}) must be below `below` ({b}): no value can satisfy both"));
                }
            }
        }
        self.retarget(first_diag, Code::MalformedCondition, &span);
        if self.errors > before {
            return None;
        }
        let data = match kind {
            CheckKind::HasTag => CheckData::HasTag { tag: tag? },
            CheckKind::Attribute => CheckData::Attribute { attribute: attribute?, at_least, below },
            CheckKind::HasItem => CheckData::HasItem { item: item?, count },
            CheckKind::HealthBelow => CheckData::HealthBelow { value: fraction? },
        };
        Some(Check { span, kind, who: who?, who_span, not, data })
    }

    fn action(&mut self, table: &DeTable<'_>, span: Span) -> Option<Action> {
        let (name, name_span) = self.discriminator(table, field::ACTION, span.clone(), "action")?;
        let Some(kind) = ActionKind::from_name(name) else {
            self.unknown_name(Code::UnknownAction, "action", name, name_span, ACTIONS.iter().map(|a| a.name), ACTION_ALIASES);
            return None;
        };
        let adef = kind.def();
        let before = self.errors;
        let first_diag = self.diags.len();
        let defs = action_fields(kind);
        let present = self.known_fields(table, defs, Code::UnknownField, &format_args!("the action `{}`", adef.name));
        self.require(&present, defs, span.clone(), &format_args!("this `{}` action", adef.name), &[]);
        let mut target = None;
        let mut target_span = None;
        let mut amount = 0u32;
        let mut count = 1u32;
        let mut turns = None;
        let mut damage_type = None;
        let mut id = None;
        for (def, _, v) in &present {
            let value = self.value(def, v, Ctx::Action);
            match (def.name, value) {
                (field::TARGET, Some(Value::Str(s))) => {
                    target = Some(if s == who::SELF { Who::SelfBearer } else { Who::Target });
                    target_span = Some(v.span());
                }
                (field::AMOUNT, Some(Value::Int(n))) => amount = n.min(u32::MAX as i64) as u32,
                (field::COUNT, Some(Value::Int(n))) => count = n.min(u32::MAX as i64) as u32,
                (field::TURNS, Some(Value::Int(n))) => turns = Some(n.min(u32::MAX as i64) as u32),
                (field::DAMAGE_TYPE, Some(Value::Str(s))) => damage_type = Some(s),
                (_, Some(Value::Ref(r))) => id = Some(r),
                _ => {}
            }
        }
        self.retarget(first_diag, Code::MalformedAction, &span);
        if self.errors > before {
            return None;
        }
        let data = match kind {
            ActionKind::Damage => ActionData::Damage { amount, damage_type: damage_type?, target: target? },
            ActionKind::Heal => ActionData::Heal { amount, target: target? },
            ActionKind::GiveItem => ActionData::GiveItem { item: id?, count, target: target? },
            ActionKind::TakeItem => ActionData::TakeItem { item: id?, count, target: target? },
            ActionKind::ApplyStatus => ActionData::ApplyStatus { status: id?, turns, target: target? },
            ActionKind::Spawn => ActionData::Spawn { creature: id?, count },
            ActionKind::StartQuest => ActionData::StartQuest { quest: id? },
            ActionKind::Flee => ActionData::Flee,
            ActionKind::OpenShop => ActionData::OpenShop { shop: id? },
        };
        Some(Action { span, kind, target_span, data })
    }

    fn loot_entry(&mut self, table: &DeTable<'_>, span: Span) -> Option<LootEntry> {
        let before = self.errors;
        let present = self.known_fields(table, LOOT_ENTRY_FIELDS, Code::UnknownField, &"a loot entry");
        let mut kinds: Vec<(&str, LootKind)> = Vec::new();
        let mut weight: Option<u64> = None;
        let mut weight_span = None;
        let mut guaranteed = false;
        let mut count = None;
        let mut count_span = None;
        let mut affixes = None;
        let mut affixes_span = None;
        let mut kind_values_ok = true;
        for (def, key_span, v) in &present {
            let value = self.value(def, v, Ctx::Loot);
            match (def.name, value) {
                (field::ITEM, Some(Value::Ref(r))) => kinds.push((field::ITEM, LootKind::Item(r))),
                (field::TABLE, Some(Value::Ref(r))) => kinds.push((field::TABLE, LootKind::Table(r))),
                (field::AFFIX, Some(Value::Ref(r))) => kinds.push((field::AFFIX, LootKind::Affix(r))),
                (field::NOTHING, Some(Value::Bool(true))) => kinds.push((field::NOTHING, LootKind::Nothing)),
                (field::NOTHING, Some(Value::Bool(false))) => {}
                (field::ITEM | field::TABLE | field::AFFIX | field::NOTHING, None) => kind_values_ok = false,
                (field::WEIGHT, Some(Value::Int(n))) => {
                    weight = Some(n as u64);
                    weight_span = Some(v.span());
                }
                (field::WEIGHT, None) => weight_span = Some(v.span()),
                (field::GUARANTEED, Some(Value::Bool(b))) => guaranteed = b,
                (field::COUNT, Some(Value::Range(r))) => {
                    count = Some(r);
                    count_span = Some(key_span.clone());
                }
                (field::AFFIXES, Some(Value::Ref(r))) => {
                    affixes_span = Some(key_span.clone());
                    affixes = Some(r);
                }
                _ => {}
            }
        }
        if kind_values_ok && kinds.len() != 1 {
            let msg = if kinds.is_empty() {
                "this loot entry says neither what it gives nor that it is a blank: give exactly one of `item`, `table`, `affix` or `nothing = true`"
                    .to_string()
            } else {
                format!("this loot entry has {}: give exactly one of `item`, `table`, `affix` or `nothing = true`", suggest::list(kinds.iter().map(|k| k.0)))
            };
            self.diag(Code::AmbiguousEntry, span.clone(), msg);
        }
        let kind = if kinds.len() == 1 { kinds.pop().map(|k| k.1) } else { None };
        let is_item = matches!(kind, Some(LootKind::Item(_)));
        if kind.is_some() && !is_item {
            if let Some(s) = count_span {
                self.diag(Code::UnknownField, s, "`count` applies to `item` entries only");
            }
            if let Some(s) = affixes_span {
                self.diag(Code::UnknownField, s, "`affixes` applies to `item` entries only");
            }
        }
        if guaranteed {
            if let Some(s) = weight_span.clone() {
                self.diag(Code::InvalidWeight, s, "a guaranteed entry takes no `weight`: it is always given once, outside the weighted draw");
            }
            if matches!(kind, Some(LootKind::Nothing)) {
                self.diag(Code::InvalidWeight, span.clone(), "a `nothing` entry cannot be guaranteed: give it a `weight` or remove it");
            }
        } else if weight_span.is_none() && kind.is_some() {
            self.diag(Code::InvalidWeight, span.clone(), "this weighted entry has no `weight`: add `weight = 1` (or more), or `guaranteed = true`");
        }
        if self.errors > before {
            return None;
        }
        Some(LootEntry { span, kind: kind?, weight: if guaranteed { None } else { weight }, guaranteed, count: count.unwrap_or(Range::ONE), affixes })
    }
}

/// Assembles a trigger from lowered trigger fields (a trigger table or a quest's flattened fields).
fn trigger_from_fields(span: Span, fields: &[Field]) -> Trigger {
    let mut t = Trigger { span, on: None, when: Vec::new(), condition: Vec::new(), chance: 1.0, actions: Vec::new(), broken: false };
    for f in fields {
        match (&f.value, f.def.name) {
            (Value::Event(e), _) => t.on = Some(Sp::new(f.span.clone(), *e)),
            (Value::When(w), _) => t.when = w.clone(),
            (Value::Conditions(c), _) => t.condition = c.clone(),
            (Value::Float(x), field::CHANCE) => t.chance = *x,
            (Value::Actions(a), field::ACTIONS) => t.actions = a.clone(),
            _ => {}
        }
    }
    t.broken = t.on.is_none();
    t
}

/// Every field a check takes, `check` and `not` included.
pub fn check_fields(kind: CheckKind) -> &'static [FieldDef] {
    use std::sync::OnceLock;
    static CACHE: OnceLock<Vec<Vec<FieldDef>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| CHECKS.iter().map(|c| [CHECK_FIELD].iter().chain(c.fields).chain([&NOT_FIELD]).copied().collect()).collect());
    let i = CHECKS.iter().position(|c| c.kind == kind).expect("check row");
    &all[i]
}

/// Every field an action takes, `action` included.
pub fn action_fields(kind: ActionKind) -> &'static [FieldDef] {
    use std::sync::OnceLock;
    static CACHE: OnceLock<Vec<Vec<FieldDef>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| ACTIONS.iter().map(|a| [ACTION_FIELD].iter().chain(a.fields).copied().collect()).collect());
    let i = ACTIONS.iter().position(|a| a.kind == kind).expect("action row");
    &all[i]
}

/// Parses a range string: `"2"` or `"1-3"`.
pub fn parse_range(s: &str) -> Result<Range, String> {
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

/// Offset of the decoded string's first byte inside the raw literal, when the literal holds the
/// decoded text verbatim (no escapes), so decoded offsets map to source offsets one to one.
fn literal_body_offset(raw: &str, decoded: &str) -> Option<usize> {
    // `raw` is whatever the parser's span covered; in a broken file that need not be a string
    // literal at all (found by the `data_file` fuzz target: `grid = ك …` sliced inside `ك`).
    let delim = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else if raw.starts_with('"') || raw.starts_with('\'') {
        1
    } else {
        return None;
    };
    if raw.len() < 2 * delim {
        return None;
    }
    let mut start = delim;
    let body = raw.get(delim..raw.len() - delim)?;
    let mut body_trim = body;
    if delim == 3 {
        if let Some(b) = body.strip_prefix("\r\n") {
            body_trim = b;
            start += 2;
        } else if let Some(b) = body.strip_prefix('\n') {
            body_trim = b;
            start += 1;
        }
    }
    (body_trim == decoded).then_some(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_body_offset_tolerates_what_is_no_literal() {
        assert_eq!(literal_body_offset("\"ab\"", "ab"), Some(1));
        assert_eq!(literal_body_offset("\"\"\"\nab\"\"\"", "ab"), Some(4));
        // Found by the `data_file` fuzz target: a span that is no string literal, starting with a
        // two-byte character.
        assert_eq!(literal_body_offset("ك string was opened\".", "x"), None);
        assert_eq!(literal_body_offset("\"ك", "x"), None);
        assert_eq!(literal_body_offset("\"\u{feff}", "x"), None);
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

    #[test]
    fn allow_comments_are_found() {
        let a = allow_comments("x = 1\n# rustkeep: allow(unknown-tag, unused-loot-table) -- set by the companion mod\n[[items]]\n");
        assert_eq!(a, vec![AllowComment { line: 1, codes: vec!["unknown-tag".into(), "unused-loot-table".into()] }]);
    }
}
