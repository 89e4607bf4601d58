//! The defects a player's trial of the game found, each played through the keys of a seeded
//! game and checked on the engine's state, the messages and the screen at 80 × 24 and 120 × 40.

use ratatui::crossterm::event::KeyCode;
use rustkeep_data::vocab::CURRENCY;
use rustkeep_engine::game::{sell_price, CreatureRef, ItemInstance};

use super::app::{App, Overlay};
use super::testing::{command_line, press, screen, session, warrior};

fn carried(app: &App, item: &str) -> u64 {
    session(app).g.player.inventory.iter().filter(|i| i.item == item).map(|i| u64::from(i.count)).sum()
}

/// A warrior (seed 11) in the elder's hall, a floor of its own: no enemies, the elder and her shop.
fn in_the_hall() -> App {
    let mut app = warrior(11);
    command_line(&mut app, "enter core:elders_hall");
    app
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
        if session(&app).g.player.health < 25 {
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
    command_line(&mut app, "talk core:elder");
    press(&mut app, KeyCode::Esc);
    assert_eq!(carried(&app, "core:health_potion"), before + 1);
    command_line(&mut app, "talk core:elder");
    press(&mut app, KeyCode::Esc);
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
    command_line(&mut app, "talk core:elder");
    let stock = &session(&app).g.shops["core:general_store"];
    for (i, a) in stock.iter().enumerate() {
        assert!(stock[i + 1..].iter().all(|b| (&b.item, &b.affixes) != (&a.item, &a.affixes)), "{} twice in {stock:?}", a.item);
    }
}

#[test]
fn picking_up_nothing_takes_no_turn_and_a_typo_gets_a_suggestion() {
    let mut app = in_the_hall();
    let turn = session(&app).g.step;
    press(&mut app, KeyCode::Char('g'));
    assert_eq!(session(&app).g.step, turn, "no turn spent");
    assert!(app.notes.iter().any(|n| n.contains("nothing here to pick up")), "{:?}", app.notes);
    command_line(&mut app, "spwan core:rat");
    assert!(app.notes.iter().any(|n| n.contains("did you mean `spawn`")), "{:?}", app.notes);
}

#[test]
fn engine_warnings_go_to_the_trace_not_the_players_messages() {
    let mut app = warrior(11);
    command_line(&mut app, "enter core:library");
    command_line(&mut app, "spawn core:lich 3");
    for _ in 0..300 {
        if session(&app).g.over {
            break;
        }
        press(&mut app, KeyCode::Char('.'));
    }
    assert!(session(&app).g.over);
    assert!(app.log_lines().iter().all(|l| !l.text.starts_with("warning:")), "{:?}", app.log_lines());
    assert!(app.warnings.iter().any(|w| w.contains("the player died")), "{:?}", app.warnings);
    press(&mut app, KeyCode::Char('t'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("warning: the player died"), "{text}");
}

#[test]
fn the_trace_names_what_each_enemy_ref_is_and_scrolls_to_its_end() {
    let mut app = warrior(11);
    command_line(&mut app, "enter core:library");
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
