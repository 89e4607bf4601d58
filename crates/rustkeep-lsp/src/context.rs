//! What the cursor is on, read from the raw text of the buffer being typed.
//!
//! While a modder types, the file is usually not valid TOML, so this reads the tokens of the one
//! reader ([`syntax::tokens`], which never fail) from the current table header to the next one,
//! keeping a stack of open inline tables and arrays with the keys and string values seen in each. The result says
//! whether the cursor is in a header, on a key or on a value (and of which key), and maps the stack
//! onto the schema of [`rustkeep_data::vocab`] ([`Scope`]).

use rustkeep_data::syntax::{self, TokenKind};
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{self, EventKind, FieldDef, FieldType, Registry};

/// Where in the schema a table is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scope {
    Root,
    Balance,
    Entry(Registry),
    Trigger,
    /// A `when` table, with the event of its trigger if known.
    When(Option<EventKind>),
    /// A check, with its `check` name if known.
    Check(Option<vocab::CheckKind>),
    /// An action, with its `action` name if known.
    Action(Option<vocab::ActionKind>),
    Modifier,
    Ai,
    LootEntry,
    /// `attributes = { … }`: keys are attributes.
    Attributes,
    /// A table whose keys are these fields (a scenario file, its `[player]`, enemies and steps).
    Fields(&'static [FieldDef]),
    /// An injected event's `payload`, with the step's event if known.
    Payload(Option<EventKind>),
    /// A table of `rustkeep.toml` or `mod.toml` (the top level, `[format]`, …): these keys.
    Config(&'static [vocab::ConfigKey]),
    Unknown,
}

/// The scope a field's value opens (for list fields: the scope of each element).
pub fn descend(scope: Scope, key: &str) -> Scope {
    if let Scope::Config(keys) = scope {
        return match keys.iter().find(|k| k.name == key) {
            Some(k) if !k.keys.is_empty() => Scope::Config(k.keys),
            _ => Scope::Unknown,
        };
    }
    if scope == Scope::Root {
        return match Registry::from_key(key) {
            Some(r) => Scope::Entry(r),
            None if key == vocab::BALANCE_KEY => Scope::Balance,
            None => Scope::Unknown,
        };
    }
    let Some(def) = fields(scope).into_iter().find(|d| d.name == key) else { return Scope::Unknown };
    match def.ty {
        FieldType::Triggers => Scope::Trigger,
        FieldType::Actions => Scope::Action(None),
        FieldType::Conditions => Scope::Check(None),
        FieldType::Modifiers => Scope::Modifier,
        FieldType::Ai => Scope::Ai,
        FieldType::LootEntries => Scope::LootEntry,
        FieldType::When => Scope::When(None),
        FieldType::AttributeTable => Scope::Attributes,
        FieldType::Table(f) | FieldType::TableList(f) => Scope::Fields(f),
        FieldType::Payload => Scope::Payload(None),
        FieldType::Action => Scope::Action(None),
        _ => Scope::Unknown,
    }
}

/// The scope at the top of a file of this kind: a data file's registries, a scenario's keys, or
/// the tables of `rustkeep.toml` and `mod.toml`.
pub fn root_of(kind: rustkeep_data::source::FileKind) -> Scope {
    match kind {
        rustkeep_data::source::FileKind::Scenario => Scope::Fields(vocab::SCENARIO_FIELDS),
        rustkeep_data::source::FileKind::Workspace => Scope::Config(vocab::WORKSPACE_TABLES),
        rustkeep_data::source::FileKind::Manifest => Scope::Config(vocab::MANIFEST_TABLES),
        _ => Scope::Root,
    }
}

/// The fields a table in `scope` may have (for checks and actions: the discriminator, and the
/// fields of the named check/action once known). `when` and `attributes` have no field rows.
pub fn fields(scope: Scope) -> Vec<&'static FieldDef> {
    match scope {
        Scope::Balance => vocab::BALANCE_FIELDS.iter().collect(),
        Scope::Entry(r) => r.def().fields.iter().collect(),
        Scope::Trigger => vocab::TRIGGER_FIELDS.iter().collect(),
        Scope::Modifier => vocab::MODIFIER_FIELDS.iter().collect(),
        Scope::Ai => vocab::AI_FIELDS.iter().collect(),
        Scope::LootEntry => vocab::LOOT_ENTRY_FIELDS.iter().collect(),
        Scope::Fields(f) => f.iter().collect(),
        Scope::Payload(ev) => vocab::PAYLOAD_FIELDS.iter().filter(|f| ev.is_none_or(|e| e.def().payload.contains(&f.name))).collect(),
        Scope::Check(k) => {
            let mut v = vec![&vocab::CHECK_FIELD];
            if let Some(k) = k {
                v.extend(k.def().fields.iter());
            }
            v.push(&vocab::NOT_FIELD);
            v
        }
        Scope::Action(k) => {
            let mut v = vec![&vocab::ACTION_FIELD];
            if let Some(k) = k {
                v.extend(k.def().fields.iter());
            }
            v
        }
        _ => Vec::new(),
    }
}

/// One open table or array.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The key whose value this container is (array elements inherit their array's key).
    pub key: Option<String>,
    pub is_array: bool,
    /// Keys written in this table (before and after the cursor).
    pub keys: Vec<String>,
    /// `key = "string"` pairs written in this table.
    pub strings: Vec<(String, String)>,
}

impl Frame {
    pub fn string(&self, key: &str) -> Option<&str> {
        self.strings.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// What the cursor is on.
#[derive(Clone, Debug, PartialEq)]
pub enum Pos {
    /// In a `[…]` / `[[…]]` header; `prefix` is what is typed after the brackets.
    Header { double: bool, prefix: String, start: usize },
    /// Where a key goes; `token` is the key under the cursor, if any.
    Key { token: Option<Span> },
    /// A value of `key`. `string` is the content span of the string under the cursor (the end is
    /// the cursor when the string is not closed on this line), `token` the whole value token.
    Value { key: String, string: Option<Span>, closed: bool, token: Option<Span> },
    /// In a comment or somewhere nothing can be completed.
    Other,
}

#[derive(Clone, Debug)]
pub struct Context {
    pub pos: Pos,
    /// The open frames, outermost first; `frames[0]` is the header's table.
    pub frames: Vec<Frame>,
    /// The scope of each frame (same length as `frames`).
    pub scopes: Vec<Scope>,
}

impl Context {
    /// The scope of the innermost table (for an array: of the table holding it).
    pub fn table_scope(&self) -> Scope {
        for (f, s) in self.frames.iter().zip(&self.scopes).rev() {
            if !f.is_array {
                return *s;
            }
        }
        Scope::Root
    }
    /// The innermost table frame.
    pub fn table(&self) -> &Frame {
        self.frames.iter().rev().find(|f| !f.is_array).unwrap_or(&self.frames[0])
    }
    /// The field a value belongs to: `(scope holding the field, key)`.
    pub fn value_field(&self) -> Option<(Scope, &str)> {
        let Pos::Value { key, .. } = &self.pos else { return None };
        Some((self.table_scope_for_value(), key.as_str()))
    }
    fn table_scope_for_value(&self) -> Scope {
        // A value inside an array (`prefabs = [ "…" ]`) belongs to the field of the table that holds
        // the array: skip the arrays on top.
        let mut i = self.frames.len();
        while i > 0 && self.frames[i - 1].is_array {
            i -= 1;
        }
        if i == 0 {
            return Scope::Root;
        }
        self.scopes[i - 1]
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Str { span: Span, content: Span, closed: bool },
    Bare(Span),
    Punct(u8, usize),
    Newline(usize),
    Comment(Span),
}

impl Tok {
    fn start(&self) -> usize {
        match self {
            Tok::Str { span, .. } | Tok::Bare(span) | Tok::Comment(span) => span.start,
            Tok::Punct(_, p) | Tok::Newline(p) => *p,
        }
    }
}

/// The tokens of `text[from..to]` as the context reads them, from the one reader's tokens
/// ([`syntax::tokens`]): spaces left out, and a run of bare words and dots written together
/// (`a.b`, `1.5`) one token.
fn tokens_of(text: &str, from: usize, to: usize) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
    for t in syntax::tokens(&text[from..to]) {
        let span = t.span.start + from..t.span.end + from;
        let tok = match t.kind {
            TokenKind::Whitespace | TokenKind::Eof => continue,
            // A carriage return alone is no line break.
            TokenKind::Newline if &text[span.clone()] == "\r" => continue,
            TokenKind::Newline => Tok::Newline(span.start),
            TokenKind::Comment => Tok::Comment(span),
            TokenKind::BasicString | TokenKind::LiteralString | TokenKind::MlBasicString | TokenKind::MlLiteralString => {
                let q = if matches!(t.kind, TokenKind::MlBasicString | TokenKind::MlLiteralString) { 3 } else { 1 };
                let closed = syntax::string_closed(t.kind, &text[span.clone()]);
                let content_end = if closed { span.end - q } else { span.end };
                Tok::Str { content: (span.start + q).min(content_end)..content_end, span, closed }
            }
            TokenKind::Atom | TokenKind::Dot => {
                if let Some(Tok::Bare(prev)) = out.last_mut() {
                    if prev.end == span.start {
                        prev.end = span.end;
                        continue;
                    }
                }
                Tok::Bare(span)
            }
            TokenKind::LeftSquareBracket => Tok::Punct(b'[', span.start),
            TokenKind::RightSquareBracket => Tok::Punct(b']', span.start),
            TokenKind::LeftCurlyBracket => Tok::Punct(b'{', span.start),
            TokenKind::RightCurlyBracket => Tok::Punct(b'}', span.start),
            TokenKind::Comma => Tok::Punct(b',', span.start),
            TokenKind::Equals => Tok::Punct(b'=', span.start),
        };
        out.push(tok);
    }
    out
}

/// Whether a line is a table header: `[name]` or `[[a."b"]]`, nothing but a comment after it;
/// whether it is an array of tables, and its key's parts.
fn header_of(line: &str) -> Option<(bool, Vec<String>)> {
    let toks = tokens_of(line, 0, line.len());
    let toks = match toks.last() {
        Some(Tok::Comment(_)) => &toks[..toks.len() - 1],
        _ => &toks[..],
    };
    let brackets = |open: u8, at: usize| matches!(toks.get(at), Some(Tok::Punct(c, _)) if *c == open);
    let double = brackets(b'[', 0) && brackets(b'[', 1) && matches!((&toks[0], &toks[1]), (Tok::Punct(_, a), Tok::Punct(_, b)) if a + 1 == *b);
    let n = if double { 2 } else { 1 };
    if toks.len() < 2 * n + 1 || !brackets(b'[', 0) || !(toks.len() - n..toks.len()).all(|i| brackets(b']', i)) {
        return None;
    }
    let mut path = Vec::new();
    for t in &toks[n..toks.len() - n] {
        match t {
            Tok::Bare(s) if line[s.clone()].bytes().all(|c| syntax::lex::is_bare(c) || c == b'.') => {
                path.extend(line[s.clone()].split('.').filter(|p| !p.is_empty()).map(str::to_string));
            }
            Tok::Str { content, closed: true, .. } => path.push(line[content.clone()].to_string()),
            _ => return None,
        }
    }
    (!path.is_empty()).then_some((double, path))
}

/// Whether the cursor's line is a header being typed: `[[ite…` with nothing that makes it a value
/// (no `=`, brace, string, comma or closing bracket).
fn typing_header(before: &str) -> bool {
    let toks = tokens_of(before, 0, before.len());
    matches!(toks.first(), Some(Tok::Punct(b'[', _))) && toks.iter().all(|t| matches!(t, Tok::Punct(b'[', _) | Tok::Bare(_)))
}

/// Reads the context at byte `offset` of a data file's `text`.
pub fn at(text: &str, offset: usize) -> Context {
    at_in(text, offset, Scope::Root)
}

/// Reads the context at byte `offset` of `text`, whose top level is `root` ([`root_of`]).
pub fn at_in(text: &str, offset: usize, root: Scope) -> Context {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let idx = rustkeep_data::text::LineIndex::new(text);
    let cur_line = idx.line_of(offset);
    // The header above the cursor (or the cursor's own line).
    let mut header_line = None;
    for l in (0..=cur_line).rev() {
        let span = idx.line_span(text, l);
        if header_of(&text[span.clone()]).is_some() || (l == cur_line && typing_header(&text[span.start..offset])) {
            header_line = Some(l);
            break;
        }
    }
    let (path, seg_start) = match header_line {
        Some(l) => {
            let span = idx.line_span(text, l);
            let line = &text[span.clone()];
            if l == cur_line {
                let before = &text[span.start..offset];
                let trimmed = before.trim_start();
                let double = trimmed.starts_with("[[");
                let after_brackets = trimmed.trim_start_matches('[');
                if typing_header(before) {
                    let start = offset - after_brackets.len();
                    return Context {
                        pos: Pos::Header { double, prefix: after_brackets.to_string(), start },
                        frames: vec![Frame::default()],
                        scopes: vec![root],
                    };
                }
            }
            let (_, path) = header_of(line).unwrap_or_default();
            (path, span.end)
        }
        None => (Vec::new(), 0),
    };
    // The segment ends at the next header.
    let mut seg_end = text.len();
    for l in cur_line + 1..idx.line_count() {
        let span = idx.line_span(text, l);
        if header_of(&text[span.clone()]).is_some() {
            seg_end = span.start;
            break;
        }
    }
    let toks = tokens_of(text, seg_start.min(seg_end), seg_end);

    // Scope of the header's table.
    let mut scope = root;
    for k in &path {
        scope = descend(scope, k);
    }
    let mut arena: Vec<Frame> = vec![Frame::default()];
    let mut stack: Vec<usize> = vec![0];
    // Per frame (indexed like `arena`): the pending key (after `key =`, before its value) and
    // whether a key is expected.
    let mut pending: Vec<Option<String>> = vec![None];
    let mut expect_key: Vec<bool> = vec![true];
    let mut snapshot: Option<(Vec<usize>, Pos)> = None;

    let value_key = |arena: &Vec<Frame>, stack: &Vec<usize>, pending: &Vec<Option<String>>| -> String {
        let top = *stack.last().expect("stack is never empty");
        if arena[top].is_array {
            arena[top].key.clone().unwrap_or_default()
        } else {
            pending[top].clone().unwrap_or_default()
        }
    };

    for t in &toks {
        let top = *stack.last().expect("stack is never empty");
        if snapshot.is_none() {
            let pos = match t {
                Tok::Comment(s) if s.start < offset && offset <= s.end => Some(Pos::Other),
                Tok::Str { span, content, closed } if span.start < offset && (offset < span.end || (!closed && offset <= span.end)) => {
                    let end = if *closed { content.end } else { offset.max(content.start) };
                    Some(Pos::Value { key: value_key(&arena, &stack, &pending), string: Some(content.start..end), closed: *closed, token: Some(span.clone()) })
                }
                // Right after a closed string value: completion replaces that string instead of
                // writing a second one after it.
                Tok::Str { span, closed: true, .. } if offset == span.end && (!expect_key[top] || arena[top].is_array) => {
                    Some(Pos::Value { key: value_key(&arena, &stack, &pending), string: None, closed: false, token: Some(span.clone()) })
                }
                Tok::Bare(s) if s.start < offset && offset <= s.end => Some(if expect_key[top] && !arena[top].is_array {
                    Pos::Key { token: Some(s.clone()) }
                } else {
                    Pos::Value { key: value_key(&arena, &stack, &pending), string: None, closed: false, token: Some(s.clone()) }
                }),
                _ if t.start() >= offset => Some(if expect_key[top] && !arena[top].is_array {
                    Pos::Key { token: None }
                } else {
                    Pos::Value { key: value_key(&arena, &stack, &pending), string: None, closed: false, token: None }
                }),
                _ => None,
            };
            if let Some(p) = pos {
                snapshot = Some((stack.clone(), p));
            }
        }
        match t {
            Tok::Newline(_) => {
                if stack.len() == 1 {
                    expect_key[0] = true;
                    pending[0] = None;
                }
            }
            Tok::Comment(_) => {}
            Tok::Punct(b'=', _) => expect_key[top] = false,
            Tok::Punct(b',', _) => {
                if !arena[top].is_array {
                    expect_key[top] = true;
                    pending[top] = None;
                }
            }
            Tok::Punct(open @ (b'{' | b'['), _) => {
                let key = if arena[top].is_array { arena[top].key.clone() } else { pending[top].clone() };
                arena.push(Frame { key, is_array: *open == b'[', ..Frame::default() });
                stack.push(arena.len() - 1);
                pending.push(None);
                expect_key.push(*open == b'{');
            }
            Tok::Punct(b'}' | b']', _) => {
                if stack.len() > 1 {
                    stack.pop();
                }
            }
            Tok::Punct(..) => {}
            Tok::Str { .. } | Tok::Bare(_) if !arena[top].is_array && expect_key[top] => {
                // A key (quoted keys are read like bare ones).
                let kspan = match t {
                    Tok::Str { content, .. } => content.clone(),
                    Tok::Bare(s) => s.clone(),
                    _ => 0..0,
                };
                let k = text[kspan].to_string();
                arena[top].keys.push(k.clone());
                pending[top] = Some(k);
                expect_key[top] = false;
            }
            Tok::Str { content, .. } => {
                if let (false, Some(k)) = (arena[top].is_array, pending[top].clone()) {
                    arena[top].strings.push((k, text[content.clone()].to_string()));
                }
            }
            Tok::Bare(_) => {}
        }
    }
    let (ids, pos) = snapshot.unwrap_or_else(|| {
        let top = *stack.last().expect("stack is never empty");
        let p = if expect_key[top] && !arena[top].is_array {
            Pos::Key { token: None }
        } else {
            Pos::Value { key: value_key(&arena, &stack, &pending), string: None, closed: false, token: None }
        };
        (stack.clone(), p)
    });
    let frames: Vec<Frame> = ids.iter().map(|&i| arena[i].clone()).collect();
    // Map frames onto the schema.
    let mut scopes: Vec<Scope> = Vec::with_capacity(frames.len());
    for (i, f) in frames.iter().enumerate() {
        let s = if i == 0 {
            scope
        } else {
            // Elements of an array (tables or nested arrays) share the array's scope; a container
            // that is the value of a key opens the scope of that key.
            let parent = scopes[i - 1];
            if frames[i - 1].is_array {
                parent
            } else {
                descend(parent, f.key.as_deref().unwrap_or(""))
            }
        };
        scopes.push(refine(s, f, i, &frames, &scopes));
    }
    Context { pos, frames, scopes }
}

/// Fills in what a table's own values say: the check or action it is, the event of a `when`.
fn refine(s: Scope, f: &Frame, i: usize, frames: &[Frame], scopes: &[Scope]) -> Scope {
    match s {
        Scope::Check(_) => Scope::Check(f.string(vocab::field::CHECK).and_then(vocab::CheckKind::from_name)),
        Scope::Action(_) => Scope::Action(f.string(vocab::field::ACTION).and_then(vocab::ActionKind::from_name)),
        // The event of a payload is the `event` of the step that holds it.
        Scope::Payload(_) => Scope::Payload(i.checked_sub(1).and_then(|j| frames[j].string(vocab::field::EVENT)).and_then(EventKind::from_name)),
        Scope::When(_) => {
            // The event is the `on` of the table that holds the `when`.
            let on = (0..i)
                .rev()
                .find(|&j| !frames[j].is_array && matches!(scopes.get(j), Some(Scope::Trigger | Scope::Entry(Registry::Quests))))
                .and_then(|j| frames[j].string(vocab::field::ON));
            Scope::When(on.and_then(EventKind::from_name))
        }
        other => other,
    }
}

/// The textual value of the frame's key (`id = "…"`) nearest the cursor, for loot-table kinds.
pub fn header_string(ctx: &Context, key: &str) -> Option<String> {
    ctx.frames.first().and_then(|f| f.string(key)).map(str::to_string)
}

/// Every `key = "string"` in the text: the key and the string's content span (for semantic tokens).
pub fn string_values(text: &str) -> Vec<(String, Span)> {
    let toks = tokens_of(text, 0, text.len());
    let mut out = Vec::new();
    for w in toks.windows(3) {
        if let [Tok::Bare(k), Tok::Punct(b'=', _), Tok::Str { content, closed: true, .. }] = w {
            out.push((text[k.clone()].to_string(), content.clone()));
        }
    }
    out
}
