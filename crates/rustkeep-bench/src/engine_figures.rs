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
/// of the large pack, the exact analysis of `core:floor_3_table`, and that of every table of the
/// large pack.
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

    // One table's exact analysis, as the editor's hover and `loot` ask for it: the median of 201.
    if db.table("core:floor_3_table").is_ok() {
        let times: Vec<f64> = (0..201)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(db.analyze("core:floor_3_table", 0.0).ok());
                start.elapsed().as_secs_f64()
            })
            .collect();
        let t = median(times);
        out.push(ExtraFigure {
            figure: "loot: exact analysis of core:floor_3_table (luck 0)".into(),
            value: format!("{:.0} µs", t * 1e6),
            target: "≤ 1 ms".into(),
            ok: Some(t <= 1e-3),
            json: json!({ "seconds": t }),
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
    let world = match rustkeep_check::validate(&project) {
        Ok(valid) => World::new(project, valid),
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

/// Arena fights per second: three `core:rat` against a `core:warrior` (new character, starting
/// kit equipped), on one thread and on every core.
pub fn arena_figures(runs: usize) -> Vec<ExtraFigure> {
    use rustkeep_engine::arena::{self, Lineup};
    let project = Project::with_bundled_core();
    let valid = rustkeep_check::validate(&project).expect("the bundled core is valid");
    let world = World::new(project, valid);
    let lineup = Lineup { options: vec!["core:warrior".into()], enemies: vec![("core:rat".into(), 3)], new_character: true, ..Lineup::default() };
    let fights = 100_000u64;
    let rate = |threads: usize| -> f64 {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        let times: Vec<f64> = (0..runs.max(1))
            .map(|r| {
                let start = Instant::now();
                let report = pool.install(|| arena::run(&world, &lineup, fights, r as u64, 100));
                std::hint::black_box(report);
                start.elapsed().as_secs_f64()
            })
            .collect();
        fights as f64 / median(times)
    };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let one = rate(1);
    let all = rate(cores);
    vec![
        ExtraFigure {
            figure: "arena: fights/s, 1 core (3 × core:rat vs core:warrior)".into(),
            value: format!("{:.0} fights/s", one),
            target: "≥ 100,000/s".into(),
            ok: Some(one >= 100_000.0),
            json: json!({ "fights_per_s": one }),
        },
        ExtraFigure {
            figure: format!("arena: speed-up on {cores} cores"),
            value: format!("{:.2} × ({:.0} fights/s)", all / one, all),
            target: "≥ 1.8 ×".into(),
            ok: Some(cores < 2 || all / one >= 1.8),
            json: json!({ "cores": cores, "fights_per_s": all, "speedup": all / one }),
        },
    ]
}

/// The floor of [`one_room_world`].
const BENCH_FLOOR: &str = "bench:hall_floor";
/// Its one prefab.
const BENCH_ROOM: &str = "bench:hall";

/// The core and a mod of one floor ([`BENCH_FLOOR`], depth 99) of one prefab of `w × h` tiles,
/// each the glyph `tile(x, y)` gives, whose `e` are all one creature (100 health, 1 damage).
fn one_room_world(w: i32, h: i32, tile: impl Fn(i32, i32) -> char) -> World {
    let mut grid = String::from("grid = \"\"\"\n");
    for y in 0..h {
        grid.extend((0..w).map(|x| tile(x, y)));
        grid.push('\n');
    }
    grid.push_str("\"\"\"\n");
    let data = format!(
        "[[creatures]]\nid = \"bench:walker\"\nname = \"Walker\"\nattributes = {{ max_health = 100, damage = 1 }}\n\n[[floors]]\nid = \"{BENCH_FLOOR}\"\ndepth = 99\nprefabs = [\"{BENCH_ROOM}\"]\ncreatures = [\"bench:walker\"]\n\n[[prefabs]]\nid = \"{BENCH_ROOM}\"\n{grid}"
    );
    let mut project = Project::with_bundled_core();
    project.add_memory_mod("bench", &[("mod.toml", "[mod]\nid = \"bench\"\nname = \"Bench\"\nversion = \"1.0.0\"\n"), ("hall.toml", &data)]);
    let valid = rustkeep_check::validate(&project).unwrap_or_else(|refusal| panic!("the bench's room: {refusal}"));
    World::new(project, valid)
}

/// One enemy's turn in a 30 × 30 room with 20 enemies far from the player, behind walls with
/// gaps, so that each turn searches the room for a shortest way; median over many turns.
pub fn enemy_turn_figure(runs: usize) -> Vec<ExtraFigure> {
    let world = one_room_world(30, 30, |x, y| {
        let wall = x == 0 || y == 0 || x == 29 || y == 29 || (y % 6 == 3 && x % 9 != 4);
        if wall {
            if y == 0 && x == 15 {
                '+'
            } else {
                '#'
            }
        } else if y == 26 && x == 15 {
            '@'
        } else if y <= 2 && x % 3 == 1 && x < 29 {
            'e'
        } else {
            '.'
        }
    });
    let mut times = Vec::new();
    let mut enemies = 0;
    for r in 0..(runs.max(1) * 40) {
        let mut g = Game::new(r as u64, Vec::new(), &Default::default());
        g.setup(&world, &[]);
        g.set_tracing(false);
        g.run_step(&world, Act::StartRun(Some(BENCH_FLOOR)), rustkeep_engine::game::CreatureRef::Player, None);
        // The arrival room stays empty (a safe arrival); `enter` lays the room out again with
        // its residents, as the testing command does.
        g.run_step(&world, Act::Enter(BENCH_ROOM), rustkeep_engine::game::CreatureRef::Player, None);
        enemies = g.living_enemies();
        // Several rounds, so that the walkers spread out along their paths.
        for _ in 0..5 {
            let step = g.step();
            g.run_step(&world, Act::Wait, rustkeep_engine::game::CreatureRef::Player, None);
            let start = Instant::now();
            let turns = g.enemy_turns(&world, step);
            let t = start.elapsed().as_secs_f64();
            times.push(t / turns.len().max(1) as f64);
        }
    }
    let p50 = median(times.clone());
    vec![ExtraFigure {
        figure: format!("engine: one enemy turn, {enemies} enemies in a 30 × 30 room"),
        value: format!("{:.4} ms (median of {})", p50 * 1e3, times.len()),
        target: "≤ 0.1 ms".into(),
        ok: Some(p50 <= 1e-4 && enemies == 20), // a turn of fewer enemies would measure less than it says
        json: json!({ "enemies": enemies, "median_s": p50 }),
    }]
}

/// The value below which a share `q` of the sorted times lie (nearest rank).
fn percentile(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let rank = ((v.len().saturating_sub(1)) as f64 * q).round() as usize;
    v.get(rank).copied().unwrap_or(f64::NAN)
}

/// Building the map of the core's largest floor (the most prefab tiles) as entering it does —
/// the shuffle, then the layout — over many seeds; and the field of view (radius 8) from every
/// open tile of a 100 × 50 map strewn with pillars.
pub fn floor_figures(runs: usize) -> Vec<ExtraFigure> {
    use rustkeep_data::grid::Pos;
    use rustkeep_data::model::Grid;
    use rustkeep_data::vocab::{field, Registry};
    use rustkeep_engine::{floor, fov};

    let project = Project::with_bundled_core();
    let db = rustkeep_data::db::Database::load(&project);
    let mut ids: Vec<&String> = db.resolved.defs[Registry::Floors.index()].keys().collect();
    ids.sort();
    let grids_of = |id: &str| -> Vec<Grid> {
        let Some(f) = db.get(Registry::Floors, id) else { return Vec::new() };
        f.ref_list(field::PREFABS).iter().filter_map(|p| db.get(Registry::Prefabs, &p.value)?.grid().cloned()).collect()
    };
    let tiles = |grids: &[Grid]| grids.iter().map(|g| g.rows.iter().map(String::len).sum::<usize>()).sum::<usize>();
    let Some(largest) = ids.iter().copied().max_by_key(|id| tiles(&grids_of(id))) else { return Vec::new() };
    let grids = grids_of(largest);
    let mut times = Vec::new();
    let mut size = (0, 0);
    for seed in 0..(runs.max(1) as u64 * 400) {
        let start = Instant::now();
        let mut rng = Rng::seeded(seed);
        let mut order: Vec<&Grid> = grids.iter().collect();
        floor::shuffle(&mut order, &mut rng);
        let map = floor::layout(&order, &mut rng);
        times.push(start.elapsed().as_secs_f64());
        if let Ok(m) = std::hint::black_box(map) {
            size = (m.width(), m.height());
        }
    }
    let (p50, p95) = (percentile(times.clone(), 0.5), percentile(times.clone(), 0.95));
    let mut out = vec![ExtraFigure {
        figure: format!("floor: building the core's largest floor ({largest}, {} rooms, {} × {})", grids.len(), size.0, size.1),
        value: format!("{:.3} ms p50, {:.3} ms p95 (of {})", p50 * 1e3, p95 * 1e3, times.len()),
        target: "≤ 5 ms".into(),
        ok: Some(p95 <= 5e-3),
        json: json!({ "floor": largest, "rooms": grids.len(), "width": size.0, "height": size.1, "p50_s": p50, "p95_s": p95 }),
    }];

    let (w, h) = (100, 50);
    let opaque = |p: Pos| p.x == 0 || p.y == 0 || p.x == w - 1 || p.y == h - 1 || (p.x * 7 + p.y * 13) % 23 == 0;
    let origins: Vec<Pos> = (0..h).flat_map(|y| (0..w).map(move |x| Pos::new(x, y))).filter(|p| !opaque(*p)).collect();
    let mut times = Vec::new();
    let mut seen = 0;
    for _ in 0..runs.max(1) {
        for o in &origins {
            let start = Instant::now();
            let sight = fov::visible(opaque, *o, fov::RADIUS, (w, h));
            times.push(start.elapsed().as_secs_f64());
            seen += std::hint::black_box(sight).count();
        }
    }
    let (p50, p95) = (percentile(times.clone(), 0.5), percentile(times.clone(), 0.95));
    out.push(ExtraFigure {
        figure: format!("fov: sight (radius {}) from a point of a {w} × {h} map", fov::RADIUS),
        value: format!("{:.4} ms p50, {:.4} ms p95 (of {}, {:.0} tiles seen on average)", p50 * 1e3, p95 * 1e3, times.len(), seen as f64 / times.len() as f64),
        target: "—".into(),
        ok: None,
        json: json!({ "width": w, "height": h, "radius": fov::RADIUS, "p50_s": p50, "p95_s": p95 }),
    });
    out.extend(pursuit_figure(runs));
    out
}

/// A round of 20 pursuers on a floor of about 100 × 50 tiles: one room of 94 × 44 (the margin and
/// the layout's drawn offsets make the rest) with rows of pillars, its 20 creatures in the far corner from the player. Every round,
/// each pursuer searches its way over the floor; median and p95 of whole rounds, traces off as in
/// the arena.
fn pursuit_figure(runs: usize) -> Vec<ExtraFigure> {
    let (w, h) = (94, 44);
    let world = one_room_world(w, h, |x, y| {
        if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
            if y == 0 && x == 3 {
                '+'
            } else {
                '#'
            }
        } else if (x, y) == (2, 2) {
            '@'
        } else if y >= h - 5 && x >= w - 11 && (x + y) % 2 == 0 && x < w - 1 && y < h - 1 {
            'e'
        } else if y % 4 == 2 && x % 8 == 5 {
            '#'
        } else {
            '.'
        }
    });
    let player = rustkeep_engine::game::CreatureRef::Player;
    let mut times = Vec::new();
    let (mut pursuers, mut size) = (0, (0, 0));
    for r in 0..runs.max(1) * 20 {
        let mut g = Game::new(r as u64, Vec::new(), &Default::default());
        g.setup(&world, &[]);
        g.set_tracing(false);
        g.run_step(&world, Act::StartRun(Some(BENCH_FLOOR)), player, None);
        g.run_step(&world, Act::Enter(BENCH_ROOM), player, None);
        pursuers = g.fighting_enemies();
        size = g.map().map_or((0, 0), |m| (m.width(), m.height()));
        // The player waits while the pursuers cross the floor towards it.
        for _ in 0..10 {
            let step = g.step();
            g.run_step(&world, Act::Wait, player, None);
            let start = Instant::now();
            std::hint::black_box(g.enemy_turns(&world, step));
            times.push(start.elapsed().as_secs_f64());
        }
    }
    let (p50, p95) = (percentile(times.clone(), 0.5), percentile(times.clone(), 0.95));
    vec![ExtraFigure {
        figure: format!("engine: a round of {pursuers} pursuers on a {} × {} floor", size.0, size.1),
        value: format!("{:.3} ms p50, {:.3} ms p95 (of {})", p50 * 1e3, p95 * 1e3, times.len()),
        target: "≤ 1 ms".into(),
        ok: Some(p95 <= 1e-3 && pursuers == 20),
        json: json!({ "pursuers": pursuers, "width": size.0, "height": size.1, "p50_s": p50, "p95_s": p95 }),
    }]
}
