//! Hostile inputs (architecture invariant 6: no panic, no hang, no stack overflow on any input):
//! huge files, deep nesting, very long lines, broken encodings, numbers at their limits, loot
//! weights past u64, a 10,000-table loot chain, and globs that try to leave the workspace.
//!
//! Inputs are built in memory (or in a temporary folder where the file system is the point).
//! Tests run on the test harness's threads (2 MiB of stack, like the language server's tokio
//! workers), so a recursion that would overflow in the editor overflows here too.

use std::path::{Path, PathBuf};

use rustkeep_check::{analyze, Analysis};
use rustkeep_data::diag::Code;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::text::Encoding;
use rustkeep_engine::loot::{LootDb, LootError};
use rustkeep_engine::rng::Rng;

/// The bundled core plus a mod `h` holding `files`.
fn project(files: &[(&str, &str)]) -> Project {
    let mut p = Project::with_bundled_core();
    let mut all = vec![("mod.toml", "[mod]\nid = \"h\"\nname = \"Hostile\"\nversion = \"0.1.0\"\n")];
    all.extend_from_slice(files);
    p.add_memory_mod("h", &all);
    p
}

/// `(code, 1-based line, 1-based scalar column)` of every diagnostic.
fn found(p: &Project, a: &Analysis) -> Vec<(Code, u32, u32)> {
    a.diagnostics
        .iter()
        .map(|d| {
            let f = p.file(d.loc.file);
            assert!(d.loc.span.start <= d.loc.span.end && d.loc.span.end <= f.text.len(), "{d:?} lies inside its file");
            let lc = f.index.position(&f.text, d.loc.span.start, Encoding::Scalar);
            (d.code, lc.line + 1, lc.col + 1)
        })
        .collect()
}

fn codes(a: &Analysis) -> Vec<Code> {
    a.diagnostics.iter().map(|d| d.code).collect()
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
    let p = project(&[("big.toml", &text)]);
    let a = analyze(&p);
    assert_eq!(found(&p, &a), vec![(Code::UnknownField, lines, 1)]);
    let facts = a.facts.iter().flatten().find(|f| f.entries.len() > 1000).expect("the big file was lowered");
    assert_eq!(facts.entries.len(), n + 1);
}

#[test]
fn a_10_mb_single_line_reports_the_column_after_it() {
    let long = "ä".repeat(5 << 20); // 10 MiB of UTF-8 on one line
    let text = format!("items = [ {{ id = \"h:long\", name = \"{long}\", colour = \"red\" }} ]\n");
    let p = project(&[("long.toml", &text)]);
    let a = analyze(&p);
    let col = text.find("colour").map(|o| text[..o].chars().count() as u32 + 1);
    assert_eq!(found(&p, &a), vec![(Code::UnknownField, 1, col.expect("the key is there"))]);
}

// ----- nesting -------------------------------------------------------------------------------

#[test]
fn arrays_nested_100_000_deep_are_a_syntax_error_not_a_stack_overflow() {
    let depth = 100_000;
    let text = format!("[[items]]\nid = \"h:deep\"\nname = \"Deep\"\ntags = {}{}\n", "[".repeat(depth), "]".repeat(depth));
    let p = project(&[("deep.toml", &text)]);
    let a = analyze(&p);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
    assert!(found(&p, &a).iter().all(|(c, line, _)| *c == Code::TomlSyntax && *line == 4));
}

#[test]
fn inline_tables_nested_100_000_deep_are_a_syntax_error_not_a_stack_overflow() {
    let depth = 100_000;
    let text = format!("[[items]]\nid = \"h:deep\"\nname = \"Deep\"\nmodifiers = {}1{}\n", "{ a = ".repeat(depth), " }".repeat(depth));
    let p = project(&[("deep.toml", &text)]);
    let a = analyze(&p);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
    // Unclosed, too: the parser must not recurse on the way in either.
    let text = format!("x = {}", "[{a=".repeat(depth));
    let p = project(&[("open.toml", &text)]);
    assert!(codes(&analyze(&p)).contains(&Code::TomlSyntax));
}

// ----- encodings and line ends ---------------------------------------------------------------

/// A fresh folder under the system temp folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rustkeep-hostile-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temp folder is writable");
        TempDir(dir)
    }
    fn write(&self, rel: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().expect("files have a parent")).expect("folders can be created");
        std::fs::write(&p, bytes).expect("files can be written");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const MANIFEST: &[u8] = b"[mod]\nid = \"h\"\nname = \"Hostile\"\nversion = \"0.1.0\"\n";

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
    t.write("zz_garbage.toml", &[0xFF, 0xFE, 0x00, 0x80, b'\n', 0xC0]);
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

// ----- numbers -------------------------------------------------------------------------------

/// Every numeric field of the data language with `value` in it, one entry each.
fn numeric_fields(value: &str) -> String {
    format!(
        r#"[balance]
luck_factor = {v}

[[items]]
id = "h:thing"
name = "Thing"
price = {v}
modifiers = [ {{ attribute = "damage", add = {v} }}, {{ attribute = "armor", multiply = {v} }} ]
use = [ {{ action = "heal", amount = {v}, target = "self" }}, {{ action = "give_item", item = "h:thing", count = {v}, target = "self" }} ]

[[affixes]]
id = "h:sharp"
name = "Sharp"
price_factor = {v}

[[creatures]]
id = "h:beast"
name = "Beast"
attributes = {{ max_health = {v}, strength = {v} }}
loot = "h:table"
ai = [ {{ condition = [ {{ check = "attribute", who = "self", attribute = "luck", at_least = {v}, below = {v} }}, {{ check = "health_below", who = "self", value = {v} }}, {{ check = "has_item", who = "target", item = "h:thing", count = {v} }} ], actions = [ {{ action = "damage", amount = {v}, damage_type = "fire", target = "target" }}, {{ action = "apply_status", status = "h:sick", turns = {v}, target = "target" }}, {{ action = "spawn", creature = "h:beast", count = {v} }} ] }} ]

[[statuses]]
id = "h:sick"
name = "Sick"
turns = {v}

[[quests]]
id = "h:hunt"
name = "Hunt"
on = "creature_died"
chance = {v}
count = {v}
actions = [ {{ action = "start_quest", quest = "h:hunt" }} ]

[[floors]]
id = "h:floor"
depth = {v}
loot = "h:table"

[[shops]]
id = "h:shop"
name = "Shop"
stock = "h:table"
price_factor = {v}

[[loot_tables]]
id = "h:table"
rolls = {v}
entries = [ {{ item = "h:thing", weight = {v}, count = {v} }}, {{ nothing = true, weight = {v} }} ]
"#,
        v = value
    )
}

#[test]
fn numbers_at_their_limits_in_every_numeric_field_never_panic() {
    let values = [
        "9223372036854775807",
        "-9223372036854775808",
        "0x7fffffffffffffff",
        "0",
        "-1",
        "4294967295",
        "4294967296",
        "1e308",
        "5e-324",
        "-0.0",
        "inf",
        "-inf",
        "nan",
        "+nan",
        "\"0-4294967295\"",
        "\"4294967295-4294967295\"",
        "\"18446744073709551615\"",
    ];
    for v in values {
        let text = numeric_fields(v);
        let p = project(&[("numbers.toml", &text)]);
        let a = analyze(&p);
        let got = found(&p, &a);
        // Non-finite numbers fit no field: every line that holds one is reported.
        if v.contains("inf") || v.contains("nan") {
            for (i, line) in text.lines().enumerate() {
                if line.contains(v) {
                    assert!(got.iter().any(|(_, l, _)| *l == i as u32 + 1), "`{v}` on line {} ({line}) is not reported: {got:?}", i + 1);
                }
            }
        }
        // The loot analysis and a roll either work or refuse, with chances that are probabilities.
        let db = LootDb::new(&a);
        if let Ok(r) = db.analyze("h:table", 1.0) {
            for d in &r.drops {
                assert!((0.0..=1.0).contains(&d.p_any) && d.expected.is_finite() && d.expected >= 0.0, "`{v}`: {d:?}");
            }
        }
        let _ = db.try_roll("h:table", 1.0, &mut Rng::seeded(1));
    }
}

// ----- loot ----------------------------------------------------------------------------------

#[test]
fn weights_summing_past_u32_and_u64_stay_exact_or_are_refused() {
    let big = i64::MAX; // the largest integer TOML can write; three of them pass u64::MAX
    let text = format!(
        r#"[[items]]
id = "h:a"
name = "A"

[[items]]
id = "h:b"
name = "B"

[[loot_tables]]
id = "h:past_u32"
entries = [ {{ item = "h:a", weight = 4294967295 }}, {{ item = "h:b", weight = 4294967295 }}, {{ nothing = true, weight = 4294967294 }} ]

[[loot_tables]]
id = "h:past_u64"
entries = [ {{ item = "h:a", weight = {big} }}, {{ item = "h:b", weight = {big} }}, {{ nothing = true, weight = {big} }} ]

[[creatures]]
id = "h:c"
name = "C"
loot = "h:past_u32"

[[floors]]
id = "h:f"
loot = "h:past_u64"
"#
    );
    let p = project(&[("loot.toml", &text)]);
    let a = analyze(&p);
    let db = LootDb::new(&a);

    // Past u32: exact.
    let r = db.analyze("h:past_u32", 0.0).expect("past u32 is fine");
    let third = 4294967295.0 / (3.0 * 4294967295.0 - 1.0);
    for d in &r.drops {
        assert!((d.p_any - third).abs() < 1e-12, "{d:?}");
    }
    // Past u64: either exact, or refused with a diagnostic that says so; never wrapped around.
    match db.analyze("h:past_u64", 0.0) {
        Ok(r) => {
            assert_eq!(r.drops.len(), 2);
            for d in &r.drops {
                assert!((d.p_any - 1.0 / 3.0).abs() < 1e-9, "{d:?}");
            }
        }
        Err(e) => {
            assert!(matches!(e, LootError::Invalid { .. }), "{e}");
            assert!(codes(&a).contains(&Code::InvalidWeight), "the refusal is a diagnostic too: {:?}", codes(&a));
        }
    }
    // Rolling: both give one of the outcomes, many times over, in the right proportions roughly.
    let mut rng = Rng::seeded(3);
    for table in ["h:past_u32", "h:past_u64"] {
        let mut a_count = 0;
        for _ in 0..3000 {
            match db.try_roll(table, 0.0, &mut rng) {
                Ok(drops) => {
                    assert!(drops.len() <= 1);
                    a_count += drops.iter().filter(|d| d.item == "h:a").count();
                }
                Err(e) => assert!(matches!(e, LootError::Invalid { .. }), "{e}"),
            }
        }
        assert!(a_count == 0 || (800..1200).contains(&a_count), "{table}: {a_count} of 3000");
    }
}

/// `n` tables, each nesting the next; the last names an item, or the first when `cycle`.
fn chain(n: usize, cycle: bool) -> String {
    let mut text = String::from("[[items]]\nid = \"h:gem\"\nname = \"Gem\"\n\n[[creatures]]\nid = \"h:boss\"\nname = \"Boss\"\nloot = \"h:t0\"\n\n");
    for i in 0..n {
        let entry = if i + 1 < n {
            format!("{{ table = \"h:t{}\", weight = 1 }}", i + 1)
        } else if cycle {
            "{ table = \"h:t0\", weight = 1 }".to_string()
        } else {
            "{ item = \"h:gem\", weight = 1 }".to_string()
        };
        text.push_str(&format!("[[loot_tables]]\nid = \"h:t{i}\"\nentries = [ {entry} ]\n\n"));
    }
    text
}

#[test]
fn a_10_000_table_loot_chain_is_checked_and_analysed_without_recursion() {
    let p = project(&[("chain.toml", &chain(10_000, false))]);
    let a = analyze(&p);
    assert_eq!(codes(&a), Vec::<Code>::new());
    let db = LootDb::new(&a);
    let r = db.analyze("h:t0", 0.0).expect("the chain is fine");
    assert_eq!(r.drops.len(), 1);
    assert!((r.drops[0].p_any - 1.0).abs() < 1e-12);
    let drops = db.try_roll("h:t0", 0.0, &mut Rng::seeded(1)).expect("the chain rolls");
    assert_eq!(drops.len(), 1);
}

#[test]
fn a_10_000_table_loot_cycle_is_reported_once_and_refused() {
    let p = project(&[("cycle.toml", &chain(10_000, true))]);
    let a = analyze(&p);
    let cycles: Vec<_> = a.diagnostics.iter().filter(|d| d.code == Code::LootTableCycle).collect();
    assert_eq!(cycles.len(), 1, "{:?}", codes(&a));
    let db = LootDb::new(&a);
    assert!(matches!(db.analyze("h:t5000", 0.0), Err(LootError::Cycle { .. })));
    assert!(matches!(db.try_roll("h:t0", 0.0, &mut Rng::seeded(1)), Err(LootError::Cycle { .. })));
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

// ----- regressions found by the fuzzers ------------------------------------------------------

#[test]
fn a_broken_grid_value_starting_with_a_multi_byte_character_is_a_syntax_error() {
    // `data_file` fuzz target: the recovered value's span was sliced as if it were a string
    // literal, inside the two-byte `ك`.
    let text = "[[prefabs]]\nid = \"h:literal\"\ngrid = \u{643} string was opened\".\n\n[[prefabs]]\nid = \"h:b\"\ngrid = \"\"\"\n#.#\n\"\"\"\n";
    let p = project(&[("rooms.toml", text)]);
    let a = analyze(&p);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
    let fuzzed: &[u8] = include_bytes!("regressions/data_file-3342cedb.bin");
    let t = TempDir::new("fuzzed");
    t.write("mod.toml", MANIFEST);
    t.write("rooms.toml", &fuzzed[1..]);
    let (_, a) = check_dir(&t.0);
    assert!(codes(&a).contains(&Code::TomlSyntax), "{:?}", codes(&a));
}
