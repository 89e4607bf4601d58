//! What the tests of the full-screen game share: a seeded game on the bundled core, keys fed to
//! the [`App`] as the terminal would, and the screen drawn into ratatui's `TestBackend`.

use std::path::PathBuf;

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::project::Project;
use rustkeep_engine::game::World;
use rustkeep_testutil::TempDir;

use super::app::{App, Flow};
use super::draw::draw;
use crate::session::{first_step, Session, WALK_LIMIT};

/// The bundled core, validated, as `rustkeep play` opens it when no mod is found.
pub fn world() -> World {
    let project = Project::with_bundled_core();
    let valid = rustkeep_check::validate(&project).expect("the bundled core is valid");
    World::new(project, valid)
}

/// A new game of the warrior on `seed`, past the start screen.
pub fn warrior(seed: u64) -> App {
    App::playing(Session::new_game(world(), seed, vec!["core:warrior".into()], None).expect("a new game"), false)
}

pub fn press_with(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Flow {
    app.key(KeyEvent::new(code, modifiers))
}

/// One key press.
pub fn press(app: &mut App, code: KeyCode) -> Flow {
    press_with(app, code, KeyModifiers::NONE)
}

/// Typed text, a key per character.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// A command typed on the `:` line, as a tester would: `:`, the text, Enter.
pub fn command_line(app: &mut App, text: &str) {
    press(app, KeyCode::Char(':'));
    type_text(app, text);
    press(app, KeyCode::Enter);
}

/// The warrior of seed 11 in the room `room` (entered with the testing command).
pub fn warrior_in(room: &str) -> App {
    let mut app = warrior(11);
    command_line(&mut app, &format!("enter {room}"));
    app
}

/// A new game of the warrior on `seed`, recorded to `run.jsonl` in a fresh folder: the game, the
/// recording's path, and the folder (removed when dropped).
pub fn recorded_warrior(seed: u64) -> (App, PathBuf, TempDir) {
    let dir = TempDir::new("play-recorded");
    let recording = dir.join("run.jsonl");
    let mut app = warrior(seed);
    app.record_to(Some(recording.clone()), None).expect("the recording starts");
    (app, recording, dir)
}

/// Three liches spawned next to the player, who then waits (`.`) until the game is over, for
/// `turns` turns at the most.
pub fn wait_among_three_liches(app: &mut App, turns: usize) {
    command_line(app, "spawn core:lich 3");
    for _ in 0..turns {
        if session(app).g.is_over() {
            break;
        }
        press(app, KeyCode::Char('.'));
    }
}

pub fn session(app: &App) -> &Session {
    app.session().expect("a game is being played")
}

/// The key that moves in `d` (the vi keys).
pub fn key_of(d: Dir) -> KeyCode {
    KeyCode::Char(match d {
        Dir::N => 'k',
        Dir::S => 'j',
        Dir::W => 'h',
        Dir::E => 'l',
        Dir::NW => 'y',
        Dir::NE => 'u',
        Dir::SW => 'b',
        Dir::SE => 'n',
    })
}

/// Where the player stands in the room it is in, counted from the room's first tile (the
/// positions a prefab's grid gives).
pub fn in_room(app: &App) -> Pos {
    let d = session(app).g.dungeon().expect("a dungeon");
    let o = d.room.and_then(|r| d.map.rooms.get(r)).expect("in a room").origin;
    Pos::new(d.map.player.x - o.x, d.map.player.y - o.y)
}

/// Where the player stands on the map.
pub fn player(app: &App) -> Pos {
    session(app).g.map().expect("a map").player
}

/// The direction from `from` to a neighbouring tile `to`.
pub fn dir_to(from: Pos, to: Pos) -> Dir {
    Dir::ALL.into_iter().find(|d| from.step(*d) == to).unwrap_or_else(|| panic!("{to} is not next to {from}"))
}

/// Walks the player next to the NPC `npc` the way a player would: a key per tile, each the
/// first step of a shortest way over the tiles the player remembers ([`first_step`]), every one
/// an ordinary move of the engine with the enemies' turns after it. `talk` reaches only an NPC
/// next to the player, so a test talks after this. Panics when the NPC does not stand on the
/// floor or no known way leads to them.
pub fn walk_next_to(app: &mut App, npc: &str) {
    for _ in 0..WALK_LIMIT {
        let dir = {
            let m = session(app).g.map().expect("a map");
            let at = m.npcs.iter().find(|n| n.npc == npc).unwrap_or_else(|| panic!("{npc} does not stand on this floor")).pos;
            let beside = |p: Pos| Dir::ALL.into_iter().any(|d| p.step(d) == at);
            if beside(m.player) {
                return;
            }
            first_step(m, beside, |p| m.is_stairs(p)).unwrap_or_else(|| panic!("no way the player knows leads to {npc}"))
        };
        let step = session(app).g.step();
        press(app, key_of(dir));
        assert!(session(app).g.step() > step, "the move {} towards {npc} was played: {:?}", dir.name(), app.notes);
    }
    panic!("{npc} is not reached in {WALK_LIMIT} moves");
}

/// The screen as text, one line per row with trailing blanks cut (`w` × `h`).
/// The drawn screen's cells, styles included.
pub fn screen_buffer(app: &mut App, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    t.draw(|f| draw(f, app)).expect("drawn");
    t.backend().buffer().clone()
}

pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    t.draw(|f| draw(f, app)).expect("drawn");
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The screens docs/play.md shows, at 80 × 24: each in its generated block `screen NAME`,
/// rewritten from the snapshot tests (so the pictures of the guide are the game's own).
pub const DOCUMENTED: &[&str] = &["start_groups", "map", "look", "inventory", "sheet", "quests", "messages", "trace_watch", "help", "shop", "death"];

/// Puts the screen `name` into docs/play.md if the guide shows it (see [`DOCUMENTED`]).
pub fn document(name: &str, w: u16, text: &str) {
    static PAGE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    if w != 80 || !DOCUMENTED.contains(&name) {
        return;
    }
    // Several tests write the one page: one at a time.
    let _held = PAGE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let path = rustkeep_testutil::repo_path("docs/play.md");
    rustkeep_testutil::ensure_block_contents(&path, "the screen tests", &format!("screen {name}"), &format!("```\n{text}```\n"));
}
