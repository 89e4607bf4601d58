//! The game state of a dry run and its one door for mutations, [`Game::apply`] (the engine's
//! semantics: docs/engine.md).
//!
//! [`Game`] is plain, serializable state: the player, the enemies, quest progress, the event queue,
//! the seeded generator, where the player is and what lies on the floor. The data it is played on
//! lives in a [`World`] (the loaded mods, their data model and the compiled loot tables), passed to
//! every method, so that a save holds only state.
//!
//! The parts, each an `impl Game` block of its own:
//! - `state`: creatures, items, quests and events as data; reading the state; finding a creature.
//! - `attributes`: attributes read through modifiers (never cached), tags, conditions.
//! - `actions`: the nine data actions (damage, heal, give_item, …).
//! - `acts`: what a scenario step or a console command does (attack, pickup, talk, enter, use,
//!   equip).
//! - `dungeon`: floors and rooms of a played run, the map, the player's moves on it.
//! - `trade`: shops' stock, prices, buying and selling.
//! - `sheet`: the character sheet against the enemies present.
//! - `events`: the event queue, worked off FIFO under the cap, and which triggers fire.
//! - `steps`: one step = one turn, character creation, the final state.
//! - `turns`: rounds — after the player's turn every living enemy takes its own, by its `ai`.
//! - `arrange`: what arranges a game outside its steps (a starting kit, a run's switches,
//!   `play`'s testing commands).
//!
//! The fields are private: other crates read the state through methods named for what they give
//! and change it only through the engine's operations, so that its invariants hold (the dead
//! leave `enemies`, an over run says why, the generator advances only within a step).

use std::collections::HashMap;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use rustkeep_check::ValidDatabase;
use rustkeep_data::db::Database;
use rustkeep_data::grid::Dir;
use rustkeep_data::model::{ActionData, Entry};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{attr, field, EventKind, Registry};
use serde::{Deserialize, Serialize};

use crate::effect::{Effect, Outcome};
use crate::loot::LootDb;
use crate::payload::Payload;
use crate::place::Place;
use crate::rng::Rng;
use crate::trace::Trace;

mod actions;
mod acts;
mod arrange;
mod attributes;
mod dungeon;
mod events;
mod sheet;
mod state;
mod steps;
mod trade;
mod turns;

pub use crate::actor::CreatureRef;
pub use crate::item::{describe_items, ItemInstance};
pub use attributes::{describe_condition, neutral_base};
pub use dungeon::{floor_order, Dungeon};
pub use sheet::{shown, SheetLine};
pub use state::{round_half_away, Creature, Enemy, Event, QuestProgress, StatusInstance};
pub use steps::{check_options, option_group, FinalDungeon, FinalEnemy, FinalPlayer, FinalState, PlacedEnemy};
pub use trade::{buy_price, sell_price, Trade};
pub use turns::MAX_TURNS_PER_PLAYER_TURN;

/// The player's base attributes where the scenario or console sets none. The player has no
/// creature entry; these make an unequipped character playable (20 health, 1 damage with fists).
pub const PLAYER_DEFAULTS: &[(&str, f64)] = &[(attr::LEVEL, 1.0), (attr::MAX_HEALTH, 20.0), (attr::DAMAGE, 1.0)];

/// The loaded data a game is played on.
pub struct World {
    pub project: Project,
    pub db: Database,
    pub loot: LootDb,
    /// The name of every file a trace has named a place in, made once and shared by its places:
    /// a turn at the event cap names the same few triggers thousands of times.
    places: Mutex<HashMap<FileId, Arc<str>>>,
    /// Tag → the creatures in force carrying it, sorted; made the first time it is asked for
    /// (the words of a quest name the creatures it counts, and a documentation site asks once per
    /// quest of a pack of 100,000 entries).
    tagged: OnceLock<HashMap<String, Vec<String>>>,
}

impl World {
    /// The world of a project's validated model: what scenarios, the arena, the game and every
    /// run take. The engine runs what it is given and validates nothing; the type says that the
    /// validator found no errors (`rustkeep_check::validate`, `Analysis::into_valid`), because
    /// broken data would run only half. References to old IDs of `[renamed]` run as the IDs they
    /// stand for.
    pub fn new(project: Project, valid: ValidDatabase) -> World {
        World::best_effort(project, valid.into_database())
    }

    /// The world of a model that may have errors, for what shows data rather than runs it: the
    /// documentation site (`rustkeep doc`), `rustkeep diff` and the editor's balance lenses, which
    /// show the data as it is while the validator's diagnostics say what is wrong with it. The
    /// engine still never panics or hangs on such data: what it cannot evaluate (a loot table on a
    /// nesting cycle, a broken reference) it refuses, and what is missing counts as absent.
    pub fn best_effort(project: Project, mut db: Database) -> World {
        db.follow_renames();
        let loot = LootDb::new(&db);
        World { project, db, loot, places: Mutex::default(), tagged: OnceLock::new() }
    }

    /// The entry in force for an ID.
    pub fn entry(&self, registry: Registry, id: &str) -> Option<&Entry> {
        self.db.get(registry, id)
    }

    pub fn exists(&self, registry: Registry, id: &str) -> bool {
        self.db.resolved.get(registry, id).is_some()
    }

    /// The place of a span in an entry's file: the file as the project names it (one shared
    /// string however often a trace names the file) and the 1-based line.
    pub fn place(&self, entry: &Entry, span_start: usize) -> Place {
        let f = self.project.file(entry.file);
        let line = u32::try_from(f.index.line_of(span_start) + 1).unwrap_or(u32::MAX);
        let mut places = self.places.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let file = places.entry(entry.file).or_insert_with(|| Arc::from(f.path.as_str())).clone();
        Place::new(file, line)
    }

    /// The creatures in force that carry `tag`, sorted by ID.
    pub fn creatures_tagged(&self, tag: &str) -> &[String] {
        let index = self.tagged.get_or_init(|| {
            let mut index: HashMap<String, Vec<String>> = HashMap::new();
            for (id, def) in self.db.resolved.defs.get(Registry::Creatures.index()).into_iter().flatten() {
                for t in self.db.entry(def.current).tags() {
                    index.entry(t.value.clone()).or_default().push(id.clone());
                }
            }
            for list in index.values_mut() {
                list.sort();
                list.dedup();
            }
            index
        });
        index.get(tag).map_or(&[], |v| v.as_slice())
    }

    /// Every ID in force in a registry, sorted.
    pub fn ids(&self, registry: Registry) -> Vec<String> {
        let mut v: Vec<String> = self.db.resolved.defs.get(registry.index()).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        v.sort();
        v
    }

    /// Whether copies of an item stack in one inventory entry (`stackable`, default false).
    pub fn stackable(&self, item: &str) -> bool {
        self.entry(Registry::Items, item).and_then(|e| e.bool(field::STACKABLE)).unwrap_or(false)
    }

    pub fn quest_count(&self, quest: &str) -> u32 {
        self.entry(Registry::Quests, quest).and_then(|e| e.int(field::COUNT)).map(|c| c.clamp(1, u32::MAX as i64) as u32).unwrap_or(1)
    }
}

/// What [`Game::apply`] does: one of the nine data actions, or one of the steps a scenario or the
/// console takes (attack, pickup, …). Every change to the state goes through it.
#[derive(Clone, Debug)]
pub enum Act<'a> {
    /// A data action; `who = "self"` is the source, `"target"` the target.
    Action(&'a ActionData),
    /// The source attacks the target (docs/engine.md, "Combat").
    Attack,
    /// Roll the room's piles and pick up everything on the floor.
    Pickup,
    /// Talk to an NPC: its `on_talk`, then `npc_talked`.
    Talk(&'a str),
    /// Enter a prefab (its piles and `e` enemies appear, then `room_entered`) or a floor.
    Enter(&'a str),
    /// Use one of an item the source holds: its `use`, then `item_used`.
    Use(&'a str),
    /// Equip an item the source holds.
    Equip(&'a str),
    /// Append an event as given; nothing else happens.
    Inject(Event),
    /// An enemy's own action: its first `ai` rule whose condition holds, else an attack on the
    /// player when in reach, else a move towards the player (docs/engine.md, "Rounds").
    EnemyTurn,
    /// The start of a played run: the first floor (or the floor named), then its first room.
    StartRun(Option<&'a str>),
    /// The player moves one tile on the map (attacking, talking, leaving through a door, picking
    /// up on the way).
    Move(Dir),
    /// The player waits a turn.
    Wait,
    /// The player drops one of the inventory entry at this index onto the tile it stands on (the
    /// floor, without a map); no event.
    Drop(usize),
}

impl Act<'_> {
    pub fn describe(&self, source: CreatureRef, target: Option<CreatureRef>) -> String {
        let t = target.map(|t| t.to_string()).unwrap_or_else(|| "-".into());
        match self {
            Act::Action(a) => format!("{source} runs action {} (target {t})", a.kind().name()),
            Act::Attack => format!("{source} attacks {t}"),
            Act::Pickup => format!("{source} picks up everything on the floor"),
            Act::Talk(n) => format!("{source} talks to {n}"),
            Act::Enter(p) => format!("{source} enters {p}"),
            Act::Use(i) => format!("{source} uses {i}"),
            Act::Equip(i) => format!("{source} equips {i}"),
            Act::EnemyTurn => format!("{source} takes its turn"),
            Act::StartRun(f) => format!("{source} enters the dungeon{}", f.map(|f| format!(" at {f}")).unwrap_or_default()),
            Act::Move(d) => format!("{source} moves {}", d.name()),
            Act::Wait => format!("{source} waits"),
            Act::Drop(i) => format!("{source} drops inventory entry {i}"),
            Act::Inject(e) => {
                format!("inject {} (source {}, target {})", e.kind.name(), e.source, e.target.map(|t| t.to_string()).unwrap_or_else(|| "-".into()))
            }
        }
    }
}

mod rng_hex {
    use crate::rng::Rng;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(r: &Rng, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&r.to_hex())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rng, D::Error> {
        let s = String::deserialize(d)?;
        Rng::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// The whole state of a run.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Game {
    pub(crate) player: Creature,
    pub(crate) enemies: Vec<Enemy>,
    /// The N the next enemy gets.
    pub(crate) next_enemy: usize,
    pub(crate) quests: Vec<QuestProgress>,
    /// Empty between steps (saves are taken between steps), hence not saved.
    #[serde(skip)]
    events: VecDeque<Event>,
    /// The random generator's state, as hexadecimal digits.
    #[serde(with = "rng_hex")]
    #[schemars(with = "String")]
    rng: Rng,
    pub(crate) floor: Option<String>,
    pub(crate) room: Option<String>,
    pub(crate) floor_loot: Vec<ItemInstance>,
    /// The loot tables of room piles (`l`) not yet rolled; they are rolled on pickup.
    #[serde(default)]
    pub(crate) piles: Vec<String>,
    combat: bool,
    /// The number of the next step.
    step: usize,
    /// Whether the player has died (the run is over).
    #[serde(default)]
    over: bool,
    #[serde(skip)]
    trace: Trace,
    /// Engine warnings of the run so far.
    #[serde(skip)]
    pub(crate) warnings: Vec<String>,
    /// The dungeon of a played run: its floors, the floor the player is on and its map. `None`
    /// in dry runs (`simulate`, the arena) and in saves of version 1.
    #[serde(default)]
    pub(crate) dungeon: Option<Dungeon>,
    /// Each shop's stock, rolled the first time the shop opens and kept for the run.
    #[serde(default)]
    pub(crate) shops: BTreeMap<String, Vec<ItemInstance>>,
    /// The shop the last `open_shop` opened, until the player leaves it (`play`'s trade screen).
    #[serde(default)]
    pub(crate) open_shop: Option<String>,
    /// Whether the player took the stairs of the deepest floor: the run is won (and over).
    #[serde(default)]
    won: bool,
    /// Why the run stopped at a limit that keeps its work bounded (and is over): too many
    /// enemies, too many events (docs/engine.md, "Bounded work").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
    /// The seed the game was started with (shown by `play`, so that a run can be reproduced).
    #[serde(default)]
    seed: u64,
    /// How many enemies died in the run.
    #[serde(default)]
    kills: u64,
    /// How many enemies escaped by their own `flee`.
    #[serde(default, skip_serializing_if = "is_zero")]
    escapes: u64,
    /// The testing commands of `rustkeep play` the run used (`spawn`, `give`, …), each once, in
    /// the order first used. The engine never reads it; it is kept with the state so that a run
    /// that bent the rules still says so after a save and a load.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    testing: Vec<String>,
    /// Whether the player regains health out of combat (`[balance] regen_every`): on in played
    /// games, in a scenario only with `regen = true`, so that scenarios without it run as before.
    #[serde(default, skip_serializing_if = "is_false")]
    regen: bool,
    /// The player's turns out of combat since it last regained health (with `regen`).
    #[serde(default, skip_serializing_if = "is_zero")]
    rested: u64,
    /// How many events the game has handled since it was made or loaded (for the bound on a
    /// scenario run's work).
    #[serde(skip)]
    events_handled: u64,
    /// Whether steps record their causal trace. The arena turns it off: nobody reads the traces
    /// of ten thousand fights, and building them is most of a fight's cost.
    #[serde(skip, default = "tracing_on")]
    tracing: bool,
    /// During character creation: items given to the player are equipped into empty slots.
    #[serde(skip)]
    creating: bool,
    /// Which entries each creature bears, remembered between attribute reads.
    #[serde(skip)]
    bearer_cache: attributes::BearerCache,
    /// Whether an enemy may have died since the dead were last removed (a loaded game may hold
    /// some), so that the end of a turn looks through the enemies only when one can be dead.
    #[serde(skip, default = "tracing_on")]
    dead_to_remove: bool,
    /// The entries of the started quests, remembered between events.
    #[serde(skip)]
    quest_entries: Vec<(String, Option<rustkeep_data::resolve::EntryRef>)>,
    /// While a `creature_died` is handled, the creature that died: whoever answers it with a
    /// `spawn` (the creature itself, a quest, an item) spawns around the tile where it stood.
    #[serde(skip)]
    died: Option<CreatureRef>,
}

fn tracing_on() -> bool {
    true
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Game {
    /// A fresh game: a player with `base` attributes over [`PLAYER_DEFAULTS`] and the given options.
    pub fn new(seed: u64, options: Vec<String>, base: &BTreeMap<String, f64>) -> Game {
        let mut b: BTreeMap<String, f64> = PLAYER_DEFAULTS.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        b.extend(base.iter().map(|(k, v)| (k.clone(), *v)));
        Game {
            player: Creature { creature: None, options, base: b, health: 0, inventory: Vec::new(), statuses: Vec::new() },
            enemies: Vec::new(),
            next_enemy: 0,
            quests: Vec::new(),
            events: VecDeque::new(),
            rng: Rng::seeded(seed),
            floor: None,
            room: None,
            floor_loot: Vec::new(),
            piles: Vec::new(),
            combat: false,
            step: 0,
            over: false,
            trace: Trace::default(),
            warnings: Vec::new(),
            dungeon: None,
            shops: BTreeMap::new(),
            open_shop: None,
            won: false,
            stopped: None,
            seed,
            kills: 0,
            escapes: 0,
            testing: Vec::new(),
            regen: false,
            rested: 0,
            events_handled: 0,
            tracing: true,
            creating: false,
            bearer_cache: Default::default(),
            dead_to_remove: false,
            quest_entries: Vec::new(),
            died: None,
        }
    }

    /// A description for the trace, built only when a trace is recorded.
    fn note(&self, describe: impl FnOnce() -> Effect) -> Effect {
        if self.tracing {
            describe()
        } else {
            Effect::Untraced
        }
    }

    /// Appends an event. An event's target is never its source: what a creature does to itself
    /// (a status ticking on its bearer, `target = "self"` in its own trigger) carries no target,
    /// so that `who = "target"` is false and an action aimed at the target does nothing.
    fn push(&mut self, kind: EventKind, source: CreatureRef, target: Option<CreatureRef>, payload: Payload) {
        let target = target.filter(|t| *t != source);
        let cause = self.trace.current;
        self.events.push_back(Event { kind, source, target, payload, cause });
    }

    /// Applies one act with `source` as self and `target` as the other side; returns what
    /// happened, for the trace. Events it raises are appended to the queue, never handled here.
    pub fn apply(&mut self, w: &World, act: Act<'_>, source: CreatureRef, target: Option<CreatureRef>) -> Outcome {
        match act {
            Act::Action(a) => self.apply_action(w, a, source, target),
            Act::Attack => Outcome::act(self.attack(w, source, target)),
            Act::Pickup => Outcome::act(self.pickup(w, source)),
            Act::Talk(npc) => self.talk(w, source, npc),
            Act::Enter(id) => Outcome::act(self.enter(w, id)),
            Act::Use(item) => self.use_item(w, source, item),
            Act::Equip(item) => Outcome::act(self.equip(w, source, item)),
            Act::EnemyTurn => self.enemy_act(w, source),
            Act::StartRun(f) => Outcome::act(self.start_dungeon(w, f)),
            Act::Move(d) => self.player_move(w, d),
            Act::Wait => Outcome::act(Effect::Waited(source)),
            Act::Drop(i) => Outcome::act(self.drop_item(i)),
            Act::Inject(ev) => {
                let kind = ev.kind;
                let target = ev.target.filter(|t| *t != ev.source);
                self.events.push_back(Event { cause: None, target, ..ev });
                Outcome::act(Effect::Injected(kind))
            }
        }
    }
}
