//! Where diagnostics land: columns in Unicode scalar values, files with CRLF line ends and a
//! byte-order mark, and a broken file that must not hide the problems of its neighbours.

use std::path::Path;

use rustkeep_check::analyze;
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::text::Encoding;
use rustkeep_testutil::TempDir;

const MANIFEST: &str = "[mod]\nid = \"pos\"\nname = \"Positions\"\nversion = \"0.1.0\"\n";
/// A content pack: for the tests about positions in entries that nothing gives or places.
const PACK: &str = "[mod]\nid = \"pos\"\nname = \"Positions\"\nversion = \"0.1.0\"\nlibrary = true\n";

/// `(file, code, 1-based line, 1-based column in scalar values, end line, end column)` of every
/// diagnostic.
fn diagnostics(dir: &Path) -> Vec<(String, String, u32, u32, u32, u32)> {
    let project = load(&[dir.to_path_buf()], dir, &Overlay::new());
    let analysis = analyze(&project);
    analysis
        .diagnostics
        .iter()
        .map(|d| {
            let f = project.file(d.loc.file);
            let s = f.index.position(&f.text, d.loc.span.start, Encoding::Scalar);
            let e = f.index.position(&f.text, d.loc.span.end, Encoding::Scalar);
            (f.path.clone(), d.code.name().to_string(), s.line + 1, s.col + 1, e.line + 1, e.col + 1)
        })
        .collect()
}

#[test]
fn columns_count_unicode_scalar_values_after_umlauts_and_emoji() {
    let dir = TempDir::new("columns");
    dir.write("mod.toml", MANIFEST.as_bytes());
    // `ä`, `ö` are two bytes each and `🔥` four: byte columns would be off by 1+1+3.
    let data = "[[items]]\nid = \"pos:stab\"\nname = \"Äxtö\"\ntriggers = [ { on = \"attack_hit\", when = { note = \"🔥\", damage_type = \"frost\" }, actions = [] } ]\n";
    dir.write("items.toml", data.as_bytes());
    let got = diagnostics(&dir.0);
    let line4 = data.lines().nth(3).expect("line 4 exists");
    let frost_col = line4[..line4.find("\"frost\"").expect("frost is there")].chars().count() as u32 + 1;
    let note_col = line4[..line4.find("note").expect("note is there")].chars().count() as u32 + 1;
    assert!(line4.find("\"frost\"").unwrap() as u32 + 1 > frost_col, "the line really holds multi-byte characters before the value");
    let expect_frost = ("items.toml".to_string(), "unknown-damage-type".to_string(), 4, frost_col, 4, frost_col + 7);
    assert!(got.contains(&expect_frost), "expected {expect_frost:?} in {got:?}");
    assert!(got.iter().any(|d| d.1 == "unknown-when-field" && d.2 == 4 && d.3 == note_col), "unknown-when-field at column {note_col} in {got:?}");

    // Two tags on one line: the second one's columns count the first one's umlauts once each.
    let data2 = "[[items]]\nid = \"pos:coin\"\nname = \"Münze 🔥\"\ntags = [\"pos:äö\", \"🔥\"]\n";
    dir.write("items.toml", data2.as_bytes());
    let got = diagnostics(&dir.0);
    assert!(got.contains(&("items.toml".into(), "invalid-id".into(), 4, 9, 4, 17)), "the tag `\"pos:äö\"` spans columns 9..17 in {got:?}");
    assert!(got.contains(&("items.toml".into(), "invalid-id".into(), 4, 19, 4, 22)), "the tag `\"🔥\"` spans columns 19..22 in {got:?}");
}

#[test]
fn crlf_and_a_byte_order_mark_give_the_same_lines_and_columns() {
    let data = "# Ä comment with an umlaut\n[[items]]\nid = \"pos:stab\"\nname = \"Stäb\"\nprice = -2\ntriggers = [ { on = \"enemy_killed\", actions = [] } ]\n\n[[quest]]\nid = \"pos:q\"\n";
    let plain = TempDir::new("lf");
    plain.write("mod.toml", PACK.as_bytes());
    plain.write("items.toml", data.as_bytes());
    let crlf = TempDir::new("crlf");
    crlf.write("mod.toml", PACK.replace('\n', "\r\n").as_bytes());
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(data.replace('\n', "\r\n").as_bytes());
    crlf.write("items.toml", &bytes);

    let a = diagnostics(&plain.0);
    let b = diagnostics(&crlf.0);
    let codes: Vec<&str> = a.iter().map(|d| d.1.as_str()).collect();
    assert_eq!(codes, ["wrong-type", "trigger-never-active", "unknown-event", "unknown-registry"], "{a:?}");
    assert_eq!(a, b, "LF without BOM and CRLF with BOM must give the same positions");
}

#[test]
fn a_file_that_does_not_parse_does_not_hide_the_other_files() {
    let dir = TempDir::new("broken");
    dir.write("mod.toml", MANIFEST.as_bytes());
    dir.write("a.toml", b"[[items]\nid = \"pos:x\"\n");
    dir.write("b.toml", b"[[items]]\nid = \"pos:y\"\nname = \"Y\"\nprice = \"free\"\n");
    dir.write("c.toml", b"[[quests]]\nid = \"pos:q\"\nname = \"Q\"\non = \"turn_started\"\n");
    let got = diagnostics(&dir.0);
    let summary: Vec<(&str, &str, u32)> = got.iter().map(|d| (d.0.as_str(), d.1.as_str(), d.2)).collect();
    assert_eq!(summary, [("a.toml", "toml-syntax", 1), ("b.toml", "wrong-type", 4), ("c.toml", "quest-never-started", 2)]);
}

#[test]
fn bytes_that_are_not_utf8_are_a_syntax_error_at_their_position() {
    let dir = TempDir::new("utf8");
    dir.write("mod.toml", MANIFEST.as_bytes());
    dir.write("a.toml", b"[[items]]\nid = \"pos:x\"\nname = \"caf\xE9\"\n");
    let got = diagnostics(&dir.0);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].1.as_str(), got[0].2, got[0].3), ("toml-syntax", 3, 12));
}
