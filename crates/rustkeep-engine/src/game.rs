//! The game state of a dry run (SPEC §7) and its one door for mutations, [`Game::apply`].
//!
//! [`Game`] is plain, serializable state: the player, the enemies, quest progress, the event queue,
//! the seeded generator, where the player is and what lies on the floor. The data it is played on
//! lives in a [`World`] (the loaded mods, their data model and the compiled loot tables), passed to every
//! method like the seed ticket's `reg` parameter, so that a save holds only state.
//!
//! Attributes are read, never cached (seed ticket 08): `(base + Σ add) × Π multiply` over the
//! modifiers of the creature's character options, equipped items and their affixes, and active
//! statuses whose condition holds against the read's opponent.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use rustkeep_data::db::Database;
use rustkeep_data::model::{ActionData, Check, CheckData, Entry, ModOp, Modifier, Trigger, Who};
use rustkeep_data::project::Project;
use rustkeep_data::vocab::{attr, damage, field, glyph, outcome, payload, resistance_of, slot, ActionKind, Event as Ev, Registry, EVENT_CAP};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};

use crate::loot::LootDb;
use crate::rng::Rng;
use crate::trace::{StepTrace, Trace, TraceEvent, TraceTrigger};

/// Attribute reads nested deeper than this (a modifier whose condition reads an attribute whose
/// modifier's condition reads …) treat the inner condition as false instead of recursing forever.
const MAX_READ_DEPTH: u32 = 8;

/// The player's base attributes where the scenario or console sets none. The player has no
/// creature entry; these make an unequipped character playable (20 health, 1 damage with fists).
pub const PLAYER_DEFAULTS: &[(&str, f64)] = &[(attr::LEVEL, 1.0), (attr::MAX_HEALTH, 20.0), (attr::DAMAGE, 1.0)];

/// The loaded data a game is played on.
pub struct World {
    pub project: Project,
    pub db: Database,
    pub loot: LootDb,
}

impl World {
    /// The world of a project's model. The engine runs what it is given and validates nothing:
    /// callers refuse data with validation errors first (the command line does, through the
    /// validator's analysis), because broken data would run only half.
    pub fn new(project: Project, db: Database) -> World {
        let loot = LootDb::new(&db);
        World { project, db, loot }
    }

    /// The entry in force for an ID.
    pub fn entry(&self, registry: Registry, id: &str) -> Option<&Entry> {
        self.db.get(registry, id)
    }

    pub fn exists(&self, registry: Registry, id: &str) -> bool {
        self.db.resolved.get(registry, id).is_some()
    }

    /// `file:line` (1-based) of a span in an entry's file.
    pub fn at(&self, entry: &Entry, span_start: usize) -> String {
        let f = self.project.file(entry.file);
        format!("{}:{}", f.path, f.index.line_of(span_start) + 1)
    }

    /// Every ID in force in a registry, sorted.
    pub fn ids(&self, registry: Registry) -> Vec<String> {
        let mut v: Vec<String> = self.db.resolved.defs.get(registry.index()).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        v.sort();
        v
    }

    pub fn quest_count(&self, quest: &str) -> u32 {
        self.entry(Registry::Quests, quest).and_then(|e| e.int(field::COUNT)).map(|c| c.clamp(1, u32::MAX as i64) as u32).unwrap_or(1)
    }
}

/// `player` or `enemy:N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CreatureRef {
    Player,
    Enemy(usize),
}

impl fmt::Display for CreatureRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CreatureRef::Player => f.write_str("player"),
            CreatureRef::Enemy(n) => write!(f, "enemy:{n}"),
        }
    }
}

impl CreatureRef {
    pub fn parse(s: &str) -> Option<CreatureRef> {
        if s == "player" {
            return Some(CreatureRef::Player);
        }
        let n = s.strip_prefix("enemy:")?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        n.parse().ok().map(CreatureRef::Enemy)
    }
}

impl Serialize for CreatureRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CreatureRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        CreatureRef::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not `player` or `enemy:N`")))
    }
}

/// A stack of one item with its affixes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemInstance {
    pub item: String,
    pub count: u32,
    #[serde(default)]
    pub affixes: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub equipped: bool,
}

impl ItemInstance {
    pub fn json(&self) -> Json {
        let mut m = Map::new();
        m.insert("item".into(), json!(self.item));
        m.insert("count".into(), json!(self.count));
        m.insert("affixes".into(), json!(self.affixes));
        if self.equipped {
            m.insert("equipped".into(), json!(true));
        }
        Json::Object(m)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatusInstance {
    pub status: String,
    pub turns: u32,
}

/// The player or an enemy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Creature {
    /// The creature entry (enemies); `None` for the player.
    #[serde(default)]
    pub creature: Option<String>,
    /// Character options (the player).
    #[serde(default)]
    pub options: Vec<String>,
    /// Base attributes before modifiers.
    #[serde(default)]
    pub base: BTreeMap<String, f64>,
    pub health: i64,
    #[serde(default)]
    pub inventory: Vec<ItemInstance>,
    #[serde(default)]
    pub statuses: Vec<StatusInstance>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Enemy {
    /// The N of `enemy:N`: the order of appearance, never reused.
    pub index: usize,
    pub body: Creature,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestProgress {
    pub quest: String,
    pub count: u32,
    pub done: bool,
}

/// One event of SPEC §3.5.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub kind: Ev,
    pub source: CreatureRef,
    pub target: Option<CreatureRef>,
    pub payload: Map<String, Json>,
    /// The handled event (index in the step's trace) whose trigger raised this one.
    pub cause: Option<usize>,
}

/// What [`Game::apply`] does: one of the nine data actions, or one of the steps a scenario or the
/// console takes (attack, pickup, …). Every change to the state goes through it.
#[derive(Clone, Debug)]
pub enum Act<'a> {
    /// A data action; `who = "self"` is the source, `"target"` the target.
    Action(&'a ActionData),
    /// The source attacks the target (SPEC §7 "Attack").
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Game {
    pub player: Creature,
    pub enemies: Vec<Enemy>,
    /// The N the next enemy gets.
    pub next_enemy: usize,
    pub quests: Vec<QuestProgress>,
    /// Empty between steps (saves are taken between steps), hence not saved.
    #[serde(skip)]
    pub events: VecDeque<Event>,
    #[serde(with = "rng_hex")]
    pub rng: Rng,
    pub floor: Option<String>,
    pub room: Option<String>,
    pub floor_loot: Vec<ItemInstance>,
    /// The loot tables of room piles (`l`) not yet rolled; they are rolled on pickup.
    #[serde(default)]
    pub piles: Vec<String>,
    pub combat: bool,
    /// The number of the next step.
    pub step: usize,
    /// Whether the player has died (the run is over).
    #[serde(default)]
    pub over: bool,
    #[serde(skip)]
    pub trace: Trace,
    /// Engine warnings of the run so far.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Rounds half away from zero, after snapping away binary noise (5 × 0.7 is 3.4999…96 in floats,
/// and a modder who writes 0.3 resistance means 3.5 → 4).
pub fn round_half_away(v: f64) -> f64 {
    ((v * 1e9).round() / 1e9).round()
}

fn num(v: f64) -> Json {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
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
        }
    }

    /// Sets the player's health to max_health (read without opponent).
    pub fn heal_player_full(&mut self, w: &World) {
        self.player.health = self.max_health(w, CreatureRef::Player);
    }

    pub fn creature(&self, r: CreatureRef) -> Option<&Creature> {
        match r {
            CreatureRef::Player => Some(&self.player),
            CreatureRef::Enemy(n) => self.enemies.iter().find(|e| e.index == n).map(|e| &e.body),
        }
    }

    fn creature_mut(&mut self, r: CreatureRef) -> Option<&mut Creature> {
        match r {
            CreatureRef::Player => Some(&mut self.player),
            CreatureRef::Enemy(n) => self.enemies.iter_mut().find(|e| e.index == n).map(|e| &mut e.body),
        }
    }

    pub fn alive(&self, r: CreatureRef) -> bool {
        self.creature(r).is_some_and(|c| c.health > 0)
    }

    pub fn living_enemies(&self) -> usize {
        self.enemies.iter().filter(|e| e.body.health > 0).count()
    }

    pub fn max_health(&self, w: &World, r: CreatureRef) -> i64 {
        round_half_away(self.attribute(w, r, attr::MAX_HEALTH, None)).max(0.0) as i64
    }

    // ---------------------------------------------------------------------------------------
    // Reading attributes and checks
    // ---------------------------------------------------------------------------------------

    /// The entries whose modifiers and triggers a creature bears, in the order of SPEC §7:
    /// creature entry, character options, equipped items (each followed by its affixes), statuses.
    pub fn bearers(&self, r: CreatureRef) -> Vec<(Registry, String)> {
        let Some(c) = self.creature(r) else { return Vec::new() };
        let mut out = Vec::new();
        if let Some(id) = &c.creature {
            out.push((Registry::Creatures, id.clone()));
        }
        for o in &c.options {
            out.push((Registry::CharacterOptions, o.clone()));
        }
        for i in c.inventory.iter().filter(|i| i.equipped) {
            out.push((Registry::Items, i.item.clone()));
            for a in &i.affixes {
                out.push((Registry::Affixes, a.clone()));
            }
        }
        for s in &c.statuses {
            out.push((Registry::Statuses, s.status.clone()));
        }
        out
    }

    /// `(base + Σ add) × Π multiply` (SPEC §3.3); `against` is the opponent of the read.
    pub fn attribute(&self, w: &World, who: CreatureRef, attr: &str, against: Option<CreatureRef>) -> f64 {
        self.attribute_at(w, who, attr, against, 0)
    }

    fn attribute_at(&self, w: &World, who: CreatureRef, attr: &str, against: Option<CreatureRef>, depth: u32) -> f64 {
        let Some(c) = self.creature(who) else { return 0.0 };
        let base = c.base.get(attr).copied().unwrap_or(0.0);
        let (mut add, mut mul) = (0.0, 1.0);
        for (reg, id) in self.bearers(who) {
            let Some(e) = w.entry(reg, &id) else { continue };
            for m in e.modifiers() {
                if m.attribute != attr || !self.modifier_holds(w, m, who, against, depth) {
                    continue;
                }
                match m.op {
                    ModOp::Add(a) => add += a,
                    ModOp::Multiply(x) => mul *= x,
                }
            }
        }
        (base + add) * mul
    }

    fn modifier_holds(&self, w: &World, m: &Modifier, who: CreatureRef, against: Option<CreatureRef>, depth: u32) -> bool {
        m.condition.iter().all(|c| self.check(w, c, who, against, depth + 1))
    }

    /// The base attributes of a creature entry.
    pub fn creature_base(w: &World, id: &str) -> BTreeMap<String, f64> {
        w.entry(Registry::Creatures, id).map(|e| e.attributes().iter().map(|(k, v)| (k.value.clone(), *v)).collect()).unwrap_or_default()
    }

    /// Tags of a creature: its entry's and those of its equipped items.
    pub fn tags(&self, w: &World, r: CreatureRef) -> Vec<String> {
        let Some(c) = self.creature(r) else { return Vec::new() };
        let mut out = Vec::new();
        if let Some(e) = c.creature.as_deref().and_then(|id| w.entry(Registry::Creatures, id)) {
            out.extend(e.tags().iter().map(|t| t.value.clone()));
        }
        for i in c.inventory.iter().filter(|i| i.equipped) {
            if let Some(e) = w.entry(Registry::Items, &i.item) {
                out.extend(e.tags().iter().map(|t| t.value.clone()));
            }
        }
        out
    }

    pub fn item_count(&self, r: CreatureRef, item: &str) -> u64 {
        self.creature(r).map(|c| c.inventory.iter().filter(|i| i.item == item).map(|i| i.count as u64).sum()).unwrap_or(0)
    }

    /// One check (SPEC §3.2) with `me` as self and `other` as target. A check about an absent
    /// creature (no target; a removed enemy) is false, `not` or not.
    pub fn check(&self, w: &World, c: &Check, me: CreatureRef, other: Option<CreatureRef>, depth: u32) -> bool {
        if depth > MAX_READ_DEPTH {
            return false;
        }
        let (who, opp) = match c.who {
            Who::SelfBearer => (Some(me), other),
            Who::Target => (other, Some(me)),
        };
        let Some(who) = who else { return false };
        if self.creature(who).is_none() {
            return false;
        }
        let holds = match &c.data {
            CheckData::HasTag { tag } => self.tags(w, who).contains(&tag.value),
            CheckData::Attribute { attribute, at_least, below } => {
                let v = self.attribute_at(w, who, attribute, opp, depth);
                at_least.is_none_or(|a| v >= a) && below.is_none_or(|b| v < b)
            }
            CheckData::HasItem { item, count } => self.item_count(who, &item.value) >= *count as u64,
            CheckData::HealthBelow { value } => {
                let max = round_half_away(self.attribute_at(w, who, attr::MAX_HEALTH, None, depth)) as i64;
                let h = self.creature(who).map(|c| c.health).unwrap_or(0);
                max > 0 && (h as f64) / (max as f64) < *value
            }
        };
        holds != c.not
    }

    // ---------------------------------------------------------------------------------------
    // The one question: does this trigger fire on this event?
    // ---------------------------------------------------------------------------------------

    /// Answers for every bearer kind (creature, option, item, affix, status, floor, prefab, quest)
    /// whether `t` fires on `ev` with `me` as self and `other` as target: the event, the `when`
    /// filter against the payload, the conditions in order, and last the `chance`, drawn from the
    /// seeded generator only when everything else matched. `Err` holds the reason it did not.
    pub fn trigger_fires(&mut self, w: &World, t: &Trigger, ev: &Event, me: CreatureRef, other: Option<CreatureRef>) -> Result<(), String> {
        if t.broken {
            return Err("trigger has validation errors".into());
        }
        match &t.on {
            Some(on) if on.value == ev.kind => {}
            Some(on) => return Err(format!("listens to {}, not {}", on.value.name(), ev.kind.name())),
            None => return Err("trigger has no event".into()),
        }
        for wf in &t.when {
            let key = wf.field.name();
            match ev.payload.get(key) {
                Some(Json::String(s)) if *s == wf.value.value => {}
                Some(v) => {
                    let shown = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
                    return Err(format!("when mismatch: {key} is {shown}, wanted {}", wf.value.value));
                }
                None => return Err(format!("when mismatch: {key} is absent, wanted {}", wf.value.value)),
            }
        }
        for (i, c) in t.condition.iter().enumerate() {
            if !self.check(w, c, me, other, 0) {
                return Err(format!("condition {} ({}) is false", i + 1, describe_check(c)));
            }
        }
        if t.chance < 1.0 && !self.rng.chance(t.chance) {
            return Err(format!("chance {} failed", t.chance));
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // The one door
    // ---------------------------------------------------------------------------------------

    fn push(&mut self, kind: Ev, source: CreatureRef, target: Option<CreatureRef>, payload: Map<String, Json>) {
        let cause = self.trace.current;
        self.events.push_back(Event { kind, source, target, payload, cause });
    }

    /// Applies one act with `source` as self and `target` as the other side; returns what
    /// happened, for the trace. Events it raises are appended to the queue, never handled here.
    pub fn apply(&mut self, w: &World, act: Act<'_>, source: CreatureRef, target: Option<CreatureRef>) -> Json {
        match act {
            Act::Action(a) => self.apply_action(w, a, source, target),
            Act::Attack => self.attack(w, source, target),
            Act::Pickup => self.pickup(w, source),
            Act::Talk(npc) => self.talk(w, source, npc),
            Act::Enter(id) => self.enter(w, id),
            Act::Use(item) => self.use_item(w, source, item),
            Act::Equip(item) => self.equip(w, source, item),
            Act::Inject(ev) => {
                let d = format!("injected {}", ev.kind.name());
                self.events.push_back(Event { cause: None, ..ev });
                json!({ "effect": d })
            }
        }
    }

    fn apply_action(&mut self, w: &World, a: &ActionData, me: CreatureRef, other: Option<CreatureRef>) -> Json {
        let name = a.kind().name();
        let who = a.target().map(|t| match t {
            Who::SelfBearer => Some(me),
            Who::Target => other,
        });
        let mut out = Map::new();
        out.insert("action".into(), json!(name));
        if let Some(t) = who {
            out.insert("target".into(), t.map(|t| json!(t.to_string())).unwrap_or(Json::Null));
        }
        let effect = match (a, who) {
            (_, Some(None)) => "skipped: there is no target".to_string(),
            (ActionData::Damage { amount, damage_type, .. }, Some(Some(t))) => self.deal_damage(w, me, t, *amount, damage_type),
            (ActionData::Heal { amount, .. }, Some(Some(t))) => self.heal(w, t, *amount),
            (ActionData::GiveItem { item, count, .. }, Some(Some(t))) => self.give(w, t, &item.value, *count, Vec::new()),
            (ActionData::TakeItem { item, count, .. }, Some(Some(t))) => self.take(t, &item.value, *count),
            (ActionData::ApplyStatus { status, turns, .. }, Some(Some(t))) => self.apply_status(w, t, &status.value, *turns),
            (ActionData::Spawn { creature, count }, _) => self.spawn(w, &creature.value, *count),
            (ActionData::StartQuest { quest }, _) => self.start_quest(w, &quest.value),
            (ActionData::Flee, _) => self.flee(),
            (ActionData::OpenShop { shop }, _) => format!("opened shop {}", shop.value),
            (_, None) => "skipped".to_string(),
        };
        out.insert("effect".into(), json!(effect));
        Json::Object(out)
    }

    /// SPEC §7 "Damage".
    fn deal_damage(&mut self, w: &World, dealer: CreatureRef, victim: CreatureRef, amount: u32, dtype: &str) -> String {
        match self.creature(victim) {
            None => return format!("no effect: {victim} is gone"),
            Some(c) if c.health <= 0 => return format!("no effect: {victim} is already dead"),
            _ => {}
        }
        let res = resistance_of(dtype).map_or(0.0, |a| self.attribute(w, victim, a, Some(dealer)).clamp(0.0, 0.9));
        let armor = if dtype == damage::PHYSICAL { self.attribute(w, victim, attr::ARMOR, Some(dealer)) } else { 0.0 };
        let taken = round_half_away((round_half_away(amount as f64 * (1.0 - res)) - armor).max(0.0)) as i64;
        let c = self.creature_mut(victim).expect("checked above");
        c.health = (c.health - taken).max(0);
        let left = c.health;
        let mut p = Map::new();
        p.insert(payload::AMOUNT.into(), json!(taken));
        p.insert(payload::DAMAGE_TYPE.into(), json!(dtype));
        self.push(Ev::DamageTaken, victim, Some(dealer), p);
        if left == 0 {
            let killer = (dealer != victim).then_some(dealer);
            self.push(Ev::CreatureDied, victim, killer, Map::new());
            let mut s = format!("{victim} took {taken} {dtype} damage and died");
            let loot = self
                .creature(victim)
                .and_then(|c| c.creature.clone())
                .and_then(|id| w.entry(Registry::Creatures, &id)?.reference(field::LOOT).map(|r| r.value.clone()));
            if let Some(table) = loot {
                let drops = self.roll(w, &table);
                s.push_str(&format!("; loot {table}: {}", describe_items(&drops)));
                self.floor_loot.extend(drops);
            }
            s
        } else {
            format!("{victim} took {taken} {dtype} damage ({left} left)")
        }
    }

    /// Rolls a loot table with the player's luck.
    pub fn roll(&mut self, w: &World, table: &str) -> Vec<ItemInstance> {
        let luck = self.attribute(w, CreatureRef::Player, attr::LUCK, None);
        w.loot
            .roll(table, luck, &mut self.rng)
            .into_iter()
            .map(|d| ItemInstance { item: d.item, count: d.count, affixes: d.affixes, equipped: false })
            .filter(|i| i.count > 0)
            .collect()
    }

    fn heal(&mut self, w: &World, t: CreatureRef, amount: u32) -> String {
        let max = self.max_health(w, t);
        let Some(c) = self.creature_mut(t) else { return format!("no effect: {t} is gone") };
        if c.health <= 0 {
            return format!("no effect: {t} is dead");
        }
        let before = c.health;
        c.health = (c.health + amount as i64).min(max.max(c.health));
        format!("{t} healed {} ({} / {max})", c.health - before, c.health)
    }

    /// Gives items; one `item_picked_up` on the receiver.
    pub fn give(&mut self, w: &World, t: CreatureRef, item: &str, count: u32, affixes: Vec<String>) -> String {
        if count == 0 {
            return "nothing given".into();
        }
        let stackable = w.entry(Registry::Items, item).and_then(|e| e.bool(field::STACKABLE)).unwrap_or(false);
        let Some(c) = self.creature_mut(t) else { return format!("no effect: {t} is gone") };
        if stackable {
            if let Some(i) = c.inventory.iter_mut().find(|i| i.item == item && i.affixes == affixes && !i.equipped) {
                i.count += count;
            } else {
                c.inventory.push(ItemInstance { item: item.into(), count, affixes: affixes.clone(), equipped: false });
            }
        } else {
            for _ in 0..count {
                c.inventory.push(ItemInstance { item: item.into(), count: 1, affixes: affixes.clone(), equipped: false });
            }
        }
        let mut p = Map::new();
        p.insert(payload::ITEM.into(), json!(item));
        p.insert(payload::COUNT.into(), json!(count));
        p.insert(payload::AFFIXES.into(), json!(affixes));
        self.push(Ev::ItemPickedUp, t, None, p);
        format!("{t} received {count} × {item}{}", if affixes.is_empty() { String::new() } else { format!(" [{}]", affixes.join(", ")) })
    }

    fn take(&mut self, t: CreatureRef, item: &str, count: u32) -> String {
        let Some(c) = self.creature_mut(t) else { return format!("no effect: {t} is gone") };
        let mut left = count;
        // Unequipped stacks go first; the last instances go first among equals.
        for pass in [false, true] {
            for i in c.inventory.iter_mut().rev().filter(|i| i.item == item && i.equipped == pass) {
                let n = left.min(i.count);
                i.count -= n;
                left -= n;
            }
        }
        c.inventory.retain(|i| i.count > 0);
        format!("{t} lost {} × {item}", count - left)
    }

    fn apply_status(&mut self, w: &World, t: CreatureRef, status: &str, turns: Option<u32>) -> String {
        let dflt = w.entry(Registry::Statuses, status).and_then(|e| e.int(field::TURNS)).unwrap_or(1).clamp(1, u32::MAX as i64) as u32;
        let turns = turns.unwrap_or(dflt);
        let Some(c) = self.creature_mut(t) else { return format!("no effect: {t} is gone") };
        if let Some(s) = c.statuses.iter_mut().find(|s| s.status == status) {
            s.turns = turns;
            format!("{t}: {status} refreshed to {turns} turns")
        } else {
            c.statuses.push(StatusInstance { status: status.into(), turns });
            format!("{t}: {status} for {turns} turns")
        }
    }

    /// Adds enemies; returns their refs.
    pub fn add_enemies(&mut self, w: &World, creature: &str, count: u32) -> Vec<CreatureRef> {
        let mut out = Vec::new();
        for _ in 0..count {
            let index = self.next_enemy;
            self.next_enemy += 1;
            let body = Creature { creature: Some(creature.into()), base: Game::creature_base(w, creature), ..Creature::default() };
            self.enemies.push(Enemy { index, body });
            let r = CreatureRef::Enemy(index);
            let max = self.max_health(w, r);
            if let Some(c) = self.creature_mut(r) {
                c.health = max;
            }
            out.push(r);
        }
        out
    }

    fn spawn(&mut self, w: &World, creature: &str, count: u32) -> String {
        let refs = self.add_enemies(w, creature, count);
        let mut s = format!("spawned {creature} as {}", refs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", "));
        if !self.combat && !refs.is_empty() {
            self.combat = true;
            self.push(Ev::CombatStarted, CreatureRef::Player, None, Map::new());
            s.push_str("; combat started");
        }
        s
    }

    pub fn start_quest(&mut self, w: &World, quest: &str) -> String {
        if self.quests.iter().any(|q| q.quest == quest) {
            return format!("{quest} already started");
        }
        if !w.exists(Registry::Quests, quest) {
            return format!("no effect: {quest} is not a quest");
        }
        self.quests.push(QuestProgress { quest: quest.into(), count: 0, done: false });
        format!("started {quest}")
    }

    fn flee(&mut self) -> String {
        let n = self.enemies.len();
        self.enemies.clear();
        if self.combat {
            self.combat = false;
            let mut p = Map::new();
            p.insert(payload::OUTCOME.into(), json!(outcome::FLED));
            self.push(Ev::CombatEnded, CreatureRef::Player, None, p);
            format!("fled, leaving {n} enemies behind")
        } else {
            format!("fled (no combat was running; {n} enemies left behind)")
        }
    }

    /// SPEC §7 "Attack": `attack_hit`, then the damage at once.
    fn attack(&mut self, w: &World, attacker: CreatureRef, victim: Option<CreatureRef>) -> Json {
        let Some(victim) = victim else { return json!({ "effect": "no effect: nothing to attack" }) };
        if !self.alive(attacker) {
            return json!({ "effect": format!("no effect: {attacker} is dead or gone (dead creatures do not attack)") });
        }
        if !self.alive(victim) {
            return json!({ "effect": format!("no effect: {victim} is dead or gone") });
        }
        let (weapon, dtype) = self.weapon(w, attacker);
        let mut p = Map::new();
        p.insert(payload::WEAPON.into(), weapon.clone().map(Json::String).unwrap_or(Json::Null));
        p.insert(payload::DAMAGE_TYPE.into(), json!(dtype));
        self.push(Ev::AttackHit, attacker, Some(victim), p);
        let amount = round_half_away(self.attribute(w, attacker, attr::DAMAGE, Some(victim))).max(0.0) as u32;
        let effect = if amount == 0 {
            // A zero-damage hit still lands: damage_taken { amount = 0 }.
            let mut p = Map::new();
            p.insert(payload::AMOUNT.into(), json!(0));
            p.insert(payload::DAMAGE_TYPE.into(), json!(dtype));
            self.push(Ev::DamageTaken, victim, Some(attacker), p);
            format!("{victim} took 0 {dtype} damage")
        } else {
            self.deal_damage(w, attacker, victim, amount, &dtype)
        };
        let with = match (&weapon, attacker) {
            (Some(w), _) => w.clone(),
            (None, CreatureRef::Player) => "bare hands".into(),
            (None, _) => "its own attack".into(),
        };
        json!({ "effect": format!("{attacker} hits {victim} with {with} for {amount}: {effect}") })
    }

    /// The equipped weapon and the damage type of an attack.
    pub fn weapon(&self, w: &World, r: CreatureRef) -> (Option<String>, String) {
        let Some(c) = self.creature(r) else { return (None, damage::PHYSICAL.into()) };
        if let Some(id) = &c.creature {
            let dt = w.entry(Registry::Creatures, id).and_then(|e| e.str(field::DAMAGE_TYPE)).unwrap_or(damage::PHYSICAL);
            return (None, dt.into());
        }
        for i in c.inventory.iter().filter(|i| i.equipped) {
            if let Some(e) = w.entry(Registry::Items, &i.item) {
                if e.str(field::SLOT) == Some(slot::WEAPON) {
                    return (Some(i.item.clone()), e.str(field::DAMAGE_TYPE).unwrap_or(damage::PHYSICAL).into());
                }
            }
        }
        (None, damage::PHYSICAL.into())
    }

    fn pickup(&mut self, w: &World, who: CreatureRef) -> Json {
        let piles = std::mem::take(&mut self.piles);
        let mut rolled = Vec::new();
        for table in &piles {
            let drops = self.roll(w, table);
            rolled.push(format!("{table}: {}", describe_items(&drops)));
            self.floor_loot.extend(drops);
        }
        let items = std::mem::take(&mut self.floor_loot);
        let mut got = Vec::new();
        for i in items {
            got.push(self.give(w, who, &i.item, i.count, i.affixes));
        }
        let mut s = String::new();
        if !rolled.is_empty() {
            s.push_str(&format!("rolled {} pile(s) ({}); ", rolled.len(), rolled.join("; ")));
        }
        if got.is_empty() {
            s.push_str("nothing to pick up");
        } else {
            s.push_str(&got.join("; "));
        }
        json!({ "effect": s })
    }

    fn talk(&mut self, w: &World, who: CreatureRef, npc: &str) -> Json {
        let Some(e) = w.entry(Registry::Npcs, npc) else { return json!({ "effect": format!("no effect: {npc} is not an NPC") }) };
        let actions: Vec<_> = e.actions(field::ON_TALK).to_vec();
        let mut effects = Vec::new();
        for a in &actions {
            effects.push(self.apply_action(w, &a.data, who, None));
        }
        let mut p = Map::new();
        p.insert(payload::NPC.into(), json!(npc));
        self.push(Ev::NpcTalked, who, None, p);
        json!({ "effect": format!("{who} talked to {npc}"), "actions": effects })
    }

    fn enter(&mut self, w: &World, id: &str) -> Json {
        if let Some(p) = w.entry(Registry::Prefabs, id) {
            let rows = p.grid().map(|g| g.rows.clone()).unwrap_or_default();
            let piles = rows.iter().map(|r| r.chars().filter(|c| *c == glyph::LOOT_PILE).count()).sum::<usize>();
            let foes = rows.iter().map(|r| r.chars().filter(|c| *c == glyph::ENEMY).count()).sum::<usize>();
            let floor = self.floor.as_deref().and_then(|f| w.entry(Registry::Floors, f));
            let table = p.reference(field::LOOT).or_else(|| floor.and_then(|f| f.reference(field::LOOT))).map(|r| r.value.clone());
            let fauna: Vec<String> = floor.map(|f| f.ref_list(field::CREATURES).iter().map(|c| c.value.clone()).collect()).unwrap_or_default();
            let mut s = format!("entered room {id}");
            match (&table, piles) {
                (_, 0) => {}
                (Some(t), n) => {
                    self.piles.extend(std::iter::repeat_n(t.clone(), n));
                    s.push_str(&format!("; {n} loot pile(s) from {t}"));
                }
                (None, n) => self
                    .warnings
                    .push(format!("step {}: room {id} has {n} loot pile(s) but neither it nor the floor has a loot table; they stay empty", self.step)),
            }
            if foes > 0 {
                if fauna.is_empty() {
                    self.warnings.push(format!("step {}: room {id} has {foes} `e` glyph(s) but no floor creatures to draw from; none appear", self.step));
                } else {
                    let mut appeared = Vec::new();
                    for _ in 0..foes {
                        let c = fauna[self.rng.below(fauna.len() as u64) as usize].clone();
                        let r = self.add_enemies(w, &c, 1);
                        appeared.push(format!("{} ({c})", r[0]));
                    }
                    s.push_str(&format!("; enemies appear: {}", appeared.join(", ")));
                }
            }
            self.room = Some(id.into());
            let mut pl = Map::new();
            pl.insert(payload::PREFAB.into(), json!(id));
            self.push(Ev::RoomEntered, CreatureRef::Player, None, pl);
            return json!({ "effect": s });
        }
        if let Some(f) = w.entry(Registry::Floors, id) {
            let depth = f.int(field::DEPTH);
            self.floor = Some(id.into());
            self.room = None;
            let mut pl = Map::new();
            pl.insert(payload::FLOOR.into(), json!(id));
            pl.insert(payload::DEPTH.into(), depth.map(|d| json!(d)).unwrap_or(Json::Null));
            self.push(Ev::FloorEntered, CreatureRef::Player, None, pl);
            return json!({ "effect": format!("entered floor {id}") });
        }
        json!({ "effect": format!("no effect: {id} is neither a prefab nor a floor") })
    }

    fn use_item(&mut self, w: &World, who: CreatureRef, item: &str) -> Json {
        if self.item_count(who, item) == 0 {
            return json!({ "effect": format!("no effect: {who} holds no {item}") });
        }
        let Some(e) = w.entry(Registry::Items, item) else { return json!({ "effect": format!("no effect: {item} is not an item") }) };
        let actions: Vec<_> = e.actions(field::USE).to_vec();
        // Using consumes one (an item with `use` is a consumable).
        self.take(who, item, 1);
        let mut effects = Vec::new();
        for a in &actions {
            effects.push(self.apply_action(w, &a.data, who, None));
        }
        let mut p = Map::new();
        p.insert(payload::ITEM.into(), json!(item));
        self.push(Ev::ItemUsed, who, None, p);
        json!({ "effect": format!("{who} used {item}"), "actions": effects })
    }

    fn equip(&mut self, w: &World, who: CreatureRef, item: &str) -> Json {
        let Some(slot) = w.entry(Registry::Items, item).and_then(|e| e.str(field::SLOT)).map(str::to_string) else {
            return json!({ "effect": format!("no effect: {item} cannot be equipped (no slot)") });
        };
        let slots: Vec<Option<String>> = self
            .creature(who)
            .map(|c| c.inventory.iter().map(|i| w.entry(Registry::Items, &i.item).and_then(|e| e.str(field::SLOT)).map(str::to_string)).collect())
            .unwrap_or_default();
        let Some(c) = self.creature_mut(who) else { return json!({ "effect": format!("no effect: {who} is gone") }) };
        let Some(pos) = c.inventory.iter().position(|i| i.item == item && !i.equipped) else {
            return json!({ "effect": format!("no effect: {who} holds no unequipped {item}") });
        };
        let mut off = Vec::new();
        for (i, inst) in c.inventory.iter_mut().enumerate() {
            if inst.equipped && slots.get(i).cloned().flatten().as_deref() == Some(slot.as_str()) {
                inst.equipped = false;
                off.push(inst.item.clone());
            }
        }
        if c.inventory[pos].count > 1 {
            c.inventory[pos].count -= 1;
            let mut one = c.inventory[pos].clone();
            one.count = 1;
            one.equipped = true;
            c.inventory.push(one);
        } else {
            c.inventory[pos].equipped = true;
        }
        let mut s = format!("{who} equipped {item} ({slot})");
        if !off.is_empty() {
            s.push_str(&format!(", unequipped {}", off.join(", ")));
        }
        json!({ "effect": s })
    }

    // ---------------------------------------------------------------------------------------
    // Events
    // ---------------------------------------------------------------------------------------

    /// Works the queue off (FIFO) under the step's cap.
    pub fn work_off(&mut self, w: &World) {
        while let Some(ev) = self.events.pop_front() {
            if self.trace.handled >= EVENT_CAP {
                self.trace.dropped += 1 + self.events.len();
                self.events.clear();
                break;
            }
            self.trace.handled += 1;
            self.handle(w, ev);
        }
    }

    /// Handles one event in the order of SPEC §7: the source creature's triggers, floor or prefab
    /// triggers, then started quests in start order.
    fn handle(&mut self, w: &World, ev: Event) {
        let idx = self.trace.events.len();
        self.trace.events.push(TraceEvent {
            event: ev.kind.name().into(),
            source: ev.source.to_string(),
            target: ev.target.map(|t| t.to_string()),
            payload: ev.payload.clone(),
            cause: ev.cause,
            triggers: Vec::new(),
        });
        let saved = self.trace.current.replace(idx);

        // 1. The source creature's own triggers (it may be dead: its triggers still run).
        for (reg, id) in self.bearers(ev.source) {
            self.run_bearer(w, reg, &id, &ev, ev.source, ev.target);
        }
        // 2. Floor or prefab triggers, self = the player.
        let place = match ev.kind {
            Ev::FloorEntered => {
                Some((Registry::Floors, ev.payload.get(payload::FLOOR).and_then(Json::as_str).map(str::to_string).or_else(|| self.floor.clone())))
            }
            Ev::RoomEntered => {
                Some((Registry::Prefabs, ev.payload.get(payload::PREFAB).and_then(Json::as_str).map(str::to_string).or_else(|| self.room.clone())))
            }
            _ => None,
        };
        if let Some((reg, Some(id))) = place {
            self.run_bearer(w, reg, &id, &ev, CreatureRef::Player, ev.target);
        }
        // 3. Started quests, in start order; a quest started now counts from the next event on.
        let n = self.quests.len();
        let other = if ev.source == CreatureRef::Player { ev.target } else { Some(ev.source) };
        for qi in 0..n {
            if self.quests[qi].done {
                continue;
            }
            let qid = self.quests[qi].quest.clone();
            let Some(entry) = w.entry(Registry::Quests, &qid) else { continue };
            let Some(t) = entry.triggers().first() else { continue };
            if t.on.as_ref().map(|o| o.value) != Some(ev.kind) {
                continue;
            }
            let at = w.at(entry, t.span.start);
            let verdict = self.trigger_fires(w, t, &ev, CreatureRef::Player, other);
            let need = w.quest_count(&qid);
            let mut tt = TraceTrigger { owner: qid.clone(), at, fired: verdict.is_ok(), reason: verdict.clone().err(), progress: None, actions: Vec::new() };
            if verdict.is_ok() {
                self.quests[qi].count += 1;
                let count = self.quests[qi].count;
                tt.progress = Some(format!("{count}/{need}"));
                if count >= need {
                    for a in &t.actions {
                        tt.actions.push(self.apply_action(w, &a.data, CreatureRef::Player, other));
                    }
                    self.quests[qi].done = true;
                    let mut p = Map::new();
                    p.insert(payload::QUEST.into(), json!(qid));
                    self.push(Ev::QuestCompleted, CreatureRef::Player, None, p);
                }
            }
            self.trace.events[idx].triggers.push(tt);
        }
        // Statuses count down at their bearer's turn_started, after it is handled.
        if ev.kind == Ev::TurnStarted {
            if let Some(c) = self.creature_mut(ev.source) {
                for s in &mut c.statuses {
                    s.turns = s.turns.saturating_sub(1);
                }
                c.statuses.retain(|s| s.turns > 0);
            }
        }
        self.trace.current = saved;
    }

    fn run_bearer(&mut self, w: &World, reg: Registry, id: &str, ev: &Event, me: CreatureRef, other: Option<CreatureRef>) {
        let Some(entry) = w.entry(reg, id) else { return };
        let idx = self.trace.current.unwrap_or(0);
        for t in entry.triggers() {
            if t.on.as_ref().map(|o| o.value) != Some(ev.kind) {
                continue;
            }
            let at = w.at(entry, t.span.start);
            let verdict = self.trigger_fires(w, t, ev, me, other);
            let mut tt = TraceTrigger { owner: id.to_string(), at, fired: verdict.is_ok(), reason: verdict.clone().err(), progress: None, actions: Vec::new() };
            if verdict.is_ok() {
                for a in &t.actions {
                    tt.actions.push(self.apply_action(w, &a.data, me, other));
                }
            }
            if let Some(e) = self.trace.events.get_mut(idx) {
                e.triggers.push(tt);
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Steps
    // ---------------------------------------------------------------------------------------

    /// One step = one turn (SPEC §7): `turn_started` (+ `combat_started`), the act, then dead
    /// enemies removed (+ `combat_ended` victory); the queue worked off after each phase, under
    /// one cap of [`EVENT_CAP`] events.
    pub fn run_step(&mut self, w: &World, act: Act<'_>, source: CreatureRef, target: Option<CreatureRef>) -> StepTrace {
        let step = self.step;
        self.step += 1;
        let description = act.describe(source, target);
        self.trace = Trace::default();
        let mut effects = Vec::new();
        if self.over {
            self.warnings.push(format!("step {step}: the run is over (the player died); step skipped"));
            return StepTrace { step, act: description, effects, events: Vec::new() };
        }
        if self.creature(source).is_none() {
            self.warnings.push(format!("step {step}: {source} does not exist (or was removed); step skipped"));
            return StepTrace { step, act: description, effects, events: Vec::new() };
        }
        // (1)
        self.push(Ev::TurnStarted, source, None, Map::new());
        if !self.combat && self.living_enemies() > 0 {
            self.combat = true;
            self.push(Ev::CombatStarted, CreatureRef::Player, None, Map::new());
        }
        self.work_off(w);
        // (2)
        effects.push(self.apply(w, act, source, target));
        self.work_off(w);
        // (3)
        self.end_of_step(w);
        if self.trace.dropped > 0 {
            self.warnings.push(format!("event cap ({EVENT_CAP}) reached in step {step}: {} events dropped", self.trace.dropped));
        }
        if self.player.health <= 0 && !self.over {
            self.over = true;
            self.warnings.push(format!("the player died in step {step}; the run ends"));
        }
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step, act: description, effects, events }
    }

    fn end_of_step(&mut self, w: &World) {
        self.enemies.retain(|e| e.body.health > 0);
        if self.combat && self.enemies.is_empty() {
            self.combat = false;
            let mut p = Map::new();
            p.insert(payload::OUTCOME.into(), json!(outcome::VICTORY));
            self.push(Ev::CombatEnded, CreatureRef::Player, None, p);
        }
        self.work_off(w);
        // Deaths raised in phase (3) (a trigger on combat_ended) are removed too, without a
        // second combat_ended.
        self.enemies.retain(|e| e.body.health > 0);
    }

    /// Character creation, before the first step: health to max, the options' `on_create`
    /// (self = the new character, no target), then `quests` started; the queue is worked off
    /// under its own cap. Returns the trace of this setup.
    pub fn setup(&mut self, w: &World, quests: &[String]) -> StepTrace {
        self.trace = Trace::default();
        self.heal_player_full(w);
        let mut effects = Vec::new();
        for o in self.player.options.clone() {
            if let Some(e) = w.entry(Registry::CharacterOptions, &o) {
                for a in e.actions(field::ON_CREATE) {
                    effects.push(self.apply_action(w, &a.data, CreatureRef::Player, None));
                }
            }
        }
        for q in quests {
            effects.push(json!({ "action": ActionKind::StartQuest.name(), "effect": self.start_quest(w, q) }));
        }
        self.work_off(w);
        if self.trace.dropped > 0 {
            self.warnings.push(format!("event cap ({EVENT_CAP}) reached in setup: {} events dropped", self.trace.dropped));
        }
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step: 0, act: "character creation".into(), effects, events }
    }

    /// The state as JSON (`final` of the scenario trace).
    pub fn final_json(&self, w: &World) -> Json {
        let statuses: Vec<Json> = self.player.statuses.iter().map(|s| json!({ "status": s.status, "turns": s.turns })).collect();
        json!({
            "player": {
                "health": self.player.health,
                "max_health": self.max_health(w, CreatureRef::Player),
                "inventory": self.player.inventory.iter().map(ItemInstance::json).collect::<Vec<_>>(),
                "quests": self.quests.iter().map(|q| json!({ "quest": q.quest, "count": q.count, "done": q.done })).collect::<Vec<_>>(),
                "statuses": statuses,
            },
            "enemies": self.enemies.iter().filter(|e| e.body.health > 0).map(|e| json!({
                "ref": CreatureRef::Enemy(e.index).to_string(),
                "creature": e.body.creature,
                "health": e.body.health,
            })).collect::<Vec<_>>(),
            "floor_loot": self.floor_loot.iter().map(ItemInstance::json).collect::<Vec<_>>(),
            "floor": self.floor,
            "room": self.room,
            "combat": self.combat,
        })
    }

    /// The character sheet line of an attribute: "damage 12 (17 vs enemy:0)".
    pub fn sheet_value(&self, w: &World, who: CreatureRef, attr: &str) -> Json {
        num(self.attribute(w, who, attr, None))
    }
}

pub fn describe_items(items: &[ItemInstance]) -> String {
    if items.is_empty() {
        return "nothing".into();
    }
    items
        .iter()
        .map(|i| {
            let mut s = format!("{} × {}", i.count, i.item);
            if !i.affixes.is_empty() {
                s.push_str(&format!(" [{}]", i.affixes.join(", ")));
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `has_tag target core:rat`, `not attribute self level ≥ 3`, …
pub fn describe_check(c: &Check) -> String {
    let who = c.who.as_str();
    let body = match &c.data {
        CheckData::HasTag { tag } => format!("has_tag {who} {}", tag.value),
        CheckData::Attribute { attribute, at_least, below } => {
            let mut s = format!("attribute {who} {attribute}");
            if let Some(a) = at_least {
                s.push_str(&format!(" >= {a}"));
            }
            if let Some(b) = below {
                s.push_str(&format!(" < {b}"));
            }
            s
        }
        CheckData::HasItem { item, count } => format!("has_item {who} {} x{count}", item.value),
        CheckData::HealthBelow { value } => format!("health_below {who} {value}"),
    };
    if c.not {
        format!("not {body}")
    } else {
        body
    }
}

pub fn payload_value(v: &Json) -> String {
    v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())
}
