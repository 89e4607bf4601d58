//! Hostile inputs that the validator and the loot engine must agree on (docs/ARCHITECTURE.md,
//! invariant "No panic on any input": no panic, no hang, no stack overflow): numbers at their limits in every
//! numeric field, loot weights summing past u64, and 10,000-table loot chains and cycles. The
//! validator's side alone lives in `crates/rustkeep-check/tests/hostile.rs`; these tests sit
//! here, above both crates, because the validator and the engine are siblings.
//!
//! Tests run on the test harness's threads (2 MiB of stack, like the language server's tokio
//! workers), so a recursion that would overflow in the editor overflows here too.

#[path = "../../rustkeep-check/tests/common/hostile.rs"]
mod hostile;

use hostile::{analysed, codes, found};
use rustkeep_data::diag::Code;
use rustkeep_engine::loot::{LootDb, LootError};
use rustkeep_engine::rng::Rng;

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
        let (p, a) = analysed(&[("numbers.toml", &text)]);
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
        let db = LootDb::new(&a.db);
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
    let (_, a) = analysed(&[("loot.toml", &text)]);
    let db = LootDb::new(&a.db);

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
    let (_, a) = analysed(&[("chain.toml", &chain(10_000, false))]);
    assert_eq!(codes(&a), Vec::<Code>::new());
    let db = LootDb::new(&a.db);
    let r = db.analyze("h:t0", 0.0).expect("the chain is fine");
    assert_eq!(r.drops.len(), 1);
    assert!((r.drops[0].p_any - 1.0).abs() < 1e-12);
    let drops = db.try_roll("h:t0", 0.0, &mut Rng::seeded(1)).expect("the chain rolls");
    assert_eq!(drops.len(), 1);
}

#[test]
fn a_10_000_table_loot_cycle_is_reported_once_and_refused() {
    let (_, a) = analysed(&[("cycle.toml", &chain(10_000, true))]);
    let cycles: Vec<_> = a.diagnostics.iter().filter(|d| d.code == Code::LootTableCycle).collect();
    assert_eq!(cycles.len(), 1, "{:?}", codes(&a));
    let db = LootDb::new(&a.db);
    assert!(matches!(db.analyze("h:t5000", 0.0), Err(LootError::Cycle { .. })));
    assert!(matches!(db.try_roll("h:t0", 0.0, &mut Rng::seeded(1)), Err(LootError::Cycle { .. })));
}

#[test]
fn the_validator_reports_the_cycles_the_loot_engine_refuses() {
    let text = r#"
[[items]]
id = "h:gem"
name = "Gem"

[[affixes]]
id = "h:fire"
name = "Fire"

[[loot_tables]]
id = "h:a"
entries = [ { table = "h:b", weight = 1 }, { item = "h:gem", weight = 1 } ]

[[loot_tables]]
id = "h:b"
entries = [ { table = "h:a", weight = 1 } ]

[[loot_tables]]
id = "h:self_affixes"
entries = [ { table = "h:self_affixes", weight = 1 }, { affix = "h:fire", weight = 1 } ]
"#;
    let (_, a) = analysed(&[("cycles.toml", text)]);
    let cycles = a.diagnostics.iter().filter(|d| d.code == Code::LootTableCycle).count();
    assert_eq!(cycles, 2, "{:?}", codes(&a));
    let db = LootDb::new(&a.db);
    assert!(matches!(db.analyze("h:b", 0.0), Err(LootError::Cycle { .. })));
    assert!(matches!(db.try_roll_affixes("h:self_affixes", 0.0, &mut Rng::seeded(1)), Err(LootError::Cycle { .. })));
}
