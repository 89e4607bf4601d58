//! The game of `rustkeep play` (docs/play.md): resolved mod data played as a roguelike, through
//! the engine's API. On a terminal it is a full-screen game; otherwise (or when asked) a line
//! console that scripts and tests drive. A game can be recorded input by input, and a recording
//! played back without a terminal to its final state.
//!
//! What this crate must never do:
//! - **Validate data.** It plays the [`World`] it is given and holds no rule of the data
//!   language: whoever starts a game refuses invalid mods first (the command line does, through
//!   the analysis of `rustkeep-check`, before it calls [`play()`] or [`replay()`]).
//! - **Write where it was not asked to.** It writes the saves and recordings at the paths it is
//!   given (by the options, or by a `save` command of the player), and the line console's
//!   history in the user's state folder; nothing else.
//! - **Panic on a save or a recording.** Whatever the bytes, reading one gives a game or a
//!   refusal that says why (guarded by `hostile_tests` here and by the `play_save` and
//!   `play_recording` fuzz targets).
//!
//! Everything plays through [`session::Session::execute`]: the full-screen game, the line
//! console and replays run the same [`command::Command`]s, so the same inputs always make the
//! same game. The modules are public for the fuzz targets, which read saves and recordings
//! exactly as [`play()`] and [`replay()`] do.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod command;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
#[cfg(test)]
mod hostile_tests;
mod line;
mod line_edit;
pub mod look;
mod narrate;
pub mod record;
pub mod replay;
pub mod session;
mod tui;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use rustkeep_data::echo::{inert, InertWriter};

use rustkeep_engine::game::World;
use rustkeep_engine::save;

use session::Session;

/// How a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A new character.
    New {
        /// Seed of the game's generator (default: 0 in the line console, a fresh one in the
        /// full-screen game); the game always shows it, so a run can be played again.
        seed: Option<u64>,
        /// The character options (e.g. `core:warrior`); none: the full-screen game lets the
        /// player choose.
        options: Vec<String>,
        /// The floor the run starts on, instead of the first.
        floor: Option<String>,
        /// Where to write a recording of the game.
        record: Option<PathBuf>,
    },
    /// The game of a save.
    Load(PathBuf),
}

/// What [`play()`] is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// A new character or a saved game.
    pub start: Start,
    /// The line console even on a terminal.
    pub line: bool,
    /// No colours (as with a non-empty `NO_COLOR`).
    pub no_color: bool,
    /// Where the character dump goes when the run ends (`--dump FILE`); `None`: a new file in
    /// [`session::DUMP_FOLDER`].
    pub dump: Option<PathBuf>,
}

impl PlayOptions {
    /// Where the character dump goes.
    pub fn dump_to(&self) -> session::DumpTo {
        match &self.dump {
            Some(file) => session::DumpTo::File(file.clone()),
            None => session::DumpTo::Folder(PathBuf::from(session::DUMP_FOLDER)),
        }
    }
}

/// What [`replay()`] prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayFormat {
    /// A summary of the run and the player's status.
    Human,
    /// The final state, as `rustkeep simulate` prints it.
    Json,
}

/// What [`replay()`] is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The recording to play back.
    pub recording: PathBuf,
    /// Where to write the final state as a save.
    pub save: Option<PathBuf>,
    /// Play it back even when the mods' data changed since it was recorded.
    pub force: bool,
    /// What is printed at the end.
    pub format: ReplayFormat,
    /// Play it back on screen, starting at this many inputs per second (`--watch`).
    pub watch: Option<u32>,
    /// No colours on screen.
    pub no_color: bool,
}

/// Plays `w`: the full-screen game when standard input and output are a terminal (and the line
/// console is not asked for), else the line console on them. The exit code: 0, or 128 plus the
/// number of the signal that ended the full-screen game.
pub fn play(w: World, o: PlayOptions) -> Result<u8, String> {
    let full_screen = !o.line && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if full_screen {
        return tui::run(w, &o);
    }
    // What a save, a recording or a mod says is echoed inert (rustkeep_data::echo).
    let mut out = InertWriter::new(std::io::stdout().lock());
    let dump = o.dump_to();
    let session = match o.start {
        Start::Load(path) => {
            let (s, warnings) = Session::from_save(w, &path)?;
            for x in &warnings {
                writeln!(out, "warning: {x}").map_err(|e| e.to_string())?;
            }
            s
        }
        Start::New { seed, options, floor, record } => {
            let seed = seed.unwrap_or(0);
            let mut s = Session::new_game(w, seed, options, floor.as_deref())?;
            if let Some(path) = &record {
                s.recorder = Some(start_recording(&s, path, floor)?);
            }
            s
        }
    };
    let mut console = line::Console::new(session);
    console.dump = Some(dump);
    console.start(&mut out)?;
    console.run(&mut out)
}

/// A warning on standard error, if it can be written (a closed standard error drops it: the
/// outcome shows in the exit code anyway).
fn warn(text: &str) {
    let _ = writeln!(std::io::stderr(), "warning: {}", inert(text));
}

/// Starts the recording of a new game.
fn start_recording(s: &Session, path: &Path, floor: Option<String>) -> Result<record::Recorder, String> {
    let header = record::Header {
        format: record::FORMAT.into(),
        version: record::VERSION,
        rules: Some(rustkeep_engine::RULES),
        seed: s.g.seed(),
        options: s.g.player().options.clone(),
        floor,
        mods: record::stamps(&s.w.project),
    };
    record::Recorder::create(path, &header)
}

/// Plays a recording back on `w` without a terminal: the same new game, the same inputs, and
/// the final state printed on standard output (and saved, when asked). Differences from the
/// recorded mods and skipped inputs are warned about on standard error.
pub fn replay(w: World, o: &ReplayOptions) -> Result<u8, String> {
    let path = &o.recording;
    let rec = record::read(path)?;
    let shown = path.display().to_string();
    for d in replay::check_fit(&w, &rec, &shown, o.force)? {
        warn(&d);
    }
    if let Some(speed) = o.watch {
        if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
            return Err("--watch plays the recording on screen: it needs a terminal (without --watch the replay prints its end)".into());
        }
        let save = o.save.as_deref();
        return tui::watch(w, &tui::WatchOptions { recording: &rec, shown: &shown, force: o.force, speed, no_color: o.no_color, save });
    }
    let lock = std::io::stdout().lock();
    let mut out = if o.format == ReplayFormat::Json { InertWriter::json(lock) } else { InertWriter::new(lock) };
    let mut warnings = Vec::new();
    let played = replay::play_back(w, &rec, &shown, o.force, &mut warnings);
    for x in &warnings {
        warn(x);
    }
    let s = played?;
    if let Some(p) = &o.save {
        save::write(p, &s.g)?;
    }
    let text = match o.format {
        ReplayFormat::Json => {
            let mut t = serde_json::to_string_pretty(&s.g.final_json(&s.w)).map_err(|e| e.to_string())?;
            t.push('\n');
            t
        }
        ReplayFormat::Human => {
            let mut t = format!("replayed {} inputs of {} (seed {})\n", rec.inputs.len(), path.display(), rec.header.seed);
            t.push_str(&summary(&s));
            t.push_str(&s.status());
            t
        }
    };
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|e| e.to_string())?;
    Ok(0)
}

/// The run in numbers: how it ended, the character, turns, floors, kills, quests done, seed; and
/// the testing commands it used, if any.
pub(crate) fn summary(s: &Session) -> String {
    let g = &s.g;
    let how = match s.ending() {
        session::Ending::Won => "won".to_string(),
        session::Ending::Stopped(why) => format!("stopped ({why})"),
        session::Ending::Died(cause) => format!("died ({cause})"),
        session::Ending::Playing => "in progress".to_string(),
    };
    let floors = g.dungeon().map(|d| format!("{} of {}", d.floor + 1, d.floors.len())).unwrap_or_else(|| "-".into());
    let done: Vec<&str> = g.quests().iter().filter(|q| q.done).map(|q| q.quest.as_str()).collect();
    let mut text = format!(
        "run {how}: {}, {} turns, floor {floors}, {} kills, {} quest(s) done{}, seed {}\n",
        s.character_label(),
        g.step(),
        g.kills(),
        done.len(),
        if done.is_empty() { String::new() } else { format!(" ({})", done.join(", ")) },
        g.seed()
    );
    if let Some(t) = s.testing_used() {
        text.push_str(&t);
        text.push('\n');
    }
    if let Some(p) = &s.dumped {
        text.push_str(&format!("character dump: {}\n", p.display()));
    }
    text
}
