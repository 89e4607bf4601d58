//! `rustkeep completions SHELL` and `rustkeep man [COMMAND]`: shell completions and manual pages,
//! generated from the command-line definition itself, so they always list exactly the commands
//! and options the binary has.
//!
//! The repository commits their output under `assets/` (rewritten by `cargo xtask update`, checked
//! by the test `generated_assets`), and the release archives ship that folder: an installed
//! binary's completions and pages come with it, and the ones printed by the binary are the same.

use std::io::Write;
use std::path::Path;

use clap_complete::Shell;

/// The completion script of `shell` for the command `cmd`.
pub fn completions(mut cmd: clap::Command, shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "rustkeep", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The command as the manual pages show it: the plain package version (the commit in
/// `--version` would make the committed pages change with every commit) and no `help`
/// pseudo-command, which has no page of its own.
fn for_pages(cmd: clap::Command) -> clap::Command {
    let mut cmd = cmd.version(env!("CARGO_PKG_VERSION")).long_version(None::<&str>).disable_help_subcommand(true);
    // Building names every subcommand `rustkeep-NAME` (its page) and `rustkeep NAME` (its usage).
    cmd.build();
    cmd
}

/// The footer of every page: which rustkeep it describes, and the manual it belongs to.
const SOURCE: &str = concat!("rustkeep ", env!("CARGO_PKG_VERSION"));
const MANUAL: &str = "rustkeep manual";

fn render(cmd: clap::Command) -> (String, String) {
    let man = clap_mangen::Man::new(cmd);
    let mut out = Vec::new();
    // Rendering into memory cannot fail.
    man.render(&mut out).expect("rendering a manual page into memory");
    let text = String::from_utf8_lossy(&out);
    // The page carries no date (it would change the committed pages every day), but an empty
    // argument of `.TH` is dropped when clap_mangen writes it, shifting the source into the
    // date's place. So the title line is written here, with the empty date quoted.
    let name = man.get_filename();
    let title = name.trim_end_matches(".1");
    let page = text
        .lines()
        .map(|line| if line.starts_with(".TH ") { format!(".TH {title} 1 \"\" \"{SOURCE}\" \"{MANUAL}\"") } else { line.to_string() })
        .collect::<Vec<_>>()
        .join("\n");
    (name, page + "\n")
}

/// Every manual page, as `(file name, roff text)`: `rustkeep.1`, then `rustkeep-COMMAND.1` for each
/// command, in the order `--help` lists them.
pub fn man_pages(cmd: clap::Command) -> Vec<(String, String)> {
    let cmd = for_pages(cmd);
    let mut pages = vec![render(cmd.clone())];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).map(|s| render(s.clone())));
    pages
}

/// The manual page of `rustkeep` (no command) or of one of its commands.
pub fn man_page(cmd: clap::Command, command: Option<&str>) -> Result<String, String> {
    let cmd = for_pages(cmd);
    let Some(name) = command else { return Ok(render(cmd).1) };
    let names: Vec<&str> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).map(|s| s.get_name()).collect();
    if let Some(sub) = cmd.find_subcommand(name).filter(|_| names.contains(&name)) {
        return Ok(render(sub.clone()).1);
    }
    let mut message = format!("`{name}` is not a command of rustkeep");
    if let Some(close) = rustkeep_data::suggest::closest(name, names.iter().copied()) {
        message.push_str(&format!("; did you mean `{close}`?"));
    }
    Err(message)
}

fn print(text: &str) -> Result<u8, String> {
    crate::out::stdout().write_all(text.as_bytes()).map_err(|e| format!("cannot write to stdout: {e}"))?;
    Ok(0)
}

pub fn print_completions(cmd: clap::Command, shell: Shell) -> Result<u8, String> {
    print(&completions(cmd, shell))
}

pub fn write_man_pages(cmd: clap::Command, dir: &Path) -> Result<u8, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (name, text) in man_pages(cmd) {
        let path = dir.join(name);
        rustkeep_data::files::write_file(&path, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(0)
}

pub fn print_man_page(cmd: clap::Command, command: Option<&str>) -> Result<u8, String> {
    print(&man_page(cmd, command)?)
}
