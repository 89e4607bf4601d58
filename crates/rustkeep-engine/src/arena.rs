//! The arena (docs/arena.md): many fights of one player against a group of enemies, for
//! balancing — "does my new boss kill a level-1 warrior 60 % of the time?".
//!
//! A fight: the player (from a scenario's `[player]`, or a new character of one option) against
//! the enemies, on no map (every enemy is in reach). Each round the player attacks the first
//! living enemy (the lowest ref), then the enemies take their turns by their `ai` and speed. The
//! fight ends in a win (every enemy dead), an escape (no enemy left, at least one fled), a loss
//! (the player dead; also when both die in one turn) or a draw (the maximum number of rounds
//! played). Run `i` of a batch uses its own generator,
//! derived from the batch seed and `i` alone ([`Rng::for_run`]), and the runs are aggregated in
//! index order, so the report is the same at any number of threads.

use std::collections::BTreeMap;

use rayon::prelude::*;
use rustkeep_data::vocab::Registry;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as Json;

use crate::game::{Act, CreatureRef, Game, ItemInstance, World};
use crate::rng::Rng;
use crate::stats::{mean, percentile, rate, round_to, wilson, Z_95};

/// Fights per arena when nobody says otherwise.
pub const DEFAULT_RUNS: u64 = 10_000;
/// Rounds after which a fight is a draw when nobody says otherwise.
pub const DEFAULT_ROUNDS: u32 = 100;
/// The turns — the player's and every enemy's — a batch of fights may take, so that it ends in
/// seconds however fast its enemies are (an enemy takes up to 100 turns per turn of the player)
/// or however long they live: each fight gets its share ([`turns_per_fight`]), and one that has
/// used it ends as a draw, counted apart ([`Report::limited`]).
pub const BATCH_TURNS: u64 = 10_000_000;

/// A fight's share of [`BATCH_TURNS`] in a batch of `fights`, but never fewer than three turns a
/// round (a player and an enemy twice as fast as it, every round): a fight of ordinary speeds
/// ends by its rounds, as it always did, however many fights the batch holds.
pub fn turns_per_fight(fights: u64, max_rounds: u32) -> u64 {
    (BATCH_TURNS / fights.max(1)).max(3 * u64::from(max_rounds))
}

/// Who fights whom.
#[derive(Clone, Debug, Default)]
pub struct Lineup {
    pub options: Vec<String>,
    /// The player's starting items as placed (scenario `[player] items`), with their flags.
    pub items: Vec<ItemInstance>,
    pub attributes: BTreeMap<String, f64>,
    pub quests: Vec<String>,
    /// Creature IDs and how many of each.
    pub enemies: Vec<(String, u32)>,
    /// A new character: what the options give is equipped into empty slots (the matrix).
    /// Otherwise the items keep their flags (a scenario's player).
    pub new_character: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every enemy died.
    Win,
    /// No enemy is left, and at least one of them escaped by its own `flee`.
    Escaped,
    Loss,
    Draw,
}

/// One fight's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Fight {
    pub outcome: Outcome,
    /// Rounds played (the last one counts even when it ended early).
    pub rounds: u32,
    /// The player's health at the end.
    pub health_left: i64,
    /// What the dead enemies dropped: item → count.
    pub loot: BTreeMap<String, u64>,
    /// A draw because the fight used its share of turns ([`BATCH_TURNS`]).
    pub limited: bool,
}

/// Fights run `run` of a batch seeded with `seed`, for at most `max_rounds` rounds and
/// `max_turns` turns.
pub fn fight(w: &World, lineup: &Lineup, seed: u64, run: u64, max_rounds: u32, max_turns: u64) -> Fight {
    let mut g = Game::new(0, lineup.options.clone(), &lineup.attributes);
    g.use_rng(Rng::for_run(seed, run));
    g.set_tracing(false);
    g.carry(lineup.items.iter().cloned());
    for (c, n) in &lineup.enemies {
        g.add_enemies(w, c, *n);
    }
    if lineup.new_character {
        g.create_character(w, &lineup.quests);
    } else {
        g.setup(w, &lineup.quests);
    }
    let mut outcome = Outcome::Draw;
    let mut rounds = 0;
    let mut limited = false;
    // The turns taken: the player's, and each of every enemy's.
    let mut turns: u64 = 0;
    while rounds < max_rounds {
        if turns >= max_turns {
            limited = true;
            break;
        }
        rounds += 1;
        let target = g.enemies().iter().find(|e| e.body.health > 0).map(|e| CreatureRef::Enemy(e.index));
        let step = g.step();
        g.run_step(w, Act::Attack, CreatureRef::Player, target);
        if let Some(o) = decided(&g) {
            outcome = o;
            break;
        }
        turns += 1 + g.enemy_turns(w, step).len() as u64;
        if let Some(o) = decided(&g) {
            outcome = o;
            break;
        }
    }
    let mut loot = BTreeMap::new();
    for i in g.floor_loot() {
        *loot.entry(i.item.clone()).or_insert(0) += u64::from(i.count);
    }
    Fight { outcome, rounds, health_left: g.player().health, loot, limited }
}

fn decided(g: &Game) -> Option<Outcome> {
    if g.player().health <= 0 {
        Some(Outcome::Loss)
    } else if g.living_enemies() == 0 {
        Some(if g.escapes() > 0 { Outcome::Escaped } else { Outcome::Win })
    } else {
        None
    }
}

/// The results of a batch of fights.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub runs: u64,
    pub seed: u64,
    pub max_rounds: u32,
    pub wins: u64,
    /// Fights that ended with no enemy left but at least one escaped: no win.
    pub escapes: u64,
    pub losses: u64,
    pub draws: u64,
    /// Draws because a fight used its share of turns ([`BATCH_TURNS`]).
    pub limited: u64,
    /// Rounds of every fight, sorted.
    pub rounds: Vec<u32>,
    /// Health left after each win, sorted.
    pub health_left: Vec<i64>,
    /// Item → total count dropped over all fights.
    pub loot: BTreeMap<String, u64>,
}

/// Fights `runs` times, spread over the available threads.
pub fn run(w: &World, lineup: &Lineup, runs: u64, seed: u64, max_rounds: u32) -> Report {
    // Each worker adds its fights up on its own and the partial reports are merged: everything a
    // report holds is a count, a sum or a sorted list, so the result does not depend on how the
    // fights were split, and the adding-up runs on every core too.
    let mut r = (0..runs)
        .into_par_iter()
        .fold(
            || Report::empty(seed, max_rounds),
            |mut r, i| {
                r.add(&fight(w, lineup, seed, i, max_rounds, turns_per_fight(runs, max_rounds)));
                r
            },
        )
        .reduce(|| Report::empty(seed, max_rounds), Report::merge);
    r.sort();
    r
}

impl Report {
    /// Aggregates fights.
    pub fn of(fights: &[Fight], seed: u64, max_rounds: u32) -> Report {
        let mut r = Report::empty(seed, max_rounds);
        r.rounds.reserve(fights.len());
        for f in fights {
            r.add(f);
        }
        r.sort();
        r
    }

    fn empty(seed: u64, max_rounds: u32) -> Report {
        Report {
            runs: 0,
            seed,
            max_rounds,
            wins: 0,
            escapes: 0,
            losses: 0,
            draws: 0,
            limited: 0,
            rounds: Vec::new(),
            health_left: Vec::new(),
            loot: BTreeMap::new(),
        }
    }

    /// Counts one fight in (the lists are sorted by [`Report::sort`] at the end).
    fn add(&mut self, f: &Fight) {
        self.runs += 1;
        match f.outcome {
            Outcome::Win => {
                self.wins += 1;
                self.health_left.push(f.health_left);
            }
            Outcome::Escaped => self.escapes += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
        self.limited += u64::from(f.limited);
        self.rounds.push(f.rounds);
        for (item, n) in &f.loot {
            match self.loot.get_mut(item.as_str()) {
                Some(total) => *total += n,
                None => {
                    self.loot.insert(item.clone(), *n);
                }
            }
        }
    }

    /// Two partial reports of the same batch as one.
    fn merge(mut self, other: Report) -> Report {
        self.runs += other.runs;
        self.wins += other.wins;
        self.escapes += other.escapes;
        self.losses += other.losses;
        self.draws += other.draws;
        self.limited += other.limited;
        self.rounds.extend(other.rounds);
        self.health_left.extend(other.health_left);
        for (item, n) in other.loot {
            *self.loot.entry(item).or_insert(0) += n;
        }
        self
    }

    fn sort(&mut self) {
        self.rounds.sort_unstable();
        self.health_left.sort_unstable();
    }

    pub fn win_rate(&self) -> f64 {
        rate(self.wins, self.runs)
    }

    pub fn win_rate_ci95(&self) -> (f64, f64) {
        wilson(self.wins, self.runs, Z_95)
    }

    pub fn mean_rounds(&self) -> f64 {
        mean(self.rounds.iter().map(|r| f64::from(*r))).unwrap_or(0.0)
    }

    /// The report as JSON (docs/arena.md): rates to 4 decimals, means to 2.
    /// The report as `rustkeep arena --format json` prints it.
    pub fn output(&self) -> FightsJson {
        let (lo, hi) = self.win_rate_ci95();
        FightsJson {
            runs: self.runs,
            seed: self.seed,
            wins: self.wins,
            escapes: self.escapes,
            losses: self.losses,
            draws: self.draws,
            limited: self.limited,
            win_rate: round_to(self.win_rate(), 4),
            win_rate_ci95: [round_to(lo, 4), round_to(hi, 4)],
            rounds: RoundsJson {
                mean: round_to(self.mean_rounds(), 2),
                p50: percentile(&self.rounds, 0.5),
                p90: percentile(&self.rounds, 0.9),
                max: self.rounds.last().copied(),
            },
            health_left: HealthJson { mean: mean(self.health_left.iter().map(|h| *h as f64)).map(|m| round_to(m, 2)), p10: percentile(&self.health_left, 0.1) },
            loot: self.loot.iter().map(|(item, n)| LootJson { item: item.clone(), mean_count: round_to(*n as f64 / self.runs.max(1) as f64, 2) }).collect(),
        }
    }

    pub fn json(&self) -> Json {
        serde_json::to_value(self.output()).unwrap_or_default()
    }
}

/// Every character option against one of every creature.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub runs: u64,
    pub seed: u64,
    pub max_rounds: u32,
    pub options: Vec<String>,
    pub creatures: Vec<String>,
    /// `(win rate, mean rounds)` by `[creature][option]`.
    pub cells: Vec<Vec<(f64, f64)>>,
}

/// Fights every character option (a new character with its starting kit) against one of every
/// creature, `runs` times each.
pub fn matrix(w: &World, runs: u64, seed: u64, max_rounds: u32) -> Matrix {
    matrix_of(w, w.ids(Registry::Creatures), runs, seed, max_rounds)
}

/// The rows of [`matrix`] for the given creatures only (a mod's own, on its documentation page):
/// each cell the same fights, and so the same figures, as in the whole matrix.
pub fn matrix_of(w: &World, creatures: Vec<String>, runs: u64, seed: u64, max_rounds: u32) -> Matrix {
    let options = w.ids(Registry::CharacterOptions);
    let lineups: Vec<Lineup> = creatures.iter().flat_map(|c| options.iter().map(move |o| Lineup::matrix_cell(o, c))).collect();
    let tasks: Vec<(usize, u64)> = (0..lineups.len()).flat_map(|l| (0..runs).map(move |i| (l, i))).collect();
    let share = turns_per_fight(tasks.len() as u64, max_rounds);
    let fights: Vec<Fight> = tasks.par_iter().map(|(l, i)| fight(w, &lineups[*l], seed, *i, max_rounds, share)).collect();
    let mut cells = vec![vec![(0.0, 0.0); options.len()]; creatures.len()];
    for (l, chunk) in fights.chunks(runs.max(1) as usize).enumerate().take(lineups.len()) {
        let r = Report::of(chunk, seed, max_rounds);
        cells[l / options.len().max(1)][l % options.len().max(1)] = (r.win_rate(), r.mean_rounds());
    }
    Matrix { runs, seed, max_rounds, options, creatures, cells }
}

impl Lineup {
    /// The fight of one cell of the matrix: a new character of `option` against one `creature`.
    pub fn matrix_cell(option: &str, creature: &str) -> Lineup {
        Lineup { options: vec![option.to_string()], enemies: vec![(creature.to_string(), 1)], new_character: true, ..Lineup::default() }
    }
}

/// One cell of [`matrix`] on the calling thread alone — the same fights, and so the same figures,
/// as the whole matrix — for work that must leave the other cores alone (the language server's
/// lenses). `None` as soon as `cancelled` says so (asked every 64 fights).
pub fn cell(w: &World, option: &str, creature: &str, runs: u64, seed: u64, max_rounds: u32, cancelled: &dyn Fn() -> bool) -> Option<Report> {
    let lineup = Lineup::matrix_cell(option, creature);
    let mut r = Report::empty(seed, max_rounds);
    for i in 0..runs {
        if i.is_multiple_of(64) && cancelled() {
            return None;
        }
        r.add(&fight(w, &lineup, seed, i, max_rounds, turns_per_fight(runs, max_rounds)));
    }
    r.sort();
    Some(r)
}

impl Matrix {
    /// The matrix as `rustkeep arena --matrix --format json` prints it.
    pub fn output(&self) -> MatrixJson {
        let mut cells = Vec::new();
        for (ci, c) in self.creatures.iter().enumerate() {
            for (oi, o) in self.options.iter().enumerate() {
                let (wr, mr) = self.cells[ci][oi];
                cells.push(CellJson { option: o.clone(), creature: c.clone(), win_rate: round_to(wr, 4), mean_rounds: round_to(mr, 2) });
            }
        }
        MatrixJson { runs: self.runs, seed: self.seed, rounds: self.max_rounds, options: self.options.clone(), creatures: self.creatures.clone(), cells }
    }

    pub fn json(&self) -> Json {
        serde_json::to_value(self.output()).unwrap_or_default()
    }
}

/// What `rustkeep arena --format json` prints: the results of a batch of fights, or with
/// `--matrix` every option against every creature (docs/arena.md).
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ArenaJson {
    Fights(FightsJson),
    Matrix(MatrixJson),
}

/// The results of a batch of fights.
#[derive(Serialize, JsonSchema)]
pub struct FightsJson {
    /// Fights run.
    pub runs: u64,
    /// The seed of the batch (fight `i` uses stream `i` of it).
    pub seed: u64,
    /// Fights the player won: every enemy died.
    pub wins: u64,
    /// Fights with no enemy left where at least one escaped by fleeing: neither a win nor a loss.
    pub escapes: u64,
    /// Fights the player lost (also when both died).
    pub losses: u64,
    /// Fights still going at the round limit, or at their share of the turns a batch may take.
    pub draws: u64,
    /// Of the draws, those that used their share of the turns a batch may take; absent when none did.
    #[serde(skip_serializing_if = "is_zero")]
    pub limited: u64,
    /// `wins / runs` (escapes are no wins), to 4 decimals.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of the win rate, to 4 decimals.
    pub win_rate_ci95: [f64; 2],
    /// Rounds per fight.
    pub rounds: RoundsJson,
    /// The player's health left after a win.
    pub health_left: HealthJson,
    /// Every item dropped, with the mean count per fight (to 2 decimals), by item ID.
    pub loot: Vec<LootJson>,
}

/// Rounds per fight: the mean and nearest-rank percentiles (`null` without fights).
#[derive(Serialize, JsonSchema)]
pub struct RoundsJson {
    pub mean: f64,
    pub p50: Option<u32>,
    pub p90: Option<u32>,
    pub max: Option<u32>,
}

/// Health left after a win: mean (2 decimals) and the 10th percentile; `null` without wins.
#[derive(Serialize, JsonSchema)]
pub struct HealthJson {
    pub mean: Option<f64>,
    pub p10: Option<i64>,
}

/// One dropped item.
#[derive(Serialize, JsonSchema)]
pub struct LootJson {
    pub item: String,
    pub mean_count: f64,
}

/// Every character option against one of every creature.
#[derive(Serialize, JsonSchema)]
pub struct MatrixJson {
    /// Fights per cell.
    pub runs: u64,
    pub seed: u64,
    /// The round limit of each fight.
    pub rounds: u32,
    pub options: Vec<String>,
    pub creatures: Vec<String>,
    /// One cell per creature and option, creature by creature.
    pub cells: Vec<CellJson>,
}

/// One option against one creature.
#[derive(Serialize, JsonSchema)]
pub struct CellJson {
    pub option: String,
    pub creature: String,
    /// To 4 decimals.
    pub win_rate: f64,
    /// To 2 decimals.
    pub mean_rounds: f64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
