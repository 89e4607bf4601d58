//! Snapshots of every screen of the full-screen game at 80 × 24 (the smallest it must stay
//! readable at) and at 120 × 40 (where the panel widens and the trace goes beside the map),
//! drawn by ratatui's `TestBackend` from seeded games. The snapshots are the text of the screen
//! (colour is off, as with `NO_COLOR`), in `tests/snapshots/` of this crate; when a screen
//! changes on purpose, `cargo xtask update` rewrites them (review them with `git diff`).

use ratatui::crossterm::event::KeyCode;

use super::app::{App, Overlay, View};
use super::testing::{command_line, press, screen, session, wait_among_three_liches, walk_next_to, warrior_in, world};

/// The two sizes every screen is drawn at.
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// Compares the screen of `app` at both sizes with the snapshots `NAME_80x24` and `NAME_120x40`.
fn snapshot(name: &str, app: &mut App) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../tests/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    for (w, h) in SIZES {
        let text = screen(app, w, h);
        super::testing::document(name, w, &text);
        settings.bind(|| insta::assert_snapshot!(format!("{name}_{w}x{h}"), text));
    }
}

/// The archivist's library (the largest core room: loot piles, an NPC, an enemy of the floor)
/// with two rats spawned next to the player.
fn library() -> App {
    let mut app = warrior_in("core:library");
    command_line(&mut app, "spawn core:rat 2");
    app
}

/// The elder's trade screen, with gold to spend.
fn shop() -> App {
    let mut app = warrior_in("core:elders_hall");
    command_line(&mut app, "give core:gold 60");
    walk_next_to(&mut app, "core:elder");
    command_line(&mut app, "talk core:elder");
    assert!(matches!(app.overlay, Overlay::Shop { .. }), "the elder's shop opened: {:?}", app.overlay);
    app
}

#[test]
fn start_screen() {
    let mut app = App::start_screen(world(), 7, None, false);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char(' '));
    snapshot("start", &mut app);
}

#[test]
fn map_with_enemies_piles_and_an_npc() {
    let mut app = library();
    let d = session(&app).g.dungeon().expect("a dungeon");
    assert_eq!(d.room.and_then(|r| d.map.rooms[r].prefab.as_deref()), Some("core:library"));
    let m = &d.map;
    assert!(m.enemies().len() >= 3 && !m.piles.is_empty() && !m.npcs.is_empty(), "{m:?}");
    snapshot("map", &mut app);
}

#[test]
fn inventory() {
    let mut app = library();
    command_line(&mut app, "give core:health_potion 2");
    press(&mut app, KeyCode::Char('i'));
    press(&mut app, KeyCode::Down);
    snapshot("inventory", &mut app);
}

#[test]
fn shop_screen() {
    let mut app = shop();
    press(&mut app, KeyCode::Down);
    snapshot("shop", &mut app);
    press(&mut app, KeyCode::Tab);
    snapshot("shop_sell", &mut app);
}

#[test]
fn help() {
    let mut app = library();
    press(&mut app, KeyCode::Char('?'));
    snapshot("help", &mut app);
}

#[test]
fn quests() {
    let mut app = shop();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('Q'));
    assert_eq!(app.overlay, Overlay::View { view: View::Quests, scroll: 0 });
    snapshot("quests", &mut app);
}

#[test]
fn trace_pane() {
    let mut app = library();
    // A turn with a fight in it: wait, and the rats attack.
    press(&mut app, KeyCode::Char('.'));
    press(&mut app, KeyCode::Char('t'));
    assert!(app.trace_open);
    snapshot("trace", &mut app);
}

#[test]
fn command_line_and_its_output() {
    let mut app = library();
    press(&mut app, KeyCode::Char(':'));
    for c in "spawn core:bat 2".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    snapshot("command_line", &mut app);
    press(&mut app, KeyCode::Esc);
    command_line(&mut app, "status");
    assert!(matches!(app.overlay, Overlay::Output { .. }));
    snapshot("command_output", &mut app);
}

#[test]
fn quit_confirmation() {
    let mut app = library();
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.overlay, Overlay::ConfirmQuit);
    snapshot("quit", &mut app);
}

#[test]
fn death_summary() {
    let mut app = library();
    wait_among_three_liches(&mut app, 300);
    let g = &session(&app).g;
    assert!(g.is_over() && !g.won() && g.player().health == 0, "the liches killed the player");
    snapshot("death", &mut app);
}

#[test]
fn victory_summary() {
    // The deepest floor, its enemies gone, the player beside the stairs: `>` wins the run.
    let w = world();
    let last = rustkeep_engine::game::floor_order(&w).pop().expect("floors");
    let s = crate::session::Session::new_game(w, 11, vec!["core:warrior".into()], Some(&last)).expect("a new game");
    let mut app = App::playing(s, false);
    {
        let g = &mut app.session_mut().expect("playing").g;
        g.remove_enemies();
        let m = g.map().expect("a map");
        let stairs = (0..m.height()).flat_map(|y| (0..m.width()).map(move |x| rustkeep_data::grid::Pos::new(x, y))).find(|p| m.is_stairs(*p)).expect("stairs");
        let beside = rustkeep_data::grid::Dir::ALL.iter().map(|d| stairs.step(*d)).find(|p| !m.is_wall(*p)).expect("a way to the stairs");
        assert!(g.place_player(beside), "the player stands beside the stairs");
    }
    for _ in 0..10 {
        if session(&app).g.is_over() {
            break;
        }
        press(&mut app, KeyCode::Char('>'));
    }
    assert!(session(&app).g.won(), "{:?}", session(&app).messages);
    snapshot("victory", &mut app);
}

/// With colour on, every creature, NPC and item on the map is its glyph in its colour: the
/// core's giant rat `R` and rats `r` in yellow, the archivist `A` in bright blue, a dropped potion
/// `!` in red; the side panel shows each enemy's glyph in its colour too.
#[test]
fn the_map_draws_glyphs_in_their_colours() {
    use ratatui::backend::TestBackend;
    use ratatui::style::Color;
    use ratatui::Terminal;

    let mut app = library();
    command_line(&mut app, "spawn core:giant_rat");
    // A potion lying on a free floor tile of the room (where a creature would drop its loot).
    {
        let g = &mut app.session_mut().expect("playing").g;
        let m = g.map().expect("a map");
        let free = (0..m.height())
            .flat_map(|y| (0..m.width()).map(move |x| rustkeep_data::grid::Pos::new(x, y)))
            .find(|p| {
                m.tile(*p) == Some('.')
                    && m.sight().contains(*p)
                    && *p != m.player
                    && m.enemy_at(*p).is_none()
                    && m.npc_at(*p).is_none()
                    && !m.piles.iter().any(|x| x.pos == *p)
            })
            .expect("a free tile");
        let item = rustkeep_engine::item::ItemInstance { item: "core:health_potion".into(), count: 1, affixes: Vec::new(), equipped: false };
        assert!(g.drop_on_map(free, item), "the potion lies on the floor");
    }
    app.colour = true;
    let mut t = Terminal::new(TestBackend::new(120, 40)).expect("a test terminal");
    t.draw(|f| super::draw::draw(f, &mut app)).expect("drawn");
    let buf = t.backend().buffer();
    let cells: Vec<(String, Option<Color>)> =
        (0..40).flat_map(|y| (0..120).map(move |x| (x, y))).map(|(x, y)| (buf[(x, y)].symbol().to_string(), Some(buf[(x, y)].fg))).collect();
    let colours_of = |glyph: &str| cells.iter().filter(|(s, _)| s == glyph).map(|(_, c)| *c).collect::<Vec<_>>();
    assert!(colours_of("R").contains(&Some(Color::Yellow)), "the giant rat: {:?}", colours_of("R"));
    assert!(colours_of("r").contains(&Some(Color::Yellow)), "the rats: {:?}", colours_of("r"));
    assert!(colours_of("A").contains(&Some(Color::LightBlue)), "the archivist: {:?}", colours_of("A"));
    assert!(colours_of("!").contains(&Some(Color::Red)), "the potion on the ground: {:?}", colours_of("!"));
    let text = session(&app).map_text();
    assert!(text.contains('R') && text.contains('A') && text.contains('!') && text.contains("\nR Giant Rat (enemy:"), "{text}");
}
