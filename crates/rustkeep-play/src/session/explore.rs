//! Turns the game plays for the player: travel to the stairs (`descend`, key `>`), auto-explore
//! (`explore`, key `o`) and rest (`rest`, key `Z`). They only choose acts: every tile is an
//! ordinary move of the engine and every rested turn an ordinary wait, with the enemies' turns
//! after it, so such a command is the same game as the acts typed one by one, and a recording of
//! the one command replays it.
//!
//! A walk plans over the tiles the player remembers (never through the unknown), around everyone
//! standing in the way. Walks and rests stop when something needs the player: an enemy comes
//! into sight, the player is hurt, a shop opens, the floor changes or the run ends. Below half
//! health a walk also stops before it steps into a room the player has not entered yet (its
//! residents and its `room_entered` triggers are still to come): rest first, or step in by hand.

use std::collections::{BTreeSet, VecDeque};

use rustkeep_data::grid::{Dir, Pos};
use rustkeep_engine::floor::STAIRS;
use rustkeep_engine::game::{Act, CreatureRef};
use rustkeep_engine::map::Map;

use super::{Reply, Session};

/// The most tiles one walk takes.
pub const WALK_LIMIT: usize = 1_000;

/// The most turns one rest takes.
pub const REST_LIMIT: usize = 200;

/// The first step of a shortest path from the player to a tile where `goal` holds, over tiles
/// the player remembers that nobody stands on (8 directions, ties in the order N, NE, …, NW).
/// Tiles where `avoid` holds are never stepped on unless they are the goal. `None` when no such
/// tile can be reached that way.
pub fn first_step(map: &Map, goal: impl Fn(Pos) -> bool, avoid: impl Fn(Pos) -> bool) -> Option<Dir> {
    let (w, h) = (map.width(), map.height());
    if w <= 0 || h <= 0 {
        return None;
    }
    let index = |p: Pos| (p.y * w + p.x) as usize;
    let open = |p: Pos| map.remembered(p) && !map.is_wall(p) && !map.occupied(p, None);
    let mut first: Vec<Option<Dir>> = vec![None; (w * h) as usize];
    let mut seen = vec![false; (w * h) as usize];
    let mut queue = VecDeque::new();
    seen[index(map.player)] = true;
    queue.push_back(map.player);
    while let Some(p) = queue.pop_front() {
        for d in Dir::ALL {
            let q = p.step(d);
            if !open(q) || seen[index(q)] {
                continue;
            }
            let via = if p == map.player { Some(d) } else { first[index(p)] };
            if goal(q) {
                return via;
            }
            seen[index(q)] = true;
            if avoid(q) {
                continue;
            }
            first[index(q)] = via;
            queue.push_back(q);
        }
    }
    None
}

/// The first step towards the stairs the player has seen; `None` when they have not been seen or
/// cannot be reached over remembered tiles.
pub fn first_step_to_stairs(map: &Map) -> Option<Dir> {
    first_step(map, |p| map.is_stairs(p), |_| false)
}

/// Whether the player has seen something at `p` worth walking to: items or a loot pile lying
/// there (stepping onto them picks them up).
fn has_things(map: &Map, p: Pos) -> bool {
    map.piles.iter().any(|x| x.pos == p) || map.loot.iter().any(|x| x.pos == p)
}

/// Whether `p` is at the edge of what the player knows: a remembered tile one can stand on next
/// to one never seen.
fn frontier(map: &Map, p: Pos) -> bool {
    !map.is_wall(p) && Dir::ALL.into_iter().any(|d| map.tile(p.step(d)).is_some() && !map.remembered(p.step(d)))
}

/// The first step of auto-explore: towards the nearest things lying around, else the nearest
/// edge of the known map; the stairs are walked around (taking them is `descend`).
pub fn first_step_to_explore(map: &Map) -> Option<Dir> {
    first_step(map, |p| !map.is_stairs(p) && (has_things(map, p) || frontier(map, p)), |p| map.is_stairs(p))
}

/// Whether stepping onto `to` enters a room the player has not entered yet on this floor (a
/// room's doors are its own tiles).
fn enters_a_new_room(map: &Map, to: Pos) -> bool {
    map.room_at(to).is_some_and(|r| map.room_at(map.player) != Some(r) && map.rooms.get(r).is_some_and(|room| !room.entered))
}

/// Why a walk or a rest ended, told after its turns.
enum Stop {
    /// The goal was reached (the walk's end, full health).
    Arrived,
    Enemy,
    Hurt,
    /// The most turns it may take passed.
    Limit,
    /// Below half health, the next step would enter a room not entered yet.
    Unexplored,
    Other,
}

impl Session {
    /// The enemies the player sees now, residents included.
    fn enemies_in_sight(&self) -> BTreeSet<usize> {
        let Some(m) = self.g.map() else { return BTreeSet::new() };
        let sight = m.sight();
        self.g.enemies().iter().filter(|e| e.body.health > 0 && m.enemies().get(&e.index).is_some_and(|p| sight.contains(*p))).map(|e| e.index).collect()
    }

    /// Walks while `next` gives a step, stopping as the module says. Returns the steps' traces
    /// and why it stopped.
    fn walk(&mut self, next: fn(&Map) -> Option<Dir>) -> (Vec<rustkeep_engine::trace::StepTrace>, Stop) {
        self.play_turns(WALK_LIMIT, |s| {
            let map = s.g.map().ok_or(Stop::Other)?;
            let dir = next(map).ok_or(Stop::Arrived)?;
            let to = s.g.move_target(dir).ok_or(Stop::Other)?;
            if s.below_half_health() && enters_a_new_room(map, to) {
                return Err(Stop::Unexplored);
            }
            Ok(Act::Move(dir))
        })
    }

    /// Whether the player's health is below half its maximum.
    fn below_half_health(&self) -> bool {
        self.g.player().health * 2 < self.g.max_health(&self.w, CreatureRef::Player)
    }

    /// Plays the player's acts that `next` chooses, at most `limit`, each followed by the
    /// enemies' turns, stopping as the module says. Returns the steps' traces and why it stopped.
    fn play_turns(&mut self, limit: usize, next: impl Fn(&Self) -> Result<Act<'static>, Stop>) -> (Vec<rustkeep_engine::trace::StepTrace>, Stop) {
        let floor = self.g.dungeon().map(|d| d.floor);
        let mut known = self.enemies_in_sight();
        let mut steps = Vec::new();
        for _ in 0..limit {
            let act = match next(self) {
                Ok(act) => act,
                Err(stop) => return (steps, stop),
            };
            let health = self.g.player().health;
            let step = self.g.step();
            steps.push(self.g.run_step(&self.w, act, CreatureRef::Player, None));
            if !self.g.is_over() {
                steps.extend(self.g.enemy_turns(&self.w, step));
            }
            if self.g.is_over() || self.g.dungeon().map(|d| d.floor) != floor || self.g.opened_shop().is_some() {
                return (steps, Stop::Other);
            }
            if self.g.player().health < health {
                return (steps, Stop::Hurt);
            }
            let now = self.enemies_in_sight();
            if self.foes_in_sight() > 0 || !now.is_subset(&known) {
                return (steps, Stop::Enemy);
            }
            known = now;
        }
        (steps, Stop::Limit)
    }

    /// `descend`: walk to the stairs the player has seen and down them, a turn per tile; refused
    /// while an enemy in combat is in sight.
    pub(super) fn descend(&mut self) -> Result<Reply, String> {
        let map = self.g.map().ok_or("there is no map here")?;
        if !map.seen.iter().zip(map.rows.iter().flat_map(|r| r.bytes())).any(|(s, t)| *s && t == STAIRS as u8) {
            return Err("you have not found the stairs down on this floor yet (o explores)".into());
        }
        if first_step_to_stairs(map).is_none() {
            return Err("no way you know of leads to the stairs from here".into());
        }
        if self.foes_in_sight() > 0 {
            return Err("not with an enemy in sight".into());
        }
        let (steps, stop) = self.walk(first_step_to_stairs);
        self.finish_turns(steps);
        self.tell_stop(stop, "");
        Ok(Reply::Turns)
    }

    /// `explore`: walk to what the player has not seen yet (and onto what lies around), a turn
    /// per tile, until everything reachable is known or something needs the player.
    pub(super) fn explore(&mut self) -> Result<Reply, String> {
        let map = self.g.map().ok_or("there is no map here")?;
        if self.foes_in_sight() > 0 {
            return Err("not with an enemy in sight".into());
        }
        if first_step_to_explore(map).is_none() {
            let stairs = first_step_to_stairs(map).is_some();
            return Err(format!("there is nothing left to explore that you can reach{}", if stairs { "; > takes the stairs" } else { "" }));
        }
        let (steps, stop) = self.walk(first_step_to_explore);
        self.finish_turns(steps);
        let done = if self.g.map().and_then(first_step_to_stairs).is_some() {
            "Explored everything you can reach; > takes the stairs."
        } else {
            "Explored everything you can reach."
        };
        self.tell_stop(stop, done);
        Ok(Reply::Turns)
    }

    /// `rest`: wait until health is full, an enemy comes into view or [`REST_LIMIT`] turns
    /// pass; the message says which. Refused with an enemy in sight, at full health and where
    /// resting heals nothing (`[balance] regen_every = 0`).
    pub(super) fn rest(&mut self) -> Result<Reply, String> {
        if self.foes_in_sight() > 0 {
            return Err("not with an enemy in sight".into());
        }
        let max = self.g.max_health(&self.w, CreatureRef::Player);
        if self.g.player().health >= max {
            return Err("you are at full health".into());
        }
        if self.w.db.resolved.balance.regen_every == 0 {
            return Err("resting heals nothing here: the mods set `[balance] regen_every = 0`".into());
        }
        let (steps, stop) = self.play_turns(REST_LIMIT, |s| if s.g.player().health >= max { Err(Stop::Arrived) } else { Ok(Act::Wait) });
        self.finish_turns(steps);
        self.tell_stop_or(stop, "You rest until your health is full.", &format!("You rest for {REST_LIMIT} turns."));
        Ok(Reply::Turns)
    }

    /// Tells why a walk stopped (after what happened on the way), unless the run ended.
    fn tell_stop(&mut self, stop: Stop, arrived: &str) {
        self.tell_stop_or(stop, arrived, "");
    }

    /// Tells why a walk or a rest stopped: `arrived` at its goal, `limit` after its most turns.
    fn tell_stop_or(&mut self, stop: Stop, arrived: &str, limit: &str) {
        if self.g.is_over() {
            return;
        }
        let text = match stop {
            Stop::Arrived if !arrived.is_empty() => arrived,
            Stop::Limit if !limit.is_empty() => limit,
            Stop::Enemy => "You stop: an enemy comes into view.",
            Stop::Hurt => "You stop: you are hurt.",
            Stop::Unexplored => "You stop before a room you have not entered: you are below half health (Z rests).",
            _ => return,
        };
        self.messages.push(text.to_string());
        self.walk_end = Some(text.to_string());
        self.push_log_line(super::LogLine::new(self.g.step(), text.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &[&str], player: Pos) -> Map {
        let mut m = Map::of_rows(rows.iter().map(|r| r.to_string()).collect(), player);
        m.look();
        m
    }

    #[test]
    fn explore_walks_to_the_nearest_edge_of_the_known_map_and_around_the_stairs() {
        // The door is the only edge of what the player sees; the stairs lie on the way.
        let m = map(&["##### ", "#@>.+ ", "##### "], Pos::new(1, 1));
        // Around the stairs is no way (walls above and below): nothing to explore from here.
        assert_eq!(first_step_to_explore(&m), None);
        let m = map(&["###### ", "#@...+ ", "#..>.# ", "###### "], Pos::new(1, 1));
        assert_eq!(first_step_to_explore(&m), Some(Dir::E));
        assert_eq!(first_step_to_stairs(&m), Some(Dir::E));
    }

    #[test]
    fn explore_goes_for_things_lying_around_first() {
        let mut m = map(&["####### ", "#.@...+ ", "####### "], Pos::new(2, 1));
        m.piles.push(rustkeep_engine::map::Pile { pos: Pos::new(1, 1), table: None });
        assert_eq!(first_step_to_explore(&m), Some(Dir::W));
    }
}
