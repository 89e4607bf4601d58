//! The model of a scenario file (docs/engine.md, "Scenarios"): what `rustkeep simulate` and
//! `rustkeep arena` run, with a byte span for every value, read by the same lowering as data files
//! (`lower::lower_scenario`) so that a scenario gets the same located diagnostics. The engine
//! turns it into its own `Scenario`; the analysis (`rustkeep-check`) checks its IDs and enemy
//! references against the mods the scenario loads. The model knows no database.

use serde_json::{Map, Value as Json};

use crate::grid::Dir;
use crate::model::{Action, Bound, Sp};
use crate::text::Span;
use crate::vocab::{field, EventKind, Registry};

/// A creature of a scenario: the player, or the N-th enemy to appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    Player,
    Enemy(u32),
}

impl Actor {
    pub fn parse(s: &str) -> Option<Actor> {
        if s == "player" {
            return Some(Actor::Player);
        }
        let n = s.strip_prefix("enemy:")?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        n.parse().ok().map(Actor::Enemy)
    }
}

impl std::fmt::Display for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Actor::Player => f.write_str("player"),
            Actor::Enemy(n) => write!(f, "enemy:{n}"),
        }
    }
}

/// One item of `[player] items`.
#[derive(Clone, Debug, PartialEq)]
pub struct StartItem {
    pub span: Span,
    pub item: Sp<String>,
    pub count: u32,
    pub affixes: Vec<Sp<String>>,
    pub equipped: bool,
}

/// One `[[enemies]]` group.
#[derive(Clone, Debug, PartialEq)]
pub struct EnemyGroup {
    pub span: Span,
    pub creature: Sp<String>,
    pub count: u32,
}

/// What a step does.
#[derive(Clone, Debug, PartialEq)]
pub enum StepAct {
    Attack(Sp<Actor>),
    /// An injected event with its payload as written (JSON values, in the order written).
    Event(Sp<EventKind>, Map<String, Json>),
    Action(Action),
    Pickup,
    Talk(Sp<String>),
    Enter(Sp<String>),
    Use(Sp<String>),
    Equip(Sp<String>),
    /// Enters the dungeon: at its first floor (`start = true`) or at the floor named.
    Start(Option<Sp<String>>),
    /// Moves the player one tile on the dungeon's map.
    Move(Sp<Dir>),
    Wait,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The step's table (`[[steps]]` header or inline table).
    pub span: Span,
    pub act: StepAct,
    /// `None`: the player.
    pub source: Option<Sp<Actor>>,
    pub target: Option<Sp<Actor>>,
}

/// A scenario file as far as it could be read; `broken` when any part of it was refused.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    pub seed: u64,
    pub enemies_act: bool,
    /// Whether the player regenerates out of combat (`regen = true`).
    pub regen: bool,
    /// `mods`, as written (relative to the scenario file).
    pub mods: Vec<Sp<String>>,
    pub options: Vec<Sp<String>>,
    pub items: Vec<StartItem>,
    pub attributes: Vec<(Sp<String>, f64)>,
    pub quests: Vec<Sp<String>>,
    pub enemies: Vec<EnemyGroup>,
    pub steps: Vec<Step>,
    /// What the run must do (`[[expect]]`), in the order written.
    pub expects: Vec<Expect>,
    pub broken: bool,
}

/// A quest's state, as an expectation names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuestState {
    NotStarted,
    /// Started and not done.
    Started,
    Done,
}

/// What an expectation checks.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpectKind {
    /// A quest's state (default: done) and/or how often it counted.
    Quest { quest: Sp<String>, state: Option<QuestState>, count: Option<Bound> },
    /// How many of an item a creature carries (default: at least 1).
    HasItem { item: Sp<String>, who: Actor, count: Option<Bound> },
    /// A creature's health.
    Health { who: Actor, bound: Bound },
    /// How often an event was handled.
    Event { event: Sp<EventKind>, count: Option<Bound> },
    /// How often triggers of an owner fired (default: at least once; `never`: not at all).
    Fired { owner: Sp<String>, count: Option<Bound>, never: bool },
    /// The outcome of the last `combat_ended`, or `none`.
    Outcome { outcome: Sp<String> },
    /// A loot table's exact chance of an item (at least one per roll) or its mean count per roll.
    Loot { table: Sp<String>, item: Sp<String>, chance: Option<Bound>, expected: Option<Bound> },
    /// The win rate of fights of the scenario's player (or `option`) against its enemies.
    Arena { option: Option<Sp<String>>, runs: u32, win_rate: Bound },
}

/// One `[[expect]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    /// The `[[expect]]` table.
    pub span: Span,
    /// Checked after this step (0-based, of `steps`) instead of after the last.
    pub after_step: Option<Sp<u32>>,
    pub kind: ExpectKind,
}

/// The registries an ID named under a scenario key must be in: `enter` takes a prefab or a floor.
pub fn registries_for(context: &str, registry: Registry) -> &'static [Registry] {
    const ROOMS: &[Registry] = &[Registry::Prefabs, Registry::Floors];
    if context == field::ENTER {
        return ROOMS;
    }
    Registry::ALL.iter().find(|r| **r == registry).map(std::slice::from_ref).unwrap_or(&[])
}

/// Whether a scenario's text writes expectations: an `expect` table or array of tables, or an
/// `expect` key at its top level — even malformed ones, which `rustkeep test` still runs so as to
/// report them. Read by the one reader, in a text with mistakes too: an `expect` inside a string
/// or a comment is none.
pub fn writes_expectations(text: &str) -> bool {
    use crate::syntax::{self, EventKind};
    let events = syntax::parse(text).events;
    let is_expect = |i: usize| events.get(i).is_some_and(|e| e.kind() == EventKind::SimpleKey && text[syntax::span(e)].trim_matches(['"', '\'']) == "expect");
    let mut past_header = false;
    let mut depth = 0usize;
    let mut line_start = true;
    for (i, e) in events.iter().enumerate() {
        match e.kind() {
            EventKind::StdTableOpen | EventKind::ArrayTableOpen => {
                if is_expect(i + 1) && events.get(i + 2).is_some_and(|c| matches!(c.kind(), EventKind::StdTableClose | EventKind::ArrayTableClose)) {
                    return true;
                }
                past_header = true;
            }
            EventKind::SimpleKey if line_start && !past_header && depth == 0 && is_expect(i) => return true,
            EventKind::ArrayOpen | EventKind::InlineTableOpen => depth += 1,
            EventKind::ArrayClose | EventKind::InlineTableClose => depth = depth.saturating_sub(1),
            _ => {}
        }
        line_start = e.kind() == EventKind::Newline && depth == 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::writes_expectations;

    #[test]
    fn expectations_are_found_by_the_reader_not_by_lines() {
        for text in [
            "[[expect]]\nturn = 1\n",
            "  [[ expect ]] # c\n",
            "[expect]\n",
            "expect = []\n",
            "expect.turn = 1\n",
            "seed = 1\n[[\"expect\"]]\n",
            "[[expect]]\nturn = \n",
        ] {
            assert!(writes_expectations(text), "{text}");
        }
        for text in [
            "name = \"\"\"\n[[expect]]\n\"\"\"\n",
            "# [[expect]]\n",
            "[player]\nexpect = 1\n",
            "[[expect.more]]\n",
            "steps = [\n  expect = 1,\n]\n",
            "note = 'expect = 1'\n",
            "",
        ] {
            assert!(!writes_expectations(text), "{text}");
        }
    }
}
