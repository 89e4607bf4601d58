//! Hostile saves and recordings: many mutations of a real save and of a real recording, loaded
//! and played back through the functions `rustkeep play` uses — [`save::from_json`] and
//! [`Session::loaded`] for `--load` and `load`, [`record::from_bytes`], [`replay::check_fit`] and
//! [`replay::play_back`] for `--replay` — then played on and drawn. The fuzz targets
//! `play_save` and `play_recording` (fuzz/) run the same functions on arbitrary bytes; this test
//! lets CI exercise them on a stable toolchain. Nothing may panic, every refusal must say why,
//! and whatever loads must play and draw.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use rustkeep_data::grid::Dir;
use rustkeep_engine::game::World;
use rustkeep_engine::save;
use rustkeep_testutil::modpack::Gen;
use rustkeep_testutil::TempDir;

use crate::command::Command;
use crate::session::Session;
use crate::tui::testing::world;
use crate::tui::{draw, App, Overlay, Side};
use crate::{record, replay};

/// Values that break assumptions: out of range, of the wrong type, huge, negative.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1",
    "255",
    "65536",
    "4294967296",
    "18446744073709551615",
    "-9223372036854775808",
    "1e308",
    "-0.0",
    "null",
    "true",
    "\"\"",
    "\"core:rat\"",
    "\"enemy:0\"",
    "[]",
    "{}",
    "[[0,0]]",
    "\"\\u0000\"",
    "\"#\"",
];

/// Numbers of the right type in the wrong place: positions off the map, indexes past the end,
/// counts of zero, the largest values.
const NUMBERS: &[&str] = &["0", "1", "2", "3", "7", "13", "100", "65535", "4294967295", "18446744073709551615", "-1", "-2147483648"];

/// One or two mutations of `input`: bit flips, cuts, repeats, numbers swapped for hostile
/// values, tokens inserted, lines swapped.
fn mutate(input: &[u8], rng: &mut Gen) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(2) {
        let len = b.len().max(1);
        match rng.below(9) {
            0 => {
                let i = rng.below(len).min(b.len().saturating_sub(1));
                if let Some(x) = b.get_mut(i) {
                    *x ^= 1 << rng.below(8);
                }
            }
            1 => b.truncate(rng.below(len)),
            2 => {
                let from = rng.below(len).min(b.len());
                let to = (from + 1 + rng.below(64)).min(b.len());
                b.drain(from..to);
            }
            3 => {
                let from = rng.below(len).min(b.len());
                let to = (from + 1 + rng.below(256)).min(b.len());
                let copy = b[from..to].to_vec();
                let at = rng.below(len).min(b.len());
                b.splice(at..at, copy);
            }
            4 | 7 | 8 => {
                // A number (a run of digits, with its sign) becomes a hostile token, or (more
                // often, so that more saves get past the types) a hostile number.
                let digits: Vec<usize> = b.iter().enumerate().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
                if digits.is_empty() {
                    continue;
                }
                let mut from = digits[rng.below(digits.len())];
                let mut to = from;
                while from > 0 && (b[from - 1].is_ascii_digit() || b[from - 1] == b'-' || b[from - 1] == b'.') {
                    from -= 1;
                }
                while to < b.len() && (b[to].is_ascii_digit() || b[to] == b'.') {
                    to += 1;
                }
                let pool = if rng.below(3) == 0 { TOKENS } else { NUMBERS };
                let token = pool[rng.below(pool.len())];
                b.splice(from..to, token.bytes());
            }
            5 => {
                let at = rng.below(len).min(b.len());
                let token = TOKENS[rng.below(TOKENS.len())];
                b.splice(at..at, token.bytes());
            }
            _ => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 1 {
                    let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(i, j);
                }
                b = (lines.join("\n") + "\n").into_bytes();
            }
        }
    }
    b
}

/// Plays on a game that loaded: every kind of turn, the views, and a frame at 80 × 24.
fn exercise(s: Session) {
    let mut s = s;
    for cmd in [Command::Status, Command::Map, Command::Inventory, Command::Quests] {
        let _ = s.execute(&cmd);
    }
    let _ = s.shop_text();
    for d in Dir::ALL {
        let _ = s.execute(&Command::Move(d));
    }
    for cmd in [Command::Wait, Command::Pickup, Command::Descend, Command::Attack(0), Command::Buy(crate::command::Pick::Number(1)), Command::Leave] {
        let _ = s.execute(&cmd);
    }
    let mut app = App::playing(s, true);
    for overlay in [
        Overlay::None,
        Overlay::Inventory { cursor: 0 },
        Overlay::Shop { side: Side::Buy, cursor: 0 },
        Overlay::View { view: crate::tui::View::Quests, scroll: 0 },
    ] {
        app.overlay = overlay;
        let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
        t.draw(|f| draw(f, &mut app)).expect("drawn");
    }
}

/// A real game: a room with piles, an NPC and enemies, items, a shop, quests, a fight.
fn played(w: World, recording: Option<&std::path::Path>) -> Session {
    let mut s = Session::new_game(w, 3, vec!["core:warrior".into()], None).expect("a new game");
    if let Some(path) = recording {
        s.recorder = Some(crate::start_recording(&s, path, None).expect("a recording"));
    }
    for line in crate::fuzzing::SHORT_GAME {
        let cmd = Command::parse(line).expect("a command").expect("not empty");
        let _ = s.execute(&cmd);
    }
    assert!(s.g.shops().contains_key("core:general_store"), "the elder's shop opened: {:?}", s.log);
    s
}

/// Runs `check` on every input, each in its own unwind boundary; fails naming every input that
/// panicked.
fn survive(what: &str, inputs: &[Vec<u8>], mut check: impl FnMut(&[u8])) {
    let mut panicked = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        if catch_unwind(AssertUnwindSafe(|| check(input))).is_err() {
            panicked.push(format!("{what} #{i}: {:?}", String::from_utf8_lossy(input).chars().take(2000).collect::<String>()));
        }
    }
    assert!(panicked.is_empty(), "{} of {} inputs panicked:\n{}", panicked.len(), inputs.len(), panicked.join("\n"));
}

/// A save's text read as `--load` reads it: loaded and played on, or the refusal.
fn load_and_play(w: &World, text: &str) -> Result<(), String> {
    let (g, _warnings) = save::from_json(text, w)?;
    exercise(Session::loaded(world(), g));
    Ok(())
}

#[test]
fn mutated_saves_load_or_are_refused_with_a_reason() {
    let w = world();
    let original = save::to_json(&played(world(), None).g);
    let mut rng = Gen::from_state(0x5eed_0001);
    let mut inputs: Vec<Vec<u8>> = (0..1000).map(|_| mutate(original.as_bytes(), &mut rng)).collect();
    inputs.push(original.clone().into_bytes());
    let (mut loaded, mut refused) = (0, 0);
    survive("save", &inputs, |bytes| {
        // What `save::read` does after reading the file.
        let Ok(text) = std::str::from_utf8(bytes) else { return };
        match load_and_play(&w, text) {
            Ok(()) => loaded += 1,
            Err(e) => {
                refused += 1;
                assert!(!e.trim().is_empty());
            }
        }
    });
    // Both ways are taken often enough to mean something.
    assert!(loaded >= 20 && refused >= 500, "{loaded} loaded, {refused} refused");
}

/// A save whose floor map is wrong in one place or a few (positions off the map, foreign tiles,
/// rooms off the map, residents of rooms that are not there, remembered tiles beyond the map, a
/// version 2 save cut from it): loaded and played on, or refused with a reason. The fuzz target
/// `play_save_map` makes the same edits from arbitrary bytes.
#[test]
fn saves_with_edited_floor_maps_load_or_are_refused_with_a_reason() {
    let w = world();
    let original = save::to_json(&played(world(), None).g);
    let mut rng = Gen::from_state(0x5eed_0003);
    let mut inputs: Vec<Vec<u8>> = (0..600)
        .map(|_| {
            let choices: Vec<u8> = (0..1 + rng.below(12)).map(|_| rng.below(256) as u8).collect();
            crate::fuzzing::edit_map(&original, &choices).into_bytes()
        })
        .collect();
    inputs.push(original.clone().into_bytes());
    let (mut loaded, mut refused, mut old) = (0, 0, 0);
    survive("map", &inputs, |bytes| {
        let text = std::str::from_utf8(bytes).expect("the edits write JSON");
        old += usize::from(text.contains("\"version\": 2"));
        match load_and_play(&w, text) {
            Ok(()) => loaded += 1,
            Err(e) => {
                refused += 1;
                assert!(e.starts_with("not a valid save"), "{e}");
            }
        }
    });
    assert!(loaded >= 100 && refused >= 100 && old >= 20, "{loaded} loaded, {refused} refused, {old} of version 2");
}

#[test]
fn mutated_recordings_replay_or_are_refused_with_a_reason() {
    let w = world();
    let dir = TempDir::new("hostile-recordings");
    let path = dir.join("game.rkrec");
    let mut s = played(world(), Some(&path));
    s.recorder.take().expect("recording").finish().expect("flushed");
    let original = std::fs::read(&path).expect("the recording");
    drop(dir);
    assert!(String::from_utf8_lossy(&original).lines().count() >= 8, "a recording of the played game");
    let mut rng = Gen::from_state(0x5eed_0002);
    let mut inputs: Vec<Vec<u8>> = (0..300).map(|_| mutate(&original, &mut rng)).collect();
    inputs.push(original.clone());
    let (mut replayed, mut refused) = (0, 0);
    survive("recording", &inputs, |bytes| {
        let rec = match record::from_bytes(bytes) {
            Ok(r) => r,
            Err(e) => {
                refused += 1;
                assert!(!e.trim().is_empty());
                return;
            }
        };
        for force in [false, true] {
            if let Err(e) = replay::check_fit(&w, &rec, "fuzzed", force) {
                assert!(e.contains("does not fit") || e.contains("other rules"), "{e}");
                refused += 1;
                continue;
            }
            match replay::play_back(world(), &rec, "fuzzed", force, &mut Vec::new()) {
                Ok(s) => {
                    replayed += 1;
                    let per_input = s.g.events_handled() / rec.inputs.len().max(1) as u64;
                    assert!(per_input <= replay::MAX_EVENTS_PER_INPUT, "{per_input} events per input");
                    exercise(s);
                }
                Err(e) => {
                    refused += 1;
                    assert!(e.starts_with("fuzzed: "), "{e}");
                }
            }
        }
    });
    assert!(replayed >= 50 && refused >= 100, "{replayed} replayed, {refused} refused");
}

/// A recording that fills the floor with enemies and then waits: every newcomer needs a free
/// tile, so the spawns past a full floor bring nobody, and every input costs at most the bound:
/// the work grows with the number of inputs and no faster.
#[test]
fn a_recording_of_spawns_and_waits_is_bounded_per_input() {
    let header = record::Header {
        format: record::FORMAT.into(),
        version: record::VERSION,
        rules: Some(rustkeep_engine::RULES),
        seed: 1,
        options: vec!["core:warrior".into()],
        floor: None,
        mods: record::stamps(&world().project),
    };
    let mut text = serde_json::to_string(&header).expect("JSON");
    text.push('\n');
    let (spawns, waits) = (12usize, 40usize);
    for _ in 0..spawns {
        text.push_str("{\"input\":\"spawn core:rat 100\"}\n");
    }
    for _ in 0..waits {
        text.push_str("{\"input\":\"wait\"}\n");
    }
    let rec = record::from_bytes(text.as_bytes()).expect("a recording");
    let mut warnings = Vec::new();
    let s = replay::play_back(world(), &rec, "spawns", false, &mut warnings).expect("it plays");
    let on_map = s.g.enemies().iter().filter(|e| s.g.position(rustkeep_engine::game::CreatureRef::Enemy(e.index)).is_some()).count();
    assert!(s.g.enemies().len() < rustkeep_data::vocab::MAX_LIVING_ENEMIES && s.g.enemies().len() > 100, "{}", s.g.enemies().len());
    assert_eq!(on_map, s.g.enemies().len(), "every enemy stands on a tile");
    let per_input = s.g.events_handled() / (spawns + waits) as u64;
    assert!(per_input <= replay::MAX_EVENTS_PER_INPUT, "{per_input} events per input");
    // A round of a thousand enemies costs a thousand turns, not a thousand times a thousand.
    assert!(per_input < 10 * rustkeep_data::vocab::MAX_LIVING_ENEMIES as u64, "{per_input} events per input");
}
