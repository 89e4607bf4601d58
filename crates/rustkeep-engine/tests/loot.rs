//! Loot tables (docs/loot.md, docs/cli.md): hand-computed exact chances, golden rolls, refusals, depth, and
//! the agreement of the exact analyzer with sampled rolls.

use std::collections::HashMap;

use rustkeep_data::db::Database;
use rustkeep_data::project::Project;
use rustkeep_engine::loot::{ItemDrop, KeptStats, LootDb, LootError, LootReport, Scratch};
use rustkeep_engine::rng::Rng;

const MANIFEST: &str = "[mod]\nid = \"t\"\nname = \"Test\"\nversion = \"0.1.0\"\n";

const DEFS: &str = include_str!("data/loot/defs.toml");

/// The model of the core plus a mod with `loot`, and its compiled loot tables. The engine does
/// not validate; whether the validator reports what the engine refuses is tested above both, in
/// `crates/rustkeep-cli/tests/hostile_loot.rs`.
fn build(loot: &str) -> (Database, LootDb) {
    let mut p = Project::with_bundled_core();
    p.add_memory_mod("t", &[("mod.toml", MANIFEST), ("defs.toml", DEFS), ("loot.toml", loot)]);
    let data = Database::load(&p);
    let db = LootDb::new(&data);
    (data, db)
}

/// What lowering reported and resolving found: the data-level problems (the cross-file rules are
/// the validator's).
fn data_problems(data: &Database) -> Vec<String> {
    let lowering = data.facts.iter().flatten().flat_map(|f| &f.diagnostics).map(|d| d.message.clone());
    lowering.chain(data.resolved.findings.iter().map(|f| format!("{f:?}"))).collect()
}

fn drop<'a>(r: &'a LootReport, id: &str) -> &'a rustkeep_engine::loot::DropStat {
    r.drops.iter().find(|d| &*d.id == id).unwrap_or_else(|| panic!("{id} missing from {r:#?}"))
}

fn pair(r: &LootReport, item: &str, affix: &str) -> f64 {
    drop(r, item).affixes.iter().find(|a| &*a.id == affix).map(|a| a.p_any).unwrap_or_else(|| panic!("{item}+{affix} missing"))
}

fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-9, "got {got}, want {want}");
}

/// Example 1 of docs/loot.md — the affix table, at luck 0 and with one extra roll at 20 %.
///
/// rolls 0-1, fire 5 / ice 1 / nothing 20 (W = 26). With luck 0: n = 0 or 1, each ½, so
/// P(fire) = ½ · 5/26 = 5/52 ≈ 0.0961538. With luck 4 (luck_factor 0.05): p_extra = 0.2, so
/// P(n=0) = ½·0.8 = 0.4, P(n=1) = ½·0.2 + ½·0.8 = 0.5, P(n=2) = ½·0.2 = 0.1, and
/// P(no fire) = 0.4 + 0.5·(21/26) + 0.1·(21/26)²; P(fire) = 1 − 0.8690828 ≈ 0.1309172.
/// An affix table yields a set, so expected = p_any.
#[test]
fn hand_computed_affix_table_with_luck() {
    let (_, db) = build(
        r#"
[[loot_tables]]
id = "t:wa"
rolls = "0-1"
entries = [ { affix = "t:fire", weight = 5 }, { affix = "t:ice", weight = 1 }, { nothing = true, weight = 20 } ]
"#,
    );
    let r = db.analyze("t:wa", 0.0).expect("analyzes");
    assert_eq!(r.kind.as_str(), "affixes");
    assert_eq!(r.p_extra, 0.0);
    close(drop(&r, "t:fire").p_any, 5.0 / 52.0);
    close(drop(&r, "t:fire").expected, 5.0 / 52.0);
    close(drop(&r, "t:ice").p_any, 1.0 / 52.0);

    let r = db.analyze("t:wa", 4.0).expect("analyzes");
    close(r.p_extra, 0.2);
    let x: f64 = 21.0 / 26.0;
    close(drop(&r, "t:fire").p_any, 1.0 - (0.4 + 0.5 * x + 0.1 * x * x));
    close(drop(&r, "t:fire").p_any, 0.130_917_159_763_313_6);
    assert_eq!(&*r.drops[0].id, "t:fire", "sorted by chance");
}

/// Example 2 — count ranges starting at 0 and a guaranteed entry.
///
/// rolls 2, coin 1 (count 0-2) / nothing 3, key guaranteed. One roll gives a coin instance with
/// ¼ · ⅔ = ⅙ (a count of 0 is no instance), so P(coin) = 1 − (⅚)² = 11/36 ≈ 0.3055556.
/// Expected coins = 2 rolls · ¼ · mean count 1 = 0.5. The key: p_any 1, expected 1.
#[test]
fn hand_computed_counts_from_zero_and_guaranteed() {
    let (_, db) = build(
        r#"
[[loot_tables]]
id = "t:two"
rolls = 2
entries = [ { item = "t:coin", weight = 1, count = "0-2" }, { nothing = true, weight = 3 }, { item = "t:key", guaranteed = true } ]
"#,
    );
    let r = db.analyze("t:two", 0.0).expect("analyzes");
    assert_eq!(r.kind.as_str(), "items");
    close(drop(&r, "t:coin").p_any, 11.0 / 36.0);
    close(drop(&r, "t:coin").expected, 0.5);
    close(drop(&r, "t:key").p_any, 1.0);
    close(drop(&r, "t:key").expected, 1.0);
    assert_eq!(r.drops.iter().map(|d| &*d.id).collect::<Vec<_>>(), ["t:key", "t:coin"]);
}

/// Example 3 — nesting, and affix chances per item.
///
/// `t:aff` (rolls 1-2): a 1 / b 3. P(a) = 1 − ½(¾ + (¾)²) = 11/32; P(b) = 1 − ½(¼ + (¼)²) = 27/32.
/// `t:inner` (rolls 1): sword 1 (affixes t:aff) / nothing 1.
/// `t:outer` (rolls 0-2): t:inner 1 / sword 1 (no affixes).
/// One outer pick gives a sword with ½·½ + ½ = ¾: P(sword) = 1 − ⅓(1 + ¼ + ¼²) = 9/16;
/// expected swords = E[n] · ¾ = 1 · ¾. A sword carrying `a` comes only through the inner table:
/// ½ · ½ · 11/32 = 11/128 per pick, so P = 1 − ⅓(1 + y + y²) with y = 117/128 ≈ 0.0834757.
/// For `b`: 27/128 per pick, y = 101/128.
#[test]
fn hand_computed_nesting_and_affix_pairs() {
    let (_, db) = build(
        r#"
[[loot_tables]]
id = "t:aff"
rolls = "1-2"
entries = [ { affix = "t:a", weight = 1 }, { affix = "t:b", weight = 3 } ]

[[loot_tables]]
id = "t:inner"
entries = [ { item = "t:sword", weight = 1, affixes = "t:aff" }, { nothing = true, weight = 1 } ]

[[loot_tables]]
id = "t:outer"
rolls = "0-2"
entries = [ { table = "t:inner", weight = 1 }, { item = "t:sword", weight = 1 } ]
"#,
    );
    let aff = db.analyze("t:aff", 0.0).expect("analyzes");
    close(drop(&aff, "t:a").p_any, 11.0 / 32.0);
    close(drop(&aff, "t:b").p_any, 27.0 / 32.0);

    let r = db.analyze("t:outer", 0.0).expect("analyzes");
    close(drop(&r, "t:sword").p_any, 9.0 / 16.0);
    close(drop(&r, "t:sword").expected, 0.75);
    let y: f64 = 117.0 / 128.0;
    close(pair(&r, "t:sword", "t:a"), 1.0 - (1.0 + y + y * y) / 3.0);
    close(pair(&r, "t:sword", "t:a"), 0.083_475_748_697_916_67);
    let y: f64 = 101.0 / 128.0;
    close(pair(&r, "t:sword", "t:b"), 1.0 - (1.0 + y + y * y) / 3.0);
    assert_eq!(&*drop(&r, "t:sword").affixes[0].id, "t:b", "affixes sorted by chance");
}

#[test]
fn huge_roll_ranges_are_closed_form() {
    let (_, db) = build(
        r#"
[[loot_tables]]
id = "t:huge"
rolls = "0-4000000000"
entries = [ { item = "t:gem", weight = 1 }, { nothing = true, weight = 999999 } ]
"#,
    );
    let r = db.analyze("t:huge", 0.0).expect("analyzes");
    // q = mean over n of (1 − 1e-6)^n ≈ 1/(m·d) for m·d ≫ 1: p_any ≈ 1 − 1/4000.000001.
    let m = 4_000_000_001.0_f64;
    let d = 1e-6_f64;
    let want = 1.0 - (-(m * (-d).ln_1p()).exp_m1()) / (m * d);
    close(drop(&r, "t:gem").p_any, want);
    close(drop(&r, "t:gem").expected, 2_000_000_000.0 * 1e-6);
    // Sampling such a table is refused instead of running for minutes.
    let err = db.try_roll("t:huge", 0.0, &mut Rng::seeded(1)).expect_err("too much work");
    assert!(matches!(err, LootError::TooMuchWork { .. }), "{err}");
    assert!(db.roll("t:huge", 0.0, &mut Rng::seeded(1)).is_empty());
}

const GOLDEN_FIXTURE: &str = include_str!("data/loot/golden.toml");

fn d(item: &str, count: u32, affixes: &[&str]) -> ItemDrop {
    ItemDrop { item: item.into(), count, affixes: affixes.iter().map(|s| s.to_string()).collect() }
}

#[test]
fn golden_rolls_for_a_fixed_seed() {
    let (_, db) = build(GOLDEN_FIXTURE);
    let mut rng = Rng::seeded(2024);
    let rolls: Vec<Vec<ItemDrop>> = (0..5).map(|_| db.roll("t:chest", 2.0, &mut rng)).collect();
    let want: Vec<Vec<ItemDrop>> = golden_rolls();
    assert_eq!(rolls, want, "{rolls:#?}");
    // The generator state after the rolls restores exactly.
    let mut again = Rng::from_hex(&rng.to_hex()).expect("state parses");
    assert_eq!(db.roll("t:chest", 2.0, &mut rng), db.roll("t:chest", 2.0, &mut again));
    let mut r = Rng::seeded(5);
    assert_eq!(db.roll_affixes("t:ring_affixes", 0.0, &mut r), golden_affix_roll());
}

fn golden_rolls() -> Vec<Vec<ItemDrop>> {
    vec![
        vec![d("t:key", 1, &[]), d("t:gold", 7, &[]), d("t:gem", 1, &[]), d("t:gem", 3, &[])],
        vec![d("t:key", 1, &[]), d("t:gold", 9, &[]), d("t:ring", 1, &["t:holy"])],
        vec![d("t:key", 1, &[]), d("t:ring", 1, &["t:holy"])],
        vec![d("t:key", 1, &[]), d("t:gold", 8, &[]), d("t:ring", 1, &["t:fire", "t:holy"]), d("t:gem", 2, &[]), d("t:gem", 3, &[])],
        vec![d("t:key", 1, &[]), d("t:gold", 5, &[]), d("t:gold", 8, &[])],
    ]
}

fn golden_affix_roll() -> Vec<String> {
    vec!["t:fire".into(), "t:holy".into()]
}

#[test]
fn rolls_give_guaranteed_and_sets() {
    let (_, db) = build(GOLDEN_FIXTURE);
    let mut rng = Rng::seeded(9);
    for _ in 0..2000 {
        let drops = db.roll("t:chest", 100.0, &mut rng);
        assert_eq!(drops.iter().filter(|d| d.item == "t:key").count(), 1);
        for d in &drops {
            assert!(d.count >= 1, "count 0 instances do not exist: {d:?}");
            let mut sorted = d.affixes.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted, d.affixes, "affixes are a sorted set");
            if d.item == "t:ring" {
                assert!(d.affixes.contains(&"t:holy".to_string()), "guaranteed affix");
            } else {
                assert!(d.affixes.is_empty());
            }
        }
        let set = db.roll_affixes("t:ring_affixes", 100.0, &mut rng);
        assert!(set.contains(&"t:holy".to_string()));
    }
}

#[test]
fn wrong_kind_and_unknown_tables() {
    let (_, db) = build(GOLDEN_FIXTURE);
    let mut rng = Rng::seeded(1);
    let err = db.try_roll("t:ring_affixes", 0.0, &mut rng).expect_err("affix table");
    assert!(matches!(err, LootError::WrongKind { .. }));
    assert!(db.try_roll_affixes("t:chest", 0.0, &mut rng).is_err());
    let err = db.analyze("t:chets", 0.0).expect_err("unknown");
    assert_eq!(err.to_string(), "`t:chets` is not a loot table; did you mean `t:chest`?");
    assert!(db.roll("t:nope", 0.0, &mut rng).is_empty());
}

#[test]
fn cycles_are_refused_by_name() {
    let (_, db) = build(
        r#"
[[loot_tables]]
id = "t:a"
entries = [ { table = "t:b", weight = 1 }, { item = "t:gem", weight = 1 } ]

[[loot_tables]]
id = "t:b"
entries = [ { table = "t:a", weight = 1 } ]

[[loot_tables]]
id = "t:above"
entries = [ { table = "t:a", weight = 1 } ]

[[loot_tables]]
id = "t:self_affixes"
entries = [ { table = "t:self_affixes", weight = 1 }, { affix = "t:fire", weight = 1 } ]

[[loot_tables]]
id = "t:fine"
entries = [ { item = "t:gem", weight = 1 } ]
"#,
    );
    let e = db.analyze("t:b", 0.0).expect_err("on a cycle");
    assert_eq!(e.to_string(), "loot-table-cycle: loot tables nest into a cycle: `t:a` → `t:b` → `t:a` — evaluating `t:b` would never end");
    let e = db.analyze("t:above", 0.0).expect_err("nests a cycle");
    assert_eq!(e.to_string(), "loot-table-cycle: `t:above` nests the cycle `t:a` → `t:b` → `t:a` — evaluating it would never end");
    assert!(matches!(db.try_roll_affixes("t:self_affixes", 0.0, &mut Rng::seeded(1)), Err(LootError::Cycle { .. })));
    assert!(db.roll("t:a", 5.0, &mut Rng::seeded(1)).is_empty());
    assert!(db.analyze("t:fine", 0.0).is_ok());
}

#[test]
fn broken_references_are_refused_with_the_culprit() {
    let (_, db) = build(
        r#"
[[loot_tables]]
id = "t:bad"
entries = [ { item = "t:nonexistent", weight = 1 } ]

[[loot_tables]]
id = "t:top"
entries = [ { table = "t:bad", weight = 1 } ]
"#,
    );
    assert_eq!(db.analyze("t:bad", 0.0).expect_err("bad").to_string(), "`t:bad` cannot be evaluated: `t:nonexistent` is not an item");
    assert_eq!(db.analyze("t:top", 0.0).expect_err("bad").to_string(), "`t:top` cannot be evaluated: it reaches `t:bad`, where `t:nonexistent` is not an item");
}

#[test]
fn deep_chains_use_no_stack() {
    // 10,001 tables, each nesting the next as a guaranteed entry and rolling a gem on one roll in
    // two: expected gems = 10,001 · ½, P(no gem) = 2^−10,001. Each table names the gem itself, so
    // its kind is known without propagating through the chain.
    let n = 10_000;
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "[[loot_tables]]\nid = \"t:c{i}\"\nentries = [ {{ table = \"t:c{}\", guaranteed = true }}, {{ item = \"t:gem\", weight = 1 }}, {{ nothing = true, weight = 1 }} ]\n",
            i + 1
        ));
    }
    text.push_str(&format!("[[loot_tables]]\nid = \"t:c{n}\"\nentries = [ {{ item = \"t:gem\", weight = 1 }}, {{ nothing = true, weight = 1 }} ]\n"));
    // A cycle as long, closing back on its start.
    for i in 0..n {
        text.push_str(&format!("[[loot_tables]]\nid = \"t:r{i}\"\nentries = [ {{ table = \"t:r{}\", weight = 1 }} ]\n", (i + 1) % n));
    }
    let (_, db) = build(&text);
    let r = db.analyze("t:c0", 0.0).expect("analyzes");
    close(drop(&r, "t:gem").p_any, 1.0);
    close(drop(&r, "t:gem").expected, 5000.5);
    let r = db.analyze(&format!("t:c{}", n - 1), 0.0).expect("analyzes");
    close(drop(&r, "t:gem").p_any, 0.75);
    let mut rng = Rng::seeded(3);
    for _ in 0..20 {
        let gems: u32 = db.roll("t:c0", 0.0, &mut rng).iter().map(|d| d.count).sum();
        // σ = √(10,001 · ¼) ≈ 50: 6σ bounds.
        assert!((4700..=5300).contains(&gems), "{gems}");
    }
    assert!(matches!(db.analyze("t:r500", 0.0), Err(LootError::Cycle { .. })));
}

/// The agreement fixture: depth 5 (root → l1 → l2 → l3 → l4), counts from 0, guaranteed tables
/// and items, affix tables nested in affix tables (also guaranteed), the same item with and
/// without affixes.
const AGREEMENT_FIXTURE: &str = include_str!("data/loot/agreement.toml");

/// Sampled frequencies against exact values: p_any and item+affix chances within 5σ of a
/// binomial proportion (σ = √(p(1−p)/n)); expected counts within 5 standard errors of the sample
/// mean (from the sample's own variance). Luck 0, 6 (p_extra 0.3) and 100 (clamped at 0.9).
#[test]
fn exact_agrees_with_sampling() {
    let (data, db) = build(AGREEMENT_FIXTURE);
    assert!(data_problems(&data).is_empty(), "{:#?}", data_problems(&data));
    let n: u64 = 1_000_000;
    for (luck, seed) in [(0.0, 11u64), (6.0, 12), (100.0, 13)] {
        let exact = db.analyze("t:root", luck).expect("analyzes");
        let t = db.table("t:root").expect("table");
        let mut rng = Rng::seeded(seed);
        let mut s = Scratch::default();
        let p_extra = db.p_extra(luck);
        // Per item: evaluations with ≥ 1, Σ count, Σ count²; per (item, affix): evaluations with
        // ≥ 1. Dense arrays with "last seen" stamps keep the million evaluations fast.
        let (ni, na) = (db.item_count(), db.affix_count());
        let mut items = vec![(0u64, 0.0f64, 0.0f64); ni];
        let mut pairs = vec![0u64; ni * na];
        let mut count_now = vec![0u64; ni];
        let mut item_stamp = vec![u64::MAX; ni];
        let mut pair_stamp = vec![u64::MAX; ni * na];
        let mut touched: Vec<usize> = Vec::new();
        for i in 0..n {
            db.roll_raw(t, p_extra, &mut rng, &mut s).expect("rolls");
            touched.clear();
            for d in &s.drops {
                let k = d.item as usize;
                if item_stamp[k] != i {
                    item_stamp[k] = i;
                    count_now[k] = 0;
                    touched.push(k);
                }
                count_now[k] += u64::from(d.count);
                for &af in s.affixes_of(d) {
                    let pk = k * na + af as usize;
                    if pair_stamp[pk] != i {
                        pair_stamp[pk] = i;
                        pairs[pk] += 1;
                    }
                }
            }
            for &k in &touched {
                let c = count_now[k] as f64;
                items[k].0 += 1;
                items[k].1 += c;
                items[k].2 += c * c;
            }
        }
        let item_index = |id: &str| (0..ni).find(|&k| db.item_name(k as u32) == id).expect("known item");
        let affix_index = |id: &str| (0..na).find(|&k| db.affix_name(k as u32) == id).expect("known affix");
        let nf = n as f64;
        let mut checked = 0;
        for dstat in &exact.drops {
            let k = item_index(&dstat.id);
            let (hits, sum, sumsq) = items[k];
            let p = dstat.p_any;
            let tol = 5.0 * (p * (1.0 - p) / nf).sqrt() + 1e-12;
            let freq = hits as f64 / nf;
            assert!((freq - p).abs() <= tol, "luck {luck}: {} p_any exact {p} sampled {freq} (tol {tol})", dstat.id);
            let mean = sum / nf;
            let var = (sumsq / nf - mean * mean).max(0.0);
            let tol_e = 5.0 * (var / nf).sqrt() + 1e-12;
            assert!((mean - dstat.expected).abs() <= tol_e, "luck {luck}: {} expected exact {} sampled {mean} (tol {tol_e})", dstat.id, dstat.expected);
            for af in &dstat.affixes {
                let hits = pairs[k * na + affix_index(&af.id)];
                let p = af.p_any;
                let tol = 5.0 * (p * (1.0 - p) / nf).sqrt() + 1e-12;
                let freq = hits as f64 / nf;
                assert!((freq - p).abs() <= tol, "luck {luck}: {}+{} exact {p} sampled {freq} (tol {tol})", dstat.id, af.id);
                checked += 1;
            }
            checked += 1;
        }
        // Every sampled outcome is one the analyzer knows about.
        for k in 0..ni {
            let id = db.item_name(k as u32);
            if items[k].0 > 0 {
                assert!(exact.drops.iter().any(|d| &*d.id == id), "{id} sampled but not in the exact report");
            }
            for a in 0..na {
                if pairs[k * na + a] > 0 {
                    let af = db.affix_name(a as u32);
                    assert!(drop(&exact, id).affixes.iter().any(|x| &*x.id == af), "{id}+{af} sampled but not exact");
                }
            }
        }
        // gem, ring, sword, gold, potion, boss; ring and sword each with fire, ice, keen.
        assert_eq!(checked, 12);
    }
    // The affix tables alone, nested in each other, at moderate luck.
    for table in ["t:weapon_aff", "t:ring_aff"] {
        let exact = db.analyze(table, 6.0).expect("analyzes");
        let sampled = db.sample(table, 6.0, 200_000, 5).expect("samples");
        let nf = 200_000.0;
        for dstat in &exact.drops {
            let freq = sampled.drops.iter().find(|s| s.id == dstat.id).map(|s| s.p_any).unwrap_or(0.0);
            let p = dstat.p_any;
            assert!((freq - p).abs() <= 5.0 * (p * (1.0 - p) / nf).sqrt() + 1e-12, "{table} {}: {p} vs {freq}", dstat.id);
            close(dstat.expected, dstat.p_any);
        }
    }
}

#[test]
fn sample_report_matches_raw_rolls() {
    let (_, db) = build(AGREEMENT_FIXTURE);
    let n = 3000;
    let report = db.sample("t:root", 6.0, n, 77).expect("samples");
    let t = db.table("t:root").expect("table");
    let mut rng = Rng::seeded(77);
    let mut s = Scratch::default();
    let mut hits: HashMap<String, u64> = HashMap::new();
    let mut totals: HashMap<String, u64> = HashMap::new();
    for _ in 0..n {
        db.roll_raw(t, db.p_extra(6.0), &mut rng, &mut s).expect("rolls");
        let mut seen = Vec::new();
        for d in &s.drops {
            *totals.entry(db.item_name(d.item).to_string()).or_insert(0) += u64::from(d.count);
            if !seen.contains(&d.item) {
                seen.push(d.item);
                *hits.entry(db.item_name(d.item).to_string()).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(report.n, n);
    assert_eq!(report.seed, 77);
    assert_eq!(report.drops.len(), hits.len());
    for d in &report.drops {
        assert_eq!(d.p_any, hits[&*d.id] as f64 / n as f64, "{}", d.id);
        assert_eq!(d.expected, totals[&*d.id] as f64 / n as f64, "{}", d.id);
    }
    assert!(report.drops.windows(2).all(|w| w[0].p_any >= w[1].p_any));
}

#[test]
fn bundled_core_tables_all_evaluate() {
    let db = LootDb::new(&Database::load(&Project::with_bundled_core()));
    let ids: Vec<String> = db.table_ids().map(String::from).collect();
    assert!(ids.len() > 5);
    for id in &ids {
        let r = db.analyze(id, 3.0).unwrap_or_else(|e| panic!("{id}: {e}"));
        for d in &r.drops {
            assert!((0.0..=1.0).contains(&d.p_any) && d.expected >= 0.0, "{id}: {d:?}");
            for af in &d.affixes {
                assert!(af.p_any <= d.p_any + 1e-12, "{id}: an affix cannot be likelier than its item: {d:?}");
            }
        }
    }
    // core:floor_3_table (docs/loot.md): the boss blade is guaranteed.
    let r = db.analyze("core:floor_3_table", 0.0).expect("analyzes");
    close(drop(&r, "core:boss_blade").p_any, 1.0);
    // The iron sword: 3/34 per roll, rolls 1-3 → 1 − ⅓(x + x² + x³), x = 31/34.
    let x: f64 = 31.0 / 34.0;
    close(drop(&r, "core:iron_sword").p_any, 1.0 - (x + x * x + x * x * x) / 3.0);
    close(drop(&r, "core:iron_sword").expected, 2.0 * 3.0 / 34.0);
}

/// Small chances keep their relative precision through a chain of nested tables: a dagger of
/// `core:floor_2_table` carrying `core:greater_flaming` comes through four tables (1 in about
/// 38,000). Its chance, computed by hand as a fraction: `core:weapon_affixes` (rolls 0-1, 1 of 26)
/// gives it with ½ · 1/26 = 1/52; `core:blade_affixes` (rolls 0-1, the table at 2 of 20) with
/// ½ · 2/20 · 1/52 = 1/1040; `core:common_weapons` (one roll, the dagger at 4 of 17) with
/// 4/17 · 1/1040; `core:floor_2_table` (rolls 1-2, the weapons at 3 of 39) picks it with
/// d = 3/39 · 4/17 · 1/1040 per roll, so P = 1 − ½((1 − d) + (1 − d)²) = d·(3 − d)/2.
/// Computing `1 − q` from a `q` near 1 would leave it right to only ten digits or so.
#[test]
fn small_chances_through_a_chain_are_exact_to_the_last_digits() {
    let db = LootDb::new(&Database::load(&Project::with_bundled_core()));
    let r = db.analyze("core:floor_2_table", 0.0).expect("analyzes");
    let d = 3.0 / 39.0 * 4.0 / 17.0 / 1040.0;
    let want = d * (3.0 - d) / 2.0;
    let got = pair(&r, "core:rusty_dagger", "core:greater_flaming");
    assert!(((got - want) / want).abs() < 1e-14, "got {got:e}, want {want:e}");
}

/// `analyze_all` shares nested statistics between tables; it must give exactly what analysing
/// each table on its own gives, refusals included.
#[test]
fn analyze_all_equals_table_by_table() {
    let (_, db) = build(AGREEMENT_FIXTURE);
    for luck in [0.0, 6.0] {
        let all = db.analyze_all(luck);
        assert!(all.len() > 20, "the core's tables and the fixture's");
        for (id, r) in all {
            match (r, db.analyze(&id, luck)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{id}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{id}"),
                (a, b) => panic!("{id}: {a:?} vs {b:?}"),
            }
        }
    }
}

/// Statistics kept across analyses ([`KeptStats`]) give what a fresh analysis gives while the
/// tables change: an edit deep in a chain, a table shared by two roots analysed in turn (the one
/// analysed second must not reuse statistics made from the shared table's old version), a kind
/// change, and tables compiled on their own ([`LootDb::reaching`]).
#[test]
fn kept_statistics_equal_a_fresh_analysis_through_edits() {
    let version = |affix_weight: u32, deep_weight: u32, deep_item: &str| {
        format!(
            r#"
[[loot_tables]]
id = "t:affixes"
entries = [ {{ affix = "t:fire", weight = {affix_weight} }}, {{ affix = "t:ice", weight = 1 }} ]

[[loot_tables]]
id = "t:deep"
rolls = "0-2"
entries = [ {{ item = "{deep_item}", weight = {deep_weight} }}, {{ nothing = true, weight = 2 }} ]

[[loot_tables]]
id = "t:mid"
rolls = "1-3"
entries = [ {{ table = "t:deep", weight = 2 }}, {{ item = "t:sword", weight = 1, affixes = "t:affixes" }} ]

[[loot_tables]]
id = "t:top"
entries = [ {{ table = "t:mid", weight = 1 }}, {{ item = "t:gold", weight = 1, count = "0-3" }}, {{ item = "t:ring", guaranteed = true, affixes = "t:affixes" }} ]

[[loot_tables]]
id = "t:other"
entries = [ {{ item = "t:gem", weight = 1, affixes = "t:affixes" }}, {{ nothing = true, weight = 1 }} ]
"#
        )
    };
    let mut kept = KeptStats::default();
    let mut drops = KeptStats::drops_only();
    let steps = [(1, 1, "t:potion"), (1, 5, "t:potion"), (3, 5, "t:potion"), (3, 5, "t:coin"), (1, 1, "t:potion"), (1, 1, "t:potion")];
    for (step, &(aw, dw, item)) in steps.iter().enumerate() {
        // From one step to the next, the affix table's weights, the deep table's weights or
        // its item change.
        let (data, whole) = build(&version(aw, dw, item));
        // `t:other` first: it recomputes the shared affix table after its edit; `t:top` then
        // must see that its own statistics were made from the old affix table.
        for root in ["t:other", "t:top", "t:mid", "t:deep", "t:affixes"] {
            let part = LootDb::reaching(&data, root, &mut kept);
            let fresh = whole.analyze(root, 0.0);
            assert_eq!(part.analyze_kept(root, 0.0, &mut kept), fresh, "step {step}: `{root}`");
            // The same drops, without the affix chances.
            let mut want = fresh.expect("analyzes");
            assert!(
                step > 0 || root == "t:deep" || root == "t:affixes" || want.drops.iter().any(|d| !d.affixes.is_empty()),
                "`{root}` has affix chances to leave out"
            );
            want.drops.iter_mut().for_each(|d| d.affixes.clear());
            let part = LootDb::reaching(&data, root, &mut drops);
            assert_eq!(part.analyze_kept(root, 0.0, &mut drops), Ok(want), "step {step}: `{root}`, drops only");
        }
    }
    // Luck changes every number: nothing kept is reused.
    let (data, whole) = build(&version(1, 1, "t:potion"));
    let part = LootDb::reaching(&data, "t:top", &mut kept);
    assert_eq!(part.analyze_kept("t:top", 4.0, &mut kept), whole.analyze("t:top", 4.0));
}

/// Statistics kept while a table is gone, or not there yet, are not taken for it when it comes
/// (back).
#[test]
fn kept_statistics_follow_a_table_as_it_goes_and_comes_back() {
    let with = "[[loot_tables]]\nid = \"t:top\"\nentries = [ { item = \"t:gold\", weight = 1 } ]\n";
    let without = "[[loot_tables]]\nid = \"t:else\"\nentries = [ { item = \"t:gold\", weight = 1 } ]\n";
    let mut kept = KeptStats::default();
    let (data, _) = build(without);
    let db = LootDb::reaching(&data, "t:top", &mut kept);
    assert!(matches!(db.analyze_kept("t:top", 0.0, &mut kept), Err(LootError::UnknownTable { .. })));
    for (step, loot) in [with, without, with].into_iter().enumerate() {
        let (data, whole) = build(loot);
        let db = LootDb::reaching(&data, "t:top", &mut kept);
        let err = |r: Result<LootReport, LootError>| r.map_err(|e| e.to_string());
        assert_eq!(err(db.analyze_kept("t:top", 0.0, &mut kept)), err(whole.analyze("t:top", 0.0)), "step {step}");
    }
}

/// Statistics kept from one compilation to the next are reused only where they still hold — as a
/// table appears where a name dangled, a table goes, a kind changes, an item appears — so that
/// every analysis equals a fresh one, refusals included.
#[test]
fn kept_statistics_equal_fresh_ones_as_tables_come_and_go() {
    let table = |id: &str, rest: &str| format!("[[loot_tables]]\nid = \"{id}\"\n{rest}\n");
    let top: &str = &table("t:top", "entries = [ { table = \"t:mid\", weight = 1 }, { table = \"t:late\", weight = 1 } ]");
    let mid_items: &str = &table("t:mid", "entries = [ { item = \"t:gold\", weight = 1 } ]");
    let mid_affixes: &str = &table("t:mid", "entries = [ { affix = \"t:ice\", weight = 1 } ]");
    let late: &str = &table("t:late", "rolls = \"1-2\"\nentries = [ { item = \"t:sword\", weight = 2, affixes = \"t:aff\" }, { nothing = true, weight = 1 } ]");
    let aff: &str = &table("t:aff", "entries = [ { affix = \"t:fire\", weight = 1 } ]");
    let aff_cycle: &str = &table("t:aff", "entries = [ { table = \"t:late\", weight = 1 } ]");
    let versions = [
        // `t:late` does not exist: `t:top` is refused.
        [top, mid_items].concat(),
        // It appears, nesting an affix table through an item.
        [top, mid_items, late, aff].concat(),
        // `t:mid` becomes an affix table: `t:top` now mixes kinds and is refused.
        [top, mid_affixes, late, aff].concat(),
        // Back, and `t:aff` goes: `t:late` names no loot table for its affixes.
        [top, mid_items, late].concat(),
        // A cycle through a table that was gone.
        [top, mid_items, late, aff_cycle].concat(),
    ];
    let mut kept = KeptStats::default();
    for (step, loot) in versions.iter().enumerate() {
        let (data, whole) = build(loot);
        let db = LootDb::reaching(&data, "t:top", &mut kept);
        for root in ["t:top", "t:late", "t:mid"] {
            let err = |r: Result<LootReport, LootError>| r.map_err(|e| e.to_string());
            let fresh = err(whole.analyze(root, 0.0));
            if db.table_ids().any(|t| t == root) {
                assert_eq!(err(db.analyze_kept(root, 0.0, &mut kept)), fresh, "step {step}: `{root}`");
            }
            if root == "t:top" {
                assert_eq!(err(db.analyze_kept(root, 0.0, &mut kept)), fresh, "step {step}: `{root}`");
                assert_eq!(fresh.is_ok(), step == 1, "step {step}: `t:top` is refused but in step 1: {fresh:?}");
            }
        }
    }
}

/// `LootDb::reaching` compiles the tables one table reaches, and nothing else.
#[test]
fn reaching_compiles_what_a_table_reaches() {
    let (data, whole) = build(
        r#"
[[loot_tables]]
id = "t:affixes"
entries = [ { affix = "t:fire", weight = 1 }, { affix = "t:nope", weight = 1 } ]

[[loot_tables]]
id = "t:inner"
entries = [ { item = "t:sword", weight = 1, affixes = "t:affixes" }, { table = "t:missing", weight = 1 } ]

[[loot_tables]]
id = "t:outer"
entries = [ { table = "t:inner", weight = 1 }, { item = "t:gold", weight = 1 } ]

[[loot_tables]]
id = "t:apart"
entries = [ { item = "t:gem", weight = 1 } ]
"#,
    );
    let mut kept = KeptStats::default();
    let part = LootDb::reaching(&data, "t:outer", &mut kept);
    let ids: Vec<&str> = part.table_ids().collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(!ids.contains(&"t:apart"));
    // `t:missing` and `t:nope` refuse the tables above them, as in the whole database.
    for root in ["t:outer", "t:inner", "t:affixes"] {
        let got = part.analyze_kept(root, 0.0, &mut kept).map_err(|e| e.to_string());
        assert_eq!(got, whole.analyze(root, 0.0).map_err(|e| e.to_string()), "`{root}`");
        assert!(got.is_err(), "`{root}` reaches a broken reference");
    }
}
