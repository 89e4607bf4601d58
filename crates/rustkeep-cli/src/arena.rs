//! `rustkeep arena`: many fights for balancing (docs/arena.md). A scenario's `[player]` against
//! its `[[enemies]]`, or with `--matrix` every character option against one of every creature.
//!
//! The mods come as for `rustkeep simulate`: a scenario's own `mods` plus `--mods`, and the
//! scenario is checked like data first (located mistakes refuse the run); without a scenario,
//! `--matrix` loads what the one discovery rule finds from `--mods` or the current folder, as
//! `play` and `graph` do.

use std::path::PathBuf;

use rustkeep_engine::arena::{self, ArenaJson, Lineup, DEFAULT_ROUNDS, DEFAULT_RUNS};

#[derive(clap::Args)]
pub struct Args {
    /// The scenario whose `[player]` fights its `[[enemies]]` (its steps are ignored); optional
    /// with `--matrix`, where it only names the mods and the seed.
    pub scenario: Option<PathBuf>,
    /// Where to find the mods to load (repeatable). With a scenario: these besides the scenario's
    /// own `mods` (default: only those). Without one (`--matrix`): the current folder by default,
    /// read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that
    /// workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core
    /// alone. See docs/data-language.md, "Which mods a path loads".
    #[arg(long = "mods", value_name = "PATH")]
    pub mods: Vec<PathBuf>,
    /// How many fights (each cell of the matrix fights this many times).
    #[arg(long, default_value_t = DEFAULT_RUNS, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub runs: u64,
    /// The seed of the batch; fight `i` uses a generator derived from it and `i` alone (default:
    /// the scenario's `seed`, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rounds after which a fight is a draw.
    #[arg(long, default_value_t = DEFAULT_ROUNDS, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,
    /// Every character option (as a new character with its starting kit) against one of every
    /// creature, one on one.
    #[arg(long)]
    pub matrix: bool,
    /// `human` (a short table), `json` (the keys in docs/arena.md) or, with `--matrix`, `svg` (a
    /// heat map).
    #[arg(long, value_enum, default_value = "human")]
    pub format: ArenaFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ArenaFormat {
    Human,
    Json,
    Svg,
}

pub fn run(args: Args) -> Result<u8, String> {
    if args.format == ArenaFormat::Svg && !args.matrix {
        return Err("`--format svg` draws the matrix's heat map: add `--matrix`".into());
    }
    // The same loading as `simulate` (the scenario's mods, checked like data), or the discovery
    // rule of `play` and `graph` when there is no scenario.
    let (w, scenario) = match &args.scenario {
        Some(p) => {
            let (w, sc) = crate::simulate::open(p, &args.mods)?;
            (w, Some((p.clone(), sc)))
        }
        None if args.matrix => (crate::world::load_mods(&args.mods)?, None),
        None => return Err("usage: rustkeep arena SCENARIO.toml [--runs N] [--seed S] [--rounds MAX] (or --matrix)".into()),
    };
    let seed = args.seed.or(scenario.as_ref().map(|(_, sc)| sc.seed)).unwrap_or(0);

    let text = if args.matrix {
        let m = arena::matrix(&w, args.runs, seed, args.rounds);
        match args.format {
            ArenaFormat::Human => rustkeep_present::report::matrix(&m),
            ArenaFormat::Json => pretty(&ArenaJson::Matrix(m.output())),
            ArenaFormat::Svg => rustkeep_present::heat_map::svg(&m),
        }
    } else {
        // `simulate::open` checked the scenario's IDs and enemies against these mods.
        let (path, sc) = scenario.expect("a scenario without --matrix");
        let lineup = Lineup {
            options: sc.options.clone(),
            items: sc.items.clone(),
            attributes: sc.attributes.clone(),
            quests: sc.quests.clone(),
            enemies: sc.enemies.clone(),
            new_character: false,
        };
        if lineup.enemies.is_empty() {
            return Err(format!("{}: the scenario has no [[enemies]] to fight", path.display()));
        }
        let r = arena::run(&w, &lineup, args.runs, seed, args.rounds);
        match args.format {
            ArenaFormat::Human => {
                let vs: Vec<String> = lineup.enemies.iter().map(|(c, n)| if *n == 1 { c.clone() } else { format!("{n} × {c}") }).collect();
                let who = if lineup.options.is_empty() { "the player".to_string() } else { lineup.options.join(" + ") };
                rustkeep_present::report::fights(&r, &format!("{who} against {}", vs.join(", ")))
            }
            ArenaFormat::Json => pretty(&ArenaJson::Fights(r.output())),
            ArenaFormat::Svg => unreachable!("refused above"),
        }
    };
    crate::out::print(&text, args.format == ArenaFormat::Json)?;
    Ok(0)
}

fn pretty(v: &ArenaJson) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("the arena's JSON serializes");
    s.push('\n');
    s
}
