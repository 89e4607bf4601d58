//! The defects a player's trial of the game found, each played through the keys of a seeded
//! game and checked on the engine's state, the messages and the screen at 80 × 24 and 120 × 40.

use ratatui::crossterm::event::KeyCode;
use rustkeep_data::vocab::CURRENCY;
use rustkeep_engine::game::{sell_price, CreatureRef, ItemInstance};

use super::app::{App, Overlay};
use super::testing::{command_line, press, recorded_warrior, screen, screen_buffer, session, wait_among_three_liches, walk_next_to, warrior, warrior_in};

fn carried(app: &App, item: &str) -> u64 {
    session(app).g.player().inventory.iter().filter(|i| i.item == item).map(|i| u64::from(i.count)).sum()
}

/// A warrior (seed 11) in the elder's hall, a floor of its own: no enemies, the elder and her shop.
fn in_the_hall() -> App {
    warrior_in("core:elders_hall")
}

/// The messages of the last command (the session's story of it).
fn said(app: &App) -> Vec<String> {
    session(app).messages.clone()
}

#[test]
fn messages_name_creatures_once_and_count_in_words() {
    let mut app = in_the_hall();
    command_line(&mut app, "spawn core:rat_king");
    for _ in 0..30 {
        if said(&app).iter().any(|m| m.contains("Rat King")) {
            break;
        }
        press(&mut app, KeyCode::Char('.'));
    }
    let all: Vec<String> = app.log_lines().iter().map(|l| l.text.clone()).collect();
    assert!(all.iter().any(|m| m.contains("The Rat King")), "{all:?}");
    assert!(all.iter().all(|m| !m.contains("The The") && !m.contains("the The")), "{all:?}");
    assert_eq!(crate::narrate::turns(1), "1 turn");
    assert_eq!(crate::narrate::turns(3), "3 turns");
    let fled = rustkeep_engine::effect::Effect::LeftBehind { enemies: 1, then: Box::new(rustkeep_engine::effect::Effect::Won) };
    assert!(fled.to_string().starts_with("fled, leaving 1 enemy behind"), "{fled}");
}

#[test]
fn using_an_item_is_told_before_what_it_does() {
    let mut app = in_the_hall();
    command_line(&mut app, "spawn core:wolf");
    for _ in 0..30 {
        if session(&app).g.player().health < 25 {
            break;
        }
        press(&mut app, KeyCode::Char('.'));
    }
    command_line(&mut app, "use core:health_potion");
    let m = said(&app);
    let used = m.iter().position(|s| s.starts_with("You use Health Potion")).unwrap_or_else(|| panic!("{m:?}"));
    let healed = m.iter().position(|s| s.starts_with("You healed")).unwrap_or_else(|| panic!("{m:?}"));
    assert!(used < healed, "{m:?}");
    assert_eq!(m.iter().filter(|s| s.starts_with("You use")).count(), 1, "{m:?}");
}

#[test]
fn buying_selling_equipping_and_dropping_are_told() {
    let mut app = in_the_hall();
    command_line(&mut app, "give core:gold 100");
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    assert!(matches!(app.overlay, Overlay::Shop { .. }));
    press(&mut app, KeyCode::Enter);
    let m = said(&app);
    assert!(m.iter().any(|s| s.starts_with("You buy ") && s.ends_with(" gold.")), "{m:?}");
    assert!(m.iter().all(|s| !s.starts_with("You pick up")), "a purchase is not a pickup: {m:?}");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('s'));
    let m = said(&app);
    assert!(m.iter().any(|s| s.starts_with("You sell ") && s.ends_with(" gold.")), "{m:?}");
    press(&mut app, KeyCode::Esc);
    command_line(&mut app, "give core:rusty_dagger");
    command_line(&mut app, "equip core:rusty_dagger");
    let m = said(&app);
    assert!(m.contains(&"You equip Rusty Dagger.".to_string()), "{m:?}");
    command_line(&mut app, "drop core:rusty_dagger");
    assert!(said(&app).contains(&"You drop Rusty Dagger.".to_string()), "{:?}", said(&app));
}

#[test]
fn a_trade_that_fails_says_why_inside_the_shop() {
    let mut app = in_the_hall();
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    assert!(matches!(app.overlay, Overlay::Shop { .. }));
    let gold = carried(&app, CURRENCY);
    press(&mut app, KeyCode::Enter);
    assert_eq!(carried(&app, CURRENCY), gold, "nothing bought without the gold");
    assert!(matches!(app.overlay, Overlay::Shop { .. }), "still trading");
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut app, w, h);
        assert!(text.contains("error: ") && text.contains("gold"), "{w} × {h}:\n{text}");
    }
}

#[test]
fn the_elder_gives_her_potion_once() {
    let mut app = in_the_hall();
    let before = carried(&app, "core:health_potion");
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    press(&mut app, KeyCode::Esc);
    assert_eq!(carried(&app, "core:health_potion"), before + 1);
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    press(&mut app, KeyCode::Esc);
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    press(&mut app, KeyCode::Esc);
    assert_eq!(carried(&app, "core:health_potion"), before + 1, "talking again gives nothing more");
}

#[test]
fn trophies_sell_for_something_and_stock_lines_are_merged() {
    let s = warrior(11);
    let w = &session(&s).w;
    let tail = ItemInstance { item: "core:rat_tail".into(), count: 1, affixes: Vec::new(), equipped: false };
    assert!(sell_price(w, &tail) >= 1, "a rat tail sells for {}", sell_price(w, &tail));
    let mut app = in_the_hall();
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    let stock = &session(&app).g.shops()["core:general_store"];
    for (i, a) in stock.iter().enumerate() {
        assert!(stock[i + 1..].iter().all(|b| (&b.item, &b.affixes) != (&a.item, &a.affixes)), "{} twice in {stock:?}", a.item);
    }
}

#[test]
fn picking_up_nothing_takes_no_turn_and_a_typo_gets_a_suggestion() {
    let mut app = in_the_hall();
    let turn = session(&app).g.step();
    press(&mut app, KeyCode::Char('g'));
    assert_eq!(session(&app).g.step(), turn, "no turn spent");
    assert!(app.notes.iter().any(|n| n.contains("nothing here to pick up")), "{:?}", app.notes);
    command_line(&mut app, "spwan core:rat");
    assert!(app.notes.iter().any(|n| n.contains("did you mean `spawn`")), "{:?}", app.notes);
}

#[test]
fn engine_warnings_go_to_the_trace_not_the_players_messages() {
    let mut app = warrior_in("core:library");
    wait_among_three_liches(&mut app, 300);
    assert!(session(&app).g.is_over());
    assert!(app.log_lines().iter().all(|l| !l.text.starts_with("warning:")), "{:?}", app.log_lines());
    assert!(app.warnings.iter().any(|w| w.contains("the player died")), "{:?}", app.warnings);
    press(&mut app, KeyCode::Char('t'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("warning: the player died"), "{text}");
}

#[test]
fn the_trace_names_what_each_enemy_ref_is_and_scrolls_to_its_end() {
    let mut app = warrior_in("core:library");
    command_line(&mut app, "spawn core:rat 6");
    press(&mut app, KeyCode::Char('.'));
    press(&mut app, KeyCode::Char('t'));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("(r Rat)"), "{text}");
    // At 80 × 24 the trace is long: `]` reaches its last row, and no further.
    let last = session(&app).last.last().and_then(|st| st.events.last()).map(|e| e.event.name().to_string()).expect("an event");
    for _ in 0..200 {
        press(&mut app, KeyCode::Char(']'));
        screen(&mut app, 80, 24);
    }
    let text = screen(&mut app, 80, 24);
    let title = text.lines().find(|l| l.contains(" Trace ")).expect("the trace pane");
    let rows = title.split("rows ").nth(1).and_then(|r| r.split(')').next()).unwrap_or_else(|| panic!("a position: {title}"));
    let (range, of) = rows.split_once('/').expect("rows a–b/n");
    assert_eq!(range.rsplit('–').next(), Some(of), "the last row is shown: {title}");
    assert!(text.contains(&last), "{text}");
    press(&mut app, KeyCode::Char('['));
    assert!(app.trace_scroll < app.trace_max.get(), "`[` scrolls back at once");
}

#[test]
fn the_help_scrolls_to_its_last_line() {
    let mut app = warrior(11);
    press(&mut app, KeyCode::Char('?'));
    press(&mut app, KeyCode::End);
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut app, w, h);
        assert!(text.contains("a tile you remember"), "{w} × {h}: the legend's last line\n{text}");
        press(&mut app, KeyCode::End);
    }
    press(&mut app, KeyCode::Home);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("The map") && text.contains("wait a turn"), "{text}");
}

#[test]
fn the_title_and_the_key_line_fit_and_name_the_mods() {
    let mut app = warrior(11);
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let text = screen(&mut app, w, h);
        let lines: Vec<&str> = text.lines().collect();
        let (title, keys) = (lines[0].trim_end(), lines[lines.len() - 1].trim_end());
        assert!(title.chars().count() <= w as usize && !title.ends_with('…'), "{w}: {title}");
        assert!(title.contains("seed 11") && title.contains("turn "), "{w}: {title}");
        assert!(keys.ends_with("help") && keys.chars().count() <= w as usize, "{w}: the key line is whole: {keys}");
    }
    let text = screen(&mut app, 120, 40);
    assert!(text.lines().next().is_some_and(|t| t.contains("mods: core")), "{text}");
    command_line(&mut app, "mods");
    let Overlay::Output { text, .. } = &app.overlay else { panic!("{:?}", app.overlay) };
    assert!(text.starts_with("core ") && text.contains("bundled with rustkeep"), "{text}");
    let _ = CreatureRef::Player;
}

/// A fresh seed of the full-screen game has up to twenty digits: at 80 columns, in the largest
/// room of the second floor, the title cuts the place names, never the turn, the seed or the mods.
#[test]
fn the_title_keeps_a_long_seed_whole_at_80_columns() {
    let mut app = warrior(u64::MAX);
    command_line(&mut app, "enter core:rat_kings_throne");
    for (w, h) in [(80u16, 24u16), (60, 24)] {
        let text = screen(&mut app, w, h);
        let title = text.lines().next().expect("a title").trim_end().to_string();
        assert!(title.chars().count() <= w as usize, "{w}: {title}");
        assert!(title.contains(&format!("turn {} · seed {} · 1 mod", session(&app).g.step(), u64::MAX)), "{w}: {title}");
        assert!(title.contains('…'), "{w}: the place was cut: {title}");
    }
}

#[test]
fn talk_reaches_only_an_npc_next_to_the_player() {
    let mut app = in_the_hall();
    // The elder stands across the hall: refused, no turn, no shop.
    let turn = session(&app).g.step();
    command_line(&mut app, "talk core:elder");
    assert_eq!(session(&app).g.step(), turn, "a refused talk takes no turn");
    let g = &session(&app).g;
    assert!(g.opened_shop().is_none() && g.quests().iter().all(|q| q.quest != "core:rattenplage"), "nothing of her on_talk ran");
    let refusal = "Elder Hannelore is not next to you: walk up to them (moving into an NPC talks to them)";
    assert!(app.notes.iter().any(|n| n == refusal), "{:?}", app.notes);
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut app, w, h);
        assert!(text.contains("Elder Hannelore is not next to you"), "{w} × {h}:\n{text}");
    }
    // An NPC of another floor is out of reach too (the smith stands deeper down).
    command_line(&mut app, "talk core:blacksmith");
    assert!(app.notes.iter().any(|n| n.starts_with("Brakka the Smith is not next to you")), "{:?}", app.notes);
    assert_eq!(session(&app).g.step(), turn);
    // Next to her, `talk` is the bump without a direction: her on_talk runs and her shop opens.
    walk_next_to(&mut app, "core:elder");
    let turn = session(&app).g.step();
    command_line(&mut app, "talk core:elder");
    assert_eq!(session(&app).g.step(), turn + 1, "talking takes a turn");
    assert!(matches!(app.overlay, Overlay::Shop { .. }), "{:?}", app.overlay);
    assert!(said(&app).contains(&"You talk to Elder Hannelore.".to_string()), "{:?}", said(&app));
}

#[test]
fn testing_commands_are_marked_and_the_run_says_it_used_them_after_a_save_a_load_and_a_replay() {
    let (mut app, rec, _dir) = recorded_warrior(11);
    let save = rec.with_file_name("run.json");
    // Playing by the rules leaves no mark.
    press(&mut app, KeyCode::Char('.'));
    assert_eq!(session(&app).testing_used(), None);
    assert!(!crate::summary(session(&app)).contains("testing"), "{}", crate::summary(session(&app)));
    assert!(app.log_lines().iter().all(|l| !l.text.contains("(test)")));
    command_line(&mut app, "spawn core:rat");
    assert!(said(&app).first().is_some_and(|m| m == "(test) The Rat appears."), "{:?}", said(&app));
    command_line(&mut app, "give core:gold 5");
    command_line(&mut app, "roll core:rat_loot");
    assert!(matches!(app.overlay, Overlay::Output { .. }), "the roll is shown: {:?}", app.overlay);
    press(&mut app, KeyCode::Esc);
    command_line(&mut app, "give core:gold 1");
    let log: Vec<String> = app.log_lines().into_iter().map(|l| l.text).collect();
    assert!(log.iter().any(|m| m == "(test) You pick up 5 × Gold Coin."), "{log:?}");
    assert!(log.iter().any(|m| m.starts_with("(test) core:rat_loot would give: ")), "{log:?}");
    let used = "testing commands used: spawn, give, roll";
    assert_eq!(session(&app).testing_used().as_deref(), Some(used));
    // The message pane shows the marks.
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("(test) You pick up"), "{text}");
    // The exit summary says so; a save keeps it, and the game loaded from it says so too.
    command_line(&mut app, &format!("save {}", save.display()));
    let summary = app.close().expect("a summary");
    assert!(summary.contains(used), "{summary}");
    let (loaded, _) = crate::session::Session::from_save(super::testing::world(), &save).expect("the save loads");
    assert_eq!(loaded.testing_used().as_deref(), Some(used));
    // The recording holds the roll too, so its replay is the same tested run.
    let recording = crate::record::read(&rec).unwrap();
    assert!(recording.inputs.iter().any(|i| i == "roll core:rat_loot"), "{:?}", recording.inputs);
    let mut warnings = Vec::new();
    let replayed = crate::replay::play_back(super::testing::world(), &recording, "run.jsonl", false, &mut warnings).unwrap();
    assert!(crate::summary(&replayed).contains(used), "{}", crate::summary(&replayed));
    assert_eq!(rustkeep_engine::save::to_json(&replayed.g), std::fs::read_to_string(&save).unwrap(), "the replay ends in the saved state");
}

#[test]
fn a_save_names_only_testing_commands_the_game_knows() {
    let mut app = warrior(11);
    command_line(&mut app, "spawn core:rat");
    let mut json: serde_json::Value = serde_json::from_str(&rustkeep_engine::save::to_json(&session(&app).g)).unwrap();
    assert_eq!(json["game"]["testing"], serde_json::json!(["spawn"]));
    json["game"]["testing"] = serde_json::json!(["spawn", "\u{1b}[2Jwipe", "spawn", "give"]);
    let (g, _) = rustkeep_engine::save::from_json(&json.to_string(), &session(&app).w).expect("a save");
    let s = crate::session::Session::loaded(super::testing::world(), g);
    assert_eq!(s.testing_used().as_deref(), Some("testing commands used: spawn, give"));
}

#[test]
fn the_end_of_a_tested_run_says_which_testing_commands_it_used() {
    let mut app = in_the_hall();
    wait_among_three_liches(&mut app, 300);
    assert!(session(&app).g.is_over());
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut app, w, h);
        assert!(text.contains("testing commands used: enter, spawn"), "{w} × {h}:\n{text}");
    }
}

#[test]
fn the_full_screen_help_lists_the_testing_commands_apart() {
    let mut app = warrior(11);
    press(&mut app, KeyCode::Char('?'));
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&screen(&mut app, 80, 24));
        press(&mut app, KeyCode::PageDown);
    }
    let from = seen.find("Testing commands (the : line)").unwrap_or_else(|| panic!("{seen}"));
    for c in ["enter PREFAB|FLOOR", "spawn CREATURE [N]", "give ITEM [N]", "roll TABLE"] {
        assert!(seen[from..].contains(c), "{c}:\n{seen}");
    }
    assert!(!seen[from..].contains("talk NPC"), "talking keeps the rules");
}

#[test]
fn the_side_panel_and_status_read_the_sheet_against_enemies_in_view_only() {
    // A boar spear (+3 damage against beasts) in hand, on the first floor: its beasts live in
    // rooms not seen yet.
    let mut app = warrior(11);
    command_line(&mut app, "give core:spear");
    command_line(&mut app, "equip core:spear");
    let s = session(&app);
    assert!(s.living().is_empty(), "no enemy in view");
    let everywhere: Vec<String> = s.g.sheet(&s.w).into_iter().flat_map(|l| l.against).map(|(c, _)| c).collect();
    assert!(!everywhere.is_empty(), "the floor holds beasts the player has not seen");
    assert!(s.sheet().iter().all(|l| l.against.is_empty()), "{:?}", s.sheet());
    assert!(!s.status().contains(" against "), "{}", s.status());
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut app, w, h);
        assert!(!text.contains(" vs "), "{w} × {h}:\n{text}");
    }
    // A rat in view: the spear's value against it shows.
    command_line(&mut app, "spawn core:rat");
    let s = session(&app);
    let damage = s.sheet().into_iter().find(|l| l.attribute == "damage").expect("damage");
    assert_eq!(damage.against.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(), ["core:rat"], "{damage:?}");
    assert!(s.status().contains(" against core:rat"), "{}", s.status());
    let text = screen(&mut app, 120, 40);
    assert!(text.contains(" vs Rat)"), "{text}");
}

/// Every attack that missed the player is in the message history (as many times as the trace
/// shows it), and no line of the history is the engine's bookkeeping.
#[test]
fn misses_are_told_and_bookkeeping_is_not() {
    use rustkeep_engine::effect::Effect;
    // A rogue (evasion 2): rats miss it now and then.
    let rogue = crate::session::Session::new_game(super::testing::world(), 11, vec!["core:rogue".into()], None).expect("a new game");
    let mut app = App::playing(rogue, false);
    command_line(&mut app, "enter core:library");
    command_line(&mut app, "spawn core:rat 3");
    for _ in 0..40 {
        if session(&app).g.is_over() {
            break;
        }
        press(&mut app, KeyCode::Char('.'));
    }
    let s = session(&app);
    let missed: u32 = (0..s.history.len())
        .filter_map(|i| s.history.get(i))
        .flat_map(|t| t.steps.iter())
        .flat_map(|st| &st.effects)
        .filter(|o| matches!(o.effect, Effect::Missed { victim: CreatureRef::Player, .. }))
        .map(|_| 1)
        .sum();
    assert!(missed > 0, "the rats never missed: the test would prove nothing");
    let log = app.log_lines();
    let told: u32 = log.iter().filter(|l| l.text.ends_with("misses you.")).map(|l| l.count).sum();
    assert_eq!(told, missed, "{log:?}");
    for l in &log {
        assert!(!["Nothing happens", "Skipped", "no target"].iter().any(|b| l.text.contains(b)), "bookkeeping in the log: {l:?}");
    }
}

/// A death in the full-screen game writes the character dump once, says where in the messages
/// and on the death screen, and the summary printed at exit names it.
#[test]
fn a_death_writes_the_dump_and_the_summary_names_it() {
    let dir = rustkeep_testutil::TempDir::new("tui-dump");
    let file = dir.join("dump.txt");
    let mut app = warrior_in("core:library");
    app.dump = Some(crate::session::DumpTo::File(file.clone()));
    wait_among_three_liches(&mut app, 300);
    assert!(session(&app).g.is_over());
    let dump = std::fs::read_to_string(&file).expect("the dump was written");
    assert!(dump.contains("Seed:      11") && dump.contains("Outcome:   died: "), "{dump}");
    let written = format!("Character dump written to {}.", file.display());
    assert!(app.log_lines().iter().any(|l| l.text == written), "{:?}", app.log_lines());
    assert!(crate::summary(session(&app)).contains(&format!("character dump: {}", file.display())), "{}", crate::summary(session(&app)));
    assert!(screen(&mut app, 120, 40).contains("dump "), "the death screen names the dump");
    // Written once: keys after the death do not write it again.
    std::fs::remove_file(&file).expect("remove the dump");
    press(&mut app, KeyCode::Char('.'));
    assert!(!file.exists());
}

/// `Z` rests until health is full or 200 turns pass, a turn at a time as waits, and says which;
/// it is refused with an enemy in sight and at full health.
#[test]
fn resting_heals_out_of_combat_and_says_why_it_stopped() {
    let mut app = in_the_hall();
    press(&mut app, KeyCode::Char('Z'));
    assert!(app.notes.iter().any(|n| n.contains("full health")), "{:?}", app.notes);
    let every = session(&app).w.db.resolved.balance.regen_every as usize;
    assert_eq!(every, 10);
    // Five health short: fifty turns, less those rested already since the last health regained.
    let health = session(&app).g.player().health;
    assert!(app.session_mut().expect("a game").g.set_health(CreatureRef::Player, health - 5));
    let (step, rested) = (session(&app).g.step(), session(&app).g.rested() as usize);
    press(&mut app, KeyCode::Char('Z'));
    assert_eq!(session(&app).g.step() - step, 5 * every - rested);
    assert_eq!(session(&app).g.player().health, 30);
    assert_eq!(said(&app).last().map(String::as_str), Some("You rest until your health is full."));
    // Twenty-five short: the rest ends after 200 turns, 20 health regained.
    assert!(app.session_mut().expect("a game").g.set_health(CreatureRef::Player, 5));
    let step = session(&app).g.step();
    press(&mut app, KeyCode::Char('Z'));
    assert_eq!((session(&app).g.step() - step, session(&app).g.player().health), (200, 25));
    assert_eq!(said(&app).last().map(String::as_str), Some("You rest for 200 turns."));
    // Not with an enemy in sight.
    command_line(&mut app, "spawn core:rat");
    let step = session(&app).g.step();
    press(&mut app, KeyCode::Char('Z'));
    assert_eq!(session(&app).g.step(), step);
    assert!(app.log_lines().last().is_some_and(|l| l.text.contains("enemy in sight")), "{:?}", app.log_lines().last());
}

/// While the game is recorded, the end of the run offers no `L load` (a load would be refused),
/// and `L` says why at once instead of asking for a file first.
#[test]
fn a_recorded_run_that_is_over_offers_no_load() {
    let (mut app, _rec, _dir) = recorded_warrior(11);
    command_line(&mut app, "enter core:library");
    wait_among_three_liches(&mut app, 300);
    assert!(session(&app).g.is_over());
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&mut app, w, h);
        assert!(text.contains("┌ The run is over") && !text.contains("L load"), "{text}");
    }
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.overlay, Overlay::None, "no file is asked for");
    assert!(app.notes.iter().any(|n| n == crate::session::RECORDED_CANNOT_LOAD), "{:?}", app.notes);
    // Unrecorded, the box offers it.
    let mut free = warrior_in("core:library");
    wait_among_three_liches(&mut free, 300);
    assert!(screen(&mut free, 80, 24).contains("L load"));
}

/// A loaded game's message log starts with where the run stands, not empty.
#[test]
fn a_loaded_game_starts_its_log_with_where_the_run_stands() {
    let dir = rustkeep_testutil::TempDir::new("tui-load-log");
    let save = dir.join("game.json");
    let mut app = in_the_hall();
    press(&mut app, KeyCode::Char('.'));
    command_line(&mut app, &format!("save {}", save.display()));
    press(&mut app, KeyCode::Esc); // closes the "saved to" output
    let step = session(&app).g.step();
    let (loaded, _) = crate::session::Session::from_save(super::testing::world(), &save).expect("the save loads");
    let first = loaded.log.front().expect("a first line").text.clone();
    assert_eq!(first, format!("You go on with the run of seed 11 at turn {step} on The Cellars."));
    // Loading from inside the game says it too.
    command_line(&mut app, &format!("load {}", save.display()));
    assert_eq!(said(&app), std::slice::from_ref(&first));
    assert_eq!(app.log_lines().last().map(|l| l.text.clone()), Some(first));
}

/// The death screen counts turns as the title does: a death in the last turn is "on turn" the
/// title's number.
#[test]
fn the_death_is_on_the_turn_the_title_shows() {
    let mut app = warrior_in("core:library");
    wait_among_three_liches(&mut app, 300);
    let s = session(&app);
    assert!(s.g.is_over());
    let turn = format!("on turn {} in", s.g.step());
    assert!(s.death.as_deref().is_some_and(|d| d.contains(&turn)), "{:?} against {turn}", s.death);
    assert!(screen(&mut app, 120, 40).contains(&format!("· turn {} ·", session(&app).g.step())));
}

/// Below half health, auto-explore and travel stop before a room the player has not entered yet
/// (its residents and its triggers are still to come) and say so; rested, they walk in.
#[test]
fn below_half_health_a_walk_stops_before_a_room_not_entered_yet() {
    const STOPPED: &str = "You stop before a room you have not entered: you are below half health (Z rests).";
    let entered = |app: &App| session(app).g.map().map_or(0, |m| m.rooms.iter().filter(|r| r.entered).count());
    for seed in 1..=12 {
        let mut app = warrior(seed);
        assert!(app.session_mut().expect("a game").g.set_health(CreatureRef::Player, 5));
        let (step, rooms) = (session(&app).g.step(), entered(&app));
        press(&mut app, KeyCode::Char('o'));
        assert_eq!(said(&app).last().map(String::as_str), Some(STOPPED), "seed {seed}");
        assert!(session(&app).g.step() > step, "seed {seed}: it walked up to the room");
        assert_eq!(entered(&app), rooms, "seed {seed}: no new room entered");
        // Again: not a step further.
        let step = session(&app).g.step();
        press(&mut app, KeyCode::Char('o'));
        assert_eq!(session(&app).g.step(), step, "seed {seed}");
        if seed == 1 {
            // Rested to full health, the walk goes in.
            while session(&app).g.player().health < 30 {
                press(&mut app, KeyCode::Char('Z'));
            }
            press(&mut app, KeyCode::Char('o'));
            assert_eq!(entered(&app), rooms + 1, "{:?}", said(&app).last());
        }
    }
}

/// NPCs and loot piles stay on the map where they were seen once they are out of sight (dimmed),
/// as the tiles do; enemies, who move, show only in sight.
#[test]
fn npcs_and_piles_stay_on_the_map_out_of_sight() {
    // Seed 7 starts in the elder's hall: the elder and two piles.
    let mut app = warrior(7);
    let (npc, piles) = {
        let m = session(&app).g.map().expect("a map");
        (m.npcs[0].pos, m.piles.iter().map(|p| p.pos).filter(|p| m.sight().contains(*p)).collect::<Vec<_>>())
    };
    assert_eq!(piles.len(), 2, "the hall's piles are in sight");
    for _ in 0..20 {
        if !session(&app).g.map().expect("a map").sight().contains(npc) {
            break;
        }
        press(&mut app, KeyCode::Char('o'));
    }
    let s = session(&app);
    let m = s.g.map().expect("a map");
    assert!(!m.sight().contains(npc), "walked out of the elder's sight");
    assert_eq!(s.remembered_thing(npc), Some('E'));
    let still: Vec<_> = piles.iter().filter(|p| m.piles.iter().any(|x| x.pos == **p)).collect();
    assert!(still.iter().all(|p| s.remembered_thing(**p) == Some('*')), "{still:?}");
    // The line console's map draws them too.
    let text = s.map_text();
    assert!(text.lines().any(|l| l.contains('E')), "{text}");
}

/// The side panel says what each status does, under its name and the turns it has left.
#[test]
fn statuses_say_what_they_do() {
    // The shrine blesses whoever enters it.
    let mut app = warrior_in("core:shrine");
    assert!(session(&app).g.player().statuses.iter().any(|s| s.status == "core:blessed"));
    let text = screen(&mut app, 120, 40);
    let blessed = rustkeep_present::words::status(&session(&app).w, "core:blessed", rustkeep_present::words::Bearer::Player);
    assert!(text.contains("Blessed ("), "{text}");
    let first = blessed.get(1).expect("the blessing's first modifier");
    assert!(text.contains(&first[..first.len().min(20)]), "{first:?} in\n{text}");
}

/// A box drawn over the game (here the end of the run) dims everything behind it, so that the
/// panels beside it do not read as part of it; the box itself is not dimmed.
#[test]
fn a_popup_dims_the_screen_behind_it() {
    let mut app = warrior_in("core:library");
    wait_among_three_liches(&mut app, 300);
    assert!(session(&app).g.is_over());
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let buf = screen_buffer(&mut app, w, h);
        let dim = |x: u16, y: u16| buf[(x, y)].modifier.contains(ratatui::style::Modifier::DIM);
        // The title line and the far right column lie behind the box.
        assert!(dim(1, 0) && dim(w - 1, h / 2), "{w}×{h}: the game behind is dimmed");
        let text = screen(&mut app, w, h);
        let (y, line) = text.lines().enumerate().find(|(_, l)| l.contains("You died")).expect("the box");
        let x = line.chars().position(|c| c == 'Y').expect("its first line") as u16;
        assert!(!dim(x, y as u16), "{w}×{h}: the box is not dimmed");
    }
}

/// At 80 × 24 a long inventory scrolls and the selected item's details stay in view; the shop
/// describes the selected item the same way.
#[test]
fn a_long_inventory_scrolls_and_keeps_the_details_in_view() {
    let mut app = warrior(11);
    command_line(&mut app, "give core:spear 14");
    let n = session(&app).g.player().inventory.len();
    assert!(n >= 16, "{n} entries");
    press(&mut app, KeyCode::Char('i'));
    press(&mut app, KeyCode::Up);
    assert_eq!(app.overlay, Overlay::Inventory { cursor: n - 1 });
    let text = screen(&mut app, 80, 24);
    assert!(text.contains(&format!("{n}. Boar Spear")) && text.contains("(core:spear)"), "the last item and its details:\n{text}");
    assert!(text.contains(&format!("of {n}")), "the footer says which items show:\n{text}");
    assert!(!text.contains(" 1. Iron Sword"), "the top of the list scrolled away:\n{text}");
    press(&mut app, KeyCode::Down);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains(" 1. Iron Sword") && text.contains("(core:iron_sword)"), "{text}");
}

#[test]
fn the_shop_describes_the_selected_item() {
    let mut app = in_the_hall();
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    assert!(matches!(app.overlay, Overlay::Shop { .. }), "{:?}", app.overlay);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("(core:health_potion)") && text.contains("For sale"), "the first item for sale is described:\n{text}");
    // Tab to the player's side: the first item to sell is described.
    press(&mut app, KeyCode::Tab);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("(core:iron_sword)"), "{text}");
}

/// `:help` at 80 columns cuts nothing off: long descriptions wrap under their own column.
#[test]
fn help_wraps_long_descriptions_under_their_column() {
    let mut app = warrior(11);
    command_line(&mut app, "help");
    let Overlay::Output { text, .. } = &app.overlay else { panic!("{:?}", app.overlay) };
    let descend = text.lines().find(|l| l.trim_start().starts_with("descend")).expect("descend's help").to_string();
    let column = descend.find("walk to").expect("its description");
    let text = screen(&mut app, 80, 24);
    let start = text.lines().position(|l| l.contains("│  descend")).unwrap_or_else(|| panic!("{text}"));
    let rows: Vec<&str> = text.lines().skip(start).take(3).collect();
    // The description goes on in the next rows, indented to its column (the box's border is
    // one character to the left of the text).
    assert!(rows[1].chars().skip(1).take(column).all(|c| c == ' '), "{rows:#?}");
    let joined: String = rows.iter().map(|r| r.trim_matches(|c| c == '│' || c == ' ')).collect::<Vec<_>>().join(" ");
    assert!(joined.contains("before a room not entered yet) (takes a turn)"), "{joined}");
}

#[test]
fn hanging_wrap_keeps_every_word_and_cuts_only_words_longer_than_a_row() {
    use super::paint::hanging_wrap;
    assert_eq!(hanging_wrap("short", 10), ["short"]);
    assert_eq!(hanging_wrap("  go    walk far away now", 14), ["  go    walk", "  far away now"]);
    assert_eq!(hanging_wrap("  go    walk far away now", 20), ["  go    walk far", "        away now"]);
    assert_eq!(hanging_wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
    for width in 1..12 {
        let rows = hanging_wrap("  move DIR   one tile: n ne e se s sw w nw (into an enemy attacks)", width);
        assert!(rows.iter().all(|r| r.chars().count() <= width), "{width}: {rows:?}");
        let words: String = rows.concat().split_whitespace().collect();
        assert_eq!(words, "moveDIRonetile:nneesesswwnw(intoanenemyattacks)", "{width}");
    }
}
