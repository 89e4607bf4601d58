//! The trace of every turn, for the modder: each command's steps as the player could follow
//! them, kept for the last [`HISTORY_TURNS`] commands and at most [`HISTORY_STEPS`] steps and
//! enemy turns (older ones are let go, so a long game, or one with a thousand enemies, holds
//! bounded memory), searchable, and marked where a watched owner's triggers fired or were
//! skipped.

use std::collections::VecDeque;

use rustkeep_engine::trace::StepTrace;

/// How many commands' traces the history keeps.
pub const HISTORY_TURNS: usize = 2_000;

/// How many steps and enemy turns the kept commands may hold together (the newest command is
/// kept whole however many it has).
pub const HISTORY_STEPS: usize = 40_000;

/// One command's traces.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The command's number in the game, from 1 (a loaded game counts on from its save's step).
    pub number: usize,
    /// The game's step after the command.
    pub step: usize,
    /// The command as typed (`move n`, `explore`, `setup` for the start of the game).
    pub command: String,
    /// The player's steps and the enemies' turns after each (shared with the session's last
    /// turn: a turn with a thousand enemies is not copied).
    pub steps: std::sync::Arc<[StepTrace]>,
    /// The engine's warnings the command raised.
    pub warnings: Vec<String>,
}

/// What a watched owner did in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watched {
    /// A trigger of the owner fired.
    Fired,
    /// Its triggers were checked and all were skipped.
    Skipped,
}

/// The turns kept, oldest first.
#[derive(Clone, Debug, Default)]
pub struct History {
    turns: VecDeque<Turn>,
    /// How many turns were let go from the front.
    dropped: usize,
    /// The steps and enemy turns of the kept turns.
    steps: usize,
}

impl History {
    /// Keeps a turn, letting the oldest go past [`HISTORY_TURNS`] or [`HISTORY_STEPS`].
    pub fn push(&mut self, turn: Turn) {
        self.steps += turn.steps.len();
        self.turns.push_back(turn);
        while self.turns.len() > HISTORY_TURNS || (self.steps > HISTORY_STEPS && self.turns.len() > 1) {
            if let Some(old) = self.turns.pop_front() {
                self.steps -= old.steps.len();
            }
            self.dropped += 1;
        }
    }

    /// How many turns are kept.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether no turn is kept.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// How many older turns were let go to keep the memory bounded.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The kept turn `i`, oldest first.
    pub fn get(&self, i: usize) -> Option<&Turn> {
        self.turns.get(i)
    }

    /// Forgets every turn (a loaded game starts a new story).
    pub fn clear(&mut self) {
        self.turns.clear();
        self.dropped = 0;
        self.steps = 0;
    }

    /// What `owner` did in turn `i`: `None` when no trigger of it was looked at.
    pub fn watched(&self, i: usize, owner: &str) -> Option<Watched> {
        let t = self.turns.get(i)?;
        let mut any = None;
        for tr in t.steps.iter().flat_map(|s| &s.events).flat_map(|e| &e.triggers).filter(|tr| tr.owner == owner) {
            if tr.fired {
                return Some(Watched::Fired);
            }
            any = Some(Watched::Skipped);
        }
        any
    }

    /// The turns where `owner`'s triggers were looked at, as indexes.
    pub fn watched_turns(&self, owner: &str) -> Vec<usize> {
        (0..self.turns.len()).filter(|i| self.watched(*i, owner).is_some()).collect()
    }

    /// Whether the text of turn `i` (as [`Turn::lines`] gives it) contains `query`, ignoring case.
    pub fn matches(&self, i: usize, query: &str) -> bool {
        let q = query.to_lowercase();
        self.turns.get(i).is_some_and(|t| t.command.to_lowercase().contains(&q) || t.lines().iter().any(|l| l.to_lowercase().contains(&q)))
    }

    /// The nearest turn from `from` (itself included) going back (or forward) whose text contains
    /// `query`.
    pub fn find(&self, query: &str, from: usize, back: bool) -> Option<usize> {
        if back {
            (0..=from.min(self.turns.len().checked_sub(1)?)).rev().find(|i| self.matches(*i, query))
        } else {
            (from..self.turns.len()).find(|i| self.matches(*i, query))
        }
    }
}

impl Turn {
    /// The turn's trace as text, a line each: every step's header, events and triggers.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.warnings.iter().map(|w| format!("warning: {w}")).collect();
        for st in self.steps.iter() {
            out.extend(rustkeep_present::report::trace(st, &step_title(st)).lines().map(str::to_string));
        }
        out
    }
}

/// The title of a step in the trace: `setup`, `step 4 (enemy:3's turn)`, `step 4`.
pub fn step_title(st: &StepTrace) -> String {
    match (&st.source, st.act.as_str()) {
        (_, "character creation") => "setup".to_string(),
        (Some(who), _) => format!("step {} ({who}'s turn)", st.step),
        (None, _) => format!("step {}", st.step),
    }
}
