//! Loot benchmark: sampled evaluations per second on one core, and the time of one exact
//! analysis. Run with `cargo run --release -p rustkeep-engine --bin loot-bench`.
//!
//! Targets (issue "Engine, part 1: loot"): ≥ 5 million sampled nested evaluations per second,
//! ≤ 1 ms for the exact analysis of a depth-5 table.

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use rustkeep_data::project::Project;
use rustkeep_engine::loot::{LootDb, Scratch};
use rustkeep_engine::rng::Rng;

/// A depth-5 table (bench:root → l1 → l2 → l3 → l4) nesting the core's tables and affix tables.
const DEPTH5: &str = r#"
[[loot_tables]]
id = "bench:l4"
rolls = "0-2"
entries = [ { table = "core:rare_table", weight = 1 }, { item = "core:iron_sword", weight = 2, affixes = "core:exotic_weapon_affixes", count = "0-1" }, { nothing = true, weight = 3 } ]

[[loot_tables]]
id = "bench:l3"
rolls = "1-2"
entries = [ { table = "bench:l4", weight = 2 }, { table = "core:potion_table", weight = 1 }, { nothing = true, weight = 2 } ]

[[loot_tables]]
id = "bench:l2"
rolls = "0-2"
entries = [ { table = "bench:l3", weight = 1 }, { table = "core:common_weapons", weight = 1 }, { item = "core:gold", weight = 3, count = "0-20" }, { table = "bench:l4", guaranteed = true } ]

[[loot_tables]]
id = "bench:l1"
rolls = "1-2"
entries = [ { table = "bench:l2", weight = 2 }, { table = "core:floor_3_table", weight = 1 }, { nothing = true, weight = 1 } ]

[[loot_tables]]
id = "bench:root"
rolls = "1-2"
entries = [ { table = "bench:l1", weight = 1 }, { nothing = true, weight = 1 } ]
"#;

const MANIFEST: &str = "[mod]\nid = \"bench\"\nname = \"Bench\"\nversion = \"0.1.0\"\n";

fn main() {
    let mut project = Project::with_bundled_core();
    project.add_memory_mod("bench", &[("mod.toml", MANIFEST), ("loot.toml", DEPTH5)]);
    let db = LootDb::new(&rustkeep_data::db::Database::load(&project));

    println!("{:<34} {:>8} {:>16} {:>14} {:>14}", "case", "luck", "evaluations/s", "ns/evaluation", "draws/s");
    for (table, luck) in [("core:floor_3_table", 0.0), ("core:floor_3_table", 6.0), ("bench:root", 0.0), ("bench:root", 6.0)] {
        let (rate, draws) = sample_rate(&db, table, luck);
        println!("{:<34} {:>8} {:>16.0} {:>14.1} {:>14.0}", format!("roll_raw {table}"), luck, rate, 1e9 / rate, draws);
    }
    let rate = string_rate(&db, "bench:root", 0.0);
    println!("{:<34} {:>8} {:>16.0} {:>14.1}", "roll (ItemDrop) bench:root", 0.0, rate, 1e9 / rate);

    println!();
    println!("{:<34} {:>8} {:>16} {:>14}", "exact analysis", "luck", "median µs", "drops");
    for (table, luck) in [("core:floor_3_table", 0.0), ("bench:root", 0.0), ("bench:root", 6.0)] {
        let (median, drops) = analysis_time(&db, table, luck);
        println!("{:<34} {:>8} {:>16.1} {:>14}", table, luck, median.as_secs_f64() * 1e6, drops);
    }
}

/// Evaluations and entry draws per second of the allocation-free path, over about one second.
fn sample_rate(db: &LootDb, table: &str, luck: f64) -> (f64, f64) {
    let t = db.table(table).expect("bench table evaluates");
    let p_extra = db.p_extra(luck);
    let mut rng = Rng::seeded(1);
    let mut s = Scratch::default();
    let mut n = 0u64;
    let mut draws = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        for _ in 0..10_000 {
            db.roll_raw(t, p_extra, &mut rng, &mut s).expect("rolls");
            draws += s.draws;
            black_box(s.drops.len());
        }
        n += 10_000;
    }
    let secs = start.elapsed().as_secs_f64();
    (n as f64 / secs, draws as f64 / secs)
}

/// Evaluations per second through [`LootDb::roll`], which builds `ItemDrop`s with owned strings.
fn string_rate(db: &LootDb, table: &str, luck: f64) -> f64 {
    let mut rng = Rng::seeded(1);
    let mut n = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        for _ in 0..1_000 {
            black_box(db.roll(table, luck, &mut rng));
        }
        n += 1_000;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// The median of 201 exact analyses, and the number of drops reported.
fn analysis_time(db: &LootDb, table: &str, luck: f64) -> (Duration, usize) {
    let mut times = Vec::with_capacity(201);
    let mut drops = 0;
    for _ in 0..201 {
        let start = Instant::now();
        let r = db.analyze(table, luck).expect("bench table analyzes");
        times.push(start.elapsed());
        drops = black_box(r).drops.len();
    }
    times.sort();
    (times[times.len() / 2], drops)
}
