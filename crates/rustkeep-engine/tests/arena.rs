//! The arena against answers computed by hand (docs/arena.md): a sure win in exactly three rounds,
//! a fight decided by one coin flip, a stalemate that ends in draws; the report's statistics; the
//! same results at any number of threads.

mod common;

use common::world_with;
use rustkeep_engine::arena::{self, Lineup, Outcome};
use rustkeep_engine::game::World;
use rustkeep_engine::stats::{wilson, Z_95};

const FIGHTERS: &str = include_str!("data/arena/fighters.toml");

fn world() -> World {
    world_with(&[("fighters.toml", FIGHTERS)])
}

fn lineup(options: &[&str], damage: f64, enemy: &str, count: u32) -> Lineup {
    Lineup {
        options: options.iter().map(|s| s.to_string()).collect(),
        attributes: [("damage".to_string(), damage), ("max_health".to_string(), 30.0)].into(),
        enemies: vec![(enemy.to_string(), count)],
        ..Lineup::default()
    }
}

#[test]
fn a_sure_win_takes_exactly_three_rounds() {
    let w = world();
    let r = arena::run(&w, &lineup(&[], 5.0, "t:dummy", 1), 500, 1, 100);
    assert_eq!((r.wins, r.losses, r.draws), (500, 0, 0));
    assert!(r.rounds.iter().all(|n| *n == 3), "{:?}", &r.rounds[..5]);
    assert!(r.health_left.iter().all(|h| *h == 30));
    let j = r.json();
    assert_eq!(j["win_rate"], 1.0);
    assert_eq!(j["rounds"], serde_json::json!({ "mean": 3.0, "p50": 3, "p90": 3, "max": 3 }));
    assert_eq!(j["health_left"], serde_json::json!({ "mean": 30.0, "p10": 30 }));
    // Two dummies: 3 rounds each, one after the other.
    let r = arena::run(&w, &lineup(&[], 5.0, "t:dummy", 2), 50, 1, 100);
    assert!(r.rounds.iter().all(|n| *n == 6));
}

#[test]
fn a_coin_flip_fight_is_won_half_the_time() {
    let w = world();
    let n = 20_000;
    let r = arena::run(&w, &lineup(&["t:gambler"], 1.0, "t:duelist", 1), n, 42, 100);
    // Round 1: heads (p = 1/2) kills the duelist; tails, its answer kills the player. Nothing else.
    assert_eq!(r.draws, 0);
    assert_eq!(r.wins + r.losses, n);
    assert!(r.rounds.iter().all(|k| *k == 1));
    let p = r.win_rate();
    assert!((p - 0.5).abs() < 4.0 * (0.25 / n as f64).sqrt(), "win rate {p} is not a fair coin's");
    let (lo, hi) = r.win_rate_ci95();
    assert!(lo < 0.5 && 0.5 < hi, "the 95 % interval [{lo}, {hi}] holds the true 1/2");
    assert_eq!((lo, hi), wilson(r.wins, n, Z_95));
}

#[test]
fn a_stalemate_ends_in_draws_after_the_last_round() {
    let w = world();
    let r = arena::run(&w, &lineup(&[], 0.0, "t:wall", 1), 200, 7, 25);
    assert_eq!((r.wins, r.losses, r.draws), (0, 0, 200));
    assert!(r.rounds.iter().all(|k| *k == 25));
    let j = r.json();
    assert_eq!(j["health_left"], serde_json::json!({ "mean": null, "p10": null }), "health left is over wins, and there are none");
    assert_eq!(j["win_rate_ci95"][0], 0.0);
}

#[test]
fn a_fight_ends_at_its_share_of_the_turns_however_fast_the_enemies() {
    let w = world();
    // 101 turns a round (the player's and the wall's hundred): the share is checked before each.
    let fights: Vec<arena::Fight> = (0..20).map(|i| arena::fight(&w, &lineup(&[], 0.0, "t:quick_wall", 1), 7, i, 100, 500)).collect();
    assert!(fights.iter().all(|f| f.limited && f.outcome == Outcome::Draw && f.rounds == 5), "{:?}", fights[0]);
    let r = arena::Report::of(&fights, 7, 100);
    assert_eq!((r.draws, r.limited), (20, 20));
    assert_eq!(r.json()["limited"], 20);
    // The plain wall at that share plays its rounds (two turns each), and JSON leaves the count out.
    let plain: Vec<arena::Fight> = (0..20).map(|i| arena::fight(&w, &lineup(&[], 0.0, "t:wall", 1), 7, i, 100, 500)).collect();
    let r = arena::Report::of(&plain, 7, 100);
    assert_eq!((r.draws, r.limited), (20, 0));
    assert!(r.rounds.iter().all(|k| *k == 100));
    assert!(r.json().get("limited").is_none());
    // A batch's share: 10,000,000 turns over its fights, never fewer than three a round.
    assert_eq!(arena::turns_per_fight(5_000, 100), 2_000);
    assert_eq!(arena::turns_per_fight(50_000, 100), 300);
}

#[test]
fn one_fight_depends_on_the_seed_and_its_index_alone() {
    let w = world();
    let l = lineup(&["t:gambler"], 1.0, "t:duelist", 1);
    let batch = arena::run(&w, &l, 64, 9, 100);
    let alone: Vec<Outcome> = (0..64).map(|i| arena::fight(&w, &l, 9, i, 100, arena::BATCH_TURNS).outcome).collect();
    let wins = alone.iter().filter(|o| **o == Outcome::Win).count() as u64;
    assert_eq!(wins, batch.wins);
    assert!(alone.iter().any(|o| *o != alone[0]), "runs with other indices fall differently");
    assert_eq!(arena::fight(&w, &l, 9, 5, 100, arena::BATCH_TURNS), arena::fight(&w, &l, 9, 5, 100, arena::BATCH_TURNS), "a run repeats exactly");
}

#[test]
fn results_are_the_same_on_one_thread_and_on_many() {
    let w = world();
    let l = lineup(&["core:warrior", "t:gambler"], 3.0, "core:rat", 3);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| arena::run(&w, &l, 3000, 5, 100));
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap().install(|| arena::run(&w, &l, 3000, 5, 100));
    assert_eq!(one, four);
    assert_eq!(one.json(), four.json());
}

#[test]
fn the_matrix_fights_every_option_against_every_creature() {
    let w = world();
    let m = arena::matrix(&w, 20, 3, 30);
    let options = w.ids(rustkeep_data::vocab::Registry::CharacterOptions);
    let creatures = w.ids(rustkeep_data::vocab::Registry::Creatures);
    assert_eq!(m.options, options);
    assert_eq!(m.creatures, creatures);
    assert_eq!(m.cells.len(), creatures.len());
    let j = m.json();
    assert_eq!(j["cells"].as_array().unwrap().len(), options.len() * creatures.len());
    // The dummy cannot hurt anyone: every option with any damage wins against it.
    let dummy = creatures.iter().position(|c| c == "t:dummy").unwrap();
    let warrior = options.iter().position(|o| o == "core:warrior").unwrap();
    assert_eq!(m.cells[dummy][warrior].0, 1.0);
}
