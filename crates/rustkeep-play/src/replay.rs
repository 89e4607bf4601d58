//! Playing a recording back: the same new game, the same inputs, in the same order. The CLI's
//! `--replay` runs it, and so do the fuzz target of recordings and the tests, so that what they
//! check is what a player gets.

use rustkeep_data::vocab::{EVENT_CAP, MAX_LIVING_ENEMIES};
use rustkeep_engine::game::{World, MAX_TURNS_PER_PLAYER_TURN};

use crate::command::Command;
use crate::record::{mismatches, rules_mismatch, stamps, Recording};
use crate::session::Session;

/// The most events one input of a recording can make the engine handle: a walk of
/// [`crate::session::WALK_LIMIT`] steps, each followed by the turns of at most
/// [`MAX_LIVING_ENEMIES`] enemies (each at most [`MAX_TURNS_PER_PLAYER_TURN`] times), every turn
/// under the cap of [`EVENT_CAP`] events. Work per input is bounded, so a replay takes time
/// linear in its length; the fuzz target of recordings and the hostile tests hold every replay to
/// it.
pub const MAX_EVENTS_PER_INPUT: u64 = crate::session::WALK_LIMIT as u64 * (1 + MAX_LIVING_ENEMIES as u64 * MAX_TURNS_PER_PLAYER_TURN as u64) * EVENT_CAP as u64;

/// Checks that a recording fits this engine's rules and the loaded mods: `Ok` with the
/// differences to warn about (none when it fits; with `force`, every difference), or the refusal
/// naming them. `shown` names the recording in messages.
pub fn check_fit(w: &World, rec: &Recording, shown: &str, force: bool) -> Result<Vec<String>, String> {
    let rules = rules_mismatch(rec.header.rules);
    let diff = mismatches(&rec.header.mods, &stamps(&w.project));
    if (diff.is_empty() && rules.is_none()) || force {
        return Ok(rules.into_iter().chain(diff).map(|d| format!("{d} (replaying anyway: --force)")).collect());
    }
    if let Some(r) = rules {
        return Err(format!(
            "{shown}: the recording was made under other rules: {r}; it would not play the same game, so it is not replayed (replay it anyway with --force)"
        ));
    }
    Err(format!(
        "{shown}: the recording does not fit the loaded mods:\n  {}\nit would not play the same game; load the mods it was made with, or replay it anyway with --force",
        diff.join("\n  ")
    ))
}

/// The inputs of a recording as commands, each checked to be one a recording may hold.
pub fn inputs(rec: &Recording, shown: &str) -> Result<Vec<Command>, String> {
    rec.inputs
        .iter()
        .enumerate()
        .map(|(i, input)| {
            let at = at(shown, i, input);
            let cmd = Command::parse(input).map_err(|e| format!("{at}: {e}"))?.ok_or_else(|| format!("{at}: an empty input"))?;
            if !cmd.changes_the_game() {
                return Err(format!("{at}: a recording holds only commands that change the game"));
            }
            Ok(cmd)
        })
        .collect()
}

/// Where input `i` stands, for messages: the header is line 1; inputs follow, one per line.
pub fn at(shown: &str, i: usize, input: &str) -> String {
    format!("{shown}: input {} (line {}) `{input}`", i + 1, i + 2)
}

/// The new game a recording starts from.
pub fn start(w: World, rec: &Recording, shown: &str) -> Result<Session, String> {
    Session::new_game(w, rec.header.seed, rec.header.options.clone(), rec.header.floor.as_deref())
        .map_err(|e| format!("{shown}: the recording cannot start its game: {e}"))
}

/// Plays one input: `Ok` when it ran or (with `force`) was skipped and named in `warnings`.
pub fn play_one(s: &mut Session, cmd: &Command, at: &str, force: bool, warnings: &mut Vec<String>) -> Result<(), String> {
    if let Err(e) = s.execute(cmd) {
        if !force {
            return Err(format!("{at}: {e}; the recording no longer plays as it was recorded"));
        }
        warnings.push(format!("{at}: {e} (skipped: --force)"));
    }
    Ok(())
}

/// Plays the inputs of a recording on a new game of its header. An input that fails stops the
/// replay (with `force`, it is skipped and named in `warnings`). Call [`check_fit`] first.
pub fn play_back(w: World, rec: &Recording, shown: &str, force: bool, warnings: &mut Vec<String>) -> Result<Session, String> {
    let cmds = inputs(rec, shown)?;
    let mut s = start(w, rec, shown)?;
    for (i, cmd) in cmds.iter().enumerate() {
        play_one(&mut s, cmd, &at(shown, i, &rec.inputs[i]), force, warnings)?;
    }
    Ok(s)
}
