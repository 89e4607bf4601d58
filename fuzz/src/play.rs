//! The saves and recordings of `rustkeep play`, read through the API of `rustkeep-play`, so that
//! a fuzz target runs exactly what `--load`, `load` and `--replay` run. The test `hostile_tests`
//! of that crate runs the same functions on mutations of a real save and recording on a stable
//! toolchain.

use std::sync::OnceLock;

use rustkeep_data::grid::Dir;
use rustkeep_data::project::Project;
use rustkeep_engine::game::World;
use rustkeep_engine::save;
use rustkeep_play::command::{Command, Pick};
use rustkeep_play::session::Session;
use rustkeep_play::{record, replay};

/// The world `rustkeep play` opens without `--mods`: the bundled core, validated.
pub fn world() -> World {
    let project = Project::with_bundled_core();
    let valid = rustkeep_check::validate(&project).expect("the bundled core is valid");
    World::new(project, valid)
}

/// One world for the checks that only read it (a session owns its own).
fn shared_world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(world)
}

/// Plays on a game that loaded or replayed: the views, every kind of turn, a trade.
pub fn exercise(mut s: Session) {
    for cmd in [Command::Status, Command::Map, Command::Inventory, Command::Quests] {
        let _ = s.execute(&cmd);
    }
    let _ = s.shop_text();
    let _ = s.living();
    for d in Dir::ALL {
        let _ = s.execute(&Command::Move(d));
    }
    for cmd in [Command::Wait, Command::Pickup, Command::Descend, Command::Attack(0), Command::Buy(Pick::Number(1)), Command::Sell(Pick::Number(1)), Command::Leave] {
        let _ = s.execute(&cmd);
    }
    let _ = save::to_json(&s.g);
}

/// Arbitrary bytes as a save, as `rustkeep play --load` reads it: refused with a reason, or
/// loaded and played on.
pub fn load_save(bytes: &[u8]) {
    // `save::read` reads the file as UTF-8 text first.
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    match save::from_json(text, shared_world()) {
        Ok((g, _warnings)) => exercise(Session::loaded(world(), g)),
        Err(e) => assert!(!e.trim().is_empty(), "a refusal says why"),
    }
}

/// A save of a short real game (a room with piles, an NPC, enemies; a trade; a fight), made once.
fn real_save() -> &'static str {
    static SAVE: OnceLock<String> = OnceLock::new();
    SAVE.get_or_init(|| {
        let mut s = Session::new_game(world(), 3, vec!["core:warrior".into()], None).expect("a new game");
        for line in rustkeep_play::fuzzing::SHORT_GAME {
            if let Ok(Some(cmd)) = Command::parse(line) {
                let _ = s.execute(&cmd);
            }
        }
        save::to_json(&s.g)
    })
}

/// The real save with its floor map edited by `choices` (`rustkeep_play::fuzzing::edit_map`),
/// read as `--load` reads it: refused with a reason, or loaded and played on.
pub fn load_edited_map(choices: &[u8]) {
    load_save(rustkeep_play::fuzzing::edit_map(real_save(), choices).as_bytes());
}

/// Arbitrary bytes as a recording, as `rustkeep play --replay` reads it (with and without
/// `--force`): refused with a reason, or played back and played on.
pub fn replay_recording(bytes: &[u8]) {
    let rec = match record::from_bytes(bytes) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.trim().is_empty(), "a refusal says why");
            return;
        }
    };
    for force in [false, true] {
        if replay::check_fit(shared_world(), &rec, "fuzzed", force).is_err() {
            continue;
        }
        if let Ok(s) = replay::play_back(world(), &rec, "fuzzed", force, &mut Vec::new()) {
            // The work of a replay grows with its inputs and no faster (docs/engine.md,
            // "Bounded work"): the events it handled, per input.
            let per_input = s.g.events_handled() / rec.inputs.len().max(1) as u64;
            assert!(per_input <= replay::MAX_EVENTS_PER_INPUT, "{per_input} events per input");
            exercise(s);
        }
    }
}
