//! (e) The formatter: arbitrary text, or a real mod file mutated at the text level (brackets,
//! commas, comments, blank lines, line ends, multi-line strings, keys of the vocabulary spliced in
//! at `arbitrary` places) → `rustkeep_fmt`. Whatever the input: no panic; a text is refused
//! exactly when the reader of `rustkeep check` refuses it, and the quick validity check agrees; a
//! result reads as the same value (checked with `toml_edit`, an independent reader), formats to
//! itself, keeps the byte-order mark, and every range formatting of it is a no-op; range
//! formatting of the input never panics and over the whole text equals whole formatting.
//! `FMT_FUZZ_SHOW=1` prints each input's text (to read a crash input).
#![no_main]


use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use rustkeep_fmt::{format_document, format_range, is_valid_toml, range_edits, syntax_errors, toml_1_1_use, FileKind, FormatError, FormatOptions, TomlVersion};
use rustkeep_testutil::toml_value::read;

/// Files mutated: the examples and the clean fixture, compiled in.
const FILES: &[&str] = &[
    include_str!("../../examples/fire_and_thorns/affixes.toml"),
    include_str!("../../examples/fire_and_thorns/creatures.toml"),
    include_str!("../../examples/fire_and_thorns/items.toml"),
    include_str!("../../examples/rat_catcher/quests.toml"),
    include_str!("../../examples/rat_catcher/world.toml"),
    include_str!("../../examples/rat_catcher/mod.toml"),
    include_str!("../../tests/fixtures/clean_everything/loot.toml"),
    include_str!("../../crates/rustkeep-data/core/prefabs.toml"),
];

/// Pieces spliced into the text: the characters layout is made of, and keys of the vocabulary.
const PIECES: &[&str] = &[
    "[", "]", "{", "}", ",", " ", "\t", "\n", "\r\n", "\n\n", "#", "# c\n", "=", ".", "\"", "'", "\"\"\"", "'''", "\u{feff}", "ä", "🔥",
    "[[items]]\n", "[[items.triggers]]\n", "[balance]\n", "id = \"x:y\"\n", "name = 'n'\n", "on = \"attack_hit\"\n", "triggers = [", "actions = [",
    "{ action = \"heal\", amount = 1, target = \"self\" }", "{ check = \"has_tag\", who = \"self\", value = \"a:b\" }", "a.b = 1\n", "x = 1979-05-27 07:32:00Z\n",
    "n = 0x1F\n", "f = nan\n", "s = \"\"\"\na  \r\nb\"\"\"\n",
];

#[derive(Arbitrary, Debug)]
enum Mutation {
    Insert { at: u16, piece: u8 },
    Delete { at: u16, len: u8 },
    Duplicate { at: u16, len: u8 },
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// Arbitrary text instead of a mutated file.
    raw: Option<String>,
    file: u8,
    mutations: Vec<Mutation>,
    width: u16,
    reorder: bool,
    kind: u8,
    range: (u16, u16),
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn mutate(mut text: String, mutations: &[Mutation]) -> String {
    for m in mutations.iter().take(16) {
        match *m {
            Mutation::Insert { at, piece } => {
                let at = floor_boundary(&text, usize::from(at) % (text.len() + 1));
                text.insert_str(at, PIECES[usize::from(piece) % PIECES.len()]);
            }
            Mutation::Delete { at, len } => {
                let start = floor_boundary(&text, usize::from(at) % (text.len() + 1));
                let end = floor_boundary(&text, start + usize::from(len));
                text.replace_range(start..end, "");
            }
            Mutation::Duplicate { at, len } => {
                let start = floor_boundary(&text, usize::from(at) % (text.len() + 1));
                let end = floor_boundary(&text, start + usize::from(len));
                let piece = text[start..end].to_string();
                text.insert_str(end, &piece);
            }
        }
    }
    text
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary(&mut Unstructured::new(data)) else { return };
    let text = match input.raw {
        Some(raw) => raw,
        None => mutate(FILES[usize::from(input.file) % FILES.len()].to_string(), &input.mutations),
    };
    let kind = [FileKind::Data, FileKind::Manifest, FileKind::Workspace, FileKind::Plain][usize::from(input.kind) % 4];
    // The width's lowest bit picks the TOML version written (both layouts are fuzzed).
    let toml_version = if input.width % 2 == 0 { TomlVersion::V1_0 } else { TomlVersion::V1_1 };
    let options = FormatOptions { line_width: 20 + usize::from(input.width) % 981, reorder_keys: input.reorder, kind, toml_version };
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);

    let errors = syntax_errors(body);
    if std::env::var_os("FMT_FUZZ_SHOW").is_some() {
        eprintln!("input: {text:?}");
    }
    assert_eq!(is_valid_toml(body), errors.is_empty(), "the quick validity check disagrees with the reader");
    let result = format_document(&text, &options);
    let (start, end) = (usize::from(input.range.0) % (text.len() + 1), usize::from(input.range.1) % (text.len() + 1));
    let ranged = range_edits(&text, start.min(end)..start.max(end), &options);
    match result {
        Err(FormatError::Syntax(e)) => {
            assert!(!errors.is_empty() && !e.is_empty(), "refused a text the reader accepts");
            assert!(matches!(ranged, Err(FormatError::Syntax(_))));
        }
        Err(FormatError::Meaning) => panic!("the formatter would have changed the meaning"),
        Err(FormatError::Comment { line }) => panic!("the formatter would have lost the comment on line {line}"),
        Ok(out) => {
            assert!(errors.is_empty(), "formatted a text the reader refuses: {errors:?}");
            if let (Some(a), Some(b)) = (read(&text).ok(), read(&out).ok()) {
                assert_eq!(a, b, "the value changed (toml_edit)");
            }
            assert_eq!(format_document(&out, &options).as_ref(), Ok(&out), "not idempotent");
            if toml_version == TomlVersion::V1_0 && toml_1_1_use(body).is_none() {
                assert_eq!(toml_1_1_use(&out), None, "TOML 1.0 in, TOML 1.1 out");
            }
            assert_eq!(text.starts_with('\u{feff}'), out.starts_with('\u{feff}'));
            assert_eq!(format_range(&text, 0..text.len(), &options).as_ref(), Ok(&out));
            let len = out.len();
            let (s, e) = (start.min(len), end.min(len));
            assert_eq!(range_edits(&out, s.min(e)..s.max(e), &options), Ok(vec![]), "a formatted text has nothing to format in any range");
            assert!(ranged.is_ok());
        }
    }
});
