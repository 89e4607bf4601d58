//! `rustkeep doc`: the documentation site of the loaded mods (docs/doc.md), written by
//! `rustkeep-doc`. The mods come by the one discovery rule, core included. Data with errors is
//! documented too — a mod in progress deserves its pages — with the errors on the index and in
//! place of what they break (an unknown ID is not linked, a table that cannot be evaluated says
//! why); only the arena, which would fight with half-read creatures, is left out.

use std::path::PathBuf;

use rustkeep_data::project::{discover, WhenNothing};
use rustkeep_engine::game::World;

#[derive(clap::Args)]
pub struct Args {
    /// The mods to document (default: the current folder), read by the one rule of every
    /// command: the nearest `rustkeep.toml` at or above it, else the mod it is in, else the mods
    /// below it; no mod at all: the bundled core alone.
    pub path: Vec<PathBuf>,
    /// The folder to write the site into; it must be empty, absent, or a site written before.
    #[arg(long, value_name = "DIR", default_value = "rustkeep-doc")]
    pub out: PathBuf,
    /// Open the index in the browser when the site is written.
    #[arg(long)]
    pub open: bool,
    /// A link to each entry's source, with `{path}` and `{line}` replaced, e.g.
    /// `https://github.com/me/my_mod/blob/main/{path}#L{line}`. Without it the place is shown as text.
    #[arg(long, value_name = "TEMPLATE")]
    pub source_url: Option<String>,
    /// Add the arena's matrix of each mod's creatures against every character option, this many
    /// fights per cell.
    #[arg(long, value_name = "RUNS", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub arena: Option<u64>,
    /// The seed of the arena's fights.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The luck of the second column of every drop chance (the first is luck 0).
    #[arg(long, default_value_t = 3.0)]
    pub luck: f64,
}

pub fn run(args: Args) -> Result<u8, String> {
    if !args.luck.is_finite() || args.luck < 0.0 {
        return Err(format!("--luck must be a finite number of at least 0, not {}", args.luck));
    }
    if let Some(t) = &args.source_url {
        if !t.contains("{path}") {
            return Err("--source-url needs `{path}` where the file's path goes (and `{line}` for its line)".into());
        }
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let project = discover(&args.path, &cwd, WhenNothing::CoreAlone)?;
    let analysis = rustkeep_check::analyze(&project);
    let errors = analysis.errors();
    // The site documents data with errors too, next to the check's diagnostics.
    let world = World::best_effort(project, analysis.db);
    let diagnostics = analysis.diagnostics;
    let opts = rustkeep_doc::Options { out: args.out.clone(), source_url: args.source_url, arena_runs: args.arena, arena_seed: args.seed, luck: args.luck };
    let built = rustkeep_doc::build(&world, &diagnostics, &opts)?;
    let index = args.out.join("index.html");
    say!(
        "wrote {} ({} entries of {} mods; {} files, {} changed, {} removed; {} KB, the largest {} at {} KB)",
        index.display(),
        built.entries,
        world.project.mods.len(),
        built.files,
        built.written,
        built.removed,
        built.bytes / 1024,
        built.largest.0,
        built.largest.1 / 1024
    );
    if errors > 0 {
        say!("note: the mods have {errors} {}: the pages list them, and `rustkeep check` shows where", if errors == 1 { "error" } else { "errors" });
    }
    if args.open {
        open(&index)?;
    }
    Ok(0)
}

/// Opens a file in the default browser.
fn open(path: &std::path::Path) -> Result<(), String> {
    let path = std::fs::canonicalize(path).map_err(|e| format!("cannot find {}: {e}", path.display()))?;
    let (program, args): (&str, Vec<&std::ffi::OsStr>) = if cfg!(target_os = "macos") {
        ("open", vec![path.as_os_str()])
    } else if cfg!(windows) {
        ("explorer", vec![path.as_os_str()])
    } else {
        ("xdg-open", vec![path.as_os_str()])
    };
    std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("cannot open the site with {program}: {e}; open {} yourself", path.display()))
}
