//! `rustkeep play` (docs/play.md): the bundled core plus the given mods as a roguelike to
//! play-test. On a terminal it is a full-screen game; otherwise (or with `--line`) a line console
//! that scripts and tests drive. `--record` writes every input to a recording; `--replay` plays a
//! recording back without a terminal and prints (or saves) the final state.

pub mod command;
#[cfg(test)]
mod hostile_tests;
mod line;
mod line_edit;
pub mod narrate;
pub mod record;
pub mod replay;
pub mod session;
pub mod tui;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use rustkeep_engine::save;

use crate::Common;
use session::Session;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Seed of the game's generator (default: 0 in the line console, a fresh one in the
    /// full-screen game); the game always shows it, so a run can be played again.
    #[arg(long)]
    pub seed: Option<u64>,
    /// A character option for the new character (repeatable), e.g. `core:warrior`; without one,
    /// the full-screen game lets you choose.
    #[arg(long = "option", value_name = "ID")]
    pub options: Vec<String>,
    /// Start the run on this floor instead of the first.
    #[arg(long, value_name = "FLOOR")]
    pub floor: Option<String>,
    /// Start from a save instead of a new character.
    #[arg(long, value_name = "SAVE", conflicts_with_all = ["record", "options", "floor", "seed"])]
    pub load: Option<PathBuf>,
    /// The line console even on a terminal.
    #[arg(long)]
    pub line: bool,
    /// Write a recording of the game: the seed, the mods with a hash of their data, every input.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Play a recording back without a terminal and print the final state.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["load", "record", "options", "floor", "seed", "line"])]
    pub replay: Option<PathBuf>,
    /// With `--replay`: write the final state as a save.
    #[arg(long, value_name = "SAVE", requires = "replay")]
    pub save: Option<PathBuf>,
    /// With `--replay`: play it back even when the mods' data changed since it was recorded.
    #[arg(long, requires = "replay")]
    pub force: bool,
    /// With `--replay`: `human` (a summary) or `json` (the final state, as `simulate` prints it).
    #[arg(long, value_enum, default_value = "human", requires = "replay")]
    pub format: ReplayFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayFormat {
    Human,
    Json,
}

pub fn run(args: Args) -> Result<u8, String> {
    let w = crate::world::load_mods(&args.common.mods)?;
    if let Some(path) = &args.replay {
        return replay(w, path, &args);
    }
    let full_screen = !args.line && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if full_screen {
        return tui::run(w, &args);
    }
    let mut out = std::io::stdout().lock();
    let session = match &args.load {
        Some(path) => {
            let (s, warnings) = Session::from_save(w, path)?;
            for x in &warnings {
                writeln!(out, "warning: {x}").map_err(|e| e.to_string())?;
            }
            s
        }
        None => {
            let seed = args.seed.unwrap_or(0);
            let mut s = Session::new_game(w, seed, args.options.clone(), args.floor.as_deref())?;
            if let Some(path) = &args.record {
                s.recorder = Some(start_recording(&s, path, args.floor.clone())?);
            }
            s
        }
    };
    let mut console = line::Console::new(session);
    console.start(&mut out)?;
    console.run(&mut out)
}

/// Starts the recording of a new game.
pub fn start_recording(s: &Session, path: &std::path::Path, floor: Option<String>) -> Result<record::Recorder, String> {
    let header = record::Header {
        format: record::FORMAT.into(),
        version: record::VERSION,
        seed: s.g.seed,
        options: s.g.player.options.clone(),
        floor,
        mods: record::stamps(&s.w.project),
    };
    record::Recorder::create(path, &header)
}

/// Plays a recording back: the same new game, the same inputs, and the final state.
fn replay(w: rustkeep_engine::game::World, path: &std::path::Path, args: &Args) -> Result<u8, String> {
    let rec = record::read(path)?;
    let shown = path.display().to_string();
    let mut out = std::io::stdout().lock();
    for d in replay::check_fit(&w, &rec, &shown, args.force)? {
        say!("warning: {d}");
    }
    let mut warnings = Vec::new();
    let played = replay::play_back(w, &rec, &shown, args.force, &mut warnings);
    for x in &warnings {
        say!("warning: {x}");
    }
    let s = played?;
    if let Some(p) = &args.save {
        save::write(p, &s.g)?;
    }
    let text = match args.format {
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
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

/// The run in numbers: how it ended, turns, floors, kills, quests done, seed.
pub fn summary(s: &Session) -> String {
    let g = &s.g;
    let how = if g.won {
        "won"
    } else if g.over {
        "died"
    } else {
        "in progress"
    };
    let floors = g.dungeon.as_ref().map(|d| format!("{} of {}", d.floor + 1, d.floors.len())).unwrap_or_else(|| "-".into());
    let done: Vec<&str> = g.quests.iter().filter(|q| q.done).map(|q| q.quest.as_str()).collect();
    format!(
        "run {how}: {} turns, floor {floors}, {} kills, {} quest(s) done{}, seed {}\n",
        g.step,
        g.kills,
        done.len(),
        if done.is_empty() { String::new() } else { format!(" ({})", done.join(", ")) },
        g.seed
    )
}
