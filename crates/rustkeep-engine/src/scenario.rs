//! Scenario files for `rustkeep simulate` (docs/engine.md, "Scenarios"): the data model read by
//! the validator's lowering (`rustkeep_data::scenario`), turned into the engine's terms, checked
//! against a world before anything runs (a typo is a clear error, never a silent no-op or a
//! panic), and run into a trace.

use std::collections::BTreeMap;

use rustkeep_data::grid::Dir;
use rustkeep_data::model::ActionData;
use rustkeep_data::scenario::{self as model, StepAct};
use rustkeep_data::text::{thousands, LineIndex};
use rustkeep_data::vocab::{EventKind, MAX_RUN_EVENTS, MAX_STEPS};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::game::{Act, CreatureRef, Event, Game, ItemInstance, World};
use crate::payload::Payload;
use crate::trace::StepTrace;

pub mod expect;

/// What a step does.
#[derive(Clone, Debug)]
pub enum StepKind {
    Attack,
    Event(EventKind, Map<String, Json>),
    Action(ActionData),
    Pickup,
    Talk(String),
    Enter(String),
    Use(String),
    Equip(String),
    /// Enter the dungeon, at its first floor or at the floor named.
    Start(Option<String>),
    Move(Dir),
    Wait,
}

#[derive(Clone, Debug)]
pub struct Step {
    pub kind: StepKind,
    pub source: CreatureRef,
    pub target: Option<CreatureRef>,
}

/// A scenario ready to run: the data model (`rustkeep_data::scenario`) in the engine's terms. The
/// engine validates nothing: the caller checked its IDs against the mods it loads through the
/// analysis (`rustkeep-check`) before running it.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub seed: u64,
    /// Whether every living enemy takes its own turn after each step of the player.
    pub enemies_act: bool,
    /// Whether the player regenerates out of combat (`[balance] regen_every`).
    pub regen: bool,
    pub mods: Vec<String>,
    pub options: Vec<String>,
    pub items: Vec<ItemInstance>,
    pub attributes: BTreeMap<String, f64>,
    pub quests: Vec<String>,
    pub enemies: Vec<(String, u32)>,
    pub steps: Vec<Step>,
    /// What the run must do (`[[expect]]`), checked by [`run`].
    pub expects: Vec<model::Expect>,
    /// The line (1-based) of each of `expects` in the scenario file: every report of an
    /// expectation names it, so that a script can point at the `[[expect]]` that failed.
    pub expect_lines: Vec<usize>,
}

impl Scenario {
    /// The engine's form of a scenario model without errors; `index` is the line index of the
    /// file it was read from (for the lines of its expectations).
    pub fn from_model(m: &model::Scenario, index: &LineIndex) -> Scenario {
        let steps = m
            .steps
            .iter()
            .map(|s| {
                let kind = match &s.act {
                    StepAct::Attack(_) => StepKind::Attack,
                    StepAct::Event(e, payload) => StepKind::Event(e.value, payload.clone()),
                    StepAct::Action(a) => StepKind::Action(a.data.clone()),
                    StepAct::Pickup => StepKind::Pickup,
                    StepAct::Talk(n) => StepKind::Talk(n.value.clone()),
                    StepAct::Enter(n) => StepKind::Enter(n.value.clone()),
                    StepAct::Use(n) => StepKind::Use(n.value.clone()),
                    StepAct::Equip(n) => StepKind::Equip(n.value.clone()),
                    StepAct::Start(f) => StepKind::Start(f.as_ref().map(|f| f.value.clone())),
                    StepAct::Move(d) => StepKind::Move(d.value),
                    StepAct::Wait => StepKind::Wait,
                };
                let target = match &s.act {
                    StepAct::Attack(a) => Some(CreatureRef::from(a.value)),
                    _ => s.target.as_ref().map(|t| CreatureRef::from(t.value)),
                };
                Step { kind, source: s.source.as_ref().map_or(CreatureRef::Player, |a| CreatureRef::from(a.value)), target }
            })
            .collect();
        Scenario {
            seed: m.seed,
            enemies_act: m.enemies_act,
            regen: m.regen,
            mods: m.mods.iter().map(|p| p.value.clone()).collect(),
            options: m.options.iter().map(|o| o.value.clone()).collect(),
            items: m
                .items
                .iter()
                .map(|i| ItemInstance {
                    item: i.item.value.clone(),
                    count: i.count.max(1),
                    affixes: i.affixes.iter().map(|a| a.value.clone()).collect(),
                    equipped: i.equipped,
                })
                .collect(),
            attributes: m.attributes.iter().map(|(k, v)| (k.value.clone(), *v)).collect(),
            quests: m.quests.iter().map(|q| q.value.clone()).collect(),
            enemies: m.enemies.iter().map(|e| (e.creature.value.clone(), e.count)).collect(),
            steps,
            expects: m.expects.clone(),
            expect_lines: m.expects.iter().map(|e| index.line_of(e.span.start) + 1).collect(),
        }
    }

    /// A new game with the scenario's player and enemies, character creation done.
    /// An old ID of `[renamed]` the scenario names plays as the ID it stands for.
    pub fn start(&self, w: &World) -> (Game, StepTrace) {
        let id = |s: &String| w.db.resolved.canonical(s).to_string();
        let mut g = Game::new(self.seed, self.options.iter().map(id).collect(), &self.attributes);
        g.set_regen(self.regen);
        // The starting kit is placed, not picked up: no events.
        g.carry(self.items.iter().map(|i| ItemInstance { item: id(&i.item), affixes: i.affixes.iter().map(id).collect(), ..i.clone() }));
        for (c, n) in &self.enemies {
            if !g.room_for_enemies(*n) {
                break;
            }
            g.add_enemies(w, &id(c), *n);
        }
        let quests: Vec<String> = self.quests.iter().map(id).collect();
        let setup = g.setup(w, &quests);
        (g, setup)
    }
}

/// Runs one step of a scenario; an old ID of `[renamed]` it names plays as the ID it stands for.
pub fn run_step(g: &mut Game, w: &World, s: &Step) -> StepTrace {
    let id = |n: &str| w.db.resolved.canonical(n).to_string();
    let named = match &s.kind {
        StepKind::Talk(n) | StepKind::Enter(n) | StepKind::Use(n) | StepKind::Equip(n) => id(n),
        StepKind::Start(Some(f)) => id(f),
        _ => String::new(),
    };
    let mut action = None;
    if let StepKind::Action(a) = &s.kind {
        let mut a = a.clone();
        a.ids_mut(&mut |n| n.value = id(&n.value));
        action = Some(a);
    }
    let act = match &s.kind {
        StepKind::Attack => Act::Attack,
        StepKind::Event(ev, payload) => {
            Act::Inject(Event { kind: *ev, source: s.source, target: s.target, payload: Payload::Raw(payload.clone()), cause: None })
        }
        StepKind::Action(_) => Act::Action(action.as_ref().expect("set above for an action step")),
        StepKind::Pickup => Act::Pickup,
        StepKind::Talk(_) => Act::Talk(&named),
        StepKind::Enter(_) => Act::Enter(&named),
        StepKind::Use(_) => Act::Use(&named),
        StepKind::Equip(_) => Act::Equip(&named),
        StepKind::Start(f) => Act::StartRun(f.as_ref().map(|_| named.as_str())),
        StepKind::Move(d) => Act::Move(*d),
        StepKind::Wait => Act::Wait,
    };
    g.run_step(w, act, s.source, s.target)
}

/// The result of a run: what `rustkeep simulate --format json` prints.
#[derive(Serialize, JsonSchema)]
pub struct Report {
    /// The seed the run used.
    pub seed: u64,
    /// Character creation and the scenario's setup (step 0).
    pub setup: StepTrace,
    /// Every step in order, enemy turns included.
    pub steps: Vec<StepTrace>,
    /// The state after the last step.
    #[serde(rename = "final")]
    #[schemars(with = "crate::game::FinalState")]
    pub final_state: Json,
    /// Engine warnings (the event cap reached, …).
    pub warnings: Vec<String>,
    /// The scenario's expectations, in the order written, each with how it came out.
    pub expectations: Vec<expect::Checked>,
}

impl Report {
    pub fn json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }

    pub fn json_text(&self) -> String {
        // Straight from the report (the same text as through a JSON value, without holding the
        // whole run twice).
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// How many expectations failed.
    pub fn failed(&self) -> usize {
        self.expectations.iter().filter(|c| !c.passed).count()
    }
}

/// The line of expectation `i`; 0 for a scenario put together by hand without its lines.
fn line_of(sc: &Scenario, i: usize) -> usize {
    sc.expect_lines.get(i).copied().unwrap_or(0)
}

/// Runs a scenario on a world (both checked by the caller), checking its expectations: each
/// after its `after_step` (a step the run did not reach counts as the end), the others after the
/// last step.
pub fn run(w: &World, sc: &Scenario) -> Report {
    let (mut g, setup) = sc.start(w);
    // Setup first, then every step's traces, for the counts of events and fired triggers; the
    // report's steps are the same traces after the setup (kept once: a long run's traces are
    // most of its memory).
    let mut all: Vec<StepTrace> = vec![setup];
    let mut checked: Vec<Option<expect::Checked>> = vec![None; sc.expects.len()];
    let check_after = |g: &Game, all: &[StepTrace], step: Option<usize>, checked: &mut Vec<Option<expect::Checked>>| {
        for (i, e) in sc.expects.iter().enumerate() {
            let due = match (step, e.after_step.as_ref()) {
                (Some(s), Some(a)) => a.value as usize == s,
                (None, _) => true,
                (Some(_), None) => false,
            };
            if due && checked[i].is_none() {
                checked[i] = Some(expect::check(w, sc, g, all, e, line_of(sc, i)));
            }
        }
    };
    for (i, s) in sc.steps.iter().enumerate() {
        // The bounds of a run (docs/engine.md, "Bounded work"): the checker refuses a scenario of
        // more steps, and a run that handled this many events stops.
        if i >= MAX_STEPS {
            g.stop(format!("the run stops before step {}: a scenario runs at most {} steps", g.step(), thousands(MAX_STEPS as u64)));
        } else if g.events_handled() >= MAX_RUN_EVENTS {
            g.stop(format!(
                "the run stops before step {}: it handled {} events, and a run handles at most {}",
                g.step(),
                thousands(g.events_handled()),
                thousands(MAX_RUN_EVENTS)
            ));
        }
        if g.is_over() {
            g.warn(format!("the run ended before step {}; {} step(s) not run", g.step(), sc.steps.len() - i));
            break;
        }
        let trace = run_step(&mut g, w, s);
        let (number, by_player) = (trace.step, s.source == CreatureRef::Player);
        all.push(trace);
        if sc.enemies_act && by_player && !g.is_over() {
            all.extend(g.enemy_turns(w, number));
        }
        check_after(&g, &all, Some(i), &mut checked);
    }
    check_after(&g, &all, None, &mut checked);
    let expectations = checked.into_iter().flatten().collect();
    let steps = all.split_off(1);
    let setup = all.pop().expect("the setup is the first trace");
    Report { seed: sc.seed, setup, steps, final_state: g.final_json(w), warnings: g.warnings().to_vec(), expectations }
}
