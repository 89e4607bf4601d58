//! `rustkeep fmt`: one canonical layout for the data files, `mod.toml` and `rustkeep.toml` of
//! rustkeep mods, shared by the command line and the language server. It must never change what
//! a file means, and never validate beyond the TOML syntax (the rules are `rustkeep-check`'s).
//!
//! The rules (the user's view is `docs/formatting.md`):
//! - **Meaning is kept.** The result reads as the same TOML value, every array and every
//!   registry's entries in their original order; [`format_document`] checks this before it
//!   returns and refuses ([`FormatError::Meaning`]) rather than hand back anything else.
//! - **Comments are kept**, every one, each where it was relative to the values around it; the
//!   result is checked to hold the input's comments, each as often, or the text is refused
//!   ([`FormatError::Comment`]), also by [`format_for_comparison`].
//! - **Keys inside an entry** — and inside triggers, checks, actions, modifiers, `ai` rules, loot
//!   entries, `when`, `[balance]`, `[mod]`, `[workspace]`, `[format]` — follow the vocabulary's
//!   order (`rustkeep_data::vocab`), unknown keys last; never across a comment or a blank line.
//! - **Layout**: see [`layout`](crate::layout) — line width, one element per line with a trailing
//!   comma when a value does not fit, the magic trailing comma, one blank line between entries.
//! - **TOML 1.0 by default**: an inline table is never broken across lines, so that every TOML
//!   reader reads the result; `[format] toml_version = "1.1"` allows it ([`TomlVersion`]). The
//!   first TOML 1.1-only syntax of a file is found on the way ([`FileFormat::toml_1_1`],
//!   [`toml_1_1_use`]), for `rustkeep fmt` to say that the file needs a TOML 1.1 reader.
//! - **Untouched**: strings keep their quoting, multi-line strings their every byte, numbers and
//!   dates their spelling; the file keeps its line ending (that of its first line) and its
//!   byte-order mark.
//! - **Idempotent**, and a text that is not valid TOML is refused ([`FormatError::Syntax`], with
//!   the messages of `rustkeep check`'s `toml-syntax`).
//!
//! Pipeline: [`meaning::read`] (the syntax check, as `rustkeep check` reads files) → [`cst::parse`]
//! (comments, blank lines and raw tokens from the event stream of the one reader,
//! [`rustkeep_data::syntax`]) → [`order::arrange`]
//! (key order) → [`layout::print`] → the comment check ([`comments::first_difference`]) → the
//! meaning check. For a result that is only compared ([`format_for_comparison`]), the syntax
//! check is the scan that makes the tree: the one reader hands the same tokens to the data files'
//! tree builder ([`cst::parse_and_read`]), whose success says that the `toml` reader accepts the
//! text; only where it gives up does [`validate`] decide, or the `toml` reader itself. The crate
//! does no I/O (one test hook, in builds with the `test-hooks` feature only, reads an environment variable: [`comments::lose_comment_hook`]).

#![forbid(unsafe_code)]

mod comments;
mod cst;
pub mod diff;
mod layout;
mod meaning;
mod order;
mod validate;
mod version;

use std::ops::Range;
use std::path::Path;

use rustkeep_data::manifest::FormatConfig;

pub use meaning::SyntaxError;
pub use rustkeep_data::manifest::TomlVersion;
pub use version::{Toml11Syntax, Toml11Use};

/// The default of `[format] line_width`.
pub const DEFAULT_LINE_WIDTH: usize = 100;

const BOM: &str = "\u{feff}";

/// Which key orders apply to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A data file of a mod: registry arrays and `[balance]`.
    Data,
    /// A `mod.toml`.
    Manifest,
    /// A `rustkeep.toml`.
    Workspace,
    /// Any other TOML: layout only, no key is moved.
    Plain,
}

impl FileKind {
    /// The kind a file's name implies: `mod.toml`, `rustkeep.toml`, a scenario (layout only),
    /// else a data file.
    pub fn of_path(path: &Path) -> FileKind {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("mod.toml") => FileKind::Manifest,
            Some("rustkeep.toml") => FileKind::Workspace,
            _ if rustkeep_data::vocab::is_scenario_path(path) => FileKind::Plain,
            _ => FileKind::Data,
        }
    }
}

impl From<rustkeep_data::source::FileKind> for FileKind {
    fn from(k: rustkeep_data::source::FileKind) -> FileKind {
        match k {
            rustkeep_data::source::FileKind::Data => FileKind::Data,
            rustkeep_data::source::FileKind::Manifest => FileKind::Manifest,
            rustkeep_data::source::FileKind::Workspace => FileKind::Workspace,
            // Scenario keys have no reference order of their own yet: layout only.
            rustkeep_data::source::FileKind::Scenario => FileKind::Plain,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatOptions {
    /// Inline tables and arrays longer than this are written one element per line.
    pub line_width: usize,
    /// Put keys in vocabulary order (within groups).
    pub reorder_keys: bool,
    pub kind: FileKind,
    /// The TOML syntax written: with 1.0 (the default) an inline table is never broken across
    /// lines.
    pub toml_version: TomlVersion,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions { line_width: DEFAULT_LINE_WIDTH, reorder_keys: true, kind: FileKind::Data, toml_version: TomlVersion::default() }
    }
}

impl FormatOptions {
    /// The options a workspace's `[format]` sets, for a file of kind `kind`.
    pub fn from_config(cfg: &FormatConfig, kind: FileKind) -> FormatOptions {
        FormatOptions {
            line_width: cfg.line_width.unwrap_or(DEFAULT_LINE_WIDTH),
            reorder_keys: cfg.reorder_keys.unwrap_or(true),
            kind,
            toml_version: cfg.toml_version.unwrap_or_default(),
        }
    }
}

/// Why a text was not formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The text is not valid TOML (spans are byte ranges of the text given).
    Syntax(Vec<SyntaxError>),
    /// The result would not read as the same value as the input: a bug of the formatter, never
    /// written anywhere.
    Meaning,
    /// The result would not hold every comment of the input, each as often as the input does: a
    /// bug of the formatter, never written anywhere. `line` (1-based, in the input) is that of the
    /// first comment that would be lost.
    Comment { line: usize },
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(errors) => match errors.first() {
                Some(e) => write!(f, "not valid TOML: {}", e.message),
                None => write!(f, "not valid TOML"),
            },
            FormatError::Meaning => write!(f, "formatting would change what the file means (a bug of the formatter); the file is left as it is"),
            FormatError::Comment { line } => {
                write!(f, "formatting would lose the comment on line {line} (a bug of the formatter); the file is left as it is")
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// A replacement of the byte range `span` of a text by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Range<usize>,
    pub text: String,
}

/// The first line's ending: `"\r\n"` if the first line ends so, else `"\n"`.
fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// A formatted text with the units of input and output in step.
struct Formatted {
    /// Length of the byte-order mark both start with (0 or 3).
    bom: usize,
    text: String,
    /// Unit ranges of the input (offsets in the input text, after the mark).
    input_units: Vec<Range<usize>>,
    /// Unit ranges of the output (offsets in `text`, after the mark).
    output_units: Vec<Range<usize>>,
    /// The input's first TOML 1.1-only syntax (offset in the input, mark included).
    toml_1_1: Option<Toml11Use>,
}

/// How much [`run`] checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Read the input with the `toml` reader and check the result's meaning against it.
    Verified,
    /// Only decide validity, quickly ([`validate`]); for results that are compared, never written.
    Compare,
}

fn run(text: &str, options: &FormatOptions, mode: Mode) -> Result<Formatted, FormatError> {
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    let shift = |errors: Vec<SyntaxError>| {
        let b = bom.len();
        FormatError::Syntax(
            errors
                .into_iter()
                .map(|e| SyntaxError {
                    span: e.span.start + b..e.span.end + b,
                    message: e.message,
                    related: e.related.map(|(r, m)| (r.start + b..r.end + b, m)),
                })
                .collect(),
        )
    };
    let (parsed, tree) = match mode {
        Mode::Verified => (cst::parse(body), Some(meaning::read(body).map_err(shift)?)),
        Mode::Compare => {
            let (parsed, valid) = parse_checked(body);
            if !valid {
                // The reader has the last word, and the messages.
                meaning::read(body).map_err(shift)?;
            }
            (parsed, None)
        }
    };
    let mut doc = parsed.map_err(|f| shift(vec![SyntaxError { span: f.span, message: f.message, related: None }]))?;
    let mut input_units = Vec::new();
    let mut at = 0;
    for (i, s) in doc.sections.iter().enumerate() {
        let ends: Vec<usize> = if i == 0 { s.ends.clone() } else { s.ends.last().copied().into_iter().collect() };
        for end in ends {
            input_units.push(at..end);
            at = end;
        }
    }
    input_units.push(at..body.len());
    if options.reorder_keys {
        order::arrange(&mut doc, options.kind);
    }
    let printed = layout::print(&doc, options.line_width, line_ending(body), options.toml_version);
    debug_assert_eq!(printed.units.len(), input_units.len());
    // Checked in both modes, unlike the meaning: it costs one lexer pass over the output of a
    // text with comments, and `fmt --check` must refuse the same files `fmt` refuses.
    if printed.text != body {
        let hooked = comments::lose_comment_hook(&printed.text);
        if let Some(line) = comments::first_difference(body, &doc.comments, hooked.as_deref().unwrap_or(&printed.text)) {
            return Err(FormatError::Comment { line });
        }
    }
    if let Some(tree) = tree {
        if printed.text != body {
            match meaning::read(&printed.text) {
                Ok(out) if meaning::same_table(tree.get_ref(), out.get_ref()) => {}
                _ => return Err(FormatError::Meaning),
            }
        }
    }
    let mut out = String::with_capacity(bom.len() + printed.text.len());
    out.push_str(bom);
    out.push_str(&printed.text);
    let toml_1_1 = doc.toml_1_1.map(|u| Toml11Use { offset: u.offset + bom.len(), ..u });
    Ok(Formatted { bom: bom.len(), text: out, input_units, output_units: printed.units, toml_1_1 })
}

/// Formats a whole document. `text` may start with a byte-order mark; it is kept.
pub fn format_document(text: &str, options: &FormatOptions) -> Result<String, FormatError> {
    run(text, options, Mode::Verified).map(|f| f.text)
}

/// Like [`format_document`], without the final meaning check: for callers that only compare the
/// result with the input and write nothing (`rustkeep fmt --check`), where the check would double
/// the cost. The comment check stays ([`FormatError::Comment`]). Never write what this returns.
pub fn format_for_comparison(text: &str, options: &FormatOptions) -> Result<String, FormatError> {
    run(text, options, Mode::Compare).map(|f| f.text)
}

/// A formatted file, with what the command line says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFormat {
    pub text: String,
    /// The first place where the *input* uses syntax only TOML 1.1 has (offset in the input). The
    /// formatted text uses no TOML 1.1 syntax the input did not (with TOML 1.0, often less), so
    /// when this is `None` neither does the output.
    pub toml_1_1: Option<Toml11Use>,
}

/// [`format_document`] (or, with `compare_only`, [`format_for_comparison`]) with the input's first
/// TOML 1.1-only syntax.
pub fn format_file(text: &str, options: &FormatOptions, compare_only: bool) -> Result<FileFormat, FormatError> {
    let f = run(text, options, if compare_only { Mode::Compare } else { Mode::Verified })?;
    Ok(FileFormat { text: f.text, toml_1_1: f.toml_1_1 })
}

/// The first place where a valid TOML text (which may start with a byte-order mark) uses syntax
/// only TOML 1.1 has: an inline table across lines, with a comment or with a comma after its last
/// key; the escapes `\e` or `\xHH`; a time without seconds. `None` when a TOML 1.0 reader reads
/// it, or when it is not valid TOML.
pub fn toml_1_1_use(text: &str) -> Option<Toml11Use> {
    let bom = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let doc = cst::parse(&text[bom..]).ok()?;
    doc.toml_1_1.map(|u| Toml11Use { offset: u.offset + bom, ..u })
}

/// The edits that format the entries `range` touches (a byte range of `text`; an empty range
/// touches the entry it is in): each top-level key before the first header, and each table header
/// with its body, counts as one entry, with the comments and blank lines above it. Everything else
/// is left as it is. Edits are in text order and do not overlap.
pub fn range_edits(text: &str, range: Range<usize>, options: &FormatOptions) -> Result<Vec<Edit>, FormatError> {
    let f = run(text, options, Mode::Verified)?;
    let body_len = text.len() - f.bom;
    let r = range.start.saturating_sub(f.bom).min(body_len)..range.end.saturating_sub(f.bom).min(body_len);
    let mut edits = Vec::new();
    for (input, output) in f.input_units.iter().zip(&f.output_units) {
        let touched =
            if r.is_empty() { input.contains(&r.start) || (r.start == body_len && input.end == body_len) } else { input.start < r.end && r.start < input.end };
        if !touched {
            continue;
        }
        let old = &text[f.bom + input.start..f.bom + input.end];
        let new = &f.text[f.bom + output.start..f.bom + output.end];
        if let Some(mut e) = minimal_edit(old, new) {
            e.span = e.span.start + f.bom + input.start..e.span.end + f.bom + input.start;
            edits.push(e);
        }
    }
    Ok(edits)
}

/// The places where `text` (without a byte-order mark) is not valid TOML, exactly as
/// `rustkeep check` reports them (`toml-syntax`); empty when it is valid.
pub fn syntax_errors(text: &str) -> Vec<SyntaxError> {
    meaning::read(text).err().unwrap_or_default()
}

/// Whether `text` (without a byte-order mark) is valid TOML, decided without building a
/// document: the check `rustkeep fmt --check` uses. Agrees with [`syntax_errors`] being empty.
pub fn is_valid_toml(text: &str) -> bool {
    parse_checked(text).1
}

/// The syntax tree of `text` and whether the `toml` reader accepts it: at once when the data
/// reader's fast mode read it in the same scan (it only accepts what the `toml` reader does),
/// else by [`validate`].
fn parse_checked(text: &str) -> (Result<cst::Doc<'_>, cst::ParseFailure>, bool) {
    let (parsed, read_fast) = cst::parse_and_read(text);
    let valid = matches!(&parsed, Ok(doc) if read_fast || validate::is_valid(text, doc));
    (parsed, valid)
}

/// The text after [`range_edits`].
pub fn format_range(text: &str, range: Range<usize>, options: &FormatOptions) -> Result<String, FormatError> {
    Ok(apply_edits(text, &range_edits(text, range, options)?))
}

/// Applies non-overlapping edits given in text order.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.text);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// One edit turning `old` into `new`: the differing middle, after the longest common prefix and
/// suffix (never splitting a character or a `\r\n`). `None` when they are equal.
pub fn minimal_edit(old: &str, new: &str) -> Option<Edit> {
    if old == new {
        return None;
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while pre > 0 && (!old.is_char_boundary(pre) || !new.is_char_boundary(pre) || (a[pre - 1] == b'\r' && a.get(pre) == Some(&b'\n'))) {
        pre -= 1;
    }
    let max_suf = (a.len() - pre).min(b.len() - pre);
    let mut suf = a.iter().rev().zip(b.iter().rev()).take(max_suf).take_while(|(x, y)| x == y).count();
    while suf > 0
        && (!old.is_char_boundary(a.len() - suf)
            || !new.is_char_boundary(b.len() - suf)
            || (a[a.len() - suf] == b'\n' && a.len() - suf > 0 && a[a.len() - suf - 1] == b'\r'))
    {
        suf -= 1;
    }
    Some(Edit { span: pre..a.len() - suf, text: new[pre..b.len() - suf].to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_line_width_is_the_documented_one() {
        let doc = rustkeep_data::vocab::FORMAT_KEYS.iter().find(|k| k.name == "line_width").and_then(|k| k.default);
        assert_eq!(doc, Some(DEFAULT_LINE_WIDTH.to_string().as_str()));
    }

    #[test]
    fn the_documented_width_range_is_the_checked_one() {
        let key = rustkeep_data::vocab::FORMAT_KEYS.iter().find(|k| k.name == "line_width").unwrap();
        let range = rustkeep_data::vocab::LINE_WIDTH_RANGE;
        assert_eq!(key.value, format!("an integer from {} to {}", range.start(), range.end()));
        assert!(range.contains(&(DEFAULT_LINE_WIDTH as i64)));
    }

    #[test]
    fn minimal_edits_keep_line_ends_whole() {
        let e = minimal_edit("a\r\nb", "a\r\nc").unwrap();
        assert_eq!(e, Edit { span: 3..4, text: "c".into() });
        let e = minimal_edit("a\r\n", "a\n").unwrap();
        assert_eq!(apply_edits("a\r\n", std::slice::from_ref(&e)), "a\n");
        assert!(!(e.span.start == 2 && "a\r\n".as_bytes()[1] == b'\r'), "{e:?}");
        let e = minimal_edit("ä = 1", "ö = 1").unwrap();
        assert_eq!(e.span, 0..2);
        assert_eq!(minimal_edit("same", "same"), None);
        for (old, new) in [("", "x"), ("x", ""), ("aXa", "aa"), ("aa", "aXa"), ("\r\n\r\n", "\n"), ("ab\r\n", "ab\r\n\r\n")] {
            let e = minimal_edit(old, new).unwrap();
            assert_eq!(apply_edits(old, &[e]), new, "{old:?} → {new:?}");
        }
    }

    #[test]
    fn line_ending_is_that_of_the_first_line() {
        assert_eq!(line_ending("a = 1\r\nb = 2\n"), "\r\n");
        assert_eq!(line_ending("a = 1\nb = 2\r\n"), "\n");
        assert_eq!(line_ending("a = 1"), "\n");
    }
}
