//! The command line as the docs show it (docs/ARCHITECTURE.md, invariant "Docs that cannot
//! drift"), checked against the definition the binary parses its arguments with, [`Cli`]:
//!
//! - the command table of `docs/cli.md` is generated from it, between its markers
//!   (`cargo xtask update` rewrites it), and every command has a section of that page;
//! - every line `rustkeep …` of a code block in `docs/`, `README.md` and the crates' READMEs
//!   parses with [`Cli`]'s own parser. In a shell block (`sh`, `bash`, `console`, `yaml`) the
//!   line is cut at a comment or a pipe or redirection, and a shell variable stands for a value. A
//!   plain block (no language, `text`) may hold a usage synopsis instead — a line with `[…]`, `|`,
//!   `…` or a placeholder in capitals — which must name commands and options that exist;
//! - so must every inline `` `rustkeep …` `` of the pages' prose.
//!
//! Lines whose second word is no command or option (`rustkeep · a new game`, `rustkeep = {`) are
//! no commands.

use clap::{CommandFactory, Parser};
use rustkeep_testutil::{ensure_block_contents, repo_path, repo_root};

use super::Cli;

/// What the command table is generated from, as its markers say.
const SOURCE: &str = "the command-line definition";
const TABLE: &str = "commands";

/// The commands of `rustkeep`, as `(words after rustkeep, the clap command)`: a command with
/// subcommands (`core`) stands for each of them.
fn commands(cli: &clap::Command) -> Vec<(String, clap::Command)> {
    let mut out = Vec::new();
    for sub in cli.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        let leaves: Vec<&clap::Command> = sub.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help").collect();
        if leaves.is_empty() {
            out.push((sub.get_name().to_string(), sub.clone()));
        }
        for leaf in leaves {
            out.push((format!("{} {}", sub.get_name(), leaf.get_name()), leaf.clone()));
        }
    }
    out
}

/// The positional arguments of a command as its synopsis writes them: `NAME`, `[NAME]`, `NAME…`.
fn positionals(cmd: &clap::Command) -> String {
    let mut out = String::new();
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let name = arg.get_value_names().and_then(|n| n.first()).map_or_else(|| arg.get_id().as_str().to_uppercase(), |n| n.to_string());
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let name = if many { format!("{name}…") } else { name };
        out.push(' ');
        out.push_str(&if arg.is_required_set() { name } else { format!("[{name}]") });
    }
    out
}

/// The first sentence of a command's help, with the paths of pages (`docs/loot.md`) as links
/// relative to `docs/`.
fn about(cmd: &clap::Command) -> String {
    let text = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
    let text = text.trim_end_matches('.');
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("docs/") {
        let len = rest[at..].find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'))).unwrap_or(rest.len() - at);
        let path = rest[at..at + len].trim_end_matches('.');
        out.push_str(&rest[..at]);
        match path.strip_prefix("docs/").filter(|p| p.ends_with(".md")) {
            Some(page) => out.push_str(&format!("[{page}]({page})")),
            None => out.push_str(path),
        }
        rest = &rest[at + path.len()..];
    }
    out.push_str(rest);
    out.replace('|', "\\|")
}

/// The anchor of a command's section of `docs/cli.md` (its heading is `` `rustkeep WORDS` ``).
fn anchor(words: &str) -> String {
    format!("rustkeep-{}", words.replace(' ', "-"))
}

/// The command table of `docs/cli.md`.
fn command_table(cli: &clap::Command) -> String {
    let mut out = String::from("| command | does |\n|---|---|\n");
    for (words, cmd) in commands(cli) {
        out.push_str(&format!("| [`rustkeep {words}{}`](#{}) | {} |\n", positionals(&cmd), anchor(&words), about(&cmd)));
    }
    out
}

#[test]
fn the_command_table_of_cli_md_is_the_definition() {
    let cli = Cli::command();
    let table = command_table(&cli);
    let path = repo_path("docs/cli.md");
    ensure_block_contents(&path, SOURCE, TABLE, &table);
    let page = std::fs::read_to_string(&path).expect("docs/cli.md");
    for (words, _) in commands(&cli) {
        assert!(table.contains(&format!("`rustkeep {words}")), "the table lists `rustkeep {words}`");
        assert!(
            page.contains(&format!("\n## `rustkeep {words}`\n")),
            "docs/cli.md has no section ## `rustkeep {words}` for the table to link to (#{})",
            anchor(&words)
        );
    }
    for needed in ["check", "fmt", "new", "show", "core export", "arena", "completions", "man"] {
        assert!(table.contains(&format!("[`rustkeep {needed}")), "{needed}: {table}");
    }
}

/// A Markdown page's code lines that start with `rustkeep `, with the block's language, and its
/// inline code spans that do, each with its line number.
struct Mentions {
    in_blocks: Vec<(usize, String, String)>,
    inline: Vec<(usize, String)>,
}

fn mentions(page: &str) -> Mentions {
    let mut m = Mentions { in_blocks: Vec::new(), inline: Vec::new() };
    let mut block: Option<String> = None;
    for (i, line) in page.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            block = if block.is_some() { None } else { Some(info.trim().to_string()) };
            continue;
        }
        match &block {
            Some(info) => {
                let code = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
                if is_command(code) {
                    m.in_blocks.push((i + 1, info.clone(), code.to_string()));
                }
            }
            None => {
                for span in line.split('`').skip(1).step_by(2) {
                    if is_command(span) {
                        m.inline.push((i + 1, span.to_string()));
                    }
                }
            }
        }
    }
    m
}

/// Whether a text is a command line of `rustkeep`: its second word is a command or an option.
fn is_command(code: &str) -> bool {
    code.strip_prefix("rustkeep ").is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_alphabetic() || c == '-'))
}

/// The words of a shell command line as a POSIX shell splits them (`shlex`: quotes, escapes, a
/// comment from a `#` that starts a word), up to the first pipe, redirection or list operator
/// (`|`, `>`, `<`, `;`, `&`), which ends the command; a shell variable (`$rec`, `${x}`) stands for
/// a value.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    for word in shlex::Shlex::new(line) {
        let end = word.find(['|', '>', '<', ';', '&']);
        let word = &word[..end.unwrap_or(word.len())];
        if !word.is_empty() {
            words.push(if word.starts_with('$') { "value".to_string() } else { word.to_string() });
        }
        if end.is_some() {
            break;
        }
    }
    words
}

/// Whether a line is a usage synopsis rather than a command: metasyntax, or a placeholder in
/// capitals.
fn is_synopsis(line: &str) -> bool {
    line.contains(['[', '|', '…'])
        || line.split_whitespace().skip(1).any(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || matches!(c, '_' | '.' | ':')))
}

/// What is wrong with the commands and options a synopsis or a mention names, if anything: every
/// word that is a command must be one (a placeholder in capitals stands for any), and every option
/// must be one of its command.
fn names_problem(cli: &clap::Command, line: &str) -> Option<String> {
    let words = shell_words(line);
    let mut cmd = cli;
    let mut path = String::from("rustkeep");
    for word in &words[1..] {
        if word.starts_with(['-', '[']) || word.chars().all(|c| c.is_ascii_uppercase() || matches!(c, '_' | '.')) {
            break;
        }
        if cmd.get_subcommands().next().is_none() {
            break;
        }
        match cmd.find_subcommand(word) {
            Some(sub) => {
                cmd = sub;
                path.push(' ');
                path.push_str(word);
            }
            None => return Some(format!("`{path}` has no command `{word}`")),
        }
    }
    for word in &words[1..] {
        let option = word.trim_start_matches('[').split(['=', ']', '|', '…', '[']).next().unwrap_or("");
        if let Some(long) = option.strip_prefix("--").filter(|l| !l.is_empty()) {
            if !cmd.get_arguments().any(|a| a.get_long() == Some(long) || a.get_all_aliases().is_some_and(|al| al.contains(&long)))
                && !["help", "version"].contains(&long)
            {
                return Some(format!("`{path}` has no option `--{long}`"));
            }
        } else if let Some(short) = option.strip_prefix('-').filter(|s| s.chars().count() == 1).and_then(|s| s.chars().next()) {
            if !cmd.get_arguments().any(|a| a.get_short() == Some(short)) && !['h', 'V'].contains(&short) {
                return Some(format!("`{path}` has no option `-{short}`"));
            }
        }
    }
    None
}

/// The pages whose commands are checked: `docs/` (with `docs/editors/`), the README and the
/// crates' READMEs.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let listed = |dir: &str| rustkeep_data::files::Walk::every_folder(&repo_path(dir), 1).flatten().filter(|e| e.depth() == 1);
    for dir in ["docs", "docs/editors"] {
        for e in listed(dir) {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".md") {
                pages.push(format!("{dir}/{name}"));
            }
        }
    }
    for e in listed("crates") {
        if e.path().join("README.md").is_file() {
            pages.push(format!("crates/{}/README.md", e.file_name().to_string_lossy()));
        }
    }
    pages.sort();
    pages
}

const SHELL: &[&str] = &["sh", "bash", "console", "shell", "yaml", "yml"];

/// The problems of the commands of one page.
fn page_problems(cli: &clap::Command, rel: &str, text: &str) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut parsed = 0;
    let m = mentions(text);
    for (line, info, code) in m.in_blocks {
        let plain = info.is_empty() || info == "text";
        if plain && is_synopsis(&code) {
            problems.extend(names_problem(cli, &code).map(|p| format!("{rel}:{line}: `{code}`: {p}")));
        } else if plain || SHELL.contains(&info.as_str()) {
            parsed += 1;
            if let Err(e) = Cli::try_parse_from(shell_words(&code)) {
                use clap::error::ErrorKind;
                if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
                    let why = e.render().to_string();
                    problems.push(format!("{rel}:{line}: `{code}` does not parse: {}", why.lines().next().unwrap_or("")));
                }
            }
        }
    }
    for (line, code) in m.inline {
        problems.extend(names_problem(cli, &code).map(|p| format!("{rel}:{line}: `{code}`: {p}")));
    }
    (problems, parsed)
}

#[test]
fn every_command_in_the_docs_parses() {
    let cli = Cli::command();
    let mut problems = Vec::new();
    let mut parsed = 0;
    for rel in pages() {
        let text = std::fs::read_to_string(repo_root().join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let (p, n) = page_problems(&cli, &rel, &text);
        problems.extend(p);
        parsed += n;
    }
    assert!(parsed > 40, "found the commands of the docs ({parsed})");
    assert!(problems.is_empty(), "commands in the docs that `rustkeep` does not have:\n{}", problems.join("\n"));
}

#[test]
fn the_command_check_sees_what_does_not_parse() {
    let cli = Cli::command();
    let page = "Run `rustkeep schema --scenario` or `rustkeep chek`.\n\n```sh\nrustkeep check --fix --deny-warnings   # fine\nrustkeep loot core:x --luk 3\nrustkeep graph --format dot | dot -Tsvg > g.svg\n```\n\n```\nrustkeep check [PATH…] [--mods PATH]… [--fixx]\nrustkeep · a new game · seed 7\n```\n";
    let (problems, parsed) = page_problems(&cli, "README.md", page);
    assert_eq!(parsed, 3, "{problems:?}");
    let lines: Vec<&str> = problems.iter().map(|p| p.split(": `").next().unwrap_or("")).collect();
    assert_eq!(lines, ["README.md:5", "README.md:10", "README.md:1", "README.md:1"], "{problems:#?}");
    assert_eq!(shell_words(r#"rustkeep play --replay "$rec" --force > "${rec%.jsonl}.json""#), ["rustkeep", "play", "--replay", "value", "--force"]);
    assert_eq!(shell_words("rustkeep loot 'a b'  # exit code 2"), ["rustkeep", "loot", "a b"]);
    assert_eq!(shell_words(r#"rustkeep x "y # z" a#b"#), ["rustkeep", "x", "y # z", "a#b"]);
    assert_eq!(shell_words("rustkeep graph --format dot|dot -Tsvg; echo"), ["rustkeep", "graph", "--format", "dot"]);
    assert!(names_problem(&cli, "rustkeep core export DIR [--force]").is_none());
    assert!(names_problem(&cli, "rustkeep COMMAND --help").is_none());
    assert!(names_problem(&cli, "rustkeep core exprot DIR").is_some());
}
