//! `rustkeep play` (docs/play.md): the command line of the game of `rustkeep-play`. It loads the
//! bundled core plus the given mods, refuses them when the validator finds errors (the game
//! validates nothing), and hands the world to [`rustkeep_play::play()`] or, with `--replay`, to
//! [`rustkeep_play::replay()`].

use std::path::PathBuf;

use rustkeep_play::{PlayOptions, ReplayOptions, Start};

use crate::Common;

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
    /// Where to write the character dump when the run ends (default: a new file in
    /// `rustkeep-play/dumps/` under the current folder).
    #[arg(long, value_name = "FILE")]
    pub dump: Option<PathBuf>,
    /// Play a recording back without a terminal and print the final state.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["load", "record", "options", "floor", "seed", "line", "dump"])]
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
    /// With `--replay`: play the recording back on screen (Space pauses, `.` steps, `+` and `-`
    /// change the speed), then print the summary of where it was left.
    #[arg(long, requires = "replay", conflicts_with = "format")]
    pub watch: bool,
    /// With `--watch`: inputs per second to start at (1 to 1000).
    #[arg(long, value_name = "N", default_value_t = 5, requires = "watch", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub speed: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayFormat {
    Human,
    Json,
}

pub fn run(args: Args) -> Result<u8, String> {
    let w = crate::world::load_mods(&args.common.mods)?;
    if let Some(recording) = args.replay {
        let format = match args.format {
            ReplayFormat::Human => rustkeep_play::ReplayFormat::Human,
            ReplayFormat::Json => rustkeep_play::ReplayFormat::Json,
        };
        let watch = args.watch.then_some(args.speed);
        return rustkeep_play::replay(w, &ReplayOptions { recording, save: args.save, force: args.force, format, watch, no_color: args.common.no_color });
    }
    let start = match args.load {
        Some(save) => Start::Load(save),
        None => Start::New { seed: args.seed, options: args.options, floor: args.floor, record: args.record },
    };
    rustkeep_play::play(w, PlayOptions { start, line: args.line, no_color: args.common.no_color, dump: args.dump })
}
