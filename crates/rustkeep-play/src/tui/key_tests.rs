//! Key-driven tests of the full-screen game: keys fed to the [`App`] of a seeded game, as the
//! terminal would deliver them, and after each step the engine's state checked — where the
//! player stands, health, inventory, gold, floor and room, kills — not just the screen. Rooms
//! and creatures a seed does not bring are set up with the `:` command line, as a tester would.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use rustkeep_data::grid::Pos;
use rustkeep_data::vocab::CURRENCY;
use rustkeep_engine::game::{buy_price, sell_price, CreatureRef};
use rustkeep_testutil::TempDir;

use super::app::{App, Flow, Overlay, Side};
use super::testing::{command_line, dir_to, in_room, key_of, player, press, press_with, session, type_text, warrior_in};

/// How many of `item` the player carries.
fn carried(app: &App, item: &str) -> u64 {
    session(app).g.player().inventory.iter().filter(|i| i.item == item).map(|i| u64::from(i.count)).sum()
}

fn health(app: &App) -> i64 {
    session(app).g.player().health
}

fn step(app: &App) -> usize {
    session(app).g.step()
}

/// The floor and room index of the dungeon, and the prefab of the room the player stands in.
fn whereabouts(app: &App) -> (usize, Option<usize>, Option<String>) {
    let d = session(app).g.dungeon().expect("a dungeon");
    (d.floor, d.room, d.room.and_then(|r| d.map.rooms[r].prefab.clone()))
}

/// The archivist's library, entered with the `:` line: the player on its `@` at (6, 5).
fn in_the_library() -> App {
    let app = warrior_in("core:library");
    assert_eq!(whereabouts(&app).2.as_deref(), Some("core:library"));
    assert_eq!(in_room(&app), Pos::new(6, 5));
    app
}

/// Kills every living enemy next to the player by moving into it; returns the presses.
fn fight_neighbours(app: &mut App) -> usize {
    let mut presses = 0;
    while presses < 200 && !session(app).g.is_over() {
        let me = player(app);
        let m = session(app).g.map().expect("a map");
        let Some((_, at)) = m.enemies().iter().find(|(_, p)| (p.x - me.x).abs() <= 1 && (p.y - me.y).abs() <= 1) else { break };
        press(app, key_of(dir_to(me, *at)));
        presses += 1;
    }
    presses
}

/// The elder's hall, entered with the `:` line: no enemies, two loot piles at (1, 3) and
/// (7, 3), the elder at (4, 1), the player on its `@` at (4, 4), the door at (4, 5).
fn in_the_elders_hall() -> App {
    let app = warrior_in("core:elders_hall");
    assert_eq!(whereabouts(&app).2.as_deref(), Some("core:elders_hall"));
    assert_eq!(in_room(&app), Pos::new(4, 4));
    assert!(session(&app).g.map().expect("a map").enemies().is_empty());
    app
}

#[test]
fn walking_moves_the_player_one_tile_a_turn_and_walls_cost_nothing() {
    let mut app = in_the_elders_hall();
    let turn = step(&app);
    // Every way of moving east: the vi key, the numpad, the arrow.
    press(&mut app, KeyCode::Char('l'));
    assert_eq!((in_room(&app), step(&app)), (Pos::new(5, 4), turn + 1));
    press(&mut app, KeyCode::Char('6'));
    press(&mut app, KeyCode::Right);
    assert_eq!((in_room(&app), step(&app)), (Pos::new(7, 4), turn + 3));
    // (8, 4) is a wall: the key costs no turn, and the log says why.
    press(&mut app, KeyCode::Char('l'));
    assert_eq!((in_room(&app), step(&app)), (Pos::new(7, 4), turn + 3));
    assert!(app.log_lines().last().is_some_and(|l| l.text.contains("wall")), "{:?}", app.log_lines().last());
    // Twelve more bumps: one line that counts them, not thirteen.
    let before = app.log_lines().len();
    for _ in 0..12 {
        press(&mut app, KeyCode::Char('l'));
    }
    let lines = app.log_lines();
    assert_eq!(lines.len(), before, "{lines:?}");
    let bumps = lines.last().expect("a line");
    assert_eq!((bumps.count, bumps.shown().as_str()), (13, "A wall blocks the way. ×13"), "{bumps:?}");
    // Diagonals and the rest: y (north-west), Up, h, the numpad's 1 (south-west).
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(in_room(&app), Pos::new(6, 3));
    // The bumps are a message of the game: the turn after them keeps them in the log.
    assert!(session(&app).log.iter().any(|l| l.shown() == "A wall blocks the way. ×13"), "{:?}", session(&app).log);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(in_room(&app), Pos::new(5, 2));
    press(&mut app, KeyCode::Char('1'));
    assert_eq!((in_room(&app), step(&app)), (Pos::new(4, 3), turn + 7));
    // Waiting passes a turn where you stand.
    press(&mut app, KeyCode::Char('.'));
    assert_eq!((in_room(&app), step(&app)), (Pos::new(4, 3), turn + 8));
}

#[test]
fn moving_into_an_enemy_attacks_it_until_it_dies() {
    let mut app = in_the_library();
    let kills = session(&app).g.kills();
    command_line(&mut app, "spawn core:rat");
    let s = session(&app);
    // The rat spawned last (the room's own creatures came first).
    let (&rat, &at) =
        s.g.map().expect("a map").enemies().iter().rev().find(|(i, _)| s.enemy_kinds.get(i).map(String::as_str) == Some("core:rat")).expect("the rat");
    let full = s.g.creature(CreatureRef::Enemy(rat)).expect("alive").health;
    let me = player(&app);
    assert!((at.x - me.x).abs() <= 1 && (at.y - me.y).abs() <= 1, "spawned next to the player");
    press(&mut app, key_of(dir_to(me, at)));
    // The attack hurt or killed it, and the player did not move.
    let left = session(&app).g.creature(CreatureRef::Enemy(rat)).map_or(0, |c| c.health);
    assert!(left < full, "{left} < {full}");
    assert_eq!(player(&app), me);
    fight_neighbours(&mut app);
    let g = &session(&app).g;
    assert!(!g.alive(CreatureRef::Enemy(rat)) && !g.map().expect("a map").enemies().contains_key(&rat));
    assert!(g.kills() > kills, "{} kills", g.kills());
}

#[test]
fn pick_up_drop_and_use_a_potion_from_the_inventory() {
    let mut app = in_the_elders_hall();
    // Stepping onto a loot pile opens it: the one at (1, 3).
    let piles = session(&app).g.map().expect("a map").piles.len();
    let carried_before: u32 = session(&app).g.player().inventory.iter().map(|i| i.count).sum();
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(in_room(&app), Pos::new(2, 3));
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(in_room(&app), Pos::new(1, 3));
    assert_eq!(session(&app).g.map().expect("a map").piles.len(), piles - 1, "the pile at (1, 5) is opened");
    let carried_after: u32 = session(&app).g.player().inventory.iter().map(|i| i.count).sum();
    assert!(carried_after >= carried_before, "what the pile held is carried");

    // Drop a potion from the inventory (`i`, cursor, `d`) and pick it up again with `g`.
    let potions = carried(&app, "core:health_potion");
    assert!(potions >= 1, "the warrior starts with potions");
    let index = session(&app).g.player().inventory.iter().position(|i| i.item == "core:health_potion").expect("a potion");
    press(&mut app, KeyCode::Char('i'));
    for _ in 0..index {
        press(&mut app, KeyCode::Down);
    }
    assert_eq!(app.overlay, Overlay::Inventory { cursor: index });
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(carried(&app, "core:health_potion"), potions - 1);
    let here = player(&app);
    assert!(session(&app).g.map().expect("a map").loot.iter().any(|l| l.pos == here && l.item.item == "core:health_potion"));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.overlay, Overlay::None);
    press(&mut app, KeyCode::Char('g'));
    assert_eq!(carried(&app, "core:health_potion"), potions);
    assert!(session(&app).g.map().expect("a map").loot.iter().all(|l| l.pos != here));

    // Get hurt, then drink a potion: health goes up, one potion fewer, a turn passes.
    command_line(&mut app, "spawn core:wolf");
    for _ in 0..20 {
        if health(&app) < session(&app).g.max_health(&session(&app).w, CreatureRef::Player) - 5 {
            break;
        }
        press(&mut app, KeyCode::Char('.'));
    }
    fight_neighbours(&mut app);
    let hurt = health(&app);
    let max = session(&app).g.max_health(&session(&app).w, CreatureRef::Player);
    assert!(hurt > 0 && hurt < max, "hurt: {hurt} of {max}");
    let index = session(&app).g.player().inventory.iter().position(|i| i.item == "core:health_potion").expect("a potion");
    let turn = step(&app);
    press(&mut app, KeyCode::Char('i'));
    for _ in 0..index {
        press(&mut app, KeyCode::Char('j'));
    }
    press(&mut app, KeyCode::Char('u'));
    assert!(health(&app) > hurt, "{} > {hurt}", health(&app));
    assert_eq!(carried(&app, "core:health_potion"), potions - 1);
    assert_eq!(step(&app), turn + 1);
}

#[test]
fn moving_into_an_npc_talks_and_its_shop_buys_and_sells() {
    let mut app = warrior_in("core:elders_hall");
    command_line(&mut app, "give core:gold 100");
    let gold = carried(&app, CURRENCY);
    assert!(gold >= 100);
    // The elder stands at (4, 1), the player enters at (4, 4).
    assert_eq!(in_room(&app), Pos::new(4, 4));
    press(&mut app, KeyCode::Char('k'));
    press(&mut app, KeyCode::Char('k'));
    let potions = carried(&app, "core:health_potion");
    press(&mut app, KeyCode::Char('k'));
    assert_eq!(in_room(&app), Pos::new(4, 2), "talking does not move");
    let s = session(&app);
    let quests: Vec<&str> = s.g.quests().iter().map(|q| q.quest.as_str()).collect();
    assert!(quests.contains(&"core:rattenplage") && quests.contains(&"core:into_the_depths"), "{quests:?}");
    assert_eq!(carried(&app, "core:health_potion"), potions + 1, "the elder gives a potion");
    assert_eq!(s.shop(), Some("core:general_store"));
    assert_eq!(app.overlay, Overlay::Shop { side: Side::Buy, cursor: 0 });

    // Buy the first stock entry: its price is paid, one of it is carried, no turn passes.
    let s = session(&app);
    let first = s.g.shops()["core:general_store"][0].clone();
    let price = buy_price(&s.w, "core:general_store", &first);
    let had = carried(&app, &first.item);
    let turn = step(&app);
    press(&mut app, KeyCode::Enter);
    assert_eq!(carried(&app, CURRENCY), gold - price);
    assert_eq!(carried(&app, &first.item), had + 1);
    assert_eq!(step(&app), turn);

    // Sell the first entry of the other list (Tab): its price is earned, one fewer carried.
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.overlay, Overlay::Shop { side: Side::Sell, cursor: 0 });
    let s = session(&app);
    let index = App::sellable(s)[0];
    let sold = s.g.player().inventory[index].clone();
    let earned = sell_price(&s.w, &sold);
    let had = carried(&app, &sold.item);
    let gold = carried(&app, CURRENCY);
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(carried(&app, CURRENCY), gold + earned);
    assert_eq!(carried(&app, &sold.item), had - 1);
    assert!(session(&app).g.shops()["core:general_store"].iter().any(|i| i.item == sold.item), "the shop stocks what it bought");

    // Esc leaves the shop.
    press(&mut app, KeyCode::Esc);
    assert_eq!((session(&app).shop(), &app.overlay), (None, &Overlay::None));
}

#[test]
fn the_stairs_lead_to_the_next_floor_once_seen() {
    let mut app = warrior_in("core:elders_hall");
    let (floor, room, _) = whereabouts(&app);
    assert_eq!(room, Some(0), "a floor of the one room");
    // The stairs lie behind the hall's door at (4, 5): not seen yet, so `>` takes no turn.
    let turn = step(&app);
    press(&mut app, KeyCode::Char('>'));
    assert_eq!((whereabouts(&app).0, step(&app)), (floor, turn));
    assert!(app.notes.iter().any(|n| n.contains("not found the stairs")), "{:?}", app.notes);
    // On the door the stairs come into sight; `>` walks onto them and down.
    press(&mut app, KeyCode::Char('j'));
    assert_eq!((in_room(&app), whereabouts(&app).0), (Pos::new(4, 5), floor));
    press(&mut app, KeyCode::Char('>'));
    let (floor2, room2, prefab2) = whereabouts(&app);
    assert_eq!((floor2, room2), (floor + 1, Some(0)), "the first room of the next floor");
    assert_eq!(session(&app).g.floor(), Some("core:floor_2"));
    assert_eq!(session(&app).g.room(), prefab2.as_deref());
    // Stepping onto the stairs by hand does the same.
    command_line(&mut app, "enter core:elders_hall");
    press(&mut app, KeyCode::Char('j'));
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(whereabouts(&app).0, floor + 2);
}

#[test]
fn save_with_s_and_load_with_l() {
    let dir = TempDir::new("play-keys");
    let path = dir.join("keys.json");
    let mut app = in_the_library();
    command_line(&mut app, "spawn core:rat");
    press(&mut app, KeyCode::Char('k'));
    let snapshot = |app: &App| {
        let g = &session(app).g;
        (player(app), g.player().health, g.step(), g.kills(), g.player().inventory.clone(), g.map().expect("a map").enemies().clone())
    };
    let saved = snapshot(&app);

    // `S` offers a file name; a new one is typed over it.
    press(&mut app, KeyCode::Char('S'));
    assert!(matches!(app.overlay, Overlay::Prompt { .. }));
    for _ in 0.."rustkeep-save.json".len() {
        press(&mut app, KeyCode::Backspace);
    }
    type_text(&mut app, path.to_str().expect("a UTF-8 path"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.overlay, Overlay::None);
    assert!(path.is_file(), "saved to {}", path.display());
    assert_eq!(snapshot(&app), saved, "saving changes nothing");

    // Play on, then load: the game is back where it was saved.
    press(&mut app, KeyCode::Char('j'));
    press(&mut app, KeyCode::Char('.'));
    assert_ne!(snapshot(&app), saved);
    press(&mut app, KeyCode::Char('L'));
    let Overlay::Prompt { text, .. } = &app.overlay else { panic!("a prompt: {:?}", app.overlay) };
    assert_eq!(text, path.to_str().expect("UTF-8"), "`L` offers the file last saved");
    press(&mut app, KeyCode::Enter);
    assert_eq!(snapshot(&app), saved);

    // A broken save changes nothing and says why.
    std::fs::write(&path, "{ not a save").expect("written");
    press(&mut app, KeyCode::Char('.'));
    let before = snapshot(&app);
    press(&mut app, KeyCode::Char('L'));
    press(&mut app, KeyCode::Enter);
    assert_eq!(snapshot(&app), before);
    assert!(app.notes.iter().any(|n| n.starts_with("error:") && n.contains("not a valid save")), "{:?}", app.notes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quitting_asks_first() {
    let mut app = in_the_library();
    // Esc closes what is open — the trace pane — and never asks to quit.
    press(&mut app, KeyCode::Char('t'));
    assert!(app.trace_open);
    press(&mut app, KeyCode::Esc);
    assert!(!app.trace_open && app.overlay == Overlay::None);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.overlay, Overlay::None, "a lone Esc asks nothing");
    assert_eq!(press(&mut app, KeyCode::Char('q')), Flow::Continue);
    assert_eq!(app.overlay, Overlay::ConfirmQuit);
    assert_eq!(press(&mut app, KeyCode::Char('n')), Flow::Continue);
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL), Flow::Continue);
    assert_eq!(press(&mut app, KeyCode::Char('y')), Flow::Quit);
}
