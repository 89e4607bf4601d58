//! No figure or output of the docs can drift (docs/ARCHITECTURE.md, invariant "Docs that cannot
//! drift"). Every plain block of `docs/` and `README.md` — a fence with no language or `text`:
//! usage synopses, command outputs, folder trees, screens — is one of five kinds, and a block that
//! is none of them fails this test:
//!
//! 1. **generated**: it lies between `<!-- generated from … -->` and `<!-- end of generated: … -->`;
//!    the test that owns the region writes it (`rustkeep_testutil::ensure_block_contents`).
//! 2. **replayed**: on a page `docs_commands.rs` replays ([`REPLAYED`]), the block right after a
//!    `sh` block is the output of its last command, and that test compares them.
//! 3. **output**: the line before it is `<!-- output of: COMMAND -->`. This test runs the command
//!    and compares: every line of the block is a line of the output (standard output, then
//!    standard error; trailing spaces aside), in order and nothing else, except that a line that
//!    is only `…` stands for any number of lines and a `…` inside a line for any text. A block
//!    without `…` that differs is rewritten with the output under `UPDATE_EXPECT=1`; an excerpt
//!    (with `…`) has to be fixed by hand. COMMAND is `rustkeep ARGS…`, or `printf 'TEXT' |
//!    rustkeep ARGS…` (TEXT on standard input), or several joined by ` && ` (each but the last must
//!    succeed; the block is the last one's), followed by clauses after ` ; `:
//!    - `in DIR`: it runs in a copy of the repository's folder DIR (a walkthrough's mod, the
//!      examples, a folder of `crates/rustkeep-cli/tests/docs_outputs/`); without `in`, in an
//!      empty folder, with only the bundled core to load;
//!    - `with DIR`: a copy of DIR is put at the same path in that empty folder (so that
//!      `examples/…` reads as from the repository's root);
//!    - `file PATH`: the block shows the file PATH as the command left it, not the output.
//! 4. **synopsis**: every line is `rustkeep …` or the indented rest of one, in usage notation
//!    (`[--mods PATH]…`, `text|markdown`, placeholders in capitals). Each command's synopsis must
//!    name every option its `--help` lists and no other (`--help` itself aside).
//! 5. **illustration**: the line before it is `<!-- illustration: WHY -->`, saying why it is no
//!    output of a command: a folder tree, a drawing, a message of a bug no input is known to
//!    trigger, a figure of an earlier version (whose prose says which, and when).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use rustkeep_testutil::{copy_dir, repo_path, repo_root, shell_line, update_requested, TempDir};

/// The pages `docs_commands.rs` replays (checked against it below).
const REPLAYED: &[&str] = &["docs/arena.md", "docs/getting-started.md"];

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Generated,
    Replayed,
    Output(Run),
    Synopsis,
    Illustration,
    /// None of the kinds; the reason it is not one of the marked kinds, if it tried.
    Unmarked(Option<String>),
}

/// What an output marker asks for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Run {
    command: String,
    place: Place,
    file: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Empty,
    In(String),
    With(String),
}

#[derive(Debug)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    /// 0-based lines of the body: `lines[body.0..body.1]`.
    body: (usize, usize),
    text: String,
    kind: Kind,
}

const OUTPUT: &str = "<!-- output of:";
const ILLUSTRATION: &str = "<!-- illustration:";

/// Reads an output marker: `Err` says what is wrong with it.
fn parse_marker(marker: &str) -> Result<Run, String> {
    let inner = marker.strip_prefix(OUTPUT).and_then(|m| m.strip_suffix("-->")).ok_or("an output marker is `<!-- output of: COMMAND -->` on one line")?;
    let mut parts = inner.split(" ; ").map(str::trim);
    let command = parts.next().unwrap_or("").to_string();
    if !command.split(" && ").all(|c| c.starts_with("rustkeep ") || c.starts_with("printf ")) {
        return Err(format!("`{command}`: each command is `rustkeep …` or `printf '…' | rustkeep …`"));
    }
    let mut run = Run { command, place: Place::Empty, file: None };
    for clause in parts {
        match clause.split_once(' ') {
            Some(("in", dir)) if run.place == Place::Empty => run.place = Place::In(dir.to_string()),
            Some(("with", dir)) if run.place == Place::Empty => run.place = Place::With(dir.to_string()),
            Some(("file", path)) if run.file.is_none() => run.file = Some(path.to_string()),
            _ => return Err(format!("`{clause}`: a clause is `in DIR`, `with DIR` or `file PATH`, each once, and `in` or `with`")),
        }
    }
    if let Place::In(dir) | Place::With(dir) = &run.place {
        // Only plain names, so the folder is one of the repository's.
        let plain = Path::new(dir).components().all(|c| matches!(c, Component::Normal(_)));
        if !plain || !repo_path(dir).is_dir() {
            return Err(format!("`{dir}` is no folder of the repository"));
        }
    }
    Ok(run)
}

/// Whether a line is a usage synopsis: metasyntax, or a placeholder in capitals.
fn is_synopsis(line: &str) -> bool {
    line.contains(['[', '|', '…'])
        || line.split_whitespace().skip(1).any(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || matches!(c, '_' | '.' | ':')))
}

/// The plain blocks of a page, each with its kind.
fn blocks(page: &str, replayed: bool) -> Vec<Block> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    let mut generated = false;
    let mut last_closed_sh: Option<usize> = None; // the line of the fence closing an `sh` block
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if line.starts_with("<!-- generated from ") {
            generated = true;
        } else if line.starts_with("<!-- end of generated:") {
            generated = false;
        }
        let Some(info) = line.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let info = info.trim();
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].trim_start().starts_with("```") {
            end += 1;
        }
        if info.is_empty() || info == "text" {
            let before = if i > 0 { lines[i - 1].trim() } else { "" };
            let previous_text = lines[..i].iter().rposition(|l| !l.trim().is_empty());
            let body: Vec<&str> = lines[start..end].to_vec();
            let kind = if generated {
                Kind::Generated
            } else if before.starts_with(OUTPUT) {
                match parse_marker(before) {
                    Ok(run) => Kind::Output(run),
                    Err(e) => Kind::Unmarked(Some(e)),
                }
            } else if let Some(why) = before.strip_prefix(ILLUSTRATION) {
                match why.strip_suffix("-->").map(str::trim) {
                    Some(why) if !why.is_empty() => Kind::Illustration,
                    _ => Kind::Unmarked(Some("an illustration says why it is one: `<!-- illustration: WHY -->`".into())),
                }
            } else if replayed && previous_text.is_some() && previous_text == last_closed_sh {
                Kind::Replayed
            } else if body.first().is_some_and(|l| l.starts_with("rustkeep ") && is_synopsis(l))
                && body.iter().all(|l| l.starts_with("rustkeep ") || l.starts_with(' ') || l.trim().is_empty())
            {
                Kind::Synopsis
            } else {
                Kind::Unmarked(None)
            };
            out.push(Block { line: i + 1, body: (start, end), text: body.iter().map(|l| format!("{l}\n")).collect(), kind });
        }
        last_closed_sh = (info == "sh").then_some(end);
        i = end + 1;
    }
    out
}

/// Every page the rule covers: `README.md` and the Markdown of `docs/`, sorted.
fn pages() -> Vec<String> {
    let docs = repo_path("docs");
    let pages = rustkeep_testutil::files_below(&docs, "md");
    let mut out: Vec<String> = pages.iter().map(|p| format!("docs/{}", p.strip_prefix(&docs).unwrap().to_string_lossy().replace('\\', "/"))).collect();
    out.push("README.md".to_string());
    out.sort();
    out
}

fn read(page: &str) -> String {
    std::fs::read_to_string(repo_path(page)).unwrap_or_else(|e| panic!("{page}: {e}")).replace("\r\n", "\n")
}

/// Every page's blocks.
fn all_blocks() -> Vec<(String, Vec<Block>)> {
    pages().into_iter().map(|p| (p.clone(), blocks(&read(&p), REPLAYED.contains(&p.as_str())))).collect()
}

#[test]
fn every_plain_block_of_the_docs_is_generated_replayed_run_or_marked() {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for (page, blocks) in all_blocks() {
        for b in blocks {
            let kind = match &b.kind {
                Kind::Generated => "generated",
                Kind::Replayed => "replayed",
                Kind::Output(_) => "output",
                Kind::Synopsis => "synopsis",
                Kind::Illustration => "illustration",
                Kind::Unmarked(why) => {
                    problems.push(format!(
                        "{page}:{}: {}",
                        b.line,
                        why.clone().unwrap_or_else(|| "a plain block that is no generated region, no replayed output, no synopsis and not marked: put `<!-- output of: rustkeep … -->` (the command that prints it) or `<!-- illustration: why it is no output -->` on the line before it".into())
                    ));
                    "unmarked"
                }
            };
            *counts.entry(kind).or_default() += 1;
        }
    }
    eprintln!("plain blocks of the docs by kind: {counts:?}");
    assert!(
        problems.is_empty(),
        "blocks of the docs no test holds to what they show (the rule: crates/rustkeep-cli/tests/docs_blocks.rs):\n{}",
        problems.join("\n")
    );
    for kind in ["generated", "replayed", "output", "synopsis", "illustration"] {
        assert!(counts.get(kind).is_some_and(|&n| n > 0), "found the {kind} blocks: {counts:?}");
    }
    // The replayed pages are the ones docs_commands.rs replays.
    let source = std::fs::read_to_string(repo_path("crates/rustkeep-cli/tests/docs_commands.rs")).expect("docs_commands.rs");
    let replays: BTreeSet<&str> = source.split("replay(\"").skip(1).filter_map(|s| s.split('"').next()).collect();
    assert_eq!(replays, REPLAYED.iter().copied().collect(), "REPLAYED is the pages docs_commands.rs replays");
}

// ---------------------------------------------------------------------------------------------
// Outputs

/// Whether an output line matches a block's line, where each `…` stands for any text.
fn line_matches(want: &str, got: &str) -> bool {
    let mut pieces = want.split('…');
    let first = pieces.next().unwrap_or("");
    let Some(mut rest) = got.strip_prefix(first) else { return false };
    let pieces: Vec<&str> = pieces.collect();
    for (i, piece) in pieces.iter().enumerate() {
        if i + 1 == pieces.len() {
            return rest.len() >= piece.len() && rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the output's lines are the block's, a line that is only `…` standing for any number
/// of lines.
fn block_matches(want: &[&str], got: &[&str]) -> bool {
    // reach[j]: the first `i` lines of the block match the first `j` of the output.
    let mut reach = vec![false; got.len() + 1];
    reach[0] = true;
    for w in want {
        let mut next = vec![false; got.len() + 1];
        if w.trim() == "…" {
            let mut any = false;
            for j in 0..=got.len() {
                any |= reach[j];
                next[j] = any;
            }
        } else {
            for j in 0..got.len() {
                next[j + 1] = reach[j] && line_matches(w, got[j]);
            }
        }
        reach = next;
    }
    reach[got.len()]
}

/// Lines without trailing spaces, without the blank lines at the end.
fn tidy(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// `printf`'s escapes in a format without `%`.
fn printf_text(format: &str) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// Runs what a marker asks for; the text the block must show, or why it could not be had.
fn run(r: &Run) -> Result<String, String> {
    let tmp = TempDir::new("docs-output");
    let cwd: PathBuf = match &r.place {
        Place::Empty => tmp.0.clone(),
        Place::In(dir) => {
            copy_dir(&repo_path(dir), &tmp.path("work"));
            tmp.path("work")
        }
        Place::With(dir) => {
            copy_dir(&repo_path(dir), &tmp.path(dir));
            tmp.0.clone()
        }
    };
    let commands: Vec<&str> = r.command.split(" && ").collect();
    let mut last = String::new();
    for (i, command) in commands.iter().enumerate() {
        let (input, command) = match command.split_once(" | ") {
            Some((printf, rest)) if printf.starts_with("printf ") => {
                let words = shell_line(printf).words;
                (Some(printf_text(words.get(1).map_or("", String::as_str))), rest)
            }
            _ => (None, *command),
        };
        let words = shell_line(command).words;
        let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
            .args(&words[1..])
            .current_dir(&cwd)
            .env("NO_COLOR", "1")
            .env("XDG_STATE_HOME", tmp.path("state"))
            .env("HOME", tmp.path("home"))
            .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("`{command}` does not start: {e}"))?;
        if let Some(input) = input {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(input.as_bytes()).map_err(|e| format!("`{command}`: {e}"))?;
        }
        let out = child.wait_with_output().map_err(|e| format!("`{command}`: {e}"))?;
        last = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        if i + 1 < commands.len() && !out.status.success() {
            return Err(format!("`{command}` exited with {:?}:\n{last}", out.status.code()));
        }
    }
    match &r.file {
        Some(file) => std::fs::read_to_string(cwd.join(file)).map_err(|e| format!("`{}` left no file {file}: {e}", r.command)),
        None => Ok(last),
    }
}

#[test]
fn marked_outputs_are_what_their_commands_print() {
    let all = all_blocks();
    let runs: BTreeSet<Run> =
        all.iter().flat_map(|(_, bs)| bs.iter()).filter_map(|b| if let Kind::Output(r) = &b.kind { Some(r.clone()) } else { None }).collect();
    assert!(runs.len() >= 10, "the docs mark the outputs they show: {}", runs.len());
    // The commands run side by side (the arena's matrix is the long one).
    let results: BTreeMap<Run, Result<String, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = runs.iter().map(|r| (r.clone(), s.spawn(move || run(r)))).collect();
        handles.into_iter().map(|(r, h)| (r, h.join().expect("a run does not panic"))).collect()
    });
    let update = update_requested();
    let mut problems = Vec::new();
    for (page, blocks) in &all {
        let mut rewrites: Vec<(usize, usize, String)> = Vec::new();
        for b in blocks {
            let Kind::Output(r) = &b.kind else { continue };
            let got = match &results[r] {
                Ok(got) => got,
                Err(e) => {
                    problems.push(format!("{page}:{}: {e}", b.line));
                    continue;
                }
            };
            let (want, have) = (tidy(&b.text), tidy(got));
            if block_matches(&want, &have) {
                continue;
            }
            let excerpt = b.text.contains('…');
            if update && !excerpt {
                rewrites.push((b.body.0, b.body.1, have.iter().map(|l| format!("{l}\n")).collect()));
                continue;
            }
            let how = if excerpt { "an excerpt (with `…`): fix it by hand" } else { "rewritten by this test with UPDATE_EXPECT=1" };
            problems.push(format!(
                "{page}:{}: the block is not what `{}` prints ({how}).\n{}\nThe output:\n{}",
                b.line,
                r.command,
                rustkeep_testutil::diff(&b.text, got),
                have.join("\n")
            ));
        }
        if !rewrites.is_empty() {
            let text = read(page);
            let mut lines: Vec<String> = text.lines().map(|l| format!("{l}\n")).collect();
            for (from, to, body) in rewrites.into_iter().rev() {
                lines.splice(from..to, [body]);
            }
            std::fs::write(repo_path(page), lines.concat()).unwrap_or_else(|e| panic!("write {page}: {e}"));
            eprintln!("updated the outputs of {page}");
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The files a walkthrough writes (a ```` ```toml ```` block right after a line `` `NAME`: ``), in order.
fn walkthrough_files(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find("`:\n```toml\n") {
        let name = rest[..at].rsplit('\n').next().unwrap_or("").trim_start_matches('`').to_string();
        let body = &rest[at + "`:\n```toml\n".len()..];
        let end = body.find("```").expect("a closed block");
        out.push((name, body[..end].to_string()));
        rest = &body[end..];
    }
    out
}

/// `docs_outputs/moth_hunt_draft`, whose check `docs/getting-started.md` shows in "Reading a
/// diagnostic", is the page's mod as that section supposes it: the files the page wrote before,
/// its quest written from memory instead (the first TOML block of the section), the entries after
/// the quest as they were.
#[test]
fn the_draft_mod_of_getting_started_is_the_pages_mod_with_its_draft_quest() {
    let page = read("docs/getting-started.md");
    let (before, section) = page.split_once("## 6. Reading a diagnostic").expect("the section");
    let draft = section.split("```toml\n").nth(1).and_then(|b| b.split("```").next()).expect("the draft quest");
    let dir = repo_path("crates/rustkeep-cli/tests/docs_outputs/moth_hunt_draft");
    let mut expected: Vec<(String, String)> = walkthrough_files(before)
        .into_iter()
        .map(|(name, body)| {
            let body = if name == "quests.toml" {
                // The quest is replaced; the entries after it stay.
                let start = body.find("[[quests]]").expect("the page's quest");
                match body[start..].find("\n\n[[").map(|at| start + at + 2) {
                    Some(end) => format!("{}{draft}\n{}", &body[..start], &body[end..]),
                    None => format!("{}{draft}", &body[..start]),
                }
            } else {
                body
            };
            (name, body)
        })
        .collect();
    expected.sort();
    assert!(expected.len() >= 4, "{expected:?}");
    let mut present: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("the draft mod")
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).expect("a file")))
        .collect();
    present.sort();
    assert_eq!(present, expected, "{} is the page's mod with its draft quest: write it again from the page", dir.display());
}

// ---------------------------------------------------------------------------------------------
// Synopses

/// The command a synopsis line shows (`check`, `core export`) and the options it names.
fn synopsis_line(line: &str) -> (String, BTreeSet<String>) {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let path: Vec<&str> = words.iter().take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-')).copied().collect();
    (path.join(" "), options_in(line))
}

/// The long options a text names (`--mods`, from `[--mods PATH]…` too).
fn options_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let name: String = rest[at + 2..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        if !name.is_empty() && (at == 0 || !rest[..at].ends_with(|c: char| c.is_ascii_alphanumeric())) {
            out.insert(format!("--{name}"));
        }
        rest = &rest[at + 2 + name.len()..];
    }
    out
}

/// The options `rustkeep COMMAND --help` lists, `--help` and `--version` aside.
fn help_options(command: &str) -> Result<BTreeSet<String>, String> {
    let mut args: Vec<&str> = command.split_whitespace().collect();
    args.push("--help");
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(&args).env("NO_COLOR", "1").output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("`rustkeep {command} --help` fails: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let options = help.split("\nOptions:\n").nth(1).ok_or_else(|| format!("`rustkeep {command} --help` lists no options"))?;
    let mut found = BTreeSet::new();
    for line in options.lines().take_while(|l| l.starts_with(' ') || l.is_empty()).map(str::trim_start) {
        // `-h, --help  Print help`, `    --mods <PATH>  Where …`; wrapped descriptions start otherwise.
        let option = match line.get(..4) {
            Some(short) if short.starts_with('-') && short.ends_with(", ") => &line[4..],
            _ if line.starts_with("--") => line,
            _ => continue,
        };
        found.extend(options_in(option.split_whitespace().next().unwrap_or("")));
    }
    found.remove("--help");
    found.remove("--version");
    Ok(found)
}

/// What is wrong with a synopsis block: per command it shows, the options `--help` lists that it
/// leaves out, and those it names that `--help` does not list.
fn synopsis_problems(text: &str, help: impl Fn(&str) -> Result<BTreeSet<String>, String>) -> Vec<String> {
    let mut by_command: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if line.starts_with("rustkeep ") {
            let (command, options) = synopsis_line(line);
            current = command;
            by_command.entry(current.clone()).or_default().extend(options);
        } else {
            by_command.entry(current.clone()).or_default().extend(options_in(line));
        }
    }
    let mut problems = Vec::new();
    for (command, shown) in by_command {
        match help(&command) {
            Err(e) => problems.push(e),
            Ok(real) => {
                let missing: Vec<&String> = real.difference(&shown).collect();
                let unknown: Vec<&String> = shown.iter().filter(|o| !real.contains(*o) && *o != "--help" && *o != "--version").collect();
                if !missing.is_empty() {
                    problems.push(format!("the synopsis of `rustkeep {command}` leaves out {missing:?}"));
                }
                if !unknown.is_empty() {
                    problems.push(format!("the synopsis of `rustkeep {command}` names {unknown:?}, which `rustkeep {command} --help` does not list"));
                }
            }
        }
    }
    problems
}

#[test]
fn synopses_name_every_option_of_their_command_and_no_other() {
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut helps: BTreeMap<String, Result<BTreeSet<String>, String>> = BTreeMap::new();
    for (page, blocks) in all_blocks() {
        for b in blocks.iter().filter(|b| b.kind == Kind::Synopsis) {
            checked += 1;
            for (command, _) in b.text.lines().filter(|l| l.starts_with("rustkeep ")).map(synopsis_line) {
                helps.entry(command.clone()).or_insert_with(|| help_options(&command));
            }
            let found = synopsis_problems(&b.text, |c| helps[c].clone());
            problems.extend(found.into_iter().map(|p| format!("{page}:{}: {p}", b.line)));
        }
    }
    assert!(checked >= 15, "found the synopses: {checked}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The rules themselves

#[test]
fn the_block_rules() {
    let page = "\
# A page
```
rustkeep check [PATH…] [--mods PATH]…
               [--fix]
```
<!-- output of: rustkeep check ; in examples/broken -->
```text
…
3 errors
```
<!-- illustration: a folder tree -->
```
mod/
```
<!-- illustration: -->
```
x
```
<!-- output of: rustkeep check ; at home -->
```
x
```
```sh
rustkeep check
```

```
0 errors
```
<!-- generated from the tests: screen; regenerate with `cargo xtask update` -->
```
screen
```
<!-- end of generated: screen -->
```
made up
```
";
    let kinds: Vec<Kind> = blocks(page, true).into_iter().map(|b| b.kind).collect();
    assert_eq!(kinds.len(), 8, "{kinds:?}");
    assert_eq!(kinds[0], Kind::Synopsis);
    assert_eq!(kinds[1], Kind::Output(Run { command: "rustkeep check".into(), place: Place::In("examples/broken".into()), file: None }));
    assert_eq!(kinds[2], Kind::Illustration);
    assert!(matches!(&kinds[3], Kind::Unmarked(Some(why)) if why.contains("says why")), "{:?}", kinds[3]);
    assert!(matches!(&kinds[4], Kind::Unmarked(Some(why)) if why.contains("a clause is")), "{:?}", kinds[4]);
    assert_eq!((&kinds[5], &kinds[6], &kinds[7]), (&Kind::Replayed, &Kind::Generated, &Kind::Unmarked(None)));
    // Only a replayed page's outputs count as replayed.
    assert_eq!(blocks(page, false)[5].kind, Kind::Unmarked(None));
    assert_eq!(
        parse_marker("<!-- output of: printf 'n\\n' | rustkeep play --line ; with examples ; file a.jsonl -->"),
        Ok(Run { command: "printf 'n\\n' | rustkeep play --line".into(), place: Place::With("examples".into()), file: Some("a.jsonl".into()) })
    );
    assert!(parse_marker("<!-- output of: ls ; in examples -->").is_err());
    assert!(parse_marker("<!-- output of: rustkeep check ; in ../elsewhere -->").is_err());
    assert_eq!(printf_text("map\\nn\\n"), "map\nn\n");

    // Matching: `…` lines stand for any lines, `…` in a line for any text; nothing else is left out.
    let got = ["step 0: player attacks", "  hit for 6", "  #0 turn_started", "final", "  quest done"];
    assert!(block_matches(&["step 0: player attacks", "  hit for …", "…", "final", "…"], &got));
    assert!(block_matches(&["…", "final", "  quest done"], &got));
    assert!(!block_matches(&["step 0: player attacks", "final", "  quest done"], &got), "a line left out without `…`");
    assert!(!block_matches(&["step 0: player attacks", "  hit for 7", "…"], &got), "a changed figure");
    assert!(!block_matches(&["…", "final"], &got), "a line after the last one shown");
    assert!(line_matches("fnv1a64:… then, fnv1a64:… now", "fnv1a64:12 then, fnv1a64:34 now"));
    assert!(!line_matches("a…b", "ab c"));

    // Synopses: every option of the command, no other.
    let help = |c: &str| -> Result<BTreeSet<String>, String> {
        assert_eq!(c, "check");
        Ok(["--mods", "--fix", "--deny-warnings"].iter().map(|s| s.to_string()).collect())
    };
    assert!(synopsis_problems("rustkeep check [PATH…] [--mods PATH]…\n               [--fix] [--deny-warnings]\n", help).is_empty());
    let p = synopsis_problems("rustkeep check [--mods PATH]… [--fixx]\n", help);
    assert!(p.len() == 2 && p[0].contains("leaves out [\"--deny-warnings\", \"--fix\"]") && p[1].contains("--fixx"), "{p:?}");
    assert_eq!(synopsis_line("rustkeep core export DIR [--force]"), ("core export".to_string(), ["--force".to_string()].into_iter().collect()));
    assert_eq!(synopsis_line("rustkeep completions bash|zsh").0, "completions");
    assert_eq!(tidy("a  \nb\n\n\n"), ["a", "b"]);
    assert!(repo_root().join(REPLAYED[0]).is_file());
}
