//! The words of the core's entries, and of every event, check and action.

use rustkeep_data::model::{Action, ActionData, Condition, ConditionData, Sp, Trigger, When, Who};
use rustkeep_data::project::Project;
use rustkeep_data::vocab::{attr, outcome, ActionKind, CheckKind, EventKind, Registry, TargetPresence, WhenField, WhenValue};
use std::sync::OnceLock;

use super::english::{a, plural};
use super::entries::{objective, reward};
use super::triggers::other_side;
use super::*;
use rustkeep_engine::game::World;

fn core() -> &'static World {
    static CORE: OnceLock<World> = OnceLock::new();
    CORE.get_or_init(|| {
        let project = Project::with_bundled_core();
        let valid = rustkeep_check::validate(&project).expect("the bundled core is valid");
        World::new(project, valid)
    })
}

fn first_trigger(registry: Registry, id: &str) -> &'static Trigger {
    &core().entry(registry, id).unwrap_or_else(|| panic!("{id}")).triggers()[0]
}

fn sp(s: &str) -> Sp<String> {
    Sp::new(0..0, s.to_string())
}

#[test]
fn an_item_with_modifiers() {
    let w = core();
    assert_eq!(
        item(w, "core:spear"),
        ["Slot: weapon, dealing physical damage.", "+5 damage.", "+3 damage against creatures tagged core:beast.", "Price: 40 Gold Coins."]
    );
    assert_eq!(
        item(w, "core:ember_staff"),
        [
            "Slot: weapon, dealing fire damage.",
            "+4 damage.",
            "+3 intelligence.",
            "×1.25 damage while your intelligence is at least 8.",
            "When you hit with an attack: 10 % of the time, apply Burning to the target for 2 turns.",
            "Price: 90 Gold Coins.",
        ]
    );
    assert_eq!(item(w, "core:rusty_dagger")[2], "+5 % crit chance.");
    assert_eq!(item(w, "core:gold"), ["Price: 1 Gold Coin."]);
}

#[test]
fn a_potions_use() {
    let w = core();
    assert_eq!(item(w, "core:health_potion"), ["Use (consumes one): heal you for 15.", "Price: 25 Gold Coins."]);
    assert_eq!(item(w, "core:mystery_draught")[0], "Use (consumes one): heal you for 6, then apply Poisoned to you for 2 turns.");
    assert_eq!(item(w, "core:scroll_of_escape")[0], "Use (consumes one): flee.");
}

#[test]
fn the_rogues_dirty_fighting() {
    let w = core();
    assert_eq!(
        trigger(w, first_trigger(Registry::CharacterOptions, "core:rogue"), Bearer::Player),
        "When you hit with an attack, if the target is not tagged core:undead: 15 % of the time, apply Bleeding to the target for 3 turns."
    );
    assert_eq!(
        character_option(w, "core:warrior").last().map(String::as_str),
        Some("On creation: give you an Iron Sword, a Leather Jerkin and 2 Health Potions, then start the quest Proven in Battle.")
    );
    assert_eq!(character_option(w, "core:mage")[1], "×0.85 max health.");
}

#[test]
fn triggers_name_the_other_side_after_the_event() {
    let w = core();
    assert_eq!(
        trigger(w, first_trigger(Registry::Items, "core:thorn_mail"), Bearer::Player),
        "When you take physical damage: apply Bleeding to the attacker for 2 turns."
    );
    let lich = &w.entry(Registry::Creatures, "core:lich").unwrap().triggers()[1];
    assert_eq!(trigger(w, lich, Bearer::Creature), "When it takes fire damage: 50 % of the time, apply Warded to itself for 3 turns.");
    assert_eq!(
        trigger(w, first_trigger(Registry::Statuses, "core:burning"), Bearer::Anyone),
        "At the start of the bearer's turn: deal 2 fire damage to the bearer."
    );
    assert_eq!(
        trigger(w, first_trigger(Registry::Items, "core:ring_of_regeneration"), Bearer::Player),
        "At the start of your turn, if you are hurt: 25 % of the time, heal you for 1."
    );
    assert_eq!(trigger(w, first_trigger(Registry::Creatures, "core:slime"), Bearer::Creature), "When it dies: spawn 2 Slimelings.");
}

#[test]
fn quests_with_a_count_and_in_a_chain() {
    let w = core();
    assert_eq!(
        quest(w, "core:rattenplage").as_deref(),
        Some("Kill 5 creatures tagged core:rat (Giant Rat, Plague Rat, Rat and The Rat King). Reward: 50 Gold Coins.")
    );
    assert_eq!(
        quest(w, "core:word_of_the_rat_king").as_deref(),
        Some("Complete Rattenplage. Reward: 2 Health Potions. On completion: start the quest Long Live the King.")
    );
    assert_eq!(
        quest(w, "core:rat_king_bounty").as_deref(),
        Some("Kill a creature tagged core:rat and core:boss (The Rat King). Reward: a Torc of the Rat King and 150 Gold Coins.")
    );
    assert_eq!(quest(w, "core:seek_the_smith").as_deref(), Some("Talk to Brakka the Smith. Reward: 3 Whetstones."));
    assert_eq!(quest(w, "core:proven_in_battle").as_deref(), Some("Win 3 combats. Reward: 2 Potions of Giant's Strength."));
    assert_eq!(
        quest(w, "core:a_fortune_restored").as_deref(),
        Some(
            "Pick up Gold Coins while you have at least 500 Gold Coins. \
             On completion: apply Blessed to you for 20 turns, then start the quest The Captain's Hoard."
        )
    );
    assert_eq!(
        quest(w, "core:into_the_depths").as_deref(),
        Some("Reach The Bandit Keep (floor 3). Reward: 100 Gold Coins. On completion: start the quest The Deep Delve.")
    );
    assert_eq!(quest(w, "core:nope"), None);
}

#[test]
fn a_creatures_ai() {
    let w = core();
    assert_eq!(
        creature_ai(w, "core:giant_rat").as_deref(),
        Some("If its health is below 25 %, it flees. Otherwise, it attacks you if you are in reach, or else moves towards you.")
    );
    assert_eq!(
        creature_ai(w, "core:bandit_captain").as_deref(),
        Some(
            "If its health is below 50 %, it spawns 2 Bandits. Otherwise, if its health is below 20 %, it heals itself for 10. \
             Otherwise, it attacks you if you are in reach, or else moves towards you."
        )
    );
    assert_eq!(creature_ai(w, "core:rat").as_deref(), Some("On its turn, it attacks you if you are in reach, or else moves towards you."));
    assert_eq!(creature_ai(w, "core:nope"), None);
    assert_eq!(
        creature(w, "core:plague_rat"),
        [
            "Level 2, 7 health.",
            "Its attacks deal 2 poison damage.",
            "Evasion 2.",
            "Resists poison 50 %.",
            "Tags: core:rat, core:beast, core:vermin.",
            "On its turn, it attacks you if you are in reach, or else moves towards you.",
            "When it hits with an attack: 25 % of the time, apply Poisoned to the target for 3 turns.",
            "When it dies, it drops loot from Rat Loot.",
        ]
    );
}

#[test]
fn unknown_ids_are_said_so() {
    let w = core();
    assert_eq!(item(w, "core:nope"), ["There is no item core:nope."]);
    assert_eq!(creature(w, "x:y"), ["There is no creature x:y."]);
    assert_eq!(status(w, "", Bearer::Player), ["There is no status ."]);
    assert_eq!(entry_name(w, Registry::Items, "my_mod:big_axe"), "Big Axe");
    assert_eq!(entry_name(w, Registry::Prefabs, "core:rat_den"), "Rat Den");
    assert_eq!(id_in_words(""), "(no ID)");
}

#[test]
fn plurals_and_articles() {
    for (one, many) in [
        ("Health Potion", "Health Potions"),
        ("Potion of Giant's Strength", "Potions of Giant's Strength"),
        ("Grey Wolf", "Grey Wolves"),
        ("Cave Bat", "Cave Bats"),
        ("Flask", "Flasks"),
        ("Torch", "Torches"),
        ("Fairy", "Fairies"),
        ("Key", "Keys"),
        ("Knife", "Knives"),
    ] {
        assert_eq!(plural(one), many);
    }
    assert_eq!(a("Iron Key"), "an Iron Key");
    assert_eq!(a("Rat"), "a Rat");
    assert_eq!(a("The Rat King"), "The Rat King");
    assert_eq!(a("Morvath the Undying"), "Morvath the Undying");
    assert_eq!(a("Torc of the Rat King"), "a Torc of the Rat King");
}

/// Text must read as words, never as the Debug form of the model.
fn assert_words(what: &str, lines: &[String]) {
    assert!(!lines.is_empty(), "{what}: no text");
    for l in lines {
        assert!(!l.trim().is_empty(), "{what}: an empty line in {lines:?}");
        for bad in ["{", "}", "Some(", "None", "Sp {", "SelfBearer", "::"] {
            assert!(!l.contains(bad), "{what}: `{bad}` in {l:?}");
        }
    }
}

#[test]
fn every_core_entry_has_words() {
    let w = core();
    for id in w.ids(Registry::Items) {
        assert_words(&id, &item(w, &id));
    }
    for id in w.ids(Registry::Creatures) {
        assert_words(&id, &creature(w, &id));
        assert_words(&id, &[creature_ai(w, &id).unwrap_or_default()]);
    }
    for id in w.ids(Registry::Quests) {
        assert_words(&id, &[quest(w, &id).unwrap_or_default()]);
    }
    for id in w.ids(Registry::CharacterOptions) {
        assert_words(&id, &character_option(w, &id));
    }
    for id in w.ids(Registry::Affixes) {
        assert_words(&id, &affix(w, &id));
    }
    for id in w.ids(Registry::Statuses) {
        for bearer in [Bearer::Player, Bearer::Creature, Bearer::Anyone] {
            assert_words(&id, &status(w, &id, bearer));
        }
    }
    for registry in Registry::ALL {
        for id in w.ids(registry) {
            let Some(e) = w.entry(registry, &id) else { continue };
            for bearer in [Bearer::Player, Bearer::Creature, Bearer::Anyone] {
                let mut lines: Vec<String> = e.triggers().iter().map(|t| trigger(w, t, bearer)).collect();
                lines.extend(e.modifiers().iter().map(|m| modifier(w, m, bearer)));
                lines.extend(e.triggers().iter().flat_map(|t| &t.condition).map(|c| condition(w, c, bearer)));
                lines.extend(e.triggers().iter().flat_map(|t| &t.actions).map(|a| action(w, a, bearer)));
                if !lines.is_empty() {
                    assert_words(&id, &lines);
                }
            }
        }
    }
}

#[test]
fn the_other_side_is_absent_exactly_where_the_event_has_no_target() {
    for kind in EventKind::all() {
        assert_eq!(other_side(kind) == Party::Absent, kind.def().target_presence == TargetPresence::Never, "{}", kind.name());
    }
}

/// Every event with and without its `when` filter, every check negated or not, every action
/// aimed at either side: words, and a sentence for each.
#[test]
fn every_variant_has_words() {
    let w = core();
    let mk = |data: ActionData| Action { span: 0..0, kind: data.kind(), target_span: None, data };
    let mut acts = Vec::new();
    for target in [Who::SelfBearer, Who::Target] {
        acts.push(mk(ActionData::Damage { amount: 3, damage_type: "fire".into(), target }));
        acts.push(mk(ActionData::Heal { amount: 5, target }));
        acts.push(mk(ActionData::GiveItem { item: sp("core:health_potion"), count: 2, target }));
        acts.push(mk(ActionData::TakeItem { item: sp("core:gold"), count: 10, target }));
        acts.push(mk(ActionData::TakeItem { item: sp("core:key"), count: 1, target }));
        acts.push(mk(ActionData::ApplyStatus { status: sp("core:bleeding"), turns: None, target }));
        acts.push(mk(ActionData::ApplyStatus { status: sp("my_mod:unknown"), turns: None, target }));
    }
    acts.push(mk(ActionData::Spawn { creature: sp("core:goblin"), count: 2 }));
    acts.push(mk(ActionData::Spawn { creature: sp("core:rat_king"), count: 2 }));
    acts.push(mk(ActionData::StartQuest { quest: sp("core:rattenplage") }));
    acts.push(mk(ActionData::Flee));
    acts.push(mk(ActionData::OpenShop { shop: sp("core:smithy") }));
    assert_eq!(acts.iter().map(|a| a.kind).collect::<std::collections::HashSet<_>>().len(), ActionKind::ALL.len());
    let said: Vec<String> = acts.iter().map(|a| action(w, a, Bearer::Player)).collect();
    assert_eq!(said[0], "deal 3 fire damage to you");
    assert_eq!(said[2], "give you 2 Health Potions");
    assert_eq!(said[3], "take up to 10 Gold Coins from you");
    assert_eq!(said[4], "take an Iron Key from you");
    assert_eq!(said[5], "apply Bleeding to you for 3 turns");
    assert_eq!(said[6], "apply Unknown to you");
    assert_eq!(said[14..], ["spawn 2 Goblin Cutters", "spawn 2 × The Rat King", "start the quest Rattenplage", "flee", "open the shop Brakka's Forge"]);
    assert_eq!(action(w, &acts[1], Bearer::Creature), "heal itself for 5");
    assert_eq!(action(w, &acts[8], Bearer::Creature), "heal the target for 5");

    let check = |data: ConditionData, kind: CheckKind, who: Who, not: bool| Condition { span: 0..0, kind, who, who_span: 0..0, not, data };
    let mut checks = Vec::new();
    for who in [Who::SelfBearer, Who::Target] {
        for not in [false, true] {
            checks.push(check(ConditionData::HasTag { tag: sp("core:undead") }, CheckKind::HasTag, who, not));
            for (at_least, below) in [(Some(3.0), None), (None, Some(0.5)), (Some(1.0), Some(4.0)), (None, None)] {
                checks.push(check(ConditionData::Attribute { attribute: attr::FIRE_RESISTANCE.into(), at_least, below }, CheckKind::Attribute, who, not));
            }
            checks.push(check(ConditionData::HasItem { item: sp("core:gold"), count: 5 }, CheckKind::HasItem, who, not));
            checks.push(check(ConditionData::HasItem { item: sp("core:key"), count: 1 }, CheckKind::HasItem, who, not));
            checks.push(check(ConditionData::HealthBelow { value: 0.5 }, CheckKind::HealthBelow, who, not));
            checks.push(check(ConditionData::HealthBelow { value: 1.0 }, CheckKind::HealthBelow, who, not));
        }
    }
    let said: Vec<String> = checks.iter().map(|c| condition(w, c, Bearer::Player)).collect();
    assert_words("checks", &said);
    assert_eq!(said[1], "your fire resistance is at least 300 %");
    assert_eq!(said[9], "you are not tagged core:undead");
    assert_eq!(said[14], "you have fewer than 5 Gold Coins");
    assert_eq!(said[15], "you have no Iron Keys");
    assert_eq!(said[16], "your health is at least 50 %");
    assert_eq!(said[17], "you are at full health");
    assert_eq!(conditions(w, &checks[..2], Bearer::Creature), "it is tagged core:undead and its fire resistance is at least 300 %");
    assert_eq!(conditions(w, &[], Bearer::Creature), "always");

    for kind in EventKind::all() {
        let filters: Vec<When> = kind
            .def()
            .when
            .iter()
            .map(|f| When {
                field: *f,
                key_span: 0..0,
                value: sp(match f.def().value {
                    WhenValue::DamageType => "ice",
                    WhenValue::Outcome => outcome::FLED,
                    WhenValue::Id(Registry::Items) => "core:gold",
                    WhenValue::Id(_) => "core:elder",
                }),
            })
            .collect();
        for when in [Vec::new(), filters] {
            let t = Trigger { span: 0..0, on: Some(Sp::new(0..0, kind)), when, condition: checks.clone(), chance: 0.5, actions: acts.clone(), broken: false };
            for bearer in [Bearer::Player, Bearer::Creature, Bearer::Anyone] {
                assert_words(kind.name(), &[trigger(w, &t, bearer)]);
            }
            for count in [1, 2, 7] {
                let o = objective(w, &t, count);
                assert_words(kind.name(), &[o.clone(), reward(w, &t, Party::Absent)]);
                assert!(o.starts_with(char::is_uppercase), "{o}");
            }
        }
    }
    let nowhere = Trigger { span: 0..0, on: None, when: Vec::new(), condition: Vec::new(), chance: 1.0, actions: Vec::new(), broken: true };
    assert_eq!(trigger(w, &nowhere, Bearer::Player), "Never (it names no event): nothing happens. (It has errors, so the game never runs it.)");
}

#[test]
fn every_event_in_words() {
    let w = core();
    let said: Vec<String> = EventKind::all().map(|k| event(w, k, &[], Bearer::Player)).collect();
    assert_eq!(
        said,
        [
            "At the start of your turn",
            "When a combat starts",
            "When you hit with an attack",
            "When you take damage",
            "When you die",
            "When a combat ends",
            "When you receive an item",
            "When you use an item",
            "When you enter a floor",
            "When you enter a room",
            "When you talk to someone",
            "When you complete a quest",
        ]
    );
    let when = [When { field: WhenField::Prefab, key_span: 0..0, value: sp("core:alchemist_lab") }];
    assert_eq!(event(w, EventKind::RoomEntered, &when, Bearer::Player), "When you enter an Alchemist Lab");
    assert_eq!(
        event(w, EventKind::TurnStarted, &when, Bearer::Creature),
        "At the start of its turn (only when its room is Alchemist Lab, which this event never carries)"
    );
}
