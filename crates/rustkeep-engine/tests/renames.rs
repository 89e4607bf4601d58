//! `[renamed]` in the engine: data that still names old IDs runs as the IDs they stand for, and a
//! save of the old version loads with the new IDs and says what was renamed and what dropped.

mod common;

use common::{world, world_of};
use rustkeep_data::project::Project;
use rustkeep_engine::game::World;
use rustkeep_engine::save;
use rustkeep_engine::scenario::{run_step, Scenario};
use rustkeep_testutil::repo_root;

/// The rat-catcher example released again: its cheese wedge is now `rat_catcher:cheese`, its
/// first quest `rat_catcher:rat_tails`, its shop `rat_catcher:stall`, its sewer rat
/// `rat_catcher:drain_rat`, Old Mags `rat_catcher:mags` and ratsbane `rat_catcher:plague_mark`
/// (each with a `[renamed]` line). Only
/// the entries' own `id`s change; every other file still names the old IDs.
fn renamed_release() -> World {
    let dir = repo_root().join("examples/rat_catcher");
    let mut files: Vec<(String, String)> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "toml") {
            files.push((path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    for (name, text) in &mut files {
        match name.as_str() {
            "mod.toml" => text.push_str(
                "\n[renamed]\n\"rat_catcher:cheese_wedge\" = \"rat_catcher:cheese\"\n\"rat_catcher:tails_for_coin\" = \"rat_catcher:rat_tails\"\n\"rat_catcher:traps_and_tonics\" = \"rat_catcher:stall\"\n\"rat_catcher:sewer_rat\" = \"rat_catcher:drain_rat\"\n\"rat_catcher:old_mags\" = \"rat_catcher:mags\"\n\"rat_catcher:ratsbane\" = \"rat_catcher:plague_mark\"\n",
            ),
            "items.toml" => *text = text.replace("id = \"rat_catcher:cheese_wedge\"", "id = \"rat_catcher:cheese\""),
            "quests.toml" => *text = text.replace("id = \"rat_catcher:tails_for_coin\"", "id = \"rat_catcher:rat_tails\""),
            "npcs.toml" => {
                *text = text.replace("id = \"rat_catcher:traps_and_tonics\"", "id = \"rat_catcher:stall\"").replace("id = \"rat_catcher:old_mags\"", "id = \"rat_catcher:mags\"")
            }
            "creatures.toml" => *text = text.replace("id = \"rat_catcher:sewer_rat\"", "id = \"rat_catcher:drain_rat\""),
            "statuses.toml" => *text = text.replace("id = \"rat_catcher:ratsbane\"", "id = \"rat_catcher:plague_mark\""),
            _ => {}
        }
    }
    let mut project = Project::with_bundled_core();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    project.add_memory_mod("rat_catcher", &refs);
    world(project)
}

fn scenario() -> Scenario {
    common::scenario(&std::fs::read_to_string(repo_root().join("examples/scenarios/rat_catcher.toml")).unwrap()).unwrap()
}

#[test]
fn data_naming_old_ids_runs_as_the_new_ones() {
    let w = renamed_release();
    let sc = scenario();
    let (mut g, _) = sc.start(&w);
    // Old Mags' `on_talk` still writes the old IDs of the quest, the cheese and the shop.
    run_step(&mut g, &w, &sc.steps[0]);
    let items: Vec<&str> = g.player().inventory.iter().map(|i| i.item.as_str()).collect();
    assert!(items.contains(&"rat_catcher:cheese"), "{items:?}");
    assert!(!items.contains(&"rat_catcher:cheese_wedge"), "{items:?}");
    let quests: Vec<&str> = g.quests().iter().map(|q| q.quest.as_str()).collect();
    assert!(quests.contains(&"rat_catcher:rat_tails") && !quests.contains(&"rat_catcher:tails_for_coin"), "{quests:?}");
    assert_eq!(g.opened_shop(), Some("rat_catcher:stall"));
}

#[test]
fn a_save_of_the_old_release_loads_with_the_new_ids() {
    let old = world_of(&["examples/rat_catcher"]);
    let sc = scenario();
    let (mut g, _) = sc.start(&old);
    // Old Mags' stall, then the sewers and the rat nest, where sewer rats are spawned.
    for step in &sc.steps[..3] {
        run_step(&mut g, &old, step);
    }
    assert!(g.player().inventory.iter().any(|i| i.item == "rat_catcher:cheese_wedge"));
    let sewer_rats = g.enemies().iter().filter(|e| e.body.creature.as_deref() == Some("rat_catcher:sewer_rat")).count();
    assert!(sewer_rats > 0, "the nest spawned sewer rats");
    assert_eq!(g.opened_shop(), Some("rat_catcher:traps_and_tonics"));
    let mut save: serde_json::Value = serde_json::from_str(&save::to_json(&g)).unwrap();
    let push = |list: &mut serde_json::Value, entry: serde_json::Value| match list.as_array_mut() {
        Some(a) => a.push(entry),
        None => *list = serde_json::json!([entry]),
    };
    // The player bears ratsbane.
    push(&mut save["game"]["player"]["statuses"], serde_json::json!({ "status": "rat_catcher:ratsbane", "turns": 3 }));
    // The stall's stock as the player saw it (a shop's stock is rolled when it first opens).
    let cheese = serde_json::json!({ "item": "rat_catcher:cheese_wedge", "count": 2, "affixes": [], "equipped": false });
    push(&mut save["game"]["shops"]["rat_catcher:traps_and_tonics"], cheese);
    let json = save.to_string();

    let new = renamed_release();
    let (loaded, warnings) = save::from_json(&json, &new).unwrap();
    let items: Vec<&str> = loaded.player().inventory.iter().map(|i| i.item.as_str()).collect();
    assert!(items.contains(&"rat_catcher:cheese") && !items.contains(&"rat_catcher:cheese_wedge"), "{items:?}");
    let wedges = |g: &rustkeep_engine::game::Game, id: &str| g.player().inventory.iter().filter(|i| i.item == id).map(|i| i.count).sum::<u32>();
    assert_eq!(wedges(&loaded, "rat_catcher:cheese"), wedges(&g, "rat_catcher:cheese_wedge"), "the same count under the new ID");
    let q = loaded.quests().iter().find(|q| q.quest == "rat_catcher:rat_tails").expect("the quest under its new ID");
    let before = g.quests().iter().find(|q| q.quest == "rat_catcher:tails_for_coin").unwrap();
    assert_eq!((q.count, q.done), (before.count, before.done), "its progress is kept");
    assert!(!loaded.shops().contains_key("rat_catcher:traps_and_tonics"));
    let stock = &loaded.shops()["rat_catcher:stall"];
    assert!(stock.iter().any(|i| i.item == "rat_catcher:cheese" && i.count == 2), "{stock:?}");
    assert_eq!(loaded.opened_shop(), Some("rat_catcher:stall"));
    let drain_rats = loaded.enemies().iter().filter(|e| e.body.creature.as_deref() == Some("rat_catcher:drain_rat")).count();
    assert_eq!(drain_rats, sewer_rats, "every enemy kept, under its creature's new ID");
    assert_eq!(loaded.player().statuses, [rustkeep_engine::game::StatusInstance { status: "rat_catcher:plague_mark".into(), turns: 3 }]);
    for said in [
        "item rat_catcher:cheese_wedge (player) was renamed to rat_catcher:cheese",
        "quest rat_catcher:tails_for_coin was renamed to rat_catcher:rat_tails",
        "shop rat_catcher:traps_and_tonics (the game) was renamed to rat_catcher:stall",
        "item rat_catcher:cheese_wedge (rat_catcher:stall) was renamed to rat_catcher:cheese",
        "creature rat_catcher:sewer_rat (enemy:4) was renamed to rat_catcher:drain_rat",
        "status rat_catcher:ratsbane (player) was renamed to rat_catcher:plague_mark",
    ] {
        assert!(warnings.iter().any(|w| w.starts_with(said)), "{said}: {warnings:#?}");
    }
    // A resident follows too: Old Mags in her stall (laid out with its residents by `enter`).
    let npcs = |g: &rustkeep_engine::game::Game| -> Vec<String> { g.dungeon().iter().flat_map(|d| d.map.npcs.iter().map(|n| n.npc.clone())).collect() };
    // A run on the sewers floor, on the first seed whose floor holds her stall.
    let at_the_stall = (1..50)
        .find_map(|seed| {
            let run = common::scenario(&format!("seed = {seed}\n\n[[steps]]\nstart = \"rat_catcher:the_sewers\"\n")).unwrap();
            let (mut g, _) = run.start(&old);
            run_step(&mut g, &old, &run.steps[0]);
            npcs(&g).contains(&"rat_catcher:old_mags".to_string()).then_some(g)
        })
        .expect("a sewers floor with Old Mags' stall");
    let (floor, said) = save::from_json(&save::to_json(&at_the_stall), &new).unwrap();
    assert!(npcs(&floor).contains(&"rat_catcher:mags".to_string()) && !npcs(&floor).contains(&"rat_catcher:old_mags".to_string()), "{:?}", npcs(&floor));
    assert!(said.iter().any(|w| w.starts_with("NPC rat_catcher:old_mags (the floor) was renamed to rat_catcher:mags")), "{said:#?}");
    // Nothing was dropped: every ID of the old save is in force or renamed.
    assert!(!warnings.iter().any(|w| w.contains("no longer exists")), "{warnings:#?}");
    // The loaded game plays on in the new release.
    let mut loaded = loaded;
    for step in &sc.steps[3..] {
        run_step(&mut loaded, &new, step);
    }
}

/// The example scenario still names the old IDs (its expectation counts the quest by its old ID);
/// against the renamed release it plays and passes as it does against the release it was written
/// for, and its trace names only the IDs in force.
#[test]
fn a_scenario_naming_old_ids_plays_as_before() {
    let sc = scenario();
    let before = rustkeep_engine::scenario::run(&world_of(&["examples/rat_catcher"]), &sc);
    let after = rustkeep_engine::scenario::run(&renamed_release(), &sc);
    assert!(!after.expectations.is_empty());
    assert_eq!(after.failed(), 0, "{:#?}", after.expectations);
    assert_eq!(before.failed(), 0);
    // The run names only the IDs in force (an expectation says what it checks as written).
    let json = after.json();
    let run = format!("{} {} {}", json["setup"], json["steps"], json["final"]);
    for old in ["rat_catcher:cheese_wedge", "rat_catcher:tails_for_coin", "rat_catcher:old_mags", "rat_catcher:sewer_rat\""] {
        assert!(!run.contains(old), "{old} in the run: {run}");
    }
    // The same run, under the new IDs (the memory mod's files are named without `examples/`);
    // the expectations say what they check as written.
    let run_of = |r: &rustkeep_engine::scenario::Report| {
        let json = r.json();
        format!("{} {} {}", json["setup"], json["steps"], json["final"])
    };
    let renamed = |t: &str| {
        t.replace("rat_catcher:cheese_wedge", "rat_catcher:cheese")
            .replace("rat_catcher:tails_for_coin", "rat_catcher:rat_tails")
            .replace("rat_catcher:traps_and_tonics", "rat_catcher:stall")
            .replace("rat_catcher:old_mags", "rat_catcher:mags")
            .replace("rat_catcher:ratsbane", "rat_catcher:plague_mark")
            .replace("rat_catcher:sewer_rat_loot", "LOOT")
            .replace("rat_catcher:sewer_rat", "rat_catcher:drain_rat")
            .replace("LOOT", "rat_catcher:sewer_rat_loot")
            .replace("examples/rat_catcher/", "rat_catcher/")
    };
    assert_eq!(renamed(&run_of(&before)), run_of(&after), "the same run under the new IDs");
}
