//! Reading one data file: the file read into a [`crate::tree`] (its single-pass reader, or the
//! `toml` crate's recoverable one with the syntax errors), then every registry entry walked
//! against the schema of [`crate::vocab`] into the typed model of [`crate::model`].
//!
//! Parsing never fails (docs/ARCHITECTURE.md, invariant "Parsing never fails"): the result is whatever could be read plus the
//! diagnostics for the rest. One bad entry yields one precise diagnostic; its neighbours are still
//! read. Everything here is local to the file, so the result can be cached per file and recomputed
//! only when the file changes (the language server does).
//!
//! The parts: this module walks the document, its registry arrays and entries; `value` lowers
//! one field value by its type; `trigger` triggers, `when` filters, modifiers, `ai` rules,
//! conditions and actions; `loot` loot entries; `grid` prefab grids.

use crate::tree::{self, Node, Table, Val};

use crate::diag::{toml_string, Code, Diagnostic, Loc};
use crate::model::*;
use crate::source::FileId;
use crate::suggest;
use crate::syntax;
use crate::text::Span;
use crate::vocab::{self, *};

mod document;
mod expect;
mod gathered;
mod grid;
mod loot;
mod scenario;
mod trigger;
mod value;

pub use document::Misfiled;
use trigger::trigger_from_fields;

type DV<'i> = Node<'i>;

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
    /// The parts of a file with syntax errors that could not be read (the whole file when
    /// recovery did not succeed): only the syntax error is shown there, and the rules skip it.
    pub unreadable: Vec<Span>,
    /// The IDs those parts spell: they count as used (a loot table, a quest, a tag), so that
    /// the one mistake does not make its neighbours in other files look unused.
    pub mentions: Vec<String>,
    /// Quests named by `start_quest` anywhere in this file, gathered while lowering so that the
    /// cross-file rules need not walk every action again after each keystroke.
    pub started_quests: Vec<String>,
    /// Items named by `give_item` anywhere in this file (triggers, a quest's reward, `ai` rules,
    /// the registries' own action lists): kept in outlines, which cut the actions, for the
    /// cross-file rules.
    pub given_items: Vec<String>,
    /// The `when` filters of this file's triggers (a quest's own included) that were read whole,
    /// each with the event its trigger listens to: kept in outlines, which cut the triggers, for
    /// the cross-file rules.
    pub whens: Vec<(EventKind, When)>,
    /// For a scenario file: what it says (its `refs` are the IDs it names).
    pub scenario: Option<Box<crate::scenario::Scenario>>,
    /// IDs written under a top-level key that is no registry (`[[item]]`): not defined, but a
    /// reference to one is told where it is written.
    pub misfiled: Vec<Misfiled>,
    /// For an outline (the language server's view of a file no editor shows, which keeps few
    /// fields whole): the fields cut from its entries. [`FileFacts::sets`] reads both.
    pub cut: CutFields,
}

/// The fields cut from the entries of an outline: which field each was and where its key is, all
/// that `override-drops-field` reads of a field besides its value. Flat, eight bytes a field, as
/// a large workspace has hundreds of thousands of them.
#[derive(Clone, Debug, Default)]
pub struct CutFields {
    /// Per entry, where its fields start in `fields` (one more at the end); empty when nothing
    /// was cut.
    from: Vec<u32>,
    fields: Vec<CutField>,
}

#[derive(Clone, Copy, Debug)]
struct CutField {
    key_start: u32,
    key_len: u16,
    /// The index of its row among its registry's fields.
    def: u16,
}

impl CutFields {
    /// Cuts from each entry the fields `keep` says no to.
    pub fn cut(entries: &mut [Entry], keep: impl Fn(Registry, &Field) -> bool) -> CutFields {
        let mut cut = CutFields { from: Vec::with_capacity(entries.len() + 1), fields: Vec::new() };
        // Offsets saturate at 4 GiB, as the line index's do.
        let narrow = |o: usize| u32::try_from(o).unwrap_or(u32::MAX);
        for e in entries.iter_mut() {
            cut.from.push(narrow(cut.fields.len()));
            let rows = e.registry.def().fields;
            let registry = e.registry;
            for f in e.fields.iter().filter(|f| !keep(registry, f)) {
                let Some(def) = rows.iter().position(|r| std::ptr::eq(r, f.def)).and_then(|i| u16::try_from(i).ok()) else { continue };
                let key_len = u16::try_from(f.key_span.len()).unwrap_or(u16::MAX);
                cut.fields.push(CutField { key_start: narrow(f.key_span.start), key_len, def });
            }
            e.fields.retain(|f| keep(registry, f));
            e.fields.shrink_to_fit();
        }
        cut.from.push(narrow(cut.fields.len()));
        cut.fields.shrink_to_fit();
        cut
    }

    /// The fields cut from the entry at `index` of a registry, by definition and key span.
    fn of(&self, registry: Registry, index: usize) -> impl Iterator<Item = (&'static FieldDef, Span)> + '_ {
        let range = match (self.from.get(index), self.from.get(index + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        };
        let rows = registry.def().fields;
        self.fields[range].iter().filter_map(move |c| {
            let start = c.key_start as usize;
            Some((rows.get(c.def as usize)?, start..start + c.key_len as usize))
        })
    }
}

impl FileFacts {
    /// The fields the entry at `index` sets, by definition and key span: its fields, and for an
    /// outline also those cut from it.
    pub fn sets(&self, index: usize) -> impl Iterator<Item = (&'static FieldDef, Span)> + '_ {
        let e = &self.entries[index];
        e.fields.iter().map(|f| (f.def, f.key_span.clone())).chain(self.cut.of(e.registry, index))
    }
}

/// The fields a table has that its definitions know: each definition, where its key is, its value.
type Present<'a, 'i> = Vec<(&'static FieldDef, Span, &'a DV<'i>)>;

/// A file's facts so far, with its lowering and its syntax tree when it could be read.
type Started<'t> = (FileFacts, Option<(Lower<'t>, tree::Read<'t>)>);

/// The start of lowering a data file (`data`) or a scenario file: the text read, its syntax errors
/// reported and its allow comments taken; `None` beside the facts of a file that is not read
/// further.
///
/// A file that is not UTF-8 is read with each bad byte decoded as U+FFFD, and the section of each
/// bad byte is unreadable, as a syntax error's is ([`tree::read_not_utf8`]): one `toml-syntax`
/// error at the byte, the rest of the file read as usual.
fn start(file: FileId, text: &str, invalid_utf8_at: Option<usize>, data: bool) -> Started<'_> {
    let mut facts = FileFacts::default();
    let read = if invalid_utf8_at.is_some() { tree::read_not_utf8(text) } else { tree::read(text) };
    facts.allows = allow_comments(text);
    let mut lower = Lower::new(file, text);
    facts.unreadable = lower.syntax_errors(&read, data);
    facts.has_syntax_errors = !read.errors.is_empty();
    (facts, Some((lower, read)))
}

/// Parses and lowers one data file.
pub fn lower_file(file: FileId, text: &str, invalid_utf8_at: Option<usize>) -> FileFacts {
    let (mut facts, started) = start(file, text, invalid_utf8_at, true);
    let Some((mut lower, read)) = started else { return facts };
    lower.document(&read.root);
    lower.unreadable_entries(&read.unreadable);
    let mentions: Vec<String> = read.unreadable.iter().flat_map(|u| u.mentions.iter().cloned()).collect();
    drop(read);
    // What the reader made of the unreadable parts would be guesses: only the syntax errors show
    // there. The rest of the file is checked as usual.
    lower.diags.retain(|d| d.code == Code::TomlSyntax || !within(&facts.unreadable, &d.loc.span));
    // Kept for the whole session (and by the language server between edits): no growth slack.
    facts.entries = lower.entries;
    facts.entries.shrink_to_fit();
    facts.balance = lower.balance;
    facts.refs = lower.refs;
    facts.refs.shrink_to_fit();
    facts.tag_defs = lower.tag_defs;
    facts.tag_defs.shrink_to_fit();
    facts.diagnostics.extend(lower.diags);
    (facts.started_quests, facts.given_items) = gathered::started_and_given(&facts.entries);
    facts.started_quests.append(&mut lower.broken_started);
    facts.given_items.append(&mut lower.broken_given);
    facts.whens = gathered::whens(&facts.entries);
    facts.misfiled = lower.misfiled;
    if !mentions.is_empty() {
        // A quest the unreadable part may start, a tag it may carry: not reported elsewhere.
        facts.started_quests.extend(mentions.iter().cloned());
        facts.tag_defs.extend(mentions.iter().map(|m| Sp { value: m.clone(), span: 0..0 }));
        facts.mentions = mentions;
    }
    facts
}

/// Parses and lowers one scenario file: the same diagnostics as a data file, for the scenario's
/// keys (docs/engine.md, "Scenarios"). The IDs it names are its `refs`; they are checked against
/// the mods the scenario loads, which lowering does not know (`scenario::check`).
pub fn lower_scenario(file: FileId, text: &str, invalid_utf8_at: Option<usize>) -> FileFacts {
    let (mut facts, started) = start(file, text, invalid_utf8_at, false);
    let Some((mut lower, read)) = started else {
        facts.scenario = Some(Box::new(crate::scenario::Scenario { broken: true, ..Default::default() }));
        return facts;
    };
    let mut sc = lower.scenario(&read.root);
    drop(read);
    if facts.has_syntax_errors {
        // A scenario with a part missing is not run, but the parts that read are checked.
        lower.diags.retain(|d| d.code == Code::TomlSyntax || !within(&facts.unreadable, &d.loc.span));
        sc.broken = true;
    }
    facts.refs = lower.refs;
    facts.diagnostics.extend(lower.diags);
    facts.scenario = Some(Box::new(sc));
    facts
}

/// Whether `span` starts inside one of the `regions`.
pub fn within(regions: &[Span], span: &Span) -> bool {
    regions.iter().any(|r| r.contains(&span.start) || (r.start == span.start && r.is_empty()))
}

/// Finds `# rustkeep: allow(code, …) -- reason` comments, with the span of each code, in `text`.
///
/// The comments are those of the one reader ([`crate::syntax::comments`]): a `#` inside a string
/// or a quoted key, single-line or multi-line, is part of that string, in a text with mistakes
/// too.
pub fn allow_comments(text: &str) -> Vec<AllowComment> {
    let mut out = Vec::new();
    if !text.contains("rustkeep:") {
        return out;
    }
    let lines = crate::text::LineIndex::new(text);
    for span in syntax::comments(text) {
        let raw = text[span.clone()].trim_end_matches(['\n', '\r']);
        let comment = raw[1..].trim_start();
        let Some(rest) = comment.strip_prefix("rustkeep:") else { continue };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("allow(") else { continue };
        let Some(close) = rest.find(')') else { continue };
        // Offsets are recovered from the slices, which all point into `raw`.
        let list_at = span.start + (rest.as_ptr() as usize - raw.as_ptr() as usize);
        let mut codes = Vec::new();
        let mut code_spans = Vec::new();
        let mut at = 0;
        for part in rest[..close].split(',') {
            let lead = part.len() - part.trim_start().len();
            let code = part.trim();
            if !code.is_empty() {
                codes.push(code.to_string());
                code_spans.push(list_at + at + lead..list_at + at + lead + code.len());
            }
            at += part.len() + 1;
        }
        let line = lines.line_of(span.start);
        out.push(AllowComment { line, codes, code_spans, span: span.start..span.start + raw.len() });
    }
    out
}

/// Which code reports a value out of its range, by where the value stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Plain,
    Condition,
    Action,
    Loot,
}

impl Ctx {
    fn range_code(self) -> Code {
        match self {
            Ctx::Plain | Ctx::Loot => Code::WrongType,
            Ctx::Condition => Code::MalformedCondition,
            Ctx::Action => Code::MalformedAction,
        }
    }
}

struct Lower<'t> {
    file: FileId,
    text: &'t str,
    diags: Vec<Diagnostic>,
    entries: Vec<Entry>,
    balance: Vec<BalanceSetting>,
    refs: Vec<Reference>,
    tag_defs: Vec<Sp<String>>,
    misfiled: Vec<Misfiled>,
    /// The quests started and the items given by actions and loot entries left out for a mistake
    /// of their own: reported there, they still count as started and given, so that nothing is
    /// called never started or never obtainable for it (one mistake, one diagnostic).
    broken_started: Vec<String>,
    broken_given: Vec<String>,
    errors: usize,
}

fn type_name(v: &Val<'_>) -> &'static str {
    match v {
        Val::String(_) => "a string",
        Val::Integer(_) => "an integer",
        Val::Float(_) => "a float",
        Val::Boolean(_) => "a boolean",
        Val::Datetime(_) => "a date-time",
        Val::Array(_) => "an array",
        Val::Table(_) => "a table",
    }
}

fn int_of(v: &Val<'_>) -> Option<Result<i64, ()>> {
    match v {
        Val::Integer(i) => Some(i.value.ok_or(())),
        _ => None,
    }
}

fn num_of(v: &Val<'_>) -> Option<f64> {
    match v {
        Val::Integer(i) => i.approx,
        Val::Float(f) => *f,
        _ => None,
    }
}

impl<'t> Lower<'t> {
    fn new(file: FileId, text: &'t str) -> Lower<'t> {
        Lower {
            file,
            text,
            diags: Vec::new(),
            entries: Vec::new(),
            balance: Vec::new(),
            refs: Vec::new(),
            tag_defs: Vec::new(),
            misfiled: Vec::new(),
            broken_started: Vec::new(),
            broken_given: Vec::new(),
            errors: 0,
        }
    }

    fn loc(&self, span: Span) -> Loc {
        Loc { file: self.file, span }
    }

    fn diag(&mut self, code: Code, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        if code.default_severity() == crate::diag::Severity::Error {
            self.errors += 1;
        }
        let d = Diagnostic::new(code, self.loc(span), message);
        self.diags.push(d);
        self.diags.last_mut().expect("just pushed")
    }

    /// `malformed-condition` / `malformed-action` sit on the check or action itself
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

    /// Reports the reader's syntax errors; returns the parts of the text that could not be read.
    ///
    /// A `[items]` header in a data file that writes `[[items]]` elsewhere was read as the entry
    /// it was meant to be: it is the mistake of a registry written as one table, reported as
    /// such (`wrong-type`, with the safe fix to `[[items]]`), and leaves nothing unread.
    fn syntax_errors(&mut self, read: &tree::Read<'_>, data: bool) -> Vec<Span> {
        for e in &read.errors {
            let loc = self.loc(e.span.clone());
            let registry = e.meant.as_ref().filter(|_| data).and_then(|_| Registry::from_key(&self.text[e.span.clone()]));
            if let (Some(registry), Some((header, fixed))) = (registry, &e.meant) {
                let (name, written) = (registry.key(), &self.text[header.clone()]);
                let msg = format!("`{name}` must be an array of tables, as the `{fixed}` headers of this file write it: write `{fixed}`, not `{written}`");
                let d = self.diag(Code::WrongType, header.clone(), msg);
                *d = d.clone().with_fix(format!("write `{fixed}`"), fixed.clone(), crate::diag::Applicability::Safe);
                d.related.extend(e.related_in(loc.file));
                continue;
            }
            let d = self.diag(Code::TomlSyntax, e.span.clone(), e.message.clone());
            d.related.extend(e.related_in(loc.file));
        }
        if read.errors.iter().all(|e| e.meant.is_some()) {
            // Nothing, or only headers read as they were meant.
            Vec::new()
        } else if read.unreadable.is_empty() {
            // Recovery did not succeed: nothing of the file is sure.
            std::iter::once(0..self.text.len()).collect()
        } else {
            read.unreadable.iter().map(|u| u.span.clone()).collect()
        }
    }

    /// The entries of the parts that could not be read still define the IDs they spell, so that
    /// references to them elsewhere are not reported: the entry made by a header that still
    /// reads gets the ID, and for a header that does not, an entry of its own is made.
    fn unreadable_entries(&mut self, unreadable: &[tree::recover::Unreadable]) {
        for u in unreadable {
            for (key, id, span) in &u.inline {
                if let Some(registry) = Registry::from_key(key).filter(|_| vocab::is_valid_id(id)) {
                    let id = Some(Sp { value: id.clone(), span: span.clone() });
                    self.entries.push(Entry { registry, file: self.file, span: span.clone(), id, overrides: None, fields: Vec::new(), quest_trigger: None });
                }
            }
            let Some((key, header, kept)) = &u.header else { continue };
            let Some(registry) = Registry::from_key(key) else { continue };
            let spelt =
                |s: &Option<(String, Span)>| s.as_ref().filter(|(id, _)| vocab::is_valid_id(id)).map(|(id, span)| Sp { value: id.clone(), span: span.clone() });
            let (id, overrides) = (spelt(&u.id), spelt(&u.overrides));
            if id.is_none() && overrides.is_none() {
                continue;
            }
            if *kept {
                if let Some(e) = self.entries.iter_mut().rev().find(|e| e.span.start == header.start) {
                    e.id = e.id.take().or(id);
                    e.overrides = e.overrides.take().or(overrides);
                    continue;
                }
            }
            self.entries.push(Entry { registry, file: self.file, span: header.clone(), id, overrides, fields: Vec::new(), quest_trigger: None });
        }
    }

    fn wrong_type(&mut self, what: &str, expected: &str, v: &DV<'_>) {
        // A float that is no number (`nan`, `inf`) is named as written: "not a float" would read
        // as a contradiction.
        let written;
        let got = match v.get_ref() {
            Val::Float(f) if !f.is_some_and(f64::is_finite) => {
                written = format!("`{}`", self.text.get(v.span()).unwrap_or("nan").trim());
                written.as_str()
            }
            other => type_name(other),
        };
        self.diag(Code::WrongType, v.span(), format!("`{what}` must be {expected}, not {got}"));
    }

    /// Splits a table into its known fields, reporting unknown keys. Returns them in source order.
    fn known_fields<'a, 'i>(&mut self, table: &'a Table<'i>, defs: &'static [FieldDef], code: Code, what: &dyn std::fmt::Display) -> Present<'a, 'i> {
        let mut out = Vec::with_capacity(table.len());
        for (key, value) in table.iter() {
            let name = key.get_ref().as_ref();
            match defs.iter().find(|d| d.name == name) {
                Some(def) => out.push((def, key.span(), value)),
                None => {
                    let present: Vec<&str> = table.keys().map(|k| k.get_ref().as_ref()).collect();
                    let suggestion = suggest::closest(name, defs.iter().map(|d| d.name).filter(|n| !present.contains(n)));
                    let safety = suggestion.map(|s| suggest::judge(name, s, defs.iter().map(|d| d.name)));
                    let mut msg = format!("{what} has no field `{name}`");
                    match suggestion {
                        Some(s) => msg.push_str(&format!("; did you mean `{s}`?")),
                        None => msg.push('.'),
                    }
                    msg.push_str(&format!(" Fields: {}", suggest::list(defs.iter().map(|d| d.name))));
                    let span = key.span();
                    let d = self.diag(code, span, msg);
                    if let (Some(s), Some(safety)) = (suggestion, safety) {
                        *d = d.clone().with_fix(format!("rename to `{s}`"), s, safety);
                    }
                }
            }
        }
        out
    }

    fn require(&mut self, present: &[(&'static FieldDef, Span, &DV<'_>)], defs: &'static [FieldDef], span: Span, what: &dyn std::fmt::Display, skip: &[&str]) {
        for def in defs.iter().filter(|d| d.required && !skip.contains(&d.name)) {
            if !present.iter().any(|(d, _, _)| d.name == def.name) {
                // A key of this table that is likely the field misspelt (its `unknown-field` was
                // just reported, with the rename as its fix): the two are one mistake, so the
                // missing field points at it.
                let misspelt = self.diags.iter().rev().find(|d| {
                    d.code == Code::UnknownField
                        && span.start <= d.loc.span.start
                        && d.loc.span.end <= span.end
                        && d.fix.as_ref().is_some_and(|f| f.replacement == def.name)
                });
                let related = misspelt.map(|d| (d.loc.clone(), self.text.get(d.loc.span.clone()).unwrap_or_default().to_string()));
                let mut msg = format!("{what} is missing the required field `{}` ({})", def.name, def.ty.describe());
                if let Some((_, key)) = &related {
                    msg.push_str(&format!("; is `{key}` this field misspelt?"));
                }
                let d = self.diag(Code::MissingField, span.clone(), msg);
                if let Some((loc, key)) = related {
                    *d = d.clone().with_related(loc, format!("`{key}` is probably `{}` misspelt", def.name));
                }
            }
        }
    }

    fn entry(&mut self, registry: Registry, table: &Table<'_>, span: Span) {
        let rdef = registry.def();
        // Messages are formatted only when a diagnostic is raised: this runs for every entry.
        let present = self.known_fields(table, rdef.fields, Code::UnknownField, &format_args!("this {} (`[[{}]]`)", rdef.noun, rdef.key));
        let has_overrides = present.iter().any(|(d, _, _)| d.name == field::OVERRIDES);
        let skip: &[&str] = if has_overrides { &[field::ID] } else { &[] };
        self.require(&present, rdef.fields, span.clone(), &format_args!("this {} (`[[{}]]`)", rdef.noun, rdef.key), skip);

        // `id` and `overrides` are kept apart from the fields.
        let fields = present.iter().filter(|(d, _, _)| !matches!(d.ty, FieldType::Id | FieldType::Overrides)).count();
        let mut entry =
            Entry { registry, file: self.file, span: span.clone(), id: None, overrides: None, fields: Vec::with_capacity(fields), quest_trigger: None };
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
        let Val::String(s) = v.get_ref() else {
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
            *d = d.clone().with_fix(format!("write `{fixed}`"), toml_string(&fixed), suggest::judge_grammar(s, &fixed));
        }
    }

    fn reference(&mut self, kind: RefKind, context: &'static str, v: &DV<'_>) -> Option<Sp<String>> {
        let Val::String(s) = v.get_ref() else {
            self.wrong_type(context, &format!("a {} ID string", kind.describe()), v);
            return None;
        };
        if !vocab::is_valid_id(s) {
            if kind != RefKind::Tag && vocab::is_valid_name(s) {
                // A name without its namespace: the rules know which IDs have that name, and
                // report it (`invalid-id`, with the ID meant).
                self.refs.push(Reference { span: v.span(), id: s.to_string(), kind, context });
                return Some(Sp::new(v.span(), s.to_string()));
            }
            self.invalid_id(s, v.span(), if kind == RefKind::Tag { "tag" } else { "ID" });
            return None;
        }
        self.refs.push(Reference { span: v.span(), id: s.to_string(), kind, context });
        Some(Sp::new(v.span(), s.to_string()))
    }

    fn string<'a>(&mut self, what: &str, v: &'a DV<'_>) -> Option<&'a str> {
        match v.get_ref() {
            Val::String(s) => Some(s.as_ref()),
            _ => {
                self.wrong_type(what, "a string", v);
                None
            }
        }
    }

    fn array<'a, 'i>(&mut self, what: &str, v: &'a DV<'i>) -> Option<&'a [DV<'i>]> {
        match v.get_ref() {
            Val::Array(a) => Some(a),
            _ => {
                self.wrong_type(what, "an array", v);
                None
            }
        }
    }

    fn tables<'a, 'i>(&mut self, what: &str, v: &'a DV<'i>) -> Vec<(&'a Table<'i>, Span)> {
        let Some(items) = self.array(what, v) else { return Vec::new() };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item.get_ref() {
                Val::Table(t) => out.push((t, item.span())),
                _ => self.wrong_type(what, "a list of tables", item),
            }
        }
        out
    }

    /// Reports a name that is not in a closed vocabulary, with "did you mean" and the full list.
    /// For the name of an action or a check, `fields` are the keys its table has and the fields of
    /// a candidate (`fields_of`), so that the fix is safe only when the candidate takes every one
    /// of them ([`suggest::judge_with_fields`]).
    #[allow(clippy::too_many_arguments)]
    fn unknown_name<'a>(
        &mut self,
        code: Code,
        noun: &str,
        s: &str,
        span: Span,
        names: impl Iterator<Item = &'a str> + Clone,
        aliases: &'a [(&'a str, &'a str)],
        fields: Option<KindFields<'_>>,
    ) {
        let mut judged = suggest::closest_judged_with_aliases(s, names.clone(), aliases);
        if let (Some((sug, safety)), Some((present, fields_of))) = (&mut judged, fields) {
            if *safety == crate::diag::Applicability::Safe {
                *safety = suggest::judge_with_fields(s, sug, names.clone(), present.iter().copied(), &fields_of(sug));
            }
        }
        let suggestion = judged.map(|j| j.0);
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
        if let Some((sug, safety)) = judged {
            *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug), safety);
        }
    }
}

/// The keys an action's or check's table has, and the fields of a candidate name
/// (`Lower::unknown_name`).
type KindFields<'a> = (&'a [&'a str], &'a dyn Fn(&str) -> Vec<&'static str>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_comments_are_found() {
        let text = "x = 1\n# rustkeep: allow(unknown-tag, unused-loot-table) -- set by the companion mod\r\n[[items]]\n";
        let a = allow_comments(text);
        assert_eq!(a.len(), 1);
        assert_eq!((a[0].line, a[0].codes.clone()), (1, vec!["unknown-tag".to_string(), "unused-loot-table".to_string()]));
        assert_eq!(a[0].code_spans.iter().map(|s| &text[s.clone()]).collect::<Vec<_>>(), ["unknown-tag", "unused-loot-table"]);
        assert_eq!(&text[a[0].span.clone()], "# rustkeep: allow(unknown-tag, unused-loot-table) -- set by the companion mod");
    }

    #[test]
    fn a_table_header_among_entries_is_one_wrong_type_and_its_entry_is_read() {
        let text = "[[items]]\nid = \"m:lamp\"\nname = \"Lamp\"\n\n[items]\nid = \"m:rope\"\nname = \"Rope\"\nprice = -1\n\n[[items]]\nid = \"m:wick\"\nname = \"Wick\"\n";
        let read = tree::read(text);
        assert_eq!(read.errors.len(), 1, "still a syntax error of the text: {:?}", read.errors);
        let header = text.find("\n[items]").unwrap() + 1;
        assert_eq!(read.errors[0].meant, Some((header..header + 7, "[[items]]".to_string())));
        let facts = lower_file(FileId(0), text, None);
        let shown: Vec<(Code, &str)> = facts.diagnostics.iter().map(|d| (d.code, &text[d.loc.span.clone()])).collect();
        // The header, and the mistake inside the entry it opens: that entry is checked as usual.
        assert_eq!(shown, [(Code::WrongType, "[items]"), (Code::WrongType, "-1")]);
        let fix = facts.diagnostics[0].fix.as_ref().expect("a fix");
        assert_eq!((&text[fix.span.clone()], fix.replacement.as_str(), fix.applicability), ("[items]", "[[items]]", crate::diag::Applicability::Safe));
        let ids: Vec<&str> = facts.entries.iter().filter_map(|e| e.id.as_ref().map(|i| i.value.as_str())).collect();
        assert_eq!(ids, ["m:lamp", "m:rope", "m:wick"], "in the order of the text");
        assert!(facts.unreadable.is_empty());
        // A scenario file has no registries: there it stays a syntax error, with no fix.
        let facts = lower_scenario(FileId(0), "[[expect]]\nturn = 1\n[expect]\nturn = 2\n", None);
        let syntax: Vec<(Span, bool)> =
            facts.diagnostics.iter().filter(|d| d.code == Code::TomlSyntax).map(|d| (d.loc.span.clone(), d.fix.is_some())).collect();
        assert_eq!(syntax, [(21..27, false)], "on the key of `[expect]`");
    }

    /// The lines of the allow comments found in `text`, and the first code of each.
    fn allows(text: &str) -> Vec<(usize, String)> {
        allow_comments(text).into_iter().map(|a| (a.line, a.codes[0].clone())).collect()
    }

    #[test]
    fn a_hash_inside_a_string_starts_no_comment() {
        let strings = [
            r##"name = "see # rustkeep: allow(unknown-field)""##,
            r#"name = 'see # rustkeep: allow(unknown-field)'"#,
            "name = \"\"\"\n# rustkeep: allow(unknown-field)\n\"\"\"",
            "name = '''\n# rustkeep: allow(unknown-field) '''",
            "name = \"\"\"a \\\n  # rustkeep: allow(unknown-field)\"\"\"",
            r##""# rustkeep: allow(unknown-field)" = 1"##,
            "[\"# rustkeep: allow(unknown-field)\"]\nx = 1",
            r##"t = { "# rustkeep: allow(unknown-field)" = 1 }"##,
            r##"a = ["# rustkeep: allow(unknown-field)", '# rustkeep: allow(unknown-tag)']"##,
        ];
        for text in strings {
            let text = format!("{text}\n");
            assert_eq!(tree::read(&text).errors, [], "{text}");
            assert_eq!(allows(&text), [], "{text}");
        }
        // A text the single-pass reader leaves to the `toml` one (a TOML 1.1 escape) has its
        // strings known as well.
        let text = "name = \"\\e # rustkeep: allow(unknown-field)\"\n";
        assert!(tree::read_fast(text).is_none());
        assert_eq!(tree::read(text).errors, []);
        assert_eq!(allows(text), []);
        // In a text with a syntax error, strings are known too: no line is sniffed for a `#`.
        let text = "name = \"see # rustkeep: allow(unknown-field)\"\nbroken = [\nx = \"#\" # rustkeep: allow(unknown-tag)\n";
        assert!(!tree::read(text).errors.is_empty());
        assert_eq!(allows(text), [(2, "unknown-tag".to_string())]);
    }

    #[test]
    fn a_comment_after_a_string_with_a_hash_is_found() {
        let text = "name = \"a # b\" # rustkeep: allow(unknown-tag)\ngrid = '''\n#.#\n''' # rustkeep: allow(unused-loot-table)\n# rustkeep: allow(quest-never-started)\n[[quests]]\n";
        assert_eq!(allows(text), [(0, "unknown-tag".to_string()), (3, "unused-loot-table".to_string()), (4, "quest-never-started".to_string())]);
        let a = allow_comments(text);
        assert_eq!(&text[a[0].span.clone()], "# rustkeep: allow(unknown-tag)");
    }
}
