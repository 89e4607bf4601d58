//! Hostile inputs (docs/ARCHITECTURE.md, invariant "No panic on any input": no panic, no hang, no
//! stack overflow):
//! huge files, deep nesting, very long lines, broken encodings, and globs that try to leave the
//! workspace. Numbers at their limits, loot weights past u64 and 10,000-table loot chains need
//! the loot engine as well: they are in `crates/rustkeep-cli/tests/hostile_loot.rs`.
//!
//! Inputs are built in memory (or in a temporary folder where the file system is the point).
//! Tests run on the test harness's threads (2 MiB of stack, like the language server's tokio
//! workers), so a recursion that would overflow in the editor overflows here too.

mod common;

use std::path::Path;

use common::hostile::{analysed, codes, found, project};
use rustkeep_check::{analyze, Analysis};
use rustkeep_data::diag::Code;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::text::Encoding;
use rustkeep_testutil::TempDir;

// ----- renames ---------------------------------------------------------------------------------

/// `[renamed]` as `n` lines, `h:a{i}` leading to `h:a{i+1}` and the last one to `h:a{last}`.
fn renames(n: usize, last: usize) -> String {
    let mut text = "[mod]\nid = \"h\"\nname = \"Hostile\"\nversion = \"0.1.0\"\nlibrary = true\n\n[renamed]\n".to_string();
    for i in 0..n {
        text.push_str(&format!("\"h:a{i}\" = \"h:a{}\"\n", if i + 1 == n { last } else { i + 1 }));
    }
    text
}

#[test]
fn a_chain_of_50_000_renames_leads_every_old_id_to_its_end() {
    // Followed step by step from every old ID, such a chain costs its length squared (or cubed):
    // hours here. Each old ID is walked once.
    let n = 50_000;
    let data = format!("[[items]]\nid = \"h:a{n}\"\nname = \"End\"\n\n[[loot_tables]]\nid = \"h:drops\"\nentries = [ {{ item = \"h:a0\", weight = 1 }}, {{ item = \"h:a{}\", weight = 1 }} ]\n", n / 2);
    let mut p = Project::with_bundled_core();
    p.add_memory_mod("h", &[("mod.toml", &renames(n, n)), ("data.toml", &data)]);
    let a = analyze(&p);
    let renamed = &a.db.resolved.renamed;
    assert_eq!(renamed.len(), n);
    for i in [0, 1, n / 2, n - 1] {
        assert_eq!(renamed[&format!("h:a{i}")].to, format!("h:a{n}"));
    }
    // The two old IDs the table names are what the check says of it, and nothing else.
    assert_eq!(codes(&a), vec![Code::RenamedReference, Code::RenamedReference], "{:?}", a.diagnostics);
}

#[test]
fn a_cycle_of_20_000_renames_is_one_diagnostic_and_leads_nowhere() {
    let n = 20_000;
    let mut p = Project::with_bundled_core();
    p.add_memory_mod("h", &[("mod.toml", &renames(n, 0))]);
    let a = analyze(&p);
    assert!(a.db.resolved.renamed.is_empty());
    assert_eq!(codes(&a), vec![Code::RenameCycle]);
    assert_eq!(a.diagnostics[0].related.len(), n - 1);
}

// ----- size ----------------------------------------------------------------------------------

#[test]
fn a_50_mb_data_file_is_checked_and_its_one_mistake_found_at_the_right_line() {
    // 50,000 items of 1 KiB each (the name carries the bulk), then one unknown field.
    let name = "x".repeat(1000);
    let mut text = String::with_capacity(51 << 20);
    let mut n = 0;
    while text.len() < 50 << 20 {
        text.push_str(&format!("[[items]]\nid = \"h:item_{n}\"\nname = \"{name}\"\n\n"));
        n += 1;
    }
    text.push_str("[[items]]\nid = \"h:last\"\nname = \"Last\"\nweight = 3\n");
    let lines = text.lines().count() as u32;
    let (p, a) = analysed(&[("big.toml", &text)]);
    assert_eq!(found(&p, &a), vec![(Code::UnknownField, lines, 1)]);
    let facts = a.db.facts.iter().flatten().find(|f| f.entries.len() > 1000).expect("the big file was lowered");
    assert_eq!(facts.entries.len(), n + 1);
}

#[test]
fn a_10_mb_single_line_reports_the_column_after_it() {
    let long = "ä".repeat(5 << 20); // 10 MiB of UTF-8 on one line
    let text = format!("items = [ {{ id = \"h:long\", name = \"{long}\", colour = \"red\" }} ]\n");
    let (p, a) = analysed(&[("long.toml", &text)]);
    let col = text.find("colour").map(|o| text[..o].chars().count() as u32 + 1);
    assert_eq!(found(&p, &a), vec![(Code::UnknownField, 1, col.expect("the key is there"))]);
}

// ----- nesting -------------------------------------------------------------------------------

/// An item whose field `field` holds `value` (on line 4) is a syntax error there, and nothing
/// else.
fn assert_deep_item_is_a_syntax_error(field: &str, value: &str) {
    let text = format!("[[items]]\nid = \"h:deep\"\nname = \"Deep\"\n{field} = {value}\n");
    let (p, a) = analysed(&[("deep.toml", &text)]);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
    assert!(found(&p, &a).iter().all(|(c, line, _)| *c == Code::TomlSyntax && *line == 4), "{:?}", found(&p, &a));
}

#[test]
fn arrays_nested_100_000_deep_are_a_syntax_error_not_a_stack_overflow() {
    let depth = 100_000;
    assert_deep_item_is_a_syntax_error("tags", &format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
}

#[test]
fn inline_tables_nested_100_000_deep_are_a_syntax_error_not_a_stack_overflow() {
    let depth = 100_000;
    assert_deep_item_is_a_syntax_error("modifiers", &format!("{}1{}", "{ a = ".repeat(depth), " }".repeat(depth)));
    // Unclosed, too: the parser must not recurse on the way in either.
    let text = format!("x = {}", "[{a=".repeat(depth));
    let p = project(&[("open.toml", &text)]);
    assert!(codes(&analyze(&p)).contains(&Code::TomlSyntax));
}

// ----- encodings and line ends ---------------------------------------------------------------

/// A content pack: these tests read hostile text, not what the game never uses.
const MANIFEST: &[u8] = b"[mod]\nid = \"h\"\nname = \"Hostile\"\nversion = \"0.1.0\"\nlibrary = true\n";

fn check_dir(dir: &Path) -> (Project, Analysis) {
    let p = load(&[dir.to_path_buf()], dir, &Overlay::new());
    let a = analyze(&p);
    (p, a)
}

#[test]
fn invalid_utf8_bom_and_crlf_give_positions_of_the_visible_text() {
    let t = TempDir::new("enc");
    t.write("mod.toml", MANIFEST);
    // BOM + CRLF: the unknown field is on line 3, column 1, and its range ends before the `\r`.
    t.write("crlf.toml", b"\xEF\xBB\xBF[[items]]\r\nid = \"h:a\"\r\ncolour = \"red\"\r\nname = \"A\"\r\n");
    // Invalid UTF-8 in the middle of line 2 (after `name = "`, column 9).
    t.write("latin1.toml", b"[[items]]\nname = \"K\xE4se\"\nid = \"h:b\"\n");
    // Only garbage.
    t.write("zz_garbage.toml", [0xFF, 0xFE, 0x00, 0x80, b'\n', 0xC0]);
    let (p, a) = check_dir(&t.0);
    let mut got: Vec<(String, Code, u32, u32)> = Vec::new();
    for d in &a.diagnostics {
        let f = p.file(d.loc.file);
        let s = f.index.position(&f.text, d.loc.span.start, Encoding::Scalar);
        got.push((f.path.clone(), d.code, s.line + 1, s.col + 1));
        if d.code == Code::UnknownField {
            assert_eq!(&f.text[d.loc.span.clone()], "colour", "the range covers the key only");
        }
    }
    assert_eq!(
        got,
        vec![
            ("crlf.toml".to_string(), Code::UnknownField, 3, 1),
            ("latin1.toml".to_string(), Code::TomlSyntax, 2, 10),
            ("zz_garbage.toml".to_string(), Code::TomlSyntax, 1, 1),
        ]
    );
}

// ----- the file system -----------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn globs_never_read_outside_the_workspace_and_symlink_loops_do_not_hang() {
    use std::os::unix::fs::symlink;
    let t = TempDir::new("globs");
    let outside = t.0.join("outside");
    let secret = t.write("outside/secret/mod.toml", b"[mod]\nid = \"secret\"\nname = \"S\"\nversion = \"0.1.0\"\n");
    t.write("outside/secret/data.toml", b"[[items]]\nid = \"secret:x\"\n");
    let ws = t.0.join("ws");
    t.write("ws/mods/good/mod.toml", b"[mod]\nid = \"good\"\nname = \"G\"\nversion = \"0.1.0\"\n");
    t.write("ws/mods/good/items.toml", b"[[items]]\nid = \"good:a\"\nname = \"A\"\n");
    // A link out of the workspace, a link to the workspace itself and two loops.
    symlink(&outside, ws.join("mods/escape")).expect("symlinks can be made");
    symlink(&ws, ws.join("mods/good/self")).expect("symlinks can be made");
    symlink(".", ws.join("mods/loop_a")).expect("symlinks can be made");
    symlink("..", ws.join("mods/loop_b")).expect("symlinks can be made");
    t.write("ws/rustkeep.toml", b"[workspace]\nmods = [\"mods/*\", \"../outside/*\", \"/etc/*\", \"mods/**/nothing_matches_this\", \"mods/*/*/*/*/*\"]\n");
    let (p, a) = check_dir(&ws);
    // Nothing outside the workspace was read.
    for f in &p.files {
        if let Some(d) = &f.disk_path {
            assert!(d.starts_with(&ws), "{} was read", d.display());
            assert!(!d.starts_with(&outside) && d != &secret);
        }
    }
    assert!(p.mods.iter().all(|m| m.id != "secret"));
    assert!(p.mods.iter().any(|m| m.id == "good"));
    let manifest_errors: Vec<&str> = a.diagnostics.iter().filter(|d| d.code == Code::InvalidManifest).map(|d| d.message.as_str()).collect();
    assert!(manifest_errors.iter().any(|m| m.contains("../outside/*") && m.contains("outside the workspace")), "{manifest_errors:?}");
    assert!(manifest_errors.iter().any(|m| m.contains("/etc/*")), "{manifest_errors:?}");
    assert!(manifest_errors.iter().any(|m| m.contains("escape") && m.contains("outside the workspace root")), "{manifest_errors:?}");

    // Discovery without globs does not follow the links either.
    std::fs::remove_file(ws.join("rustkeep.toml")).expect("the workspace file can be removed");
    let (p, _) = check_dir(&ws);
    assert!(p.files.iter().filter_map(|f| f.disk_path.as_ref()).all(|d| d.starts_with(&ws) && !d.to_string_lossy().contains("/self/")));
    assert_eq!(p.mods.iter().filter(|m| m.id == "good").count(), 1);
}

#[test]
fn a_grid_too_large_to_lay_out_is_invalid() {
    let row = |w: usize| format!("+{}\n", ".".repeat(w - 1));
    let wide = format!("[[prefabs]]\nid = \"h:wide\"\ngrid = \"\"\"\n{}\"\"\"\n", row(513));
    let tall = format!("[[prefabs]]\nid = \"h:tall\"\ngrid = \"\"\"\n{}\"\"\"\n", "+\n".repeat(513));
    let fine = format!("[[prefabs]]\nid = \"h:fine\"\ngrid = \"\"\"\n{}\"\"\"\n", row(512).repeat(3));
    for (text, bad) in [(wide, true), (tall, true), (fine, false)] {
        let (_, a) = analysed(&[("rooms.toml", &text)]);
        let grids: Vec<&str> = a.diagnostics.iter().filter(|d| d.code == Code::InvalidPrefabGrid).map(|d| d.message.as_str()).collect();
        assert_eq!(grids.len(), usize::from(bad), "{grids:?}");
        assert!(grids.iter().all(|m| m.contains("at most 512 × 512")), "{grids:?}");
    }
}

// ----- regressions found by the fuzzers ------------------------------------------------------

#[test]
fn a_broken_grid_value_starting_with_a_multi_byte_character_is_a_syntax_error() {
    // `data_file` fuzz target: the recovered value's span was sliced as if it were a string
    // literal, inside the two-byte `ك`.
    let text = "[[prefabs]]\nid = \"h:literal\"\ngrid = \u{643} string was opened\".\n\n[[prefabs]]\nid = \"h:b\"\ngrid = \"\"\"\n#.#\n\"\"\"\n";
    let (_, a) = analysed(&[("rooms.toml", text)]);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
    let fuzzed: &[u8] = include_bytes!("regressions/data_file-3342cedb.bin");
    let t = TempDir::new("fuzzed");
    t.write("mod.toml", MANIFEST);
    t.write("rooms.toml", &fuzzed[1..]);
    let (_, a) = check_dir(&t.0);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
}
