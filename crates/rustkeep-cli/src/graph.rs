//! `rustkeep graph`: the trigger graph (which events each trigger listens to, which events its
//! actions raise), cycles marked — red in `dot`, `"cycle": true` in `json`.

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

pub fn run(args: Args) -> Result<u8, String> {
    let w = crate::world::load_mods(&args.common.mods)?;
    let g = Graph::build(&w);
    let text = match args.format {
        GraphFormat::Dot => rustkeep_present::graph::dot(&g),
        GraphFormat::Json => {
            let mut s = serde_json::to_string_pretty(&g.report()).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    crate::out::print(&text, args.format == GraphFormat::Json)?;
    Ok(0)
}
