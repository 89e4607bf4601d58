//! A careful player: how deep the bundled core lets a warrior get who plays as the docs advise —
//! explore (`o`) only at full health (rest, `Z`, first), fight whatever comes into view, drink a
//! health potion below a third of its health, take the stairs (`>`) once everything reachable is
//! known. It plays through the same commands a player types (`rustkeep_play::session`), so the
//! figure moves with every change to the core's balance, the dungeon and the game's walks.

use rustkeep_data::grid::Pos;
use rustkeep_data::vocab::{field, Registry};
use rustkeep_engine::game::{CreatureRef, World};
use rustkeep_play::command::Command;
use rustkeep_play::session::{first_step, Ending, Session};

/// The potion the careful player drinks.
const POTION: &str = "core:health_potion";
/// The most commands one run takes (a walk or a rest is one command).
const COMMANDS: usize = 20_000;

/// How a careful run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarefulRun {
    pub seed: u64,
    /// The deepest floor's `depth` reached.
    pub depth: i64,
    /// The game's turns played.
    pub turns: usize,
    /// `won`, `died`, `stuck` (nothing left to do on a floor whose stairs it cannot reach) or
    /// `limit`.
    pub outcome: &'static str,
}

/// A warrior (`core:warrior`) of `seed` in the world `w`, played carefully until the run ends.
pub fn careful_run(w: World, seed: u64) -> CarefulRun {
    let mut s = Session::new_game(w, seed, vec!["core:warrior".into()], None).expect("the bundled core starts a game");
    let mut depth = 0;
    let mut outcome = "limit";
    for _ in 0..COMMANDS {
        depth = depth.max(current_depth(&s));
        if s.g.is_over() {
            break;
        }
        let Some(command) = next_command(&s) else {
            outcome = "stuck";
            break;
        };
        if s.execute(&command).is_err() {
            // A refused walk (an enemy in sight, nothing left to explore): the next rule decides.
            let fallback = if command == Command::Explore { Command::Descend } else { Command::Wait };
            if s.execute(&fallback).is_err() && s.execute(&Command::Wait).is_err() {
                outcome = "stuck";
                break;
            }
        }
    }
    if s.g.is_over() {
        outcome = match s.ending() {
            Ending::Won => "won",
            Ending::Died(_) => "died",
            Ending::Stopped(_) | Ending::Playing => "limit",
        };
    }
    CarefulRun { seed, depth, turns: s.g.step(), outcome }
}

/// The depth of the floor the player is on (0 before the dungeon).
fn current_depth(s: &Session) -> i64 {
    let Some(d) = s.g.dungeon() else { return 0 };
    d.floors.get(d.floor).and_then(|f| s.w.entry(Registry::Floors, f)).and_then(|e| e.int(field::DEPTH)).unwrap_or(0)
}

/// A carried item worth more than what the player wears in its slot (the price as the measure of
/// quality a player reads in the shop), if any.
fn better_gear(s: &Session) -> Option<String> {
    let slot_and_price = |item: &str| {
        let e = s.w.entry(Registry::Items, item)?;
        Some((e.str(field::SLOT)?.to_string(), e.int(field::PRICE).unwrap_or(0)))
    };
    let worn: Vec<(String, i64)> = s.g.player().inventory.iter().filter(|i| i.equipped).filter_map(|i| slot_and_price(&i.item)).collect();
    s.g.player().inventory.iter().filter(|i| !i.equipped && i.affixes.is_empty()).find_map(|i| {
        let (slot, price) = slot_and_price(&i.item)?;
        let now = worn.iter().filter(|(s, _)| *s == slot).map(|(_, p)| *p).max();
        (now.is_none_or(|p| price > p)).then(|| i.item.clone())
    })
}

/// What the careful player does next; `None` when it has nothing left to try.
fn next_command(s: &Session) -> Option<Command> {
    if s.shop().is_some() {
        return Some(Command::Leave);
    }
    let health = s.g.player().health;
    let max = s.g.max_health(&s.w, CreatureRef::Player);
    if let Some(better) = better_gear(s) {
        return Some(Command::Equip(better));
    }
    if s.g.fighting_enemies() > 0 {
        if health * 3 < max && s.g.player().inventory.iter().any(|i| i.item == POTION) {
            return Some(Command::Use(POTION.into()));
        }
        let map = s.g.map()?;
        let foes: Vec<(usize, Pos)> =
            s.g.enemies().iter().filter(|e| e.body.health > 0 && !e.resident).filter_map(|e| Some((e.index, *map.enemies().get(&e.index)?))).collect();
        if let Some((i, _)) = foes.iter().find(|(i, _)| s.g.in_reach(CreatureRef::Player, CreatureRef::Enemy(*i))) {
            return Some(Command::Attack(*i));
        }
        // Towards the nearest foe in sight; out of sight they come to the player.
        let sight = map.sight();
        let visible: Vec<Pos> = foes.iter().map(|(_, p)| *p).filter(|p| sight.contains(*p)).collect();
        return Some(match first_step(map, |p| visible.iter().any(|f| f.adjacent(p)), |_| false) {
            Some(d) => Command::Move(d),
            None => Command::Wait,
        });
    }
    if health < max && s.w.db.resolved.balance.regen_every > 0 {
        return Some(Command::Rest);
    }
    Some(Command::Explore)
}

/// The careful runs of seeds `1..=seeds`, each in a fresh world of the bundled core.
pub fn careful_runs(seeds: u64) -> Vec<CarefulRun> {
    use rayon::prelude::*;
    (1..=seeds)
        .into_par_iter()
        .map(|seed| {
            let project = rustkeep_data::project::Project::with_bundled_core();
            let valid = rustkeep_check::validate(&project).expect("the bundled core is valid");
            careful_run(World::new(project, valid), seed)
        })
        .collect()
}

/// The benchmark's figure: how many of 50 careful warriors reach depth 3, with the median depth
/// and turns and every run in the JSON.
pub fn careful_figures() -> Vec<crate::ExtraFigure> {
    let runs = careful_runs(50);
    let deep = runs.iter().filter(|r| r.depth >= 3).count();
    let median = |mut v: Vec<i64>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    let depth = median(runs.iter().map(|r| r.depth).collect());
    let turns = median(runs.iter().map(|r| r.turns as i64).collect());
    let won = runs.iter().filter(|r| r.outcome == "won").count();
    let json_runs: Vec<serde_json::Value> =
        runs.iter().map(|r| serde_json::json!({ "seed": r.seed, "depth": r.depth, "turns": r.turns, "outcome": r.outcome })).collect();
    vec![crate::ExtraFigure {
        figure: "play: careful warriors reaching depth 3 (seeds 1–50, core:warrior)".into(),
        value: format!("{deep} of 50 (median depth {depth}, median {turns} turns, {won} won)"),
        target: "most seeds (> 25 of 50)".into(),
        ok: Some(deep > 25),
        json: serde_json::json!({ "seeds": 50, "reached_depth_3": deep, "median_depth": depth, "median_turns": turns, "won": won, "runs": json_runs }),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The core's balance, as the careful player meets it: most warriors reach the third floor.
    /// A change to the core that breaks this shows here, not only in the benchmark report.
    #[test]
    fn a_careful_warrior_reaches_depth_three_in_most_seeds() {
        let runs = careful_runs(50);
        let deep = runs.iter().filter(|r| r.depth >= 3).count();
        assert!(deep > 25, "{deep} of 50 reach depth 3: {runs:?}");
        // Every run ends: no careful player is stuck or runs out of commands.
        assert!(runs.iter().all(|r| r.outcome == "died" || r.outcome == "won"), "{runs:?}");
    }
}
