//! The player's commands of the full-screen game: auto-explore and travel, look mode, the
//! message history, the character sheet, the quest log, the trace of every turn (search, watch),
//! Tab completion, the cause of death — each driven by keys on a seeded game, with snapshots at
//! 80 × 24 and 120 × 40.

use ratatui::crossterm::event::KeyCode;
use rustkeep_data::grid::Pos;

use ratatui::crossterm::event::KeyModifiers;

use super::app::{App, Overlay, View};
use super::testing::{
    command_line, dir_to, key_of, player, press, press_with, recorded_warrior, screen, session, type_text, wait_among_three_liches, warrior, warrior_in, world,
};
use crate::session::first_step;
use crate::session::Session;

/// The key that fights the nearest enemy the player sees: a bump when it stands next to the
/// player, else a step towards it over remembered tiles. `None` when no enemy is in sight.
fn fight_key(app: &App) -> Option<KeyCode> {
    let s = session(app);
    let m = s.g.map()?;
    let near = |a: Pos, b: Pos| (a.x - b.x).abs() <= 1 && (a.y - b.y).abs() <= 1;
    let target =
        s.living().into_iter().filter_map(|(i, _, _)| m.enemies().get(&i).copied()).min_by_key(|p| (p.x - m.player.x).abs().max((p.y - m.player.y).abs()))?;
    if near(m.player, target) {
        return Some(key_of(dir_to(m.player, target)));
    }
    first_step(m, |p| near(p, target), |p| m.is_stairs(p)).map(key_of)
}

/// Plays with `o` and `>` until the player stands on floor 2, fighting (by moving into it) each
/// enemy that stops a walk. Returns the keys pressed, or `None` if the run ends or gets stuck.
fn explore_to_floor_two(app: &mut App) -> Option<Vec<KeyCode>> {
    let mut pressed = Vec::new();
    for _ in 0..400 {
        let s = session(app);
        if s.g.is_over() {
            return None;
        }
        if s.g.dungeon().is_some_and(|d| d.floor > 0) {
            return Some(pressed);
        }
        let before = s.g.step();
        let key = match fight_key(app) {
            Some(k) if s.foes_in_sight() > 0 => k,
            _ => KeyCode::Char('o'),
        };
        press(app, key);
        if session(app).g.step() != before {
            pressed.push(key);
        } else if key == KeyCode::Char('o') {
            // Nothing left to explore: travel to the stairs.
            press(app, KeyCode::Char('>'));
            if session(app).g.step() == before {
                return None;
            }
            pressed.push(KeyCode::Char('>'));
        } else {
            return None;
        }
    }
    None
}

/// A snapshot of the screen at 80 × 24 and 120 × 40, as the screen tests take them.
fn snapshot(name: &str, app: &mut App) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../tests/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(app, w, h);
        for line in text.lines() {
            assert!(line.chars().count() <= w as usize, "{name} at {w} × {h}: a row wider than the screen: {line}");
        }
        super::testing::document(name, w, &text);
        settings.bind(|| insta::assert_snapshot!(format!("{name}_{w}x{h}"), text));
    }
}

/// A new game of `option` on `seed`.
fn game(option: &str, seed: u64) -> App {
    App::playing(Session::new_game(world(), seed, vec![option.into()], None).expect("a new game"), false)
}

/// How many tiles of the floor the player remembers.
fn remembered(app: &App) -> usize {
    session(app).g.map().map_or(0, |m| m.seen.iter().filter(|s| **s).count())
}

/// The done-when game: a seeded warrior reaches floor 2 with `o` and `>` (fighting with moves
/// what stops a walk), recorded; the recording replays headless and on screen to the same state.
#[test]
fn auto_explore_and_travel_reach_the_next_floor_and_the_recording_replays_on_screen_and_headless() {
    let (mut app, rec_path, _dir) = recorded_warrior(7);
    let keys = explore_to_floor_two(&mut app).expect("seed 7 reaches floor 2");
    let walks = keys.iter().filter(|k| matches!(k, KeyCode::Char('o') | KeyCode::Char('>'))).count();
    assert!(walks >= 3 && session(&app).g.step() > 100, "{walks} walks, {} steps", session(&app).g.step());
    assert!(keys.contains(&KeyCode::Char('>')), "the stairs were travelled to");
    let played = serde_json::to_string(&session(&app).g.final_json(&session(&app).w)).unwrap();
    app.close();
    let rec = crate::record::read(&rec_path).unwrap();
    // One recorded input per key that played: a walk is one input, not its tiles.
    assert_eq!(rec.inputs.len(), keys.len(), "{:?}", rec.inputs);
    assert!(rec.inputs.iter().any(|i| i == "explore") && rec.inputs.iter().any(|i| i == "descend"));
    let mut warnings = Vec::new();
    let headless = crate::replay::play_back(world(), &rec, "run.jsonl", false, &mut warnings).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(serde_json::to_string(&headless.g.final_json(&headless.w)).unwrap(), played);
    // On screen: input by input, a frame drawn after each.
    let mut watched = App::watching(world(), &rec, "run.jsonl", false, 1000, false).unwrap();
    let mut frames = 0;
    while watched.replay_step() {
        screen(&mut watched, 80, 24);
        frames += 1;
    }
    assert_eq!(frames, rec.inputs.len());
    let end = screen(&mut watched, 80, 24);
    assert!(end.contains("replay finished"), "{end}");
    let s = session(&watched);
    assert_eq!(serde_json::to_string(&s.g.final_json(&s.w)).unwrap(), played);
}

#[test]
fn the_replay_on_screen_pauses_steps_changes_speed_and_refuses_game_keys() {
    let (mut app, rec_path, _dir) = recorded_warrior(3);
    for k in ['o', 'o', '.'] {
        press(&mut app, KeyCode::Char(k));
    }
    app.close();
    let rec = crate::record::read(&rec_path).unwrap();
    let mut w = App::watching(world(), &rec, "run.jsonl", false, 5, false).unwrap();
    assert_eq!(w.replay.as_ref().unwrap().interval(), std::time::Duration::from_millis(200));
    press(&mut w, KeyCode::Char('+'));
    assert_eq!(w.replay.as_ref().unwrap().interval(), std::time::Duration::from_millis(100));
    press(&mut w, KeyCode::Char(' '));
    assert!(w.replay.as_ref().unwrap().paused);
    // A game key does not play: the replay plays the recording's inputs only.
    let step = session(&w).g.step();
    press(&mut w, KeyCode::Char('o'));
    assert_eq!(session(&w).g.step(), step);
    assert!(w.notes.iter().any(|n| n.contains("this is a replay")), "{:?}", w.notes);
    press(&mut w, KeyCode::Char('.'));
    assert_eq!(w.replay.as_ref().unwrap().next, 1);
    assert!(session(&w).g.step() > step);
    let text = screen(&mut w, 80, 24);
    assert!(text.contains(&format!("replay 1/{} · paused at 10/s", rec.inputs.len())), "{text}");
    // The views stay open to inspect it: the trace of every turn.
    press(&mut w, KeyCode::Char('T'));
    assert!(matches!(w.overlay, Overlay::History { .. }));
}

#[test]
fn auto_explore_walks_until_an_enemy_shows_and_refuses_while_one_is_in_sight() {
    let mut app = warrior(2);
    let (seen, step) = (remembered(&app), session(&app).g.step());
    press(&mut app, KeyCode::Char('o'));
    let s = session(&app);
    assert!(s.g.step() > step, "o walked");
    assert!(remembered(&app) > seen, "and saw more of the floor");
    assert!(s.messages.last().is_some_and(|m| m.starts_with("You stop")), "{:?}", s.messages);
    if s.foes_in_sight() > 0 {
        let step = s.g.step();
        press(&mut app, KeyCode::Char('o'));
        assert_eq!(session(&app).g.step(), step, "no walk with an enemy in sight");
        assert!(app.notes.iter().any(|n| n.contains("not with an enemy in sight")), "{:?}", app.notes);
    }
}

#[test]
fn look_mode_describes_what_is_under_the_cursor() {
    let mut app = warrior_in("core:library");
    command_line(&mut app, "spawn core:rat");
    press(&mut app, KeyCode::Char('x'));
    let Overlay::Look { at } = app.overlay else { panic!("{:?}", app.overlay) };
    assert_eq!(at, player(&app));
    assert!(screen(&mut app, 80, 24).contains("You (30 of 30 health)"));
    press(&mut app, KeyCode::Tab);
    let Overlay::Look { at } = app.overlay else { panic!() };
    let s = session(&app);
    let m = s.g.map().unwrap();
    let i = m.enemy_at(at).expect("Tab put the cursor on an enemy");
    let text = s.describe_tile(at).join("\n");
    assert!(text.contains(&format!("enemy:{i}")) && text.contains("health") && text.contains("carries"), "{text}");
    snapshot("look", &mut app);
    // The cursor moves over the map and says what the player does not know.
    for _ in 0..30 {
        press(&mut app, KeyCode::Char('h'));
    }
    let Overlay::Look { at } = app.overlay else { panic!() };
    assert!(session(&app).g.map().unwrap().tile(at).is_some(), "the cursor stays on the map");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn the_sheet_tells_where_every_attribute_comes_from() {
    let mut app = game("core:mage", 5);
    let rows = session(&app).sheet_rows();
    let health = rows.iter().find(|r| r.attribute == "max_health").unwrap();
    assert!(health.parts.iter().any(|p| p.starts_with("×0.85 Mage (character option)")), "{:?}", health.parts);
    assert_eq!(rows.len(), rustkeep_data::vocab::ATTRIBUTES.len(), "every attribute");
    press(&mut app, KeyCode::Char('C'));
    assert_eq!(app.overlay, Overlay::View { view: View::Sheet, scroll: 0 });
    snapshot("sheet", &mut app);
    screen(&mut app, 80, 24);
    press(&mut app, KeyCode::End);
    let text = screen(&mut app, 80, 24);
    let last = rustkeep_data::vocab::ATTRIBUTES.last().unwrap().0;
    assert!(text.contains(last), "End scrolls to the last attribute ({last}):\n{text}");
}

#[test]
fn the_message_history_keeps_earlier_turns_and_opens_at_the_end() {
    let mut app = warrior_in("core:library");
    command_line(&mut app, "spawn core:rat 2");
    for _ in 0..6 {
        press(&mut app, KeyCode::Char('.'));
    }
    press_with(&mut app, KeyCode::Char('p'), KeyModifiers::CONTROL);
    assert!(matches!(app.overlay, Overlay::View { view: View::Messages, .. }), "Ctrl-P");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('m'));
    let text = screen(&mut app, 80, 24);
    let newest = session(&app).log.back().unwrap().text.clone();
    assert!(text.contains(&newest), "the newest message is shown: {newest}\n{text}");
    snapshot("messages", &mut app);
    press(&mut app, KeyCode::Char('g'));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("turn 0") || text.contains("turn 1"), "g goes to the oldest:\n{text}");
}

#[test]
fn the_quest_log_says_what_each_quest_asks() {
    let mut app = warrior(11);
    press(&mut app, KeyCode::Char('Q'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Proven in Battle") && text.contains("Win 3 combats"), "{text}");
}

#[test]
fn the_trace_of_every_turn_steps_searches_and_watches_an_owner() {
    let mut app = game("core:rogue", 4);
    command_line(&mut app, "enter core:library");
    command_line(&mut app, "spawn core:giant_rat 2");
    // Fight: bump the nearest rat until none is in sight (or 40 turns).
    for _ in 0..40 {
        match fight_key(&app) {
            Some(k) => {
                press(&mut app, k);
            }
            None => break,
        }
    }
    let s = session(&app);
    let n = s.history.len();
    assert!(n > 5, "{n} turns kept");
    let rogue = s.history.watched_turns("core:rogue");
    assert!(!rogue.is_empty(), "the rogue's dirty fighting was looked at when it hit");
    press(&mut app, KeyCode::Char('T'));
    let Overlay::History { at, .. } = &app.overlay else { panic!("{:?}", app.overlay) };
    assert_eq!(*at, n - 1, "T opens at the last turn");
    press(&mut app, KeyCode::Left);
    let Overlay::History { at, .. } = &app.overlay else { panic!() };
    assert_eq!(*at, n - 2, "← goes a turn back");
    // Watch the rogue: Tab completes the owner.
    press(&mut app, KeyCode::Char('w'));
    type_text(&mut app, "core:rog");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.watch.as_deref(), Some("core:rogue"));
    press(&mut app, KeyCode::Char('G'));
    press(&mut app, KeyCode::Char('['));
    let Overlay::History { at, .. } = &app.overlay else { panic!() };
    let before: Vec<usize> = rogue.iter().copied().filter(|i| *i < n - 1).collect();
    if let Some(last) = before.last() {
        assert_eq!(at, last, "[ jumps to the watched owner's turn before");
    }
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("watching core:rogue") && (text.contains('★') || text.contains('·')), "{text}");
    snapshot("trace_watch", &mut app);
    // Search: the newest turn that mentions the giant rat's ID.
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "core:giant_rat");
    press(&mut app, KeyCode::Enter);
    let Overlay::History { at, .. } = &app.overlay else { panic!() };
    assert!(session(&app).history.matches(*at, "core:giant_rat"));
    assert_eq!(app.search.as_deref(), Some("core:giant_rat"));
    // `w` offers the owner watched: typing replaces it, Ctrl-U clears the line, Backspace
    // clears the offered name whole.
    let input = |app: &App| match &app.overlay {
        Overlay::History { input: Some((_, text)), .. } => Some(text.clone()),
        _ => None,
    };
    press(&mut app, KeyCode::Char('w'));
    assert_eq!(input(&app).as_deref(), Some("core:rogue"));
    type_text(&mut app, "core:gi");
    assert_eq!(input(&app).as_deref(), Some("core:gi"), "the first key replaced the offered name");
    press_with(&mut app, KeyCode::Char('u'), KeyModifiers::CONTROL);
    assert_eq!(input(&app).as_deref(), Some(""));
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('w'));
    press(&mut app, KeyCode::Backspace);
    assert_eq!(input(&app).as_deref(), Some(""));
    // An ID the loaded mods do not have is refused; the prompt stays to correct it.
    type_text(&mut app, "core:rouge");
    press(&mut app, KeyCode::Enter);
    assert_eq!(input(&app).as_deref(), Some("core:rouge"));
    assert_eq!(app.watch.as_deref(), Some("core:rogue"), "still watching the rogue");
    assert!(app.notes.iter().any(|n| n.contains("no entry `core:rouge`")), "{:?}", app.notes);
}

#[test]
fn tab_completes_commands_and_ids_on_the_command_line() {
    let mut app = warrior(11);
    press(&mut app, KeyCode::Char(':'));
    type_text(&mut app, "spa");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.overlay, Overlay::CommandLine { text: "spawn ".into(), choices: Vec::new() });
    type_text(&mut app, "core:gi");
    press(&mut app, KeyCode::Tab);
    let Overlay::CommandLine { text, .. } = &app.overlay else { panic!() };
    assert_eq!(text, "spawn core:giant_rat ");
    // Several candidates: the common part, and the list shown.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char(':'));
    type_text(&mut app, "give core:s");
    press(&mut app, KeyCode::Tab);
    let Overlay::CommandLine { text, choices } = app.overlay.clone() else { panic!() };
    assert!(choices.len() >= 2 && choices.iter().all(|c| c.starts_with("core:s")), "{choices:?}");
    assert!(text.starts_with("give core:s"));
    let shown = screen(&mut app, 80, 24);
    assert!(shown.contains("completions") && shown.contains(&choices[0]), "{shown}");
}

#[test]
fn the_death_screen_says_what_killed_the_player() {
    let mut app = warrior(1);
    command_line(&mut app, "enter core:library");
    wait_among_three_liches(&mut app, 200);
    let s = session(&app);
    assert!(s.g.is_over() && !s.g.won(), "the warrior fell");
    let death = s.death.clone().expect("a cause of death");
    assert!(death.starts_with("killed by Morvath the Undying (") && death.contains("damage) on turn"), "{death}");
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("Killed by Morvath the Undying"), "{text}");
    assert!(crate::summary(session(&app)).contains(&format!("died ({death})")));
}

#[test]
fn the_start_screen_takes_one_class_and_one_background() {
    let mut app = App::start_screen(world(), 7, None, false);
    let super::app::Phase::Start(st) = &app.phase else { panic!() };
    assert_eq!(st.groups[0].as_deref(), Some("class"), "classes first: {:?}", st.groups);
    // Space on two classes: the second replaces the first.
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char(' '));
    let super::app::Phase::Start(st) = &app.phase else { panic!() };
    assert_eq!(st.chosen.len(), 1, "one class at a time");
    // Enter without a background: the screen says what is missing, and the game waits.
    press(&mut app, KeyCode::Enter);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("choose a background"), "{text}");
    snapshot("start_groups", &mut app);
    // Down to a background, Enter picks it and starts.
    let super::app::Phase::Start(st) = &app.phase else { panic!() };
    let background = st.groups.iter().position(|g| g.as_deref() == Some("background")).unwrap();
    for _ in 1..background {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let s = session(&app);
    assert_eq!(s.g.player().options.len(), 2, "{:?}", s.g.player().options);
    let groups: Vec<Option<String>> = s.g.player().options.iter().map(|o| rustkeep_engine::game::option_group(&s.w, o)).collect();
    assert!(groups.contains(&Some("class".into())) && groups.contains(&Some("background".into())), "{groups:?}");
}

/// A watched replay that ended in death: `q` asks to quit in plain sight, over the box that says
/// the run is over, and `y` quits.
#[test]
fn quitting_a_watched_replay_that_ended_in_death_asks_in_plain_sight() {
    let (mut app, rec_path, _dir) = recorded_warrior(11);
    super::testing::wait_among_three_liches(&mut app, 300);
    assert!(session(&app).g.is_over());
    app.close();
    let rec = crate::record::read(&rec_path).unwrap();
    let mut w = App::watching(world(), &rec, "run.jsonl", false, 1000, false).unwrap();
    while w.replay_step() {}
    assert!(session(&w).g.is_over());
    for (width, height) in [(80, 24), (120, 40)] {
        let before = screen(&mut w, width, height);
        assert!(before.contains("┌ The run is over"), "{before}");
        press(&mut w, KeyCode::Char('q'));
        let asked = screen(&mut w, width, height);
        assert!(asked.contains("Quit the game?") && !asked.contains("┌ The run is over"), "{asked}");
        press(&mut w, KeyCode::Char('n'));
    }
    press(&mut w, KeyCode::Char('q'));
    assert!(matches!(press(&mut w, KeyCode::Char('y')), super::app::Flow::Quit), "y quits");
}
