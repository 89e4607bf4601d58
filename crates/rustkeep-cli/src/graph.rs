//! `rustkeep graph`: the trigger graph (which events each trigger listens to, which events its
//! actions raise), cycles marked — red in `dot`, `"cycle": true` in `json`.

use std::io::Write;
use std::path::PathBuf;

use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_engine::game::World;
use rustkeep_engine::graph::Graph;

use crate::Common;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// `dot` (Graphviz) or `json`.
    #[arg(long, value_enum, default_value = "dot")]
    pub format: GraphFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    Dot,
    Json,
}

/// Loads the bundled core plus `mods` (none: the core alone).
pub fn load_world(mods: &[PathBuf]) -> Result<World, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let project = if mods.is_empty() { Project::with_bundled_core() } else { load(mods, &cwd, &Overlay::new()) };
    World::new(project)
}

pub fn run(args: Args) -> Result<u8, String> {
    let w = load_world(&args.common.mods)?;
    let g = Graph::build(&w);
    let text = match args.format {
        GraphFormat::Dot => g.dot(),
        GraphFormat::Json => {
            let mut s = serde_json::to_string_pretty(&g.json()).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}
