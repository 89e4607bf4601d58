//! Loot and game-engine figures for the benchmark report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rustkeep_data::project::{load, Project};
use rustkeep_engine::game::{Act, Game, World};
use rustkeep_engine::loot::{LootDb, Scratch};
use rustkeep_engine::rng::Rng;
use serde_json::json;

use crate::ExtraFigure;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Sampled rolls per second (one core) on the core's `core:floor_3_table` and on the deepest table
/// of the large pack, and the exact analysis of every table of the large pack.
pub fn loot_figures(pack: &Path, runs: usize) -> Vec<ExtraFigure> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let project = load(&[pack.to_path_buf()], &cwd, &Default::default());
    let analysis = rustkeep_check::analyze(&project);
    let db = LootDb::new(&analysis.db);
    let mut out = Vec::new();

    // Sampling: evaluations and weighted draws ("rolls" in docs/loot.md) per second, one thread.
    for (label, id) in [("core:floor_3_table", "core:floor_3_table"), ("large pack, 200-deep chain", "m199:table_0")] {
        let Ok(t) = db.table(id) else { continue };
        let mut rng = Rng::seeded(1);
        let mut s = Scratch::default();
        let mut evals = 0u64;
        let mut draws = 0u64;
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < 1.0 {
            for _ in 0..1000 {
                if db.roll_raw(t, 0.0, &mut rng, &mut s).is_ok() {
                    draws += s.draws;
                }
                evals += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let rolls = draws as f64 / secs;
        out.push(ExtraFigure {
            figure: format!("loot: sampled rolls/s, 1 core ({label})"),
            value: format!("{:.1} M rolls/s ({:.2} M evaluations/s)", rolls / 1e6, evals as f64 / secs / 1e6),
            target: "≥ 5 M/s".into(),
            ok: Some(rolls >= 5e6),
            json: json!({ "rolls_per_s": rolls, "evaluations_per_s": evals as f64 / secs }),
        });
    }

    let mut count = 0;
    let times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            let all = db.analyze_all(5.0);
            count = all.len();
            std::hint::black_box(all);
            start.elapsed().as_secs_f64()
        })
        .collect();
    let t = median(times);
    out.push(ExtraFigure {
        figure: format!("loot: exact analysis of all {count} tables (large pack, luck 5)"),
        value: format!("{:.0} ms", t * 1e3),
        target: "≤ 1 s".into(),
        ok: Some(t <= 1.0),
        json: json!({ "tables": count, "seconds": t }),
    });
    out
}

/// A turn at the event cap: 20 enemies carrying 30 triggers each, answering every hit with a
/// hit, so that one step handles 100 events (and drops the rest).
pub fn turn_at_cap(runs: usize) -> Vec<ExtraFigure> {
    let mut triggers = String::from("triggers = [\n");
    for i in 0..30 {
        // One trigger answers; the others are considered on every event and do not match, as
        // the many triggers of a real creature would.
        if i == 0 {
            triggers
                .push_str("  { on = \"damage_taken\", actions = [ { action = \"damage\", amount = 1, damage_type = \"physical\", target = \"target\" } ] },\n");
        } else {
            triggers.push_str(&format!(
                "  {{ on = \"damage_taken\", when = {{ damage_type = \"fire\" }}, condition = [ {{ check = \"attribute\", who = \"self\", attribute = \"level\", at_least = {i} }} ], actions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ] }},\n"
            ));
        }
    }
    triggers.push(']');
    let creatures = format!("# rustkeep: allow(self-feeding-trigger)\n[[creatures]]\nid = \"bench:bramble\"\nname = \"Bramble\"\nattributes = {{ max_health = 100000, damage = 1 }}\n{triggers}\n");
    let mut project = Project::with_bundled_core();
    project.add_memory_mod("bench", &[("mod.toml", "[mod]\nid = \"bench\"\nname = \"Bench\"\nversion = \"1.0.0\"\n"), ("creatures.toml", &creatures)]);
    let world = match rustkeep_check::analyze(&project).into_valid(&project) {
        Ok(db) => World::new(project, db),
        Err(e) => {
            return vec![ExtraFigure {
                figure: "engine: a turn at the cap".into(),
                value: format!("not measured: {e}"),
                target: "≤ 1 ms".into(),
                ok: Some(false),
                json: json!(null),
            }];
        }
    };
    let mut times = Vec::new();
    let mut handled = 0usize;
    for r in 0..(runs.max(1) * 200) {
        let mut g = Game::new(r as u64, Vec::new(), &Default::default());
        g.heal_player_full(&world);
        let enemies = g.add_enemies(&world, "bench:bramble", 20);
        let start = Instant::now();
        let trace = g.run_step(&world, Act::Attack, enemies[0], Some(enemies[1]));
        times.push(start.elapsed().as_secs_f64());
        handled = trace.events.len();
        std::hint::black_box(&trace);
    }
    let p50 = median(times.clone());
    vec![ExtraFigure {
        figure: format!("engine: a turn at the cap (20 enemies × 30 triggers, {handled} events)"),
        value: format!("{:.3} ms (median of {})", p50 * 1e3, times.len()),
        target: "≤ 1 ms".into(),
        ok: Some(p50 <= 1e-3),
        json: json!({ "events": handled, "median_s": p50 }),
    }]
}
