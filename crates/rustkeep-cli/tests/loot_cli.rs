//! End-to-end tests of `rustkeep loot`: the real binary, the JSON shape of docs/cli.md, exit codes,
//! mod loading and the SVG plot.

mod common;

use std::process::Output;

use common::{json, run};
use rustkeep_testutil::TempDir;
use serde_json::Value;

fn code(o: &Output) -> i32 {
    o.status.code().expect("rustkeep exits normally")
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().expect("an object").keys().map(String::as_str).collect();
    k.sort();
    k
}

fn assert_sorted(drops: &[Value]) {
    for w in drops.windows(2) {
        let (a, b) = (w[0]["p_any"].as_f64().expect("p_any"), w[1]["p_any"].as_f64().expect("p_any"));
        assert!(a > b || (a == b && w[0]["id"].as_str() < w[1]["id"].as_str()), "drops sorted by p_any, then id: {w:?}");
    }
}

#[test]
fn json_shape_of_spec_6_2() {
    let dir = TempDir::new("shape");
    let o = run(&dir.0, &["loot", "core:floor_3_table", "--format", "json", "--samples", "20000", "--seed", "7", "--luck", "2"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&o);
    assert_eq!(keys(&v), ["drops", "kind", "luck", "p_extra", "samples", "table"]);
    assert_eq!(v["table"], "core:floor_3_table");
    assert_eq!(v["kind"], "items");
    assert_eq!(v["luck"], 2.0);
    assert!((v["p_extra"].as_f64().expect("p_extra") - 0.1).abs() < 1e-12);
    let drops = v["drops"].as_array().expect("drops");
    assert!(drops.len() > 3);
    assert_sorted(drops);
    for d in drops {
        assert_eq!(keys(d), ["affixes", "expected", "id", "p_any"]);
        let p = d["p_any"].as_f64().expect("p_any");
        assert!((0.0..=1.0).contains(&p));
        for a in d["affixes"].as_array().expect("affixes") {
            assert_eq!(keys(a), ["id", "p_any"]);
            assert!(a["p_any"].as_f64().expect("p_any") <= p);
        }
    }
    let boss = drops.iter().find(|d| d["id"] == "core:boss_blade").expect("the guaranteed item");
    assert_eq!(boss["p_any"], 1.0);
    let sword = drops.iter().find(|d| d["id"] == "core:iron_sword").expect("iron sword");
    assert!(sword["affixes"].as_array().expect("affixes").iter().any(|a| a["id"] == "core:flaming"));

    let s = &v["samples"];
    assert_eq!(keys(s), ["drops", "n", "seed"]);
    assert_eq!(s["n"], 20000);
    assert_eq!(s["seed"], 7);
    let sd = s["drops"].as_array().expect("sampled drops");
    assert_sorted(sd);
    for d in sd {
        assert_eq!(keys(d), ["expected", "id", "p_any"]);
    }
    let sboss = sd.iter().find(|d| d["id"] == "core:boss_blade").expect("sampled boss blade");
    assert_eq!(sboss["p_any"], 1.0);

    // The same seed gives the same samples.
    let again = json(&run(&dir.0, &["loot", "core:floor_3_table", "--format", "json", "--samples", "20000", "--seed", "7", "--luck", "2"]));
    assert_eq!(again, v);
}

#[test]
fn no_samples_without_the_flag_and_affix_tables() {
    let dir = TempDir::new("affix");
    let o = run(&dir.0, &["loot", "core:weapon_affixes", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&o);
    assert!(v.get("samples").is_none());
    assert_eq!(v["kind"], "affixes");
    // rolls 0-1, flaming 5 of 26: ½ · 5/26 (docs/loot.md, example 1).
    let flaming = v["drops"].as_array().expect("drops").iter().find(|d| d["id"] == "core:flaming").expect("flaming").clone();
    assert!((flaming["p_any"].as_f64().expect("p_any") - 5.0 / 52.0).abs() < 1e-12);
    assert_eq!(flaming["expected"], flaming["p_any"]);
    assert_eq!(flaming["affixes"], Value::Array(vec![]));
}

#[test]
fn unknown_table_is_a_usage_error_with_a_suggestion() {
    let dir = TempDir::new("unknown");
    let o = run(&dir.0, &["loot", "core:floor_3_tabel"]);
    assert_eq!(code(&o), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("`core:floor_3_tabel` is not a loot table; did you mean `core:floor_3_table`?"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn cycles_exit_1_with_the_cycle_named() {
    let dir = TempDir::with_files("cycle", &[
        ("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n"),
        ("m/loot.toml", "[[loot_tables]]\nid = \"m:a\"\nentries = [ { table = \"m:b\", weight = 1 } ]\n\n[[loot_tables]]\nid = \"m:b\"\nentries = [ { table = \"m:a\", weight = 1 }, { item = \"core:gold\", weight = 1 } ]\n"),
    ]);
    // From the mod's folder (found as the current folder) and through --mods.
    for (cwd, args) in [(dir.0.join("m"), vec!["loot", "m:a"]), (dir.0.clone(), vec!["loot", "m:b", "--mods", "m"])] {
        let o = run(&cwd, &args);
        assert_eq!(code(&o), 1, "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("loot-table-cycle") && err.contains("`m:a` → `m:b` → `m:a`"), "{err}");
    }
}

#[test]
fn mod_tables_load_from_the_current_folder() {
    let dir = TempDir::with_files("mod", &[
        ("mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n"),
        ("loot.toml", "[[loot_tables]]\nid = \"m:coins\"\nrolls = 2\nentries = [ { item = \"core:gold\", weight = 1, count = \"0-2\" }, { nothing = true, weight = 3 } ]\n"),
    ]);
    let o = run(&dir.0, &["loot", "m:coins", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&o);
    // docs/loot.md, example 2: 1 − (5/6)² = 11/36; expected 2 · ¼ · 1 = 0.5.
    assert!((v["drops"][0]["p_any"].as_f64().expect("p_any") - 11.0 / 36.0).abs() < 1e-12);
    assert!((v["drops"][0]["expected"].as_f64().expect("expected") - 0.5).abs() < 1e-12);
}

#[test]
fn human_output_and_plot() {
    let dir = TempDir::new("human");
    let svg = dir.0.join("drops.svg");
    let o = run(&dir.0, &["loot", "core:floor_3_table", "--samples", "5000", "--plot", svg.to_str().expect("utf-8 path")]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("core:floor_3_table — item table, luck 0 (p_extra 0.000)"), "{out}");
    assert!(out.contains("core:boss_blade") && out.contains("100.00 %") && out.contains("  with core:flaming"), "{out}");
    assert!(out.contains("sampled: 5000 evaluations, seed 1"), "{out}");
    let text = std::fs::read_to_string(&svg).expect("the plot is written");
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert!(text.contains("core:iron_sword"));

    // Without samples: the exact values alone; `--plot-of chance` draws the chances, in percent.
    let o = run(&dir.0, &["loot", "core:floor_3_table", "--plot", "x.svg", "--plot-of", "chance"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.0.join("x.svg")).expect("the plot is written");
    assert!(text.contains("chance of at least one per evaluation") && text.contains(">100.00 %<") && !text.contains("sampled"), "{text}");
    assert_eq!(code(&run(&dir.0, &["loot", "core:floor_3_table", "--plot-of", "chance"])), 2, "--plot-of goes with --plot");
    let o = run(&dir.0, &["loot", "core:floor_3_table", "--luck", "NaN"]);
    assert_eq!(code(&o), 2);
    let o = run(&dir.0, &["loot", "core:floor_3_table", "--format", "sarif"]);
    assert_eq!(code(&o), 2);
}

/// A chance is rounded in decimal, half up, from its fifteen significant digits
/// (docs/loot.md, "How chances are printed"): gold comes one way in ten or through the guaranteed
/// table's 33 in 80, 47.125 % exactly — a tie, which rounding the binary product by 100 sent to
/// the even 47.12 %.
#[test]
fn a_chance_on_a_tie_rounds_up_in_decimal() {
    let dir = TempDir::with_files("tie", &[
        ("mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n"),
        ("loot.toml", "[[loot_tables]]\nid = \"m:two_ways\"\nrolls = \"1\"\nentries = [ { item = \"core:gold\", weight = 1 }, { nothing = true, weight = 9 }, { table = \"m:inner\", guaranteed = true } ]\n\n[[loot_tables]]\nid = \"m:inner\"\nrolls = \"1\"\nentries = [ { item = \"core:gold\", weight = 33 }, { nothing = true, weight = 47 } ]\n"),
    ]);
    let v = json(&run(&dir.0, &["loot", "m:two_ways", "--format", "json"]));
    let p = v["drops"][0]["p_any"].as_f64().expect("p_any");
    assert!((p - 0.47125).abs() < 1e-12, "{p}");
    let o = run(&dir.0, &["loot", "m:two_ways"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let gold = out.lines().find(|l| l.starts_with("core:gold ")).unwrap_or_else(|| panic!("{out}"));
    assert!(gold.contains(" 47.13 % "), "{gold}");
}

/// `p_extra` is `luck × luck_factor` as the inputs meant it: `3 × 0.05` prints as `0.15`.
#[test]
fn json_p_extra_is_the_product_as_written() {
    let dir = TempDir::new("loot-tidy");
    let o = run(&dir, &["loot", "core:rat_loot", "--luck", "3", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("\"p_extra\": 0.15,"), "{text}");
}
