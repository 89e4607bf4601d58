//! `rustkeep`: the command line of the rustkeep modding toolkit. It parses arguments, opens
//! worlds through the analysis and prints; it must never hold a rule, an engine rule or the
//! game itself (those are the library crates'), so that the editor, the fuzzers and the bench
//! share exactly what the command runs.

#![forbid(unsafe_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

/// `eprintln!` that cannot panic: a message that cannot be written (standard error on a full disk
/// or on a terminal that hung up) is dropped, and the exit code still tells what happened.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", rustkeep_data::echo::inert(&line));
    }};
}

/// jemalloc rather than the system allocator (docs/ARCHITECTURE.md, "Why each dependency is there").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod arena;
mod build_info;
mod check;
mod diff;
mod doc;
#[cfg(test)]
mod docs_tests;
mod fmt;
mod generate;
mod graph;
mod loot;
mod new;
mod out;
mod play;
mod render;
mod schema;
mod show;
mod simulate;
mod test;
mod watch;
mod world;

#[derive(Parser)]
#[command(name = "rustkeep", version = build_info::long_version(), about = "Validate, analyse and play-test rustkeep mods")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// An output format of `rustkeep check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Readable snippets with the offending text (coloured on terminals).
    Human,
    /// One JSON document: `diagnostics` and a `summary`.
    Json,
    /// One JSON object per diagnostic and line.
    JsonLines,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions annotations (workflow commands).
    Github,
    /// A GitLab Code Quality report.
    Gitlab,
    /// JUnit XML: a test case per file, a failure per diagnostic.
    Junit,
    /// reviewdog's Diagnostic Format (rdjson).
    Rdjson,
}

/// Options every command that loads mods shares.
#[derive(clap::Args, Clone, Debug)]
pub struct Common {
    /// Where to find the mods to load (repeatable). Default: the current folder, read by the one
    /// rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the
    /// mod it is in, else the mods below it; no mod at all: the bundled core alone. See
    /// docs/data-language.md, "Which mods a path loads".
    #[arg(long = "mods", value_name = "PATH")]
    pub mods: Vec<PathBuf>,
    /// Disable colours.
    #[arg(long)]
    pub no_color: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a mod, several mods or a workspace (default: the current folder).
    Check(check::Args),
    /// Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md).
    Fmt(fmt::Args),
    /// Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md).
    Loot(loot::Args),
    /// The language server on stdin/stdout (docs/editors/lsp.md).
    Lsp,
    /// Dry-run a scenario (docs/engine.md) and print the causal trace.
    Simulate(simulate::Args),
    /// Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md).
    Test(test::Args),
    /// Many fights of a scenario's player against its enemies (or every option against every
    /// creature): win rate, rounds, health left, loot (docs/arena.md).
    Arena(arena::Args),
    /// The trigger graph: events, the triggers listening to them, the events they raise; cycles marked.
    Graph(graph::Args),
    /// Write the loaded mods' documentation as a static site: every entry in words and linked,
    /// exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md).
    Doc(doc::Args),
    /// What a change does to the mods' meaning: entries added, removed and changed, drop chances
    /// and arena win rates that moved, diagnostics introduced and fixed, and the version bump it
    /// needs (docs/balance.md).
    Diff(diff::Args),
    /// Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise;
    /// recordings and replays (docs/play.md).
    Play(play::Args),
    /// An entry as written, with its file: where to copy from to override it (docs/getting-started.md).
    Show(show::Args),
    /// The bundled core as files.
    #[command(subcommand)]
    Core(show::CoreCommand),
    /// Create a mod skeleton that checks clean, with a scenario to simulate.
    New(new::Args),
    /// Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a
    /// recording, or a command's JSON output (docs/json-schemas.md).
    Schema(schema::Args),
    /// What a diagnostic code means, an example, and how to fix or silence it.
    Explain {
        /// A diagnostic code such as `unknown-event`.
        code: Option<String>,
        /// Print every code.
        #[arg(long)]
        all: bool,
        /// `text` (default) or `markdown`.
        #[arg(long, default_value = "text")]
        format: String,
    },
    /// Print the completion script of a shell.
    ///
    /// For example `rustkeep completions bash > ~/.local/share/bash-completion/completions/rustkeep`.
    /// The release archives ship every script in their `completions` folder.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page of rustkeep, or of one of its commands, as roff.
    ///
    /// For example `rustkeep man check | man -l -`. The release archives ship every page in their
    /// `man` folder.
    Man {
        /// A command such as `check`; without one, the page of `rustkeep` itself.
        command: Option<String>,
        /// Write every page (`rustkeep.1` and `rustkeep-COMMAND.1`) into this folder instead, e.g. `~/.local/share/man/man1`.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        out_dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // The one thread setting (docs/performance.md, "Threads"): `RUSTKEEP_THREADS` sizes the pool
    // every parallel loop runs on, before anything runs in parallel.
    let _ = rustkeep_data::threads::configure();
    let result = match cli.command {
        // `--watch` is dispatched here, not in each command's `run`: the watcher uses those
        // modules, and they must not use it back (docs/ARCHITECTURE.md, invariant "Layers").
        Command::Check(args) if args.watch => watch::check(args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Loot(args) => loot::run(args),
        Command::Lsp => rustkeep_lsp::run().map_err(|e| format!("language server: {e}")),
        Command::Simulate(args) if args.watch => watch::simulate(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Test(args) if args.watch => watch::test(args),
        Command::Test(args) => test::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Doc(args) => doc::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Play(args) => play::run(args),
        Command::Show(args) => show::run(args),
        Command::Core(cmd) => show::core(cmd),
        Command::New(args) => new::run(args),
        Command::Explain { code, all, format } => explain(code, all, &format),
        Command::Schema(args) => schema::run(args),
        Command::Completions { shell } => generate::print_completions(Cli::command(), shell),
        Command::Man { command, out_dir: None } => generate::print_man_page(Cli::command(), command.as_deref()),
        Command::Man { out_dir: Some(dir), .. } => generate::write_man_pages(Cli::command(), &dir),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // Said if it can be: on a closed standard error (a terminal that hung up), printing
            // would panic, and the exit code tells the failure anyway.
            say!("rustkeep: {e}");
            ExitCode::from(2)
        }
    }
}

fn explain(code: Option<String>, all: bool, format: &str) -> Result<u8, String> {
    use rustkeep_check::explain;
    use rustkeep_data::diag::Code;
    let mut out = crate::out::stdout();
    if all {
        let text = if format == "markdown" { explain::catalog_markdown() } else { Code::ALL.iter().map(|c| explain::text(*c)).collect::<Vec<_>>().join("\n") };
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        return Ok(0);
    }
    let Some(name) = code else {
        // Without a code: the list of codes, one per line, to pick from.
        let width = Code::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
        let mut text = String::from("The diagnostic codes (`rustkeep explain CODE` explains one, `--all` every one):\n\n");
        for c in Code::ALL {
            text.push_str(&format!("  {:<width$}  {:<7}  {}\n", c.name(), c.default_severity().as_str(), c.summary()));
        }
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        return Ok(0);
    };
    let Some(c) = Code::from_name(&name) else {
        let sug = rustkeep_data::suggest::closest_judged(&name, Code::ALL.iter().map(|c| c.name())).map(|j| j.0);
        let mut msg = format!("`{name}` is not a diagnostic code");
        if let Some(s) = sug {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        return Err(msg);
    };
    let text = if format == "markdown" { explain::markdown(c) } else { explain::text(c) };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(0)
}
