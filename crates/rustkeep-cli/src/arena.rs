//! `rustkeep arena`: many fights for balancing (docs/arena.md). A scenario's `[player]` against
//! its `[[enemies]]`, or with `--matrix` every character option against one of every creature.

use std::io::Write;
use std::path::{Path, PathBuf};

use rustkeep_data::project::{load, Overlay};
use rustkeep_engine::arena::{self, ArenaJson, Lineup, DEFAULT_ROUNDS, DEFAULT_RUNS};
use rustkeep_engine::scenario::Scenario;

use crate::Common;

#[derive(clap::Args)]
pub struct Args {
    /// The scenario whose `[player]` fights its `[[enemies]]` (its steps are ignored); optional
    /// with `--matrix`, where it only names the mods and the seed.
    pub scenario: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
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

fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    }
}

pub fn run(args: Args) -> Result<u8, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    if args.format == ArenaFormat::Svg && !args.matrix {
        return Err("`--format svg` draws the matrix's heat map: add `--matrix`".into());
    }
    let scenario = match &args.scenario {
        Some(p) => {
            let path = absolute(&cwd, p);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            let sc = Scenario::parse(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            Some((path, sc))
        }
        None if args.matrix => None,
        None => return Err("usage: rustkeep arena SCENARIO.toml [--runs N] [--seed S] [--rounds MAX] (or --matrix)".into()),
    };
    // The mods: the scenario's (relative to its folder) and `--mods`; the bundled core always.
    let mut mods: Vec<PathBuf> = args.common.mods.iter().map(|m| absolute(&cwd, m)).collect();
    if let Some((path, sc)) = &scenario {
        let base = path.parent().map(Path::to_path_buf).unwrap_or_else(|| cwd.clone());
        mods.extend(sc.mods.iter().map(|m| base.join(m)));
    }
    if let Some(missing) = mods.iter().find(|m| !m.exists()) {
        return Err(format!("{}: no such file or folder", missing.display()));
    }
    let project = if mods.is_empty() { rustkeep_data::project::Project::with_bundled_core() } else { load(&mods, &cwd, &Overlay::new()) };
    let w = crate::world::open(project)?;
    let seed = args.seed.or(scenario.as_ref().map(|(_, sc)| sc.seed)).unwrap_or(0);

    let text = if args.matrix {
        let m = arena::matrix(&w, args.runs, seed, args.rounds);
        match args.format {
            ArenaFormat::Human => m.human(),
            ArenaFormat::Json => pretty(&ArenaJson::Matrix(m.output())),
            ArenaFormat::Svg => m.svg(),
        }
    } else {
        let (path, sc) = scenario.expect("a scenario without --matrix");
        sc.validate(&w).map_err(|e| format!("{}: {e}", path.display()))?;
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
                r.human(&format!("{who} against {}", vs.join(", ")))
            }
            ArenaFormat::Json => pretty(&ArenaJson::Fights(r.output())),
            ArenaFormat::Svg => unreachable!("refused above"),
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}

fn pretty(v: &ArenaJson) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("the arena's JSON serializes");
    s.push('\n');
    s
}
