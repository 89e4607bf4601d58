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
    pub depends: Vec<Sp<String>>,
    pub load_after: Vec<Sp<String>>,
    /// `library = true`: a content pack, whose entries other mods place and use.
    pub library: bool,
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
    if let Some(at) = invalid_utf8_at {
        diag(&mut out, file, Code::TomlSyntax, at..at + 1, "invalid UTF-8: TOML files must be UTF-8 encoded");
        return (m, out);
    }
    let (root, errors) = parse_toml(text);
    let scalars = scalar_errors(text, &root);
    if !errors.is_empty() || !scalars.is_empty() {
        for e in errors {
            diag(&mut out, file, Code::TomlSyntax, e.span().unwrap_or(0..0), e.message().trim().to_string());
        }
        for (span, msg) in scalars {
            diag(&mut out, file, Code::TomlSyntax, span, msg);
        }
        return (m, out);
    }
    let keys_at_top = !root.get_ref().iter().any(|(k, _)| k.get_ref().as_ref() == key::MOD)
        && root.get_ref().iter().any(|(k, _)| vocab::MOD_KEYS.iter().any(|c| c.name == k.get_ref().as_ref()));
    if keys_at_top {
        // The `[mod]` header is missing and its keys stand at the top: one mistake, one
        // diagnostic, and the keys are still read so that nothing else follows from it.
        let first = root.get_ref().iter().map(|(k, _)| k.span().start).min().unwrap_or(0);
        let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
        let d = Diagnostic::new(
            Code::InvalidManifest,
            Loc { file, span: line_start..line_start },
            "`mod.toml` has its keys at the top level: put the `[mod]` header above them",
        )
        .with_fix_at(line_start..line_start, "insert `[mod]`", "[mod]\n", crate::diag::Applicability::Safe);
        out.push(d);
        mod_table(&mut out, file, root.get_ref(), &mut m);
        return (m, out);
    }
    let mut saw_mod = false;
    for (name, value) in root.get_ref().iter() {
        if name.get_ref().as_ref() != key::MOD {
            unknown_key(&mut out, file, name.get_ref(), name.span(), &vocab::config_key_names(vocab::MANIFEST_TABLES), "`mod.toml`");
            continue;
        }
        saw_mod = true;
        let DeValue::Table(t) = value.get_ref() else {
            diag(&mut out, file, Code::InvalidManifest, value.span(), "`mod` must be a table: `[mod]`");
            continue;
        };
        m.span = value.span();
        mod_table(&mut out, file, t, &mut m);
        if !t.iter().any(|(k, _)| k.get_ref().as_ref() == key::ID) {
            diag(&mut out, file, Code::MissingField, value.span(), "`[mod]` is missing the required field `id` (the mod's namespace)");
        }
    }
    if !saw_mod {
        diag(&mut out, file, Code::InvalidManifest, 0..0, "`mod.toml` has no `[mod]` table: add `[mod]` with `id`, `name`, `version`");
    }
    (m, out)
}

/// The keys of `[mod]`.
fn mod_table(out: &mut Vec<Diagnostic>, file: FileId, t: &toml::de::DeTable<'_>, m: &mut Manifest) {
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
                DeValue::String(s) if is_semver(s) => m.version = Some(s.to_string()),
                DeValue::String(s) => diag(out, file, Code::InvalidManifest, v.span(), format!("`{s}` is not a semantic version such as `0.1.0`")),
                _ => diag(out, file, Code::WrongType, v.span(), "`version` must be a string such as \"0.1.0\""),
            },
            key::DEPENDS => m.depends = string_list(out, file, key::DEPENDS, v),
            key::LOAD_AFTER => m.load_after = string_list(out, file, key::LOAD_AFTER, v),
            key::LIBRARY => match v.get_ref() {
                DeValue::Boolean(b) => m.library = *b,
                _ => diag(out, file, Code::WrongType, v.span(), "`library` must be `true` or `false`"),
            },
            other => unknown_key(out, file, other, k.span(), &vocab::config_key_names(vocab::MOD_KEYS), "`[mod]`"),
        }
    }
}

fn is_semver(s: &str) -> bool {
    let core = s.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
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
