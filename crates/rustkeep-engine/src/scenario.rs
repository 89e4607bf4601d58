//! Scenario files for `rustkeep simulate` (docs/engine.md, "Scenarios"): parsing, checking every ID before anything
//! runs (a typo is a clear error, never a silent no-op or a panic), and running them into a
//! trace.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rustkeep_data::grid::Dir;
use rustkeep_data::lower::lower_file;
use rustkeep_data::model::ActionData;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest::closest;
use rustkeep_data::vocab::{is_attribute, EventKind, Registry, ATTRIBUTES};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};

use crate::game::{Act, CreatureRef, Event, Game, ItemInstance, World};
use crate::payload::Payload;
use crate::trace::StepTrace;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    seed: Option<u64>,
    #[serde(default)]
    enemies_act: bool,
    #[serde(default)]
    mods: Vec<String>,
    #[serde(default)]
    player: RawPlayer,
    #[serde(default)]
    enemies: Vec<RawEnemies>,
    #[serde(default)]
    steps: Vec<RawStep>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    items: Vec<RawItem>,
    #[serde(default)]
    attributes: BTreeMap<String, f64>,
    #[serde(default)]
    quests: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    item: String,
    count: Option<u32>,
    #[serde(default)]
    affixes: Vec<String>,
    #[serde(default)]
    equipped: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnemies {
    creature: String,
    count: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    attack: Option<String>,
    event: Option<String>,
    payload: Option<toml::Table>,
    action: Option<toml::Spanned<toml::Table>>,
    source: Option<String>,
    target: Option<String>,
    pickup: Option<bool>,
    talk: Option<String>,
    enter: Option<String>,
    #[serde(rename = "use")]
    use_: Option<String>,
    equip: Option<String>,
    /// Enter the dungeon: `true` (its first floor) or a floor's ID (start there).
    start: Option<toml::Value>,
    /// Move the player one tile on the map: n, ne, e, se, s, sw, w, nw.
    #[serde(rename = "move")]
    move_: Option<String>,
    wait: Option<bool>,
}

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

/// A parsed scenario; IDs are checked against a [`World`] by [`Scenario::validate`].
#[derive(Clone, Debug)]
pub struct Scenario {
    pub seed: u64,
    /// Whether every living enemy takes its own turn after each step of the player.
    pub enemies_act: bool,
    pub mods: Vec<String>,
    pub options: Vec<String>,
    pub items: Vec<ItemInstance>,
    pub attributes: BTreeMap<String, f64>,
    pub quests: Vec<String>,
    pub enemies: Vec<(String, u32)>,
    pub steps: Vec<Step>,
}

fn creature_ref(s: &str, what: &str, step: usize) -> Result<CreatureRef, String> {
    CreatureRef::parse(s).ok_or_else(|| format!("step {step}: `{what} = \"{s}\"` is not `player` or `enemy:N`"))
}

fn toml_to_json(v: &toml::Value) -> Json {
    match v {
        toml::Value::String(s) => json!(s),
        toml::Value::Integer(i) => json!(i),
        toml::Value::Float(f) => json!(f),
        toml::Value::Boolean(b) => json!(b),
        toml::Value::Datetime(d) => json!(d.to_string()),
        toml::Value::Array(a) => Json::Array(a.iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => Json::Object(t.iter().map(|(k, v)| (k.clone(), toml_to_json(v))).collect()),
    }
}

/// Lowers an inline action table with the validator's own lowering (one grammar everywhere).
fn lower_action(text: &str, span: std::ops::Range<usize>, step: usize) -> Result<ActionData, String> {
    let slice = text.get(span).unwrap_or("").trim();
    if !slice.starts_with('{') {
        return Err(format!("step {step}: write `action` as an inline table: action = {{ action = \"damage\", … }}"));
    }
    let file = format!("[[quests]]\nid = \"scenario:step\"\nname = \"step\"\non = \"turn_started\"\nactions = [ {slice} ]\n");
    let facts = lower_file(FileId(0), &file, None);
    if let Some(d) = facts.diagnostics.first() {
        return Err(format!("step {step}: the action is malformed: {} [{}]", d.message, d.code.name()));
    }
    let t = facts.entries.first().and_then(|e| e.quest_trigger.as_ref()).ok_or_else(|| format!("step {step}: the action could not be read"))?;
    if t.broken {
        return Err(format!("step {step}: the action is malformed"));
    }
    t.actions.first().map(|a| a.data.clone()).ok_or_else(|| format!("step {step}: the action could not be read"))
}

impl Scenario {
    /// Parses a scenario's text (TOML).
    pub fn parse(text: &str) -> Result<Scenario, String> {
        let raw: RawScenario = toml::from_str(text).map_err(|e| format!("the scenario is not valid: {}", e.to_string().trim_end()))?;
        let mut steps = Vec::new();
        for (i, s) in raw.steps.iter().enumerate() {
            steps.push(Self::step(text, i, s)?);
        }
        let items = raw
            .player
            .items
            .iter()
            .map(|r| ItemInstance { item: r.item.clone(), count: r.count.unwrap_or(1).max(1), affixes: r.affixes.clone(), equipped: r.equipped })
            .collect();
        Ok(Scenario {
            seed: raw.seed.unwrap_or(0),
            enemies_act: raw.enemies_act,
            mods: raw.mods,
            options: raw.player.options,
            items,
            attributes: raw.player.attributes,
            quests: raw.player.quests,
            enemies: raw.enemies.iter().map(|e| (e.creature.clone(), e.count.unwrap_or(1))).collect(),
            steps,
        })
    }

    fn step(text: &str, i: usize, s: &RawStep) -> Result<Step, String> {
        let acts = [
            s.attack.is_some(),
            s.event.is_some(),
            s.action.is_some(),
            s.pickup.is_some(),
            s.talk.is_some(),
            s.enter.is_some(),
            s.use_.is_some(),
            s.equip.is_some(),
            s.start.is_some(),
            s.move_.is_some(),
            s.wait.is_some(),
        ];
        let n = acts.iter().filter(|a| **a).count();
        if n != 1 {
            return Err(format!("step {i}: a step does exactly one of attack, event, action, pickup, talk, enter, use, equip, start, move, wait ({n} given)"));
        }
        let source = match &s.source {
            Some(x) => creature_ref(x, "source", i)?,
            None => CreatureRef::Player,
        };
        let target = match &s.target {
            Some(x) => Some(creature_ref(x, "target", i)?),
            None => None,
        };
        if s.payload.is_some() && s.event.is_none() {
            return Err(format!("step {i}: `payload` belongs to an `event` step"));
        }
        if s.target.is_some() && s.event.is_none() && s.action.is_none() {
            return Err(format!("step {i}: `target` belongs to an `event` or `action` step"));
        }
        let kind = if let Some(t) = &s.attack {
            return Ok(Step { kind: StepKind::Attack, source, target: Some(creature_ref(t, "attack", i)?) });
        } else if let Some(name) = &s.event {
            let ev = EventKind::from_name(name).ok_or_else(|| {
                let sug = closest(name, EventKind::all().map(|e| e.name())).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
                format!("step {i}: `{name}` is not an event{sug}")
            })?;
            let mut payload = Map::new();
            for (k, v) in s.payload.iter().flatten() {
                if !ev.def().payload.contains(&k.as_str()) {
                    return Err(format!(
                        "step {i}: `{}` does not carry `{k}` (its payload: {})",
                        ev.name(),
                        if ev.def().payload.is_empty() { "none".to_string() } else { ev.def().payload.join(", ") }
                    ));
                }
                payload.insert(k.clone(), toml_to_json(v));
            }
            StepKind::Event(ev, payload)
        } else if let Some(a) = &s.action {
            StepKind::Action(lower_action(text, a.span(), i)?)
        } else if let Some(p) = s.pickup {
            if !p {
                return Err(format!("step {i}: `pickup = false` does nothing; write `pickup = true`"));
            }
            StepKind::Pickup
        } else if let Some(n) = &s.talk {
            StepKind::Talk(n.clone())
        } else if let Some(n) = &s.enter {
            StepKind::Enter(n.clone())
        } else if let Some(n) = &s.use_ {
            StepKind::Use(n.clone())
        } else if let Some(n) = &s.equip {
            StepKind::Equip(n.clone())
        } else if let Some(v) = &s.start {
            match v {
                toml::Value::Boolean(true) => StepKind::Start(None),
                toml::Value::String(f) => StepKind::Start(Some(f.clone())),
                _ => return Err(format!("step {i}: `start` is `true` (the first floor) or a floor's ID")),
            }
        } else if let Some(d) = &s.move_ {
            let dir = Dir::from_name(d).ok_or_else(|| format!("step {i}: `move = \"{d}\"` is not a direction; the directions: n, ne, e, se, s, sw, w, nw"))?;
            StepKind::Move(dir)
        } else if let Some(w) = s.wait {
            if !w {
                return Err(format!("step {i}: `wait = false` does nothing; write `wait = true`"));
            }
            StepKind::Wait
        } else {
            unreachable!("exactly one act is present")
        };
        Ok(Step { kind, source, target })
    }

    /// Checks every ID the scenario names against the loaded data.
    pub fn validate(&self, w: &World) -> Result<(), String> {
        let mut errors = Vec::new();
        let mut need = |reg: &[Registry], id: &str, what: &str| {
            if reg.iter().any(|r| w.exists(*r, id)) {
                return;
            }
            let pool: Vec<String> = reg.iter().flat_map(|r| w.ids(*r)).collect();
            let sug = closest(id, pool.iter().map(String::as_str)).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
            errors.push(format!("{what}: `{id}` is not {}{sug}", reg.iter().map(|r| format!("a known {}", r.noun())).collect::<Vec<_>>().join(" or ")));
        };
        for o in &self.options {
            need(&[Registry::CharacterOptions], o, "player.options");
        }
        for it in &self.items {
            need(&[Registry::Items], &it.item, "player.items");
            for a in &it.affixes {
                need(&[Registry::Affixes], a, "player.items affixes");
            }
        }
        for q in &self.quests {
            need(&[Registry::Quests], q, "player.quests");
        }
        for (c, _) in &self.enemies {
            need(&[Registry::Creatures], c, "enemies");
        }
        for (i, s) in self.steps.iter().enumerate() {
            let what = format!("step {i}");
            match &s.kind {
                StepKind::Talk(n) => need(&[Registry::Npcs], n, &what),
                StepKind::Enter(n) => need(&[Registry::Prefabs, Registry::Floors], n, &what),
                StepKind::Use(n) | StepKind::Equip(n) => need(&[Registry::Items], n, &what),
                StepKind::Start(Some(f)) => need(&[Registry::Floors], f, &what),
                StepKind::Action(a) => match a {
                    ActionData::GiveItem { item, .. } | ActionData::TakeItem { item, .. } => need(&[Registry::Items], &item.value, &what),
                    ActionData::ApplyStatus { status, .. } => need(&[Registry::Statuses], &status.value, &what),
                    ActionData::Spawn { creature, .. } => need(&[Registry::Creatures], &creature.value, &what),
                    ActionData::StartQuest { quest } => need(&[Registry::Quests], &quest.value, &what),
                    ActionData::OpenShop { shop } => need(&[Registry::Shops], &shop.value, &what),
                    ActionData::Damage { .. } | ActionData::Heal { .. } | ActionData::Flee => {}
                },
                _ => {}
            }
        }
        for k in self.attributes.keys() {
            if !is_attribute(k) {
                let sug = closest(k, ATTRIBUTES.iter().map(|(a, _)| *a)).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
                errors.push(format!("player.attributes: `{k}` is not an attribute{sug}"));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("\n"))
        }
    }

    /// Loads the bundled core and the scenario's mods (relative to `base`, the scenario's folder).
    pub fn load_project(&self, base: &Path, cwd: &Path) -> Project {
        if self.mods.is_empty() {
            Project::with_bundled_core()
        } else {
            let paths: Vec<PathBuf> = self.mods.iter().map(|m| base.join(m)).collect();
            load(&paths, cwd, &Overlay::new())
        }
    }

    /// A new game with the scenario's player and enemies, character creation done.
    pub fn start(&self, w: &World) -> (Game, StepTrace) {
        let mut g = Game::new(self.seed, self.options.clone(), &self.attributes);
        // The starting kit is placed, not picked up: no events.
        g.player.inventory.extend(self.items.iter().cloned());
        for (c, n) in &self.enemies {
            g.add_enemies(w, c, *n);
        }
        let setup = g.setup(w, &self.quests);
        (g, setup)
    }
}

/// Runs one step of a scenario.
pub fn run_step(g: &mut Game, w: &World, s: &Step) -> StepTrace {
    let act = match &s.kind {
        StepKind::Attack => Act::Attack,
        StepKind::Event(ev, payload) => {
            Act::Inject(Event { kind: *ev, source: s.source, target: s.target, payload: Payload::Raw(payload.clone()), cause: None })
        }
        StepKind::Action(a) => Act::Action(a),
        StepKind::Pickup => Act::Pickup,
        StepKind::Talk(n) => Act::Talk(n),
        StepKind::Enter(n) => Act::Enter(n),
        StepKind::Use(n) => Act::Use(n),
        StepKind::Equip(n) => Act::Equip(n),
        StepKind::Start(f) => Act::StartRun(f.as_deref()),
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
}

impl Report {
    pub fn json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }

    pub fn json_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(&self.json()).unwrap_or_default();
        s.push('\n');
        s
    }

    pub fn human(&self) -> String {
        let mut out = format!("seed {}\n", self.seed);
        out.push_str(&self.setup.human("setup"));
        for s in &self.steps {
            let title = match &s.source {
                Some(who) => format!("step {} ({who}'s turn)", s.step),
                None => format!("step {}", s.step),
            };
            out.push_str(&s.human(&title));
        }
        out.push_str("final\n");
        let p = &self.final_state["player"];
        out.push_str(&format!("  player health {} / {}\n", p["health"], p["max_health"]));
        for i in p["inventory"].as_array().into_iter().flatten() {
            out.push_str(&format!("  inventory {}\n", i));
        }
        for q in p["quests"].as_array().into_iter().flatten() {
            out.push_str(&format!("  quest {} {}{}\n", q["quest"].as_str().unwrap_or(""), q["count"], if q["done"] == json!(true) { " done" } else { "" }));
        }
        for e in self.final_state["enemies"].as_array().into_iter().flatten() {
            out.push_str(&format!("  {} {} health {}\n", e["ref"].as_str().unwrap_or(""), e["creature"].as_str().unwrap_or(""), e["health"]));
        }
        for i in self.final_state["floor_loot"].as_array().into_iter().flatten() {
            out.push_str(&format!("  on the floor {}\n", i));
        }
        for w in &self.warnings {
            out.push_str(&format!("warning: {w}\n"));
        }
        out
    }
}

/// Validates and runs a scenario on a world.
pub fn run(w: &World, sc: &Scenario) -> Result<Report, String> {
    sc.validate(w)?;
    let (mut g, setup) = sc.start(w);
    let mut steps = Vec::new();
    for (i, s) in sc.steps.iter().enumerate() {
        if g.over {
            g.warnings.push(format!("the run ended before step {}; {} step(s) not run", g.step, sc.steps.len() - i));
            break;
        }
        let trace = run_step(&mut g, w, s);
        let (number, by_player) = (trace.step, s.source == CreatureRef::Player);
        steps.push(trace);
        if sc.enemies_act && by_player && !g.over {
            steps.extend(g.enemy_turns(w, number));
        }
    }
    Ok(Report { seed: sc.seed, setup, steps, final_state: g.final_json(w), warnings: g.warnings.clone() })
}

/// Reads, loads and runs a scenario file; paths in the trace are shown relative to `cwd`. `open`
/// turns the loaded project into the world to play on: that is where the caller refuses data
/// with validation errors (the engine itself validates nothing).
pub fn run_file(path: &Path, cwd: &Path, open: impl FnOnce(Project) -> Result<World, String>) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let sc = Scenario::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = if base.as_os_str().is_empty() { PathBuf::from(".") } else { base };
    let base = if base.is_absolute() { base } else { cwd.join(base) };
    let w = open(sc.load_project(&base, cwd))?;
    run(&w, &sc).map_err(|e| format!("{}: {e}", path.display()))
}
