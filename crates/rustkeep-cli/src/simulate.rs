//! `rustkeep simulate SCENARIO.toml`: dry-runs a scenario (docs/engine.md) and prints its trace.
//!
//! The scenario is checked like data first: it is loaded with the mods it names (and `--mods`),
//! the validator reports its mistakes with their lines, and a scenario or data with errors is
//! refused before the engine sees it.

use std::path::PathBuf;

use rustkeep_data::project::Overlay;
use rustkeep_engine::game::World;
use rustkeep_engine::scenario::{self, Scenario};

#[derive(clap::Args)]
pub struct Args {
    /// The scenario file.
    pub scenario: PathBuf,
    /// `human` (an indented causal trace) or `json` (the stable keys documented in docs/cli.md).
    #[arg(long, value_enum, default_value = "human")]
    pub format: TraceFormat,
    /// More mods to load besides the scenario's own `mods` (repeatable), each read by the one
    /// rule of every command (docs/data-language.md, "Which mods a path loads"). Default: only
    /// the scenario's `mods`.
    #[arg(long = "mods", value_name = "PATH")]
    pub mods: Vec<PathBuf>,
    /// Run again on every saved change of the scenario or of the mods it loads, clearing the
    /// screen between runs, until Ctrl-C (docs/testing.md, "Watching").
    #[arg(long)]
    pub watch: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    Human,
    Json,
}

/// The world and the scenario of a run, or the refusal: a scenario file that cannot be read, a
/// scenario with errors (located), or data with errors.
pub fn open(path: &PathBuf, mods: &[PathBuf]) -> Result<(World, Scenario), String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let path = if path.is_absolute() { path.clone() } else { cwd.join(path) };
    std::fs::metadata(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if let Some(missing) = mods.iter().find(|p| !cwd.join(p).exists()) {
        return Err(format!("{}: no such file or folder", missing.display()));
    }
    rustkeep_ide::scenario::open(&path, mods, &cwd, &Overlay::new(), &|| false).unwrap_or_else(|| Err("the run was cancelled".into()))
}

pub fn run(args: Args) -> Result<u8, String> {
    let (w, sc) = open(&args.scenario, &args.mods)?;
    let report = scenario::run(&w, &sc);
    let text = match args.format {
        TraceFormat::Json => report.json_text(),
        TraceFormat::Human => rustkeep_present::report::run(&report),
    };
    crate::out::print(&text, args.format == TraceFormat::Json)?;
    // A failed expectation fails the run (it is marked in the trace's end).
    Ok(u8::from(report.failed() > 0))
}
