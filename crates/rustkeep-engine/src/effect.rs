//! What an act or an action did, typed: the `effect` of a step or of a fired trigger's action in
//! the trace. Every outcome is a variant — a hit, a miss, a critical hit, an escape, an action
//! without its target — so that a reader (the play narration) matches on them
//! exhaustively and the compiler keeps it in step with the engine; nobody reads the engine's
//! words. The words are [`Effect`]'s `Display`, the `effect` text of the JSON trace (keys and
//! texts as docs/cli.md gives them).

use std::fmt;

use rustkeep_data::grid::Pos;
use rustkeep_data::text::thousands;
use rustkeep_data::vocab::{ActionKind, EventKind, MAX_CARRIED, MAX_LIVING_ENEMIES};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::actor::CreatureRef;
use crate::item::{describe_items, ItemInstance};
use crate::place::Place;

/// One act or action with what it did: an entry of a step's `effects` or of a trigger's
/// `actions` in the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The data action that ran; `None` for an act of a step (an attack, a move, …).
    pub action: Option<ActionKind>,
    /// Whom the action was aimed at, for an action with a `target`: `Some(None)` when that
    /// creature was absent.
    pub target: Option<Option<CreatureRef>>,
    pub effect: Effect,
    /// The actions it ran in turn (an item used, an NPC talked to, an `ai` rule followed).
    pub actions: Option<Vec<Outcome>>,
}

impl Outcome {
    /// An act's outcome.
    pub fn act(effect: Effect) -> Outcome {
        Outcome { action: None, target: None, effect, actions: None }
    }

    /// An act's outcome with the actions it ran.
    pub fn with_actions(effect: Effect, actions: Vec<Outcome>) -> Outcome {
        Outcome { action: None, target: None, effect, actions: Some(actions) }
    }

    /// The outcome as the JSON trace shows it.
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(a) = self.action {
            m.serialize_entry("action", a.name())?;
        }
        if let Some(t) = self.target {
            m.serialize_entry("target", &t)?;
        }
        m.serialize_entry("effect", &self.effect.to_string())?;
        if let Some(a) = &self.actions {
            m.serialize_entry("actions", a)?;
        }
        m.end()
    }
}

/// What the weapon of a hit was.
#[derive(Clone, Debug, PartialEq)]
pub enum Weapon {
    Item(String),
    /// The player without a weapon.
    BareHands,
    /// A creature's own attack.
    Own,
}

/// Residents the player's attack woke: they rejoin the fight (and a combat starts if none ran).
#[derive(Clone, Debug, PartialEq)]
pub struct Rejoined {
    pub woken: Vec<CreatureRef>,
    pub combat_started: bool,
}

/// Why an act or an action did nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// An attack without a victim.
    NothingToAttack,
    /// The attacker is dead or gone.
    AttackerDown(CreatureRef),
    /// The creature is dead or gone.
    DeadOrGone(CreatureRef),
    Gone(CreatureRef),
    Dead(CreatureRef),
    AlreadyDead(CreatureRef),
    /// The ID names no entry of the registry the act needs (`noun`: "an NPC", "an item", …).
    NotA {
        id: String,
        noun: &'static str,
    },
    /// `enter` names neither a prefab nor a floor.
    NotARoom(String),
    HoldsNo {
        who: CreatureRef,
        item: String,
    },
    HoldsNoUnequipped {
        who: CreatureRef,
        item: String,
    },
    /// The item has no slot.
    NoSlot(String),
    NoMap,
    NoInventoryEntry(usize),
    NoStockEntry {
        shop: String,
        index: usize,
    },
    /// The currency cannot be sold.
    Currency(&'static str),
    /// So many enemies would live at once: a `spawn` of this many was refused and the run stops.
    TooManyEnemies(u32),
    /// A `spawn` on a map where no tile is free.
    NoFreeTile,
    /// So many items would be carried: a gift of this many was refused and the run stops.
    TooManyItems(u32),
}

/// What an act or an action did. `Untraced`: a run without a trace builds no effects.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Untraced,
    NoEffect(Reason),
    /// A targeted action whose target is absent was skipped.
    NoTarget,
    /// A targeted action whose target is dead was skipped.
    TargetDead,
    Missed {
        rejoined: Option<Rejoined>,
        attacker: CreatureRef,
        victim: CreatureRef,
        chance: String,
    },
    Hit {
        rejoined: Option<Rejoined>,
        attacker: CreatureRef,
        victim: CreatureRef,
        weapon: Weapon,
        amount: u32,
        critical: bool,
        damage: Box<Effect>,
    },
    /// Damage taken; `left`: the health left (`None` for a hit of zero).
    Damaged {
        victim: CreatureRef,
        amount: i64,
        damage_type: String,
        left: Option<i64>,
    },
    Died {
        victim: CreatureRef,
        amount: i64,
        damage_type: String,
        loot: Option<(String, Vec<ItemInstance>)>,
    },
    Healed {
        who: CreatureRef,
        amount: i64,
        now: i64,
        max: i64,
    },
    NothingGiven,
    Received {
        who: CreatureRef,
        item: String,
        count: u32,
        affixes: Vec<String>,
    },
    Lost {
        who: CreatureRef,
        item: String,
        count: u32,
    },
    Status {
        who: CreatureRef,
        status: String,
        turns: u32,
        refreshed: bool,
    },
    Spawned {
        creature: String,
        refs: Vec<CreatureRef>,
        combat_started: bool,
    },
    QuestStarted(String),
    QuestAlreadyStarted(String),
    /// An enemy's `flee`: it left the game.
    Escaped(CreatureRef),
    /// The player's `flee`: `left` enemies stay behind; `combat`: whether a combat was running.
    Fled {
        left: usize,
        combat: bool,
    },
    ShopOpened(String),
    /// Picking up: the loot piles rolled (table and drops), then what was received.
    PickedUp {
        rolled: Vec<(String, Vec<ItemInstance>)>,
        got: Vec<Effect>,
    },
    Talked {
        who: CreatureRef,
        npc: String,
    },
    /// A room entered: its piles (count and table), the enemies that appeared (with their
    /// creature).
    EnteredRoom {
        room: String,
        piles: Option<(usize, String)>,
        appeared: Vec<(CreatureRef, String)>,
    },
    /// A room of the floor map stepped into: `first` the first time on this floor; the residents
    /// that joined the combat (with their creature).
    ReachedRoom {
        room: String,
        first: bool,
        joined: Vec<(CreatureRef, String)>,
    },
    /// A floor entered, with its first room in a played run.
    EnteredFloor {
        floor: String,
        room: Option<Box<Effect>>,
    },
    Used {
        who: CreatureRef,
        item: String,
    },
    Equipped {
        who: CreatureRef,
        item: String,
        slot: String,
        off: Vec<String>,
    },
    EnemyMoved {
        who: CreatureRef,
        from: Pos,
        to: Pos,
    },
    /// The player moved, the room it stepped into, and what it found there (loot piles, loot
    /// lying on the tile).
    PlayerMoved {
        to: Pos,
        entered: Option<Box<Effect>>,
        found: Vec<Effect>,
    },
    /// A loot pile stepped on: what it held (nothing: it crumbles away).
    Pile(Vec<ItemInstance>),
    Waited(CreatureRef),
    /// An enemy with no way to the player.
    Stuck(CreatureRef),
    NoFloors,
    Bumped(Pos),
    /// Down the stairs: what leaving the floor did.
    Stairs {
        at: Pos,
        then: Box<Effect>,
    },
    /// A floor left while `enemies` in combat lived (a flight), then what came next.
    LeftBehind {
        enemies: usize,
        then: Box<Effect>,
    },
    /// Out of the deepest floor.
    Won,
    /// A floor of the dungeon that is not there.
    NoSuchFloor,
    Dropped {
        item: String,
        at: Option<Pos>,
    },
    Bought {
        item: String,
        price: u64,
        got: Box<Effect>,
    },
    CannotAfford {
        item: String,
        price: u64,
        gold: u64,
    },
    Sold {
        item: String,
        price: u64,
    },
    /// An enemy followed `ai` rule `rule` (1-based) of `creature`, written at `at`.
    FollowedRule {
        who: CreatureRef,
        rule: usize,
        creature: String,
        at: Place,
    },
    Injected(EventKind),
}

fn list<T: fmt::Display>(items: &[T], sep: &str) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(sep)
}

/// Writes `items` joined by `sep` between `before` and `after`; nothing at all for no items.
fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, before: &str, items: &[T], sep: &str, after: &str) -> fmt::Result {
    if items.is_empty() {
        return Ok(());
    }
    write!(f, "{before}{}{after}", list(items, sep))
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NothingToAttack => f.write_str("nothing to attack"),
            Reason::AttackerDown(who) => write!(f, "{who} is dead or gone (dead creatures do not attack)"),
            Reason::DeadOrGone(who) => write!(f, "{who} is dead or gone"),
            Reason::Gone(who) => write!(f, "{who} is gone"),
            Reason::Dead(who) => write!(f, "{who} is dead"),
            Reason::AlreadyDead(who) => write!(f, "{who} is already dead"),
            Reason::NotA { id, noun } => write!(f, "{id} is not {noun}"),
            Reason::NotARoom(id) => write!(f, "{id} is neither a prefab nor a floor"),
            Reason::HoldsNo { who, item } => write!(f, "{who} holds no {item}"),
            Reason::HoldsNoUnequipped { who, item } => write!(f, "{who} holds no unequipped {item}"),
            Reason::NoSlot(item) => write!(f, "{item} cannot be equipped (no slot)"),
            Reason::NoMap => f.write_str("there is no map"),
            Reason::NoInventoryEntry(i) => write!(f, "the player has no inventory entry {i}"),
            Reason::NoStockEntry { shop, index } => write!(f, "{shop} has no stock entry {index}"),
            Reason::Currency(currency) => write!(f, "{currency} is what shops pay with"),
            Reason::NoFreeTile => f.write_str("no tile is free to spawn on"),
            Reason::TooManyEnemies(n) => write!(f, "{n} more enemies would make more than the {} that live at once", thousands(MAX_LIVING_ENEMIES as u64)),
            Reason::TooManyItems(n) => write!(f, "{n} more items would make more than the {} one creature carries", thousands(MAX_CARRIED as u64)),
        }
    }
}

impl fmt::Display for Rejoined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} rejoin the fight; ", list(&self.woken, ", "))?;
        if self.combat_started {
            f.write_str("combat started; ")?;
        }
        Ok(())
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Weapon::Item(id) => f.write_str(id),
            Weapon::BareHands => f.write_str("bare hands"),
            Weapon::Own => f.write_str("its own attack"),
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rejoined = |r: &Option<Rejoined>| r.as_ref().map(ToString::to_string).unwrap_or_default();
        match self {
            Effect::Untraced => Ok(()),
            Effect::NoEffect(reason) => write!(f, "no effect: {reason}"),
            Effect::NoTarget => f.write_str("skipped: there is no target"),
            Effect::TargetDead => f.write_str("no target: dead"),
            Effect::Missed { rejoined: r, attacker, victim, chance } => write!(f, "{}{attacker} attacks {victim}: missed (p = {chance})", rejoined(r)),
            Effect::Hit { rejoined: r, attacker, victim, weapon, amount, critical, damage } => {
                let crit = if *critical { " (critical)" } else { "" };
                write!(f, "{}{attacker} hits {victim} with {weapon} for {amount}{crit}: {damage}", rejoined(r))
            }
            Effect::Damaged { victim, amount, damage_type, left: Some(left) } => write!(f, "{victim} took {amount} {damage_type} damage ({left} left)"),
            Effect::Damaged { victim, amount, damage_type, left: None } => write!(f, "{victim} took {amount} {damage_type} damage"),
            Effect::Died { victim, amount, damage_type, loot } => {
                write!(f, "{victim} took {amount} {damage_type} damage and died")?;
                if let Some((table, drops)) = loot {
                    write!(f, "; loot {table}: {}", describe_items(drops))?;
                }
                Ok(())
            }
            Effect::Healed { who, amount, now, max } => write!(f, "{who} healed {amount} ({now} / {max})"),
            Effect::NothingGiven => f.write_str("nothing given"),
            Effect::Received { who, item, count, affixes } => {
                write!(f, "{who} received {count} × {item}")?;
                write_list(f, " [", affixes, ", ", "]")
            }
            Effect::Lost { who, item, count } => write!(f, "{who} lost {count} × {item}"),
            Effect::Status { who, status, turns, refreshed: true } => write!(f, "{who}: {status} refreshed to {turns} turns"),
            Effect::Status { who, status, turns, refreshed: false } => write!(f, "{who}: {status} for {turns} turns"),
            Effect::Spawned { creature, refs, combat_started } => {
                write!(f, "spawned {creature} as {}", list(refs, ", "))?;
                if *combat_started {
                    f.write_str("; combat started")?;
                }
                Ok(())
            }
            Effect::QuestStarted(q) => write!(f, "started {q}"),
            Effect::QuestAlreadyStarted(q) => write!(f, "{q} already started"),
            Effect::Escaped(who) => write!(f, "{who} escaped"),
            Effect::Fled { left, combat: true } => write!(f, "fled; {} behind", enemies_stay(*left)),
            Effect::Fled { left, combat: false } => write!(f, "fled (no combat was running; {} behind)", enemies_stay(*left)),
            Effect::ShopOpened(shop) => write!(f, "opened shop {shop}"),
            Effect::PickedUp { rolled, got } => {
                if !rolled.is_empty() {
                    let piles: Vec<String> = rolled.iter().map(|(t, drops)| format!("{t}: {}", describe_items(drops))).collect();
                    write!(f, "rolled {} pile(s) ({}); ", rolled.len(), piles.join("; "))?;
                }
                if got.is_empty() {
                    f.write_str("nothing to pick up")
                } else {
                    f.write_str(&list(got, "; "))
                }
            }
            Effect::Talked { who, npc } => write!(f, "{who} talked to {npc}"),
            Effect::EnteredRoom { room, piles, appeared } => {
                write!(f, "entered room {room}")?;
                if let Some((n, table)) = piles {
                    write!(f, "; {n} loot pile(s) from {table}")?;
                }
                let shown: Vec<String> = appeared.iter().map(|(r, c)| format!("{r} ({c})")).collect();
                write_list(f, "; enemies appear: ", &shown, ", ", "")
            }
            Effect::ReachedRoom { room, first, joined } => {
                write!(f, "entered room {room}{}", if *first { "" } else { " again" })?;
                let shown: Vec<String> = joined.iter().map(|(r, c)| format!("{r} ({c})")).collect();
                write_list(f, "; enemies join: ", &shown, ", ", "")
            }
            Effect::EnteredFloor { floor, room: None } => write!(f, "entered floor {floor}"),
            Effect::EnteredFloor { floor, room: Some(room) } => write!(f, "entered floor {floor}; {room}"),
            Effect::Used { who, item } => write!(f, "{who} used {item}"),
            Effect::Equipped { who, item, slot, off } => {
                write!(f, "{who} equipped {item} ({slot})")?;
                write_list(f, ", unequipped ", off, ", ", "")
            }
            Effect::EnemyMoved { who, from, to } => write!(f, "{who} moves from {from} to {to}"),
            Effect::PlayerMoved { to, entered, found } => {
                write!(f, "player moves to {to}")?;
                if let Some(room) = entered {
                    write!(f, "; {room}")?;
                }
                write_list(f, "; ", found, "; ", "")
            }
            Effect::Pile(drops) if drops.is_empty() => f.write_str("the loot pile holds nothing and crumbles away"),
            Effect::Pile(drops) => write!(f, "the loot pile holds {}", describe_items(drops)),
            Effect::Waited(who) => write!(f, "{who} waits"),
            Effect::Stuck(who) => write!(f, "{who} waits: there is no way to the player"),
            Effect::NoFloors => f.write_str("no floors are loaded: there is no dungeon to enter"),
            Effect::Bumped(at) => write!(f, "player bumps into the wall at {at}"),
            Effect::Stairs { at, then } => write!(f, "player takes the stairs at {at}: {then}"),
            Effect::LeftBehind { enemies: 1, then } => write!(f, "fled, leaving 1 enemy behind; {then}"),
            Effect::LeftBehind { enemies, then } => write!(f, "fled, leaving {enemies} enemies behind; {then}"),
            Effect::Won => f.write_str("took the stairs of the deepest floor: the run is won"),
            Effect::NoSuchFloor => f.write_str("no such floor"),
            Effect::Dropped { item, at: Some(at) } => write!(f, "player dropped {item} at {at}"),
            Effect::Dropped { item, at: None } => write!(f, "player dropped {item} on the floor"),
            Effect::Bought { item, price, got } => write!(f, "bought {item} for {price} gold: {got}"),
            Effect::CannotAfford { item, price, gold } => write!(f, "cannot buy {item}: it costs {price} gold, the player has {gold}"),
            Effect::Sold { item, price } => write!(f, "sold {item} for {price} gold"),
            Effect::FollowedRule { who, rule, creature, at } => write!(f, "{who} follows ai rule {rule} of {creature} ({at})"),
            Effect::Injected(kind) => write!(f, "injected {}", kind.name()),
        }
    }
}

/// `1 enemy stays`, `3 enemies stay`.
pub fn enemies_stay(n: usize) -> String {
    if n == 1 {
        "1 enemy stays".into()
    } else {
        format!("{n} enemies stay")
    }
}
