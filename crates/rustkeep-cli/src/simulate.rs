//! `rustkeep simulate SCENARIO.toml`: dry-runs a scenario (docs/engine.md) and prints its trace.

use std::io::Write;
use std::path::PathBuf;

use rustkeep_engine::scenario;

#[derive(clap::Args)]
pub struct Args {
    /// The scenario file.
    pub scenario: PathBuf,
    /// `human` (an indented causal trace) or `json` (the stable keys documented in docs/cli.md).
    #[arg(long, value_enum, default_value = "human")]
    pub format: TraceFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    Human,
    Json,
}

pub fn run(args: Args) -> Result<u8, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let path = if args.scenario.is_absolute() { args.scenario.clone() } else { cwd.join(&args.scenario) };
    let report = scenario::run_file(&path, &cwd, crate::world::open)?;
    let text = match args.format {
        TraceFormat::Json => report.json_text(),
        TraceFormat::Human => report.human(),
    };
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}
