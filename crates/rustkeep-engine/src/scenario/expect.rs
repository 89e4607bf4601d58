//! A scenario's expectations (docs/testing.md): each checked on the game after the last step, or
//! after its `after_step`, against what the run did so far — quests, items, health, how often an
//! event was handled or an owner's triggers fired, the last combat's outcome — or, for `loot` and
//! `arena`, against the exact loot analysis and a seeded batch of fights, which do not depend on
//! the run.

use rustkeep_data::model::Bound;
use rustkeep_data::number;
use rustkeep_data::scenario::{Expect, ExpectKind, QuestState};
use rustkeep_data::text::Span;
use rustkeep_data::vocab::EventKind;
use serde::Serialize;

use crate::arena::{self, Lineup, DEFAULT_ROUNDS};
use crate::game::{CreatureRef, Game, World};
use crate::trace::StepTrace;

use super::Scenario;

/// How an expectation came out.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Checked {
    /// The `[[expect]]` table's byte span in the scenario file.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Span,
    /// The line of its `[[expect]]` in the scenario file (1-based).
    pub line: usize,
    /// What it checks, in words: `quest core:rattenplage`, `core:gold carried by the player`.
    pub what: String,
    /// What it wants: `done`, `at least 50`.
    pub expected: String,
    /// What the run (or the analysis) gave.
    pub got: String,
    pub passed: bool,
    /// The step it was checked after (0-based), when not after the last.
    pub after_step: Option<u32>,
    /// For `arena`: the 95 % interval of the win rate.
    pub interval: Option<(f64, f64)>,
    /// For `arena`: a bound lies inside the 95 % interval, so the outcome is not far from chance
    /// (more `runs` make it firm).
    pub fragile: bool,
}

impl Checked {
    /// What it checks, and when, if not after the last step: `quest core:rattenplage`,
    /// `creature_died handled after step 3`.
    pub fn subject(&self) -> String {
        match self.after_step {
            Some(step) => format!("{} after step {step}", self.what),
            None => self.what.clone(),
        }
    }

    /// What it wanted and what it got: `expected done, got started`.
    pub fn outcome(&self) -> String {
        format!("expected {}, got {}", self.expected, self.got)
    }

    /// A failure in one line: `expect quest core:rattenplage: expected done, got started`.
    pub fn failure(&self) -> String {
        format!("expect {}: {}", self.subject(), self.outcome())
    }

    /// The note of a [`Checked::fragile`] outcome: what it got is too close to a bound to tell.
    pub fn fragility(&self) -> String {
        format!("fragile: {} is {}, and the bound {} lies inside its 95 % interval; more runs make it firm", self.what, self.got, self.expected)
    }
}

/// What happened so far: the traces of the setup and the steps run.
struct SoFar<'a> {
    traces: &'a [StepTrace],
}

impl SoFar<'_> {
    fn events(&self) -> impl Iterator<Item = &crate::trace::TraceEvent> {
        self.traces.iter().flat_map(|t| &t.events)
    }

    fn handled(&self, kind: EventKind) -> u64 {
        self.events().filter(|e| e.event == kind).count() as u64
    }

    fn fired(&self, owner: &str) -> u64 {
        self.events().flat_map(|e| &e.triggers).filter(|t| t.fired && t.owner == owner).count() as u64
    }

    /// The outcome of the last `combat_ended`, as its payload says (an injected one's too).
    fn outcome(&self) -> String {
        let last = self.events().filter(|e| e.event == EventKind::CombatEnded).last();
        last.and_then(|e| e.payload.str(rustkeep_data::vocab::payload::OUTCOME)).unwrap_or("none").to_string()
    }
}

fn result(e: &Expect, line: usize, what: String, bound: &Bound, got: f64) -> Checked {
    Checked {
        span: e.span.clone(),
        line,
        what,
        expected: bound.describe(),
        got: bound.shown(got),
        passed: bound.holds(got),
        after_step: e.after_step.as_ref().map(|a| a.value),
        interval: None,
        fragile: false,
    }
}

/// Checks one expectation, written at `line` of the scenario file, on the game as it stands after
/// `traces`.
pub fn check(w: &World, sc: &Scenario, g: &Game, traces: &[StepTrace], e: &Expect, line: usize) -> Checked {
    let so_far = SoFar { traces };
    // An old ID of `[renamed]` means the ID it stands for, as in the data.
    let id = |written: &str| w.db.resolved.canonical(written).to_string();
    let at_least_once = |span: &Span| Bound::at_least(span.clone(), 1.0);
    match &e.kind {
        ExpectKind::Quest { quest, state, count } => {
            let progress = g.quests.iter().find(|q| q.quest == id(&quest.value));
            let now = match progress {
                None => "not_started",
                Some(q) if q.done => "done",
                Some(_) => "started",
            };
            let counted = progress.map_or(0, |q| q.count);
            let want_state = state.map(|s| match s {
                QuestState::Done => "done",
                QuestState::Started => "started",
                QuestState::NotStarted => "not_started",
            });
            let state_ok = want_state.is_none_or(|s| s == now);
            let count_ok = count.as_ref().is_none_or(|c| c.holds(f64::from(counted)));
            let mut expected = Vec::new();
            if let Some(s) = want_state {
                expected.push(s.to_string());
            }
            if let Some(c) = count {
                expected.push(format!("count {}", c.describe()));
            }
            Checked {
                span: e.span.clone(),
                line,
                what: format!("quest {}", quest.value),
                expected: expected.join(", "),
                got: format!("{now}, count {counted}"),
                passed: state_ok && count_ok,
                after_step: e.after_step.as_ref().map(|a| a.value),
                interval: None,
                fragile: false,
            }
        }
        ExpectKind::HasItem { item, who: a, count } => {
            let n = g.item_count(CreatureRef::from(*a), &id(&item.value)) as f64;
            let bound = count.clone().unwrap_or_else(|| at_least_once(&e.span));
            result(e, line, format!("{} carried by {a}", item.value), &bound, n)
        }
        ExpectKind::Health { who: a, bound } => {
            let h = g.creature(CreatureRef::from(*a)).map_or(0, |c| c.health) as f64;
            result(e, line, format!("the health of {a}"), bound, h)
        }
        ExpectKind::Event { event, count } => {
            let bound = count.clone().unwrap_or_else(|| at_least_once(&e.span));
            result(e, line, format!("{} handled", event.value.name()), &bound, so_far.handled(event.value) as f64)
        }
        ExpectKind::Fired { owner, count, never } => {
            let bound = match (count, never) {
                (_, true) => Bound { span: e.span.clone(), exact: Some(0.0), at_least: None, below: None },
                (Some(c), false) => c.clone(),
                (None, false) => at_least_once(&e.span),
            };
            result(e, line, format!("triggers of {} fired", owner.value), &bound, so_far.fired(&id(&owner.value)) as f64)
        }
        ExpectKind::Outcome { outcome } => {
            let got = so_far.outcome();
            Checked {
                span: e.span.clone(),
                line,
                what: "the outcome of the last combat".into(),
                expected: outcome.value.clone(),
                passed: got == outcome.value,
                got,
                after_step: e.after_step.as_ref().map(|a| a.value),
                interval: None,
                fragile: false,
            }
        }
        ExpectKind::Loot { table, item, chance, expected } => {
            let report = w.loot.analyze(&id(&table.value), 0.0);
            let item_id = id(&item.value);
            let stat = report.as_ref().ok().and_then(|r| r.drops.iter().find(|d| *d.id == *item_id));
            let (p, mean) = stat.map_or((0.0, 0.0), |d| (d.p_any, d.expected));
            let mut parts_want = Vec::new();
            let mut parts_got = Vec::new();
            let mut passed = true;
            if let Some(c) = chance {
                parts_want.push(format!("chance {}", c.describe()));
                parts_got.push(format!("chance {}", c.shown(p)));
                passed &= c.holds(p);
            }
            if let Some(x) = expected {
                parts_want.push(format!("mean count {}", x.describe()));
                parts_got.push(format!("mean count {}", x.shown(mean)));
                passed &= x.holds(mean);
            }
            if let Err(err) = &report {
                parts_got = vec![format!("no analysis: {err}")];
                passed = false;
            }
            Checked {
                span: e.span.clone(),
                line,
                what: format!("{} from {} (exact, luck 0)", item.value, table.value),
                expected: parts_want.join(", "),
                got: parts_got.join(", "),
                passed,
                after_step: e.after_step.as_ref().map(|a| a.value),
                interval: None,
                fragile: false,
            }
        }
        ExpectKind::Arena { option, runs, win_rate } => {
            let lineup = Lineup {
                options: option.as_ref().map_or_else(|| sc.options.clone(), |o| vec![id(&o.value)]),
                items: if option.is_some() { Vec::new() } else { sc.items.clone() },
                attributes: if option.is_some() { Default::default() } else { sc.attributes.clone() },
                quests: if option.is_some() { Vec::new() } else { sc.quests.clone() },
                enemies: sc.enemies.clone(),
                new_character: option.is_some(),
            };
            let r = arena::run(w, &lineup, u64::from(*runs), sc.seed, DEFAULT_ROUNDS);
            let rate = r.win_rate();
            let (lo, hi) = r.win_rate_ci95();
            let inside = |x: Option<f64>| x.is_some_and(|x| x > lo && x < hi);
            let fragile = inside(win_rate.exact) || inside(win_rate.at_least) || inside(win_rate.below);
            let who = if lineup.options.is_empty() { "the player".to_string() } else { lineup.options.join(" + ") };
            Checked {
                span: e.span.clone(),
                line,
                what: format!("win rate of {who} over {runs} fights"),
                expected: win_rate.describe(),
                got: {
                    // Four decimals, as many as the interval, unless the bound needs more.
                    let places = number::places_against(rate, &win_rate.numbers(), 4);
                    let shown = |x: f64| number::fixed(x, places);
                    format!("{} (95 % interval {}–{})", shown(rate), shown(lo), shown(hi))
                },
                passed: win_rate.holds(rate),
                after_step: e.after_step.as_ref().map(|a| a.value),
                interval: Some((lo, hi)),
                fragile,
            }
        }
    }
}
