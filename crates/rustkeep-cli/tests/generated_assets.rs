//! The shell completions and manual pages committed under `assets/` (shipped in the release
//! archives) are what the binary generates, and they work: bash accepts the script and completes
//! commands and options with it, and `man` renders every page without a warning.
//!
//! Every change of a command or an option changes these files: `cargo xtask update` rewrites them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rustkeep_testutil::{ensure_folder_contents, repo_path, require, TempDir};

/// Each shell of `rustkeep completions`, with the file its script is committed as (the name the
/// shell's completion folder expects).
const COMPLETIONS: &[(&str, &str)] =
    &[("bash", "rustkeep.bash"), ("zsh", "_rustkeep"), ("fish", "rustkeep.fish"), ("powershell", "_rustkeep.ps1"), ("elvish", "rustkeep.elv")];

fn rustkeep(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(args).output().expect("run rustkeep");
    assert!(out.status.success(), "`rustkeep {}` failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    out
}

fn stdout(args: &[&str]) -> String {
    String::from_utf8(rustkeep(args).stdout).expect("UTF-8 output")
}

#[test]
fn committed_completions_are_current() {
    let expected: Vec<(String, String)> = COMPLETIONS.iter().map(|(shell, file)| (file.to_string(), stdout(&["completions", shell]))).collect();
    for (file, text) in &expected {
        assert!(text.contains("check") && text.contains("deny-warnings"), "{file} completes the commands and their options");
    }
    ensure_folder_contents(&repo_path("assets/completions"), "", &expected, "`rustkeep completions SHELL`");
}

#[test]
fn committed_man_pages_are_current() {
    let tmp = TempDir::new("man");
    rustkeep(&["man", "--out-dir", &tmp.0.to_string_lossy()]);
    let mut pages: Vec<(String, String)> = std::fs::read_dir(&tmp.0)
        .expect("list the written pages")
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).expect("read a page")))
        .collect();
    pages.sort();
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for page in ["rustkeep.1", "rustkeep-check.1", "rustkeep-lsp.1", "rustkeep-completions.1", "rustkeep-man.1"] {
        assert!(names.contains(&page), "`rustkeep man --out-dir` writes {page}; it wrote {names:?}");
    }
    // `rustkeep man` alone prints the first page, `rustkeep man check` the page of `check`.
    let root = pages.iter().find(|(n, _)| n == "rustkeep.1").expect("rustkeep.1");
    assert_eq!(stdout(&["man"]), root.1);
    let check = pages.iter().find(|(n, _)| n == "rustkeep-check.1").expect("rustkeep-check.1");
    assert_eq!(stdout(&["man", "check"]), check.1);
    // The pages carry the plain version: the commit of `--version` would make them change with
    // every commit.
    assert!(root.1.contains(&format!("\"rustkeep {}\"", env!("CARGO_PKG_VERSION"))), "{}", root.1);
    assert!(!root.1.contains("commit"), "{}", root.1);
    ensure_folder_contents(&repo_path("assets/man"), ".1", &pages, "`rustkeep man --out-dir DIR`");
}

#[test]
fn man_of_an_unknown_command_fails_with_a_suggestion() {
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(["man", "chek"]).output().expect("run rustkeep");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "rustkeep: `chek` is not a command of rustkeep; did you mean `check`?\n");
}

/// What bash's programmable completion offers for `words`, the last one being completed, with
/// the committed script loaded.
fn bash_complete(words: &[&str]) -> Vec<String> {
    let script = repo_path("assets/completions/rustkeep.bash");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    // `_rustkeep` is called the way bash calls a completion function: the command, the word being
    // completed and the word before it.
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\n_rustkeep rustkeep \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let out = Command::new("bash").args(["--norc", "--noprofile", "-c", &program]).output().expect("run bash");
    assert!(out.status.success(), "bash failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut offered: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.is_empty()).map(String::from).collect();
    offered.sort();
    offered
}

#[test]
fn bash_accepts_the_script_and_completes_commands_and_options() {
    let script = repo_path("assets/completions/rustkeep.bash");
    let syntax = Command::new("bash").arg("-n").arg(&script).output().expect("run bash -n");
    assert!(syntax.status.success(), "bash -n rejects {}: {}", script.display(), String::from_utf8_lossy(&syntax.stderr));

    assert_eq!(bash_complete(&["rustkeep", "ch"]), ["check"]);
    assert_eq!(bash_complete(&["rustkeep", "com"]), ["completions"]);
    assert_eq!(bash_complete(&["rustkeep", "check", "--deny"]), ["--deny-warnings"]);
    assert_eq!(bash_complete(&["rustkeep", "completions", ""]), ["--help", "-h", "bash", "elvish", "fish", "powershell", "zsh"]);
    let commands = bash_complete(&["rustkeep", ""]);
    for command in ["check", "lsp", "loot", "simulate", "play", "graph", "schema", "explain", "completions", "man"] {
        assert!(commands.iter().any(|c| c == command), "`rustkeep <TAB>` offers {command}: {commands:?}");
    }
}

/// `man` renders a page to text; `None` when `man` is not installed and the test may skip.
fn render_man(page: &Path) -> Option<String> {
    let present = Command::new("man").arg("--version").output().is_ok_and(|o| o.status.success());
    if !require("man-db (`man`)", present, "apt-get install man-db") {
        return None;
    }
    // `--warnings` makes groff report every problem of the roff on stderr.
    let out = Command::new("man")
        .args(["--warnings", "-E", "UTF-8", "-l"])
        .arg(page)
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "0")
        .output()
        .expect("run man");
    assert!(out.status.success(), "man -l {} failed: {}", page.display(), String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "man warns about {}:\n{}", page.display(), String::from_utf8_lossy(&out.stderr));
    // Without a terminal, man prints bold and underline as overstrikes (`c\bc`); drop them.
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    // Justified lines stretch spaces; one space is enough to compare.
    Some(plain.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n"))
}

#[test]
fn man_renders_every_page() {
    let dir = repo_path("assets/man");
    let mut pages: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("assets/man").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "1")).collect();
    pages.sort();
    assert!(pages.len() >= 10, "a page for rustkeep and each command: {pages:?}");
    for page in &pages {
        let Some(text) = render_man(page) else { return };
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION"] {
            assert!(text.lines().any(|l| l == section), "{} has the section {section}:\n{text}", page.display());
        }
    }
    let Some(root) = render_man(&dir.join("rustkeep.1")) else { return };
    assert!(root.contains("rustkeep - Validate, analyse and play-test rustkeep mods"), "{root}");
    assert!(root.lines().next().is_some_and(|l| l == "rustkeep(1) rustkeep manual rustkeep(1)"), "the header names the manual:\n{root}");
    assert!(root.lines().last().is_some_and(|l| l == format!("rustkeep {} rustkeep(1)", env!("CARGO_PKG_VERSION"))), "the footer names the version:\n{root}");
    assert!(root.contains("rustkeep-check(1)") && root.contains("rustkeep-completions(1)"), "the page lists the commands' pages:\n{root}");
    let Some(check) = render_man(&dir.join("rustkeep-check.1")) else { return };
    assert!(check.contains("rustkeep check [--mods]") && check.contains("--deny-warnings"), "{check}");
}

#[test]
fn version_names_the_commit_and_the_data_language() {
    let text = stdout(&["--version"]);
    let language = format!("data language v{}", rustkeep_data::vocab::LANGUAGE_VERSION);
    let version = env!("CARGO_PKG_VERSION");
    // The commit is the checkout's when the crate is built from a git checkout of this
    // repository (as here); a copy without git shows none.
    let head = Command::new("git").args(["rev-parse", "HEAD"]).current_dir(repo_path("")).output().ok().filter(|o| o.status.success());
    let expected = match head {
        Some(out) if std::env::var_os("RUSTKEEP_BUILD_COMMIT").is_none() => {
            format!("rustkeep {version} (commit {}, {language})\n", &String::from_utf8_lossy(&out.stdout)[..9])
        }
        _ => {
            assert!(text.starts_with(&format!("rustkeep {version} (")) && text.ends_with(&format!("{language})\n")), "{text}");
            return;
        }
    };
    assert_eq!(text, expected);
    assert_eq!(stdout(&["-V"]), expected, "-V says the same");
}

#[test]
fn the_release_archives_ship_the_assets() {
    // The release configuration includes the folder; the release smoke test in `.ci/run` finds
    // the files in the archive it builds.
    let config = std::fs::read_to_string(repo_path("dist-workspace.toml")).expect("dist-workspace.toml");
    let include = config.lines().find(|l| l.trim_start().starts_with("include")).unwrap_or_else(|| panic!("dist-workspace.toml has an `include`:\n{config}"));
    for dir in ["assets/completions", "assets/man"] {
        assert!(include.contains(&format!("\"{dir}/\"")), "the archives include {dir}: {include}");
    }
}
