//! `mod.toml` manifests and `rustkeep.toml` workspace files (docs/data-language.md).

use toml::de::DeValue;

mod shape;
pub use shape::*;

use crate::diag::{Code, Diagnostic, Loc, Severity};
use crate::model::Sp;
use crate::source::FileId;
use crate::suggest;
use crate::text::Span;
use crate::tree::{parse_toml, scalar_errors};
use crate::vocab::{self, key};

#[derive(Clone, Debug, Default)]
pub struct Manifest {
    pub file: Option<FileId>,
    /// The `[mod]` header (or the start of the file).
    pub span: Span,
    pub id: Option<Sp<String>>,
    pub name: Option<String>,
    pub version: Option<String>,
    /// The span of the `version` value.
    pub version_span: Option<Span>,
    pub depends: Vec<Dependency>,
    pub load_after: Vec<Sp<String>>,
    /// `library = true`: a content pack, whose entries other mods place and use.
    pub library: bool,
    /// `[renamed]`: old ID → new ID, both of this mod, each with the span of its key or value.
    pub renamed: Vec<(Sp<String>, Sp<String>)>,
    /// Some of its text could not be read (a syntax error): what is missing above may be written
    /// there, so nothing is claimed from its absence (a version, an `id`).
    pub unreadable: bool,
    /// The IDs that text spells (an old ID of `[renamed]` among them, maybe).
    pub unread_ids: Vec<String>,
}

impl Manifest {
    /// The mods this one must load after when they are present: its required and optional
    /// dependencies and `load_after` (an incompatible mod orders nothing).
    pub fn loads_after(&self) -> impl Iterator<Item = &Sp<String>> {
        self.depends.iter().filter(|d| d.kind != DependencyKind::Incompatible).map(|d| &d.id).chain(&self.load_after)
    }
}

/// How a `depends` entry relates this mod to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DependencyKind {
    /// `"sewers >= 1.2"`: the mod must be loaded, before this one, in a version the requirement
    /// allows.
    Required,
    /// `"? bestiary ^2"`: when the mod is loaded, it loads first and must meet the requirement.
    Optional,
    /// `"! old_rats"`: loading both is an error (with a requirement: only the versions it allows).
    Incompatible,
}

impl DependencyKind {
    /// The sign that leads the entry (`""` for a required mod).
    pub fn sign(self) -> &'static str {
        match self {
            DependencyKind::Required => "",
            DependencyKind::Optional => "? ",
            DependencyKind::Incompatible => "! ",
        }
    }
}

/// One entry of `depends`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dependency {
    pub kind: DependencyKind,
    /// The mod ID, with its span: the whole string for a bare ID (`"core"`); otherwise inside
    /// the string where the string holds its text verbatim (no escapes), else the whole string.
    pub id: Sp<String>,
    /// The version requirement, if the entry sets one; its span as the ID's.
    pub req: Option<Sp<semver::VersionReq>>,
    /// The requirement as written (for messages).
    pub req_text: Option<String>,
    /// The whole string, quotes included.
    pub span: Span,
    /// Whether `id` and `req` point inside the string (so a fix may replace only the ID).
    pub exact: bool,
}

impl Dependency {
    /// Whether the entry is a bare mod ID, as `depends` held before requirements existed.
    pub fn is_bare(&self) -> bool {
        self.kind == DependencyKind::Required && self.req.is_none()
    }

    /// Whether a mod of `version` (`None`: the mod has no `version`) meets the requirement.
    pub fn allows(&self, version: Option<&semver::Version>) -> bool {
        allows(self.req.as_ref().map(|r| &r.value), version)
    }
}

/// Whether a mod of `version` (`None`: the mod has no `version`) meets `req` (`None`: no
/// requirement). A mod without a version meets only `*` (and no requirement).
pub fn allows(req: Option<&semver::VersionReq>, version: Option<&semver::Version>) -> bool {
    match (req, version) {
        (None, _) => true,
        (Some(r), Some(v)) => r.matches(v),
        (Some(r), None) => r.comparators.is_empty(),
    }
}

/// The parts of a `depends` string as written (or as being typed), as byte ranges of it: the
/// sign, the ID (empty when there is none) and the requirement (after the ID and the spaces
/// after it, trailing spaces left out; empty when there is none). The manifest reader and the
/// language server's completion and hover read entries through it.
#[derive(Clone, Debug, PartialEq)]
pub struct DependencyParts {
    pub kind: DependencyKind,
    pub id: std::ops::Range<usize>,
    pub req: std::ops::Range<usize>,
}

pub fn split_dependency(s: &str) -> DependencyParts {
    let mut at = s.len() - s.trim_start().len();
    let kind = match s[at..].chars().next() {
        Some('?') => DependencyKind::Optional,
        Some('!') => DependencyKind::Incompatible,
        _ => DependencyKind::Required,
    };
    if kind != DependencyKind::Required {
        at += 1;
        at += s[at..].len() - s[at..].trim_start().len();
    }
    let id = at..at + s[at..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let rest = &s[id.end..];
    let start = id.end + (rest.len() - rest.trim_start().len());
    let end = start + s[start..].trim_end().len();
    DependencyParts { kind, id, req: start..end }
}

/// Reads `depends`: each string is `ID` or `ID REQ`, optionally led by `? ` or `! `.
fn dependencies(out: &mut Vec<Diagnostic>, file: FileId, text: &str, v: &toml::Spanned<DeValue<'_>>) -> Vec<Dependency> {
    let DeValue::Array(items) = v.get_ref() else {
        diag(out, file, Code::WrongType, v.span(), "`depends` must be a list of mod ids, e.g. `[\"core\", \"sewers >= 1.2\"]`");
        return Vec::new();
    };
    let mut list = Vec::new();
    for item in items.iter() {
        let DeValue::String(s) = item.get_ref() else {
            diag(out, file, Code::WrongType, item.span(), "`depends` must hold strings such as `\"core\"` or `\"sewers >= 1.2\"`");
            continue;
        };
        let span = item.span();
        // The string's text starts one byte after its quote when the source holds it verbatim.
        let inner = text.get(span.clone()).filter(|raw| raw.len() == s.len() + 2 && &raw[1..raw.len() - 1] == s.as_ref()).map(|_| span.start + 1);
        let at = |r: &std::ops::Range<usize>| inner.map_or(span.clone(), |i| i + r.start..i + r.end);
        let parts = split_dependency(s);
        let id = &s[parts.id.clone()];
        if !vocab::is_valid_namespace(id) {
            let msg = format!(
                "`{s}` is not a dependency: write a mod id (`[a-z][a-z0-9_]*`), optionally led by `? ` (optional) or `! ` (incompatible) and followed by a version requirement, e.g. `\"sewers >= 1.2\"`"
            );
            diag(out, file, Code::InvalidManifest, span.clone(), msg);
            continue;
        }
        let mut dep =
            Dependency { kind: parts.kind, id: Sp::new(at(&parts.id), id.to_string()), req: None, req_text: None, span: span.clone(), exact: inner.is_some() };
        if parts.kind == DependencyKind::Required && parts.req.is_empty() {
            // A bare ID is the whole string, as `depends` was before requirements.
            dep.id.span = span.clone();
        }
        if !parts.req.is_empty() {
            let (range, req) = (parts.req.clone(), &s[parts.req.clone()]);
            match semver::VersionReq::parse(req) {
                Ok(r) => {
                    dep.req = Some(Sp::new(at(&range), r));
                    dep.req_text = Some(req.to_string());
                }
                Err(e) => {
                    let msg = format!(
                        "`{req}` is not a version requirement ({e}); write one as Cargo does: `^1.2`, `~1.2.3`, `>= 1.2, < 2`, `=1.0.0` or `*` (a bare `1.2` means `^1.2`)"
                    );
                    diag(out, file, Code::InvalidVersionReq, at(&range), msg);
                    continue;
                }
            }
        }
        list.push(dep);
    }
    list
}

fn diag(out: &mut Vec<Diagnostic>, file: FileId, code: Code, span: Span, msg: impl Into<String>) {
    out.push(Diagnostic::new(code, Loc { file, span }, msg));
}

fn unknown_key(out: &mut Vec<Diagnostic>, file: FileId, key: &str, span: Span, known: &[&str], what: &str) {
    let judged = suggest::closest_judged(key, known.iter().copied());
    let suggestion = judged.map(|j| j.0);
    let mut msg = format!("{what} has no field `{key}`");
    if let Some(s) = suggestion {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    msg.push_str(&format!(" Fields: {}", suggest::list(known)));
    let mut d = Diagnostic::new(Code::UnknownField, Loc { file, span }, msg);
    if let Some((s, safety)) = judged {
        d = d.with_fix(format!("rename to `{s}`"), s, safety);
    }
    out.push(d);
}

fn string_list(out: &mut Vec<Diagnostic>, file: FileId, key: &str, v: &toml::Spanned<DeValue<'_>>) -> Vec<Sp<String>> {
    let DeValue::Array(items) = v.get_ref() else {
        diag(out, file, Code::WrongType, v.span(), format!("`{key}` must be a list of mod ids, e.g. `[\"core\"]`"));
        return Vec::new();
    };
    let mut list = Vec::new();
    for item in items.iter() {
        match item.get_ref() {
            DeValue::String(s) if vocab::is_valid_namespace(s) => list.push(Sp::new(item.span(), s.to_string())),
            DeValue::String(s) => diag(out, file, Code::InvalidManifest, item.span(), format!("`{s}` is not a valid mod id: `[a-z][a-z0-9_]*`")),
            _ => diag(out, file, Code::WrongType, item.span(), format!("`{key}` must hold mod id strings")),
        }
    }
    list
}

/// Reads a `mod.toml`. Problems are reported; whatever is usable is returned.
pub fn read_manifest(file: FileId, text: &str, invalid_utf8_at: Option<usize>) -> (Manifest, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut m = Manifest { file: Some(file), span: 0..0, ..Manifest::default() };
    // Bytes that are not UTF-8 were decoded as U+FFFD: their sections are unreadable, as a syntax
    // error's are, and reported at the byte.
    let not_utf8: Vec<usize> = match invalid_utf8_at {
        Some(_) => text.match_indices(char::REPLACEMENT_CHARACTER).map(|(at, _)| at).collect(),
        None => Vec::new(),
    };
    let (root, errors) = parse_toml(text);
    if errors.is_empty() && invalid_utf8_at.is_none() {
        // A number that is none (an integer beyond 64 bits) is the one mistake; the rest reads.
        let scalars = scalar_errors(text, &root);
        m.unreadable = !scalars.is_empty();
        for (span, msg) in scalars {
            diag(&mut out, file, Code::TomlSyntax, span, msg);
        }
        manifest_from(&mut out, file, text, root.get_ref(), &mut m);
        return (m, out);
    }
    m.unreadable = true;
    // A syntax mistake: one diagnostic at its cause, as in a data file, and the rest of the
    // manifest still read, so that its mod keeps its ID, version and renames as far as they read.
    let found: Vec<(Span, String)> = errors.iter().map(|e| (e.span().unwrap_or(0..0), e.message().trim().to_string())).collect();
    let Some(rec) = crate::tree::recover::recover(text, &found, &not_utf8) else {
        if let Some(at) = invalid_utf8_at {
            diag(&mut out, file, Code::TomlSyntax, at..at + 1, crate::tree::NOT_UTF8);
        }
        for (span, msg) in found {
            diag(&mut out, file, Code::TomlSyntax, span, msg);
        }
        return (m, out);
    };
    for e in &rec.errors {
        let mut d = Diagnostic::new(Code::TomlSyntax, Loc { file, span: e.span.clone() }, e.message.clone());
        d.related.extend(e.related_in(file));
        out.push(d);
    }
    for u in &rec.unreadable {
        m.unread_ids.extend(u.mentions.iter().chain(u.id.iter().map(|(id, _)| id)).chain(u.inline.iter().map(|(_, id, _)| id)).cloned());
    }
    let readable = salvage_lines(text, &rec);
    let (root, errors) = parse_toml(&readable);
    if errors.is_empty() {
        for (span, msg) in scalar_errors(&readable, &root) {
            diag(&mut out, file, Code::TomlSyntax, span, msg);
        }
        manifest_from(&mut out, file, &readable, root.get_ref(), &mut m);
    }
    (m, out)
}

/// The text recovery made readable (the sections that do not read blanked), with the lines of
/// those sections that read by themselves put back under a header that still reads: a `[mod]`
/// whose `version` lost its closing quote keeps its `id`, a `[renamed]` with one broken line
/// keeps the others. Offsets are the text's own.
fn salvage_lines(text: &str, rec: &crate::tree::recover::Recovery) -> String {
    let mut restored = rec.text.clone();
    for u in &rec.unreadable {
        let Some((_, header, true)) = &u.header else { continue };
        let mut at = text[header.end..].find('\n').map_or(text.len(), |n| header.end + n + 1);
        while at < u.span.end {
            let end = text[at..u.span.end].find('\n').map_or(u.span.end, |n| at + n);
            let line = &text[at..end];
            // A broken header (`renamed]`): the lines below it belong to another table.
            let t = line.trim();
            if !t.contains('=') && (t.starts_with('[') || t.ends_with(']')) {
                break;
            }
            // A line with a byte that was not UTF-8 says a guess.
            if !t.is_empty() && !line.contains(char::REPLACEMENT_CHARACTER) && parse_toml(line).1.is_empty() {
                restored.replace_range(at..end, line);
            }
            at = end + 1;
        }
    }
    // Lines that read alone may still clash together (a key written twice): then none is kept.
    if parse_toml(&restored).1.is_empty() {
        restored
    } else {
        rec.text.clone()
    }
}

/// The manifest a document that reads says.
fn manifest_from(out: &mut Vec<Diagnostic>, file: FileId, text: &str, root: &toml::de::DeTable<'_>, m: &mut Manifest) {
    let keys_at_top =
        !root.iter().any(|(k, _)| k.get_ref().as_ref() == key::MOD) && root.iter().any(|(k, _)| vocab::MOD_KEYS.iter().any(|c| c.name == k.get_ref().as_ref()));
    if keys_at_top {
        // The `[mod]` header is missing and its keys stand at the top: one mistake, one
        // diagnostic, and the keys are still read so that nothing else follows from it.
        let first = root.iter().map(|(k, _)| k.span().start).min().unwrap_or(0);
        let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
        let d = Diagnostic::new(
            Code::InvalidManifest,
            Loc { file, span: line_start..line_start },
            "`mod.toml` has its keys at the top level: put the `[mod]` header above them",
        )
        .with_fix_at(line_start..line_start, "insert `[mod]`", "[mod]\n", crate::diag::Applicability::Safe);
        out.push(d);
        mod_table(out, file, text, root, m);
        return;
    }
    let mut saw_mod = false;
    for (name, value) in root.iter() {
        if name.get_ref().as_ref() == key::RENAMED {
            match value.get_ref() {
                DeValue::Table(t) => renamed_table(out, file, t, m),
                _ => diag(out, file, Code::WrongType, value.span(), "`renamed` must be a table: `[renamed]` with lines `\"my_mod:old\" = \"my_mod:new\"`"),
            }
            continue;
        }
        if name.get_ref().as_ref() != key::MOD {
            unknown_key(out, file, name.get_ref(), name.span(), &vocab::config_key_names(vocab::MANIFEST_TABLES), "`mod.toml`");
            continue;
        }
        saw_mod = true;
        let DeValue::Table(t) = value.get_ref() else {
            diag(out, file, Code::InvalidManifest, value.span(), "`mod` must be a table: `[mod]`");
            continue;
        };
        m.span = value.span();
        mod_table(out, file, text, t, m);
        if !t.iter().any(|(k, _)| k.get_ref().as_ref() == key::ID) && !m.unreadable {
            diag(out, file, Code::MissingField, value.span(), "`[mod]` is missing the required field `id` (the mod's namespace)");
        }
    }
    if !saw_mod && !m.unreadable {
        diag(out, file, Code::InvalidManifest, 0..0, "`mod.toml` has no `[mod]` table: add `[mod]` with `id`, `name`, `version`");
    }
    renamed_namespaces(out, file, m);
}

/// The keys of `[mod]`.
fn mod_table(out: &mut Vec<Diagnostic>, file: FileId, text: &str, t: &toml::de::DeTable<'_>, m: &mut Manifest) {
    for (k, v) in t.iter() {
        match k.get_ref().as_ref() {
            key::ID => match v.get_ref() {
                DeValue::String(s) if s == vocab::CORE_NAMESPACE => {
                    diag(out, file, Code::InvalidManifest, v.span(), "the mod id `core` is reserved for the base game")
                }
                DeValue::String(s) if vocab::is_valid_namespace(s) => m.id = Some(Sp::new(v.span(), s.to_string())),
                DeValue::String(s) => diag(
                    out,
                    file,
                    Code::InvalidManifest,
                    v.span(),
                    format!("`{s}` is not a valid mod id: lower case letters, digits and `_`, starting with a letter (`[a-z][a-z0-9_]*`)"),
                ),
                _ => diag(out, file, Code::InvalidManifest, v.span(), "the mod `id` must be a string"),
            },
            key::NAME => match v.get_ref() {
                DeValue::String(s) => m.name = Some(s.to_string()),
                _ => diag(out, file, Code::WrongType, v.span(), "`name` must be a string"),
            },
            key::VERSION => match v.get_ref() {
                DeValue::String(s) if semver::Version::parse(s).is_ok() => {
                    m.version = Some(s.to_string());
                    m.version_span = Some(v.span());
                }
                DeValue::String(s) => diag(out, file, Code::InvalidManifest, v.span(), format!("`{s}` is not a semantic version such as `0.1.0`")),
                _ => diag(out, file, Code::WrongType, v.span(), "`version` must be a string such as \"0.1.0\""),
            },
            key::DEPENDS => m.depends = dependencies(out, file, text, v),
            key::LOAD_AFTER => m.load_after = string_list(out, file, key::LOAD_AFTER, v),
            key::LIBRARY => match v.get_ref() {
                DeValue::Boolean(b) => m.library = *b,
                _ => diag(out, file, Code::WrongType, v.span(), "`library` must be `true` or `false`"),
            },
            other => unknown_key(out, file, other, k.span(), &vocab::config_key_names(vocab::MOD_KEYS), "`[mod]`"),
        }
    }
}

/// Reads `[renamed]`: `"ns:old" = "ns:new"`, both IDs of this mod (checked once the whole file
/// is read, as `[mod] id` may come later).
fn renamed_table(out: &mut Vec<Diagnostic>, file: FileId, t: &toml::de::DeTable<'_>, m: &mut Manifest) {
    for (k, v) in t.iter() {
        let old = k.get_ref().as_ref();
        if !vocab::is_valid_id(old) {
            diag(out, file, Code::InvalidId, k.span(), format!("`{old}` is not an ID: a key of `[renamed]` is an old ID such as `\"my_mod:cheese\"`"));
            continue;
        }
        match v.get_ref() {
            DeValue::String(new) if vocab::is_valid_id(new) => m.renamed.push((Sp::new(k.span(), old.to_string()), Sp::new(v.span(), new.to_string()))),
            DeValue::String(new) => diag(out, file, Code::InvalidId, v.span(), format!("`{new}` is not an ID: `[renamed]` maps an old ID to its new ID")),
            _ => diag(out, file, Code::WrongType, v.span(), "a `[renamed]` value is the new ID, a string such as `\"my_mod:cheese_wedge\"`"),
        }
    }
}

/// Both IDs of every `[renamed]` line must be of the mod's own namespace.
fn renamed_namespaces(out: &mut Vec<Diagnostic>, file: FileId, m: &mut Manifest) {
    let Some(id) = m.id.as_ref().map(|i| i.value.clone()) else { return };
    m.renamed.retain(|(old, new)| {
        for side in [old, new] {
            if vocab::namespace_of(&side.value) != id {
                let msg = format!("`{}` is not an ID of this mod: `[renamed]` renames the mod's own IDs (`{id}:…`) only", side.value);
                out.push(Diagnostic::new(Code::NamespaceMismatch, Loc { file, span: side.span.clone() }, msg));
                return false;
            }
        }
        true
    });
}

/// A lint level from `rustkeep.toml [lints]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The code is not reported.
    Allow,
    /// The code is reported as a warning.
    Warn,
    /// The code is reported as an error.
    Deny,
}

impl Level {
    pub fn apply(self, default: Severity) -> Option<Severity> {
        match self {
            Level::Allow => None,
            Level::Warn => Some(if default == Severity::Error { Severity::Error } else { Severity::Warning }),
            Level::Deny => Some(Severity::Error),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct WorkspaceConfig {
    pub file: Option<FileId>,
    /// `mods` globs with their spans.
    pub mods: Option<Vec<Sp<String>>>,
    /// `core = "path"`; `None` = bundled.
    pub core: Option<Sp<String>>,
    pub lints: Vec<(Code, Level)>,
    /// `[format]`: options of `rustkeep fmt`.
    pub format: FormatConfig,
}

/// `[format]` in `rustkeep.toml`; `None` where the key is absent (the formatter's default holds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatConfig {
    pub line_width: Option<usize>,
    pub reorder_keys: Option<bool>,
    pub toml_version: Option<TomlVersion>,
}

/// The TOML version `rustkeep fmt` writes (`[format] toml_version`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TomlVersion {
    /// TOML 1.0, which every reader reads: an inline table is never broken across lines.
    #[default]
    V1_0,
    /// TOML 1.1: inline tables that do not fit the line width are written one key per line.
    V1_1,
}

impl TomlVersion {
    /// The version as `toml_version` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            TomlVersion::V1_0 => "1.0",
            TomlVersion::V1_1 => "1.1",
        }
    }

    pub fn from_name(name: &str) -> Option<TomlVersion> {
        [TomlVersion::V1_0, TomlVersion::V1_1].into_iter().find(|v| v.as_str() == name)
    }
}

/// Reads `[format]`; a key of the wrong type or out of range is reported and left at its default.
fn read_format(out: &mut Vec<Diagnostic>, file: FileId, t: &toml::de::DeTable<'_>) -> FormatConfig {
    let mut cfg = FormatConfig::default();
    for (k, v) in t.iter() {
        match (k.get_ref().as_ref(), v.get_ref()) {
            (key::LINE_WIDTH, DeValue::Integer(i)) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) if vocab::LINE_WIDTH_RANGE.contains(&n) => cfg.line_width = Some(n as usize),
                _ => {
                    let (lo, hi) = (vocab::LINE_WIDTH_RANGE.start(), vocab::LINE_WIDTH_RANGE.end());
                    diag(out, file, Code::WrongType, v.span(), format!("`line_width` must be an integer from {lo} to {hi}"))
                }
            },
            (key::REORDER_KEYS, DeValue::Boolean(b)) => cfg.reorder_keys = Some(*b),
            (key::TOML_VERSION, DeValue::String(name)) => match TomlVersion::from_name(name) {
                Some(version) => cfg.toml_version = Some(version),
                None => diag(out, file, Code::WrongType, v.span(), "`toml_version` must be `\"1.0\"` or `\"1.1\"`"),
            },
            (key::LINE_WIDTH, _) => diag(out, file, Code::WrongType, v.span(), "`line_width` must be an integer such as 100"),
            (key::REORDER_KEYS, _) => diag(out, file, Code::WrongType, v.span(), "`reorder_keys` must be `true` or `false`"),
            (key::TOML_VERSION, _) => diag(out, file, Code::WrongType, v.span(), "`toml_version` must be the string `\"1.0\"` or `\"1.1\"`"),
            (other, _) => unknown_key(out, file, other, k.span(), &vocab::config_key_names(vocab::FORMAT_KEYS), "`[format]`"),
        }
    }
    cfg
}

/// Reads a `rustkeep.toml`.
pub fn read_workspace(file: FileId, text: &str) -> (WorkspaceConfig, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut cfg = WorkspaceConfig { file: Some(file), ..WorkspaceConfig::default() };
    let (root, errors) = parse_toml(text);
    if !errors.is_empty() {
        for e in errors {
            diag(&mut out, file, Code::TomlSyntax, e.span().unwrap_or(0..0), e.message().trim().to_string());
        }
        return (cfg, out);
    }
    for (name, value) in root.get_ref().iter() {
        match (name.get_ref().as_ref(), value.get_ref()) {
            (key::WORKSPACE, DeValue::Table(t)) => {
                for (k, v) in t.iter() {
                    match (k.get_ref().as_ref(), v.get_ref()) {
                        (key::MODS, DeValue::Array(a)) => {
                            let mut globs = Vec::new();
                            for g in a.iter() {
                                match g.get_ref() {
                                    DeValue::String(s) => globs.push(Sp::new(g.span(), s.to_string())),
                                    _ => diag(&mut out, file, Code::WrongType, g.span(), "`mods` holds glob strings such as \"mods/*\""),
                                }
                            }
                            cfg.mods = Some(globs);
                        }
                        (key::CORE, DeValue::String(s)) => {
                            if s != "bundled" {
                                cfg.core = Some(Sp::new(v.span(), s.to_string()));
                            }
                        }
                        (key::MODS | key::CORE, _) => diag(&mut out, file, Code::WrongType, v.span(), format!("`{}` has the wrong type", k.get_ref())),
                        (other, _) => unknown_key(&mut out, file, other, k.span(), &vocab::config_key_names(vocab::WORKSPACE_KEYS), "`[workspace]`"),
                    }
                }
            }
            (key::LINTS, DeValue::Table(t)) => {
                for (k, v) in t.iter() {
                    let name = k.get_ref().as_ref();
                    let Some(code) = Code::from_name(name) else {
                        unknown_key(&mut out, file, name, k.span(), &Code::ALL.iter().map(|c| c.name()).collect::<Vec<_>>(), "`[lints]`");
                        continue;
                    };
                    let level = match v.get_ref() {
                        DeValue::String(s) if s == "allow" => Level::Allow,
                        DeValue::String(s) if s == "warn" => Level::Warn,
                        DeValue::String(s) if s == "deny" => Level::Deny,
                        _ => {
                            diag(&mut out, file, Code::WrongType, v.span(), "a lint level is \"allow\", \"warn\" or \"deny\"");
                            continue;
                        }
                    };
                    if code == Code::TomlSyntax {
                        // A file that does not parse is not checked at all: its syntax errors are
                        // the only sign of that, so they are always shown.
                        let msg = "`toml-syntax` cannot be given a level: a file that does not parse is not checked at all, so its syntax errors are always errors; remove this";
                        diag(&mut out, file, Code::UnusedSuppression, k.span(), msg);
                        continue;
                    }
                    cfg.lints.push((code, level));
                }
            }
            (key::FORMAT, DeValue::Table(t)) => cfg.format = read_format(&mut out, file, t),
            (key::WORKSPACE | key::LINTS | key::FORMAT, _) => {
                diag(&mut out, file, Code::WrongType, value.span(), format!("`{}` must be a table", name.get_ref()))
            }
            (other, _) => unknown_key(&mut out, file, other, name.span(), &vocab::config_key_names(vocab::WORKSPACE_TABLES), "`rustkeep.toml`"),
        }
    }
    (cfg, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depends(list: &str) -> (Vec<Dependency>, Vec<Diagnostic>, String) {
        let text = format!("[mod]\nid = \"a\"\ndepends = [{list}]\n");
        let (m, d) = read_manifest(FileId(0), &text, None);
        (m.depends, d, text)
    }

    #[test]
    fn a_dependency_is_an_id_with_an_optional_sign_and_requirement() {
        let (deps, diags, text) = depends(r#""core", "sewers >= 1.2", "? bestiary ^2", "! old_rats", "?lantern", "b>=1,<2", "c 1.2", "!d < 2""#);
        assert!(diags.is_empty(), "{diags:?}");
        let shown: Vec<(DependencyKind, &str, Option<&str>, &str)> = deps
            .iter()
            .map(|d| (d.kind, d.id.value.as_str(), d.req_text.as_deref(), &text[d.req.as_ref().map_or(d.id.span.clone(), |r| r.span.clone())]))
            .collect();
        use DependencyKind::*;
        assert_eq!(
            shown,
            [
                (Required, "core", None, "\"core\""),
                (Required, "sewers", Some(">= 1.2"), ">= 1.2"),
                (Optional, "bestiary", Some("^2"), "^2"),
                (Incompatible, "old_rats", None, "old_rats"),
                (Optional, "lantern", None, "lantern"),
                (Required, "b", Some(">=1,<2"), ">=1,<2"),
                (Required, "c", Some("1.2"), "1.2"),
                (Incompatible, "d", Some("< 2"), "< 2"),
            ]
        );
        let v = |s: &str| semver::Version::parse(s).unwrap();
        assert!(deps[6].allows(Some(&v("1.9.0"))) && !deps[6].allows(Some(&v("2.0.0"))), "a bare 1.2 is ^1.2");
        assert!(!deps[1].allows(None) && deps[0].allows(None), "a mod without a version meets no requirement but none");
        let star = depends(r#""x *""#).0;
        assert!(star[0].allows(None), "`*` is met by a mod without a version");
    }

    #[test]
    fn entries_split_as_they_are_typed() {
        let s = "? sewers >= 1.2 ";
        let p = split_dependency(s);
        assert_eq!((p.kind, &s[p.id.clone()], &s[p.req.clone()]), (DependencyKind::Optional, "sewers", ">= 1.2"));
        for s in ["", "?", "! ", "sewers ", "sewers", " é", "!é>=", "core^1"] {
            let p = split_dependency(s);
            assert!(p.id.start <= p.id.end && p.id.end <= p.req.start && p.req.start <= p.req.end && p.req.end <= s.len(), "{s:?}: {p:?}");
            assert!(s.is_char_boundary(p.req.start) && s.is_char_boundary(p.req.end), "{s:?}");
        }
        assert_eq!(split_dependency("core^1").req, 4..6);
        assert_eq!(split_dependency("sewers ").req, 7..7);
    }

    #[test]
    fn a_malformed_dependency_is_one_diagnostic_at_its_place() {
        let (deps, diags, text) = depends(r#""sewers >= one", "Sewers", "", "? ", "ok""#);
        let found: Vec<(Code, &str)> = diags.iter().map(|d| (d.code, &text[d.loc.span.clone()])).collect();
        assert_eq!(
            found,
            [(Code::InvalidVersionReq, ">= one"), (Code::InvalidManifest, "\"Sewers\""), (Code::InvalidManifest, "\"\""), (Code::InvalidManifest, "\"? \"")]
        );
        assert_eq!(deps.iter().map(|d| d.id.value.as_str()).collect::<Vec<_>>(), ["ok"]);
        // An escaped string cannot be pointed into: the diagnostic takes the whole string.
        let (_, diags, text) = depends(r#""sewers >= \u006fne""#);
        assert_eq!(diags.len(), 1);
        assert_eq!(&text[diags[0].loc.span.clone()], r#""sewers >= \u006fne""#);
        let (_, diags, _) = depends("3");
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::WrongType]);
    }

    #[test]
    fn renamed_maps_ids_of_the_mods_own_namespace() {
        let text = "[mod]\nid = \"a\"\n\n[renamed]\n\"a:old\" = \"a:new\"\n\"b:x\" = \"a:y\"\n\"a:z\" = \"b:z\"\n\"bad\" = \"a:q\"\n\"a:n\" = 3\n";
        let (m, diags) = read_manifest(FileId(0), text, None);
        assert_eq!(m.renamed.iter().map(|(o, n)| (o.value.as_str(), n.value.as_str())).collect::<Vec<_>>(), [("a:old", "a:new")]);
        let found: Vec<(Code, &str)> = diags.iter().map(|d| (d.code, &text[d.loc.span.clone()])).collect();
        assert_eq!(found, [(Code::InvalidId, "\"bad\""), (Code::WrongType, "3"), (Code::NamespaceMismatch, "\"b:x\""), (Code::NamespaceMismatch, "\"b:z\"")]);
    }
}
