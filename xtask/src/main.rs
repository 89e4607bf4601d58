//! The project's own tasks, run as `cargo xtask TASK` (an alias in `.cargo/config.toml`).
//!
//! - `cargo xtask update` rewrites every committed generated file: the JSON schemas under
//!   `schemas/`, their copies in `editors/vscode/schemas/` and the extension's mapping of files to
//!   them (`tomlValidation` in `editors/vscode/package.json`), `docs/diagnostics.md`,
//!   `docs/reference.md` and the generated blocks of hand-written pages (the command table of
//!   `docs/cli.md`, the lists of codes of `docs/checking.md`), the CLI snapshots, the screens of `rustkeep play`, the engine's golden
//!   traces, the shell completions and manual pages under `assets/`, and `fuzz/Cargo.lock`.
//! - `cargo xtask check` verifies that all of them are current, without writing anything.
//!
//! Each generated file is owned by one test, which knows what the file must hold and compares it
//! through `rustkeep_testutil::ensure_file_contents`. This task runs those tests: without
//! `UPDATE_EXPECT` they check, with `UPDATE_EXPECT=1` they rewrite. So there is one definition of
//! each generated file, and `cargo test --workspace` checks them all as well. The screens of
//! `rustkeep play` are `insta` snapshots: there `INSTA_UPDATE=always` rewrites and `no` checks.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The environment variable of `rustkeep-testutil` that turns checks into rewrites.
const UPDATE_VAR: &str = "UPDATE_EXPECT";
/// The environment variable of `insta` (snapshots of the screens of `rustkeep play`): `always`
/// writes the snapshots in place, `no` only compares.
const INSTA_VAR: &str = "INSTA_UPDATE";

/// One test target that owns generated files.
struct Owner {
    package: &'static str,
    test: Target,
    files: &'static str,
}

/// Where an owner's tests are: an integration test, or unit tests of a library or a binary (by
/// name filter).
enum Target {
    Test(&'static str),
    Lib { filter: &'static str },
    Bin { bin: &'static str, filter: &'static str },
}

/// The owners, in an order where no test reads a file that a later one writes:
/// `check_cli` compares `rustkeep explain` with `docs/diagnostics.md`, written by the first.
const OWNERS: &[Owner] = &[
    // First: formatting moves lines of the core and the examples, which later owners quote.
    Owner { package: "rustkeep-fmt", test: Target::Test("repository"), files: "crates/rustkeep-data/core/, examples/, docs/ snippets (formatted)" },
    Owner { package: "rustkeep-check", test: Target::Test("docs"), files: "docs/diagnostics.md, the lists of codes of docs/checking.md" },
    Owner { package: "rustkeep-data", test: Target::Test("reference_docs"), files: "docs/reference.md, the event table of docs/triggers.md" },
    Owner { package: "rustkeep-cli", test: Target::Bin { bin: "rustkeep", filter: "docs_tests" }, files: "the command table of docs/cli.md" },
    Owner { package: "rustkeep-cli", test: Target::Test("schema"), files: "schemas/*.schema.json" },
    Owner { package: "rustkeep-cli", test: Target::Test("editor_schemas"), files: "editors/vscode/schemas/, tomlValidation in editors/vscode/package.json" },
    Owner { package: "rustkeep-engine", test: Target::Test("golden"), files: "crates/rustkeep-engine/tests/golden/" },
    Owner { package: "rustkeep-cli", test: Target::Test("engine_cli"), files: "crates/rustkeep-cli/tests/simulate/" },
    Owner { package: "rustkeep-cli", test: Target::Test("check_cli"), files: "crates/rustkeep-cli/tests/snapshots/" },
    Owner { package: "rustkeep-cli", test: Target::Test("ci_formats"), files: "crates/rustkeep-cli/tests/snapshots/broken_*" },
    Owner { package: "rustkeep-cli", test: Target::Test("base_game"), files: "crates/rustkeep-cli/tests/snapshots/show_*" },
    // The screens of `rustkeep play` are insta snapshots (unit tests of the game's library):
    // INSTA_UPDATE below turns their check into a rewrite.
    Owner { package: "rustkeep-play", test: Target::Lib { filter: "tui::screen_tests" }, files: "crates/rustkeep-play/tests/snapshots/" },
    Owner { package: "rustkeep-cli", test: Target::Test("generated_assets"), files: "assets/completions/, assets/man/" },
    Owner { package: "rustkeep-cli", test: Target::Test("arena_cli"), files: "docs/images/arena_core.svg" },
    Owner { package: "rustkeep-engine", test: Target::Test("floor_layout"), files: "the floor picture of docs/engine.md" },
    // Last: the outputs the docs mark are printed by the core and the examples as the owners above
    // left them.
    Owner { package: "rustkeep-cli", test: Target::Test("docs_blocks"), files: "the marked outputs of docs/ (blocks after `<!-- output of: … -->`)" },
];

const USAGE: &str = "usage: cargo xtask TASK

tasks:
  update   rewrite every committed generated file (schemas, generated docs, CLI snapshots,
           engine goldens, completions and man pages, fuzz/Cargo.lock); review the result with
           `git diff`
  check    verify that every generated file is current (writes nothing)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["update"] => run(true),
        ["check"] => run(false),
        ["help" | "--help" | "-h"] => {
            print!("{USAGE}");
            Ok(())
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root: this crate lives in `xtask/` directly below it.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent folder").to_path_buf()
}

/// The `cargo` that runs this task (Cargo sets `CARGO`), else the one on `PATH`.
fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(root());
    c
}

/// Runs `command`, echoing it first; an error when it cannot start or exits with a failure.
fn step(what: &str, mut command: Command) -> Result<(), String> {
    let program = Path::new(command.get_program()).file_name().unwrap_or(command.get_program()).to_string_lossy().into_owned();
    let shown = format!("{program} {}", command.get_args().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    eprintln!("== {what}: {shown}");
    let status = command.status().map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

fn run(update: bool) -> Result<(), String> {
    let mut failed = Vec::new();
    for owner in OWNERS {
        let mut test = cargo();
        test.args(["test", "--quiet", "--package", owner.package]);
        match owner.test {
            Target::Test(name) => test.args(["--test", name]),
            Target::Lib { filter } => test.args(["--lib", filter]),
            Target::Bin { bin, filter } => test.args(["--bin", bin, filter]),
        };
        // An exported UPDATE_EXPECT (or INSTA_UPDATE) must not turn `check` into a rewrite.
        if update {
            test.env(UPDATE_VAR, "1").env(INSTA_VAR, "always");
        } else {
            test.env_remove(UPDATE_VAR).env(INSTA_VAR, "no").env_remove("INSTA_FORCE_PASS");
        }
        // A rewrite stops at the first failure (a later owner may read what an earlier one
        // writes); a check goes on, to list every stale file at once.
        match step(owner.files, test) {
            Ok(()) => {}
            Err(e) if update => return Err(e),
            Err(e) => failed.push(e),
        }
    }
    // The fuzz crate is a workspace of its own with its own lock file. `cargo update --workspace`
    // records what the workspace's crates now need and changes nothing else; with `--locked` it
    // fails when the lock file is stale, as the fuzz build in `.ci/run` would.
    let mut fuzz = cargo();
    fuzz.args(["update", "--workspace", "--manifest-path", "fuzz/Cargo.toml"]);
    if !update {
        fuzz.arg("--locked");
    }
    if let Err(e) = step("fuzz/Cargo.lock", fuzz) {
        failed.push(e);
    }
    if !failed.is_empty() {
        return Err(format!("{}\nrun `cargo xtask update` to regenerate, then review the diff", failed.join("\n")));
    }
    if update {
        eprintln!("== every generated file is rewritten; review the changes with `git diff`");
    } else {
        eprintln!("== every generated file is current");
    }
    Ok(())
}
