//! `docs/getting-started.md` and `docs/arena.md` are executable: this test replays each page in a
//! temporary folder.
//!
//! - A ```` ```toml ```` block directly preceded by a line that is only a file name in backticks and a
//!   colon (`` `mod.toml`: ``) is written to that file, relative to the current folder.
//! - Every line of a ```` ```sh ```` block is a command, run in the current folder: `mkdir DIR`,
//!   `cd DIR`, or `rustkeep ARGS…` with the binary built by Cargo. It must exit with 0, unless the
//!   line ends in a comment `# exit code N`.
//! - A plain ```` ``` ```` block right after a `sh` block is the output of its last command: every
//!   line of it, except those holding `…`, must appear in that output, in that order.
//!
//! Getting started must create a mod, `rustkeep check` it, `rustkeep loot` one of its tables and
//! `rustkeep simulate` a scenario of it; the arena page must run `rustkeep arena` on the
//! scenarios it writes. The test fails if a page stops doing any of them.

use std::path::Path;
use std::process::Command;

use rustkeep_testutil::{repo_path, repo_root, shell_line, tools, TempDir};

#[derive(Debug)]
enum Block {
    File { name: String, body: String },
    Commands(Vec<String>),
    Output(String),
}

/// The page as the blocks this test acts on, in order. Other blocks (illustrations such as a
/// folder tree or a quest written with mistakes) are kept out by the rules above.
fn blocks(page: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = page.lines().peekable();
    let mut previous_text = String::new();
    let mut last_was_sh = false;
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            if !line.trim().is_empty() {
                previous_text = line.trim().to_string();
                last_was_sh = false;
            }
            continue;
        };
        let mut body = String::new();
        for inner in lines.by_ref() {
            if inner.starts_with("```") {
                break;
            }
            body.push_str(inner);
            body.push('\n');
        }
        match info.trim() {
            "sh" => {
                let commands = body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect();
                out.push(Block::Commands(commands));
                last_was_sh = true;
                previous_text.clear();
                continue;
            }
            "toml" => {
                if let Some(name) = previous_text.strip_prefix('`').and_then(|rest| rest.strip_suffix("`:")) {
                    out.push(Block::File { name: name.to_string(), body });
                }
            }
            "" | "text" if last_was_sh => out.push(Block::Output(body)),
            _ => {}
        }
        last_was_sh = false;
        previous_text.clear();
    }
    out
}

/// The words of a command line and its comment (`rustkeep_testutil::shell_line`).
fn words(line: &str) -> (Vec<String>, Option<String>) {
    let l = shell_line(line);
    assert!(!l.open_quote, "unterminated quote in `{line}`");
    (l.words, l.comment)
}

fn expected_exit(comment: Option<&str>) -> i32 {
    let Some(comment) = comment else { return 0 };
    match comment.find("exit code ") {
        Some(at) => comment[at + "exit code ".len()..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("`exit code` without a number in `# {comment}`")),
        None => 0,
    }
}

/// Every expected line (trimmed, without those holding `…`) must be a line of `actual`, in order.
fn assert_output_shows(expected: &str, actual: &str, command: &str) {
    let actual_lines: Vec<&str> = actual.lines().map(str::trim).collect();
    let mut from = 0;
    for want in expected.lines().map(str::trim).filter(|l| !l.is_empty() && !l.contains('…')) {
        match actual_lines[from..].iter().position(|got| *got == want) {
            Some(at) => from += at + 1,
            None => panic!("the page shows the line\n  {want}\nfor `{command}`, but the output (from line {}) is:\n{actual}", from + 1),
        }
    }
}

fn inside(root: &Path, dir: &Path) -> bool {
    dir.starts_with(root)
}

/// What replaying a page did: how many files it wrote and which subcommands ran successfully.
struct Replay {
    files_written: usize,
    ran: Vec<String>,
}

/// Replays `page` (a path from the repository root) in a temporary folder of its own.
fn replay(page: &str) -> Replay {
    let text = std::fs::read_to_string(repo_path(page)).unwrap_or_else(|e| panic!("read {page}: {e}"));
    let tag = page.rsplit('/').next().unwrap_or(page).trim_end_matches(".md");
    let tmp = TempDir::new(tag);
    let mut cwd = tmp.0.clone();
    let mut last: Option<(String, String)> = None; // the last command and its output
    let mut ran: Vec<String> = Vec::new(); // subcommands run successfully
    let mut files_written = 0;

    for block in blocks(&text) {
        match block {
            Block::File { name, body } => {
                let path = cwd.join(&name);
                assert!(inside(&tmp.0, &path), "{page}: `{name}` leaves the temp folder");
                std::fs::create_dir_all(path.parent().expect("a file has a folder")).expect("create the file's folder");
                std::fs::write(&path, body).unwrap_or_else(|e| panic!("write {name}: {e}"));
                files_written += 1;
            }
            Block::Output(expected) => {
                let (command, output) = last.take().expect("an output block follows a command");
                assert_output_shows(&expected, &output, &command);
            }
            Block::Commands(commands) => {
                for line in commands {
                    let (words, comment) = words(&line);
                    let want = expected_exit(comment.as_deref());
                    match words.first().map(String::as_str) {
                        Some("mkdir") => {
                            for dir in &words[1..] {
                                std::fs::create_dir_all(cwd.join(dir)).expect("mkdir");
                            }
                            last = None;
                        }
                        Some("cd") => {
                            let to = cwd.join(words.get(1).expect("cd needs a folder"));
                            cwd = to.canonicalize().unwrap_or_else(|e| panic!("`{line}`: {e}"));
                            assert!(inside(&tmp.0, &cwd), "`{line}` leaves the temp folder");
                            last = None;
                        }
                        Some("rustkeep") => {
                            let out = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
                                .args(&words[1..])
                                .current_dir(&cwd)
                                .env("NO_COLOR", "1")
                                .output()
                                .expect("run rustkeep");
                            let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
                            assert_eq!(
                                out.status.code(),
                                Some(want),
                                "`{line}` (in {}) exited with {:?}, the page expects {want}; output:\n{text}",
                                cwd.display(),
                                out.status.code()
                            );
                            if want == 0 {
                                ran.push(words.get(1).cloned().unwrap_or_default());
                            }
                            last = Some((line.clone(), text));
                        }
                        _ => panic!("{page} runs `{line}`; this test knows only mkdir, cd and rustkeep"),
                    }
                }
            }
        }
    }
    Replay { files_written, ran }
}

#[test]
fn getting_started_commands_run_as_shown() {
    let Replay { files_written, ran } = replay("docs/getting-started.md");
    assert!(files_written >= 4, "the page writes the mod's files (mod.toml and data files); it wrote {files_written}");
    for needed in ["check", "loot", "simulate"] {
        assert!(ran.iter().any(|c| c == needed), "the page must run `rustkeep {needed}` successfully; it ran {ran:?}");
    }
}

#[test]
fn arena_page_commands_run_as_shown() {
    let Replay { files_written, ran } = replay("docs/arena.md");
    assert!(files_written >= 2, "the page writes the scenarios it fights; it wrote {files_written}");
    assert!(ran.iter().filter(|c| *c == "arena").count() >= 2, "the page runs `rustkeep arena` on its scenarios; it ran {ran:?}");
}

#[test]
fn block_rules() {
    let page = "Intro\n```sh\nmkdir m\ncd m   # go in\n```\n`mod.toml`:\n```toml\n[mod]\n```\nnot a file name:\n```toml\nx = 1\n```\n```sh\nrustkeep loot 'a b'  # exit code 2\n```\n```\nrustkeep: …\nline\n```\n";
    let blocks = blocks(page);
    assert_eq!(blocks.len(), 4, "{blocks:?}");
    assert!(matches!(&blocks[0], Block::Commands(c) if c == &["mkdir m", "cd m   # go in"]));
    assert!(matches!(&blocks[1], Block::File { name, body } if name == "mod.toml" && body == "[mod]\n"));
    assert!(matches!(&blocks[3], Block::Output(o) if o == "rustkeep: …\nline\n"));
    let (w, comment) = words("rustkeep loot 'a b'  # exit code 2");
    assert_eq!(w, ["rustkeep", "loot", "a b"]);
    assert_eq!(expected_exit(comment.as_deref()), 2);
    assert_eq!(expected_exit(Some("go in")), 0);
}

// ---------------------------------------------------------------------------------------------
// The CI integration files: `action.yml`, `.pre-commit-hooks.yaml` and the workflow in
// `docs/ci.md`. YAML is read by Python's PyYAML (installed by `.ci/run`) and compared as JSON;
// without PyYAML these tests skip, or fail under `RUSTKEEP_REQUIRE_TOOLS=1`.

fn yaml(text: &str) -> serde_json::Value {
    let mut child = Command::new("python3")
        .args(["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write YAML");
    let out = child.wait_with_output().expect("python3 finishes");
    assert!(out.status.success(), "not valid YAML:\n{}\n{text}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON from python")
}

fn bash_parses(script: &str) -> Result<(), String> {
    let out = Command::new("bash").args(["-n", "-c", script]).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// `${{ inputs.NAME }}` / `inputs.NAME` references in a text.
fn input_references(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("inputs.") {
        let name: String = rest[at + "inputs.".len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
        found.push(name);
        rest = &rest[at + "inputs.".len()..];
    }
    found
}

#[test]
fn github_action_is_a_safe_composite_that_runs_check() {
    if !tools::pyyaml() {
        return;
    }
    let text = std::fs::read_to_string(repo_root().join("action.yml")).expect("action.yml");
    let action = yaml(&text);
    assert!(action["name"].is_string() && action["description"].is_string(), "name and description are required");
    assert_eq!(action["runs"]["using"], "composite");
    let inputs = action["inputs"].as_object().expect("inputs");
    for (name, default) in [("path", "."), ("version", ""), ("sarif", "false"), ("deny-warnings", "false")] {
        let input = &inputs.get(name).unwrap_or_else(|| panic!("input `{name}`"));
        assert!(input["description"].is_string(), "input `{name}` has a description");
        assert_eq!(input["default"], default, "default of `{name}`");
    }
    // Every `inputs.X` the action uses is declared (a typo would silently read as empty).
    for name in input_references(&text) {
        assert!(inputs.contains_key(&name), "action.yml uses `inputs.{name}`, which is not declared");
    }

    let steps = action["runs"]["steps"].as_array().expect("steps");
    let mut runs_check_github = false;
    let mut uploads_sarif = false;
    for step in steps {
        if let Some(script) = step["run"].as_str() {
            assert!(step["shell"].is_string(), "a composite `run` step needs `shell`: {step}");
            assert!(!script.contains("${{"), "expressions belong in `env`, not in the script (injection): {script}");
            if let Err(e) = bash_parses(script) {
                panic!("a step's script does not parse:\n{e}\n{script}");
            }
            if script.contains("rustkeep \"${args[@]}\"") && script.contains("--format github") {
                runs_check_github = true;
                assert!(script.contains("--deny-warnings"), "deny-warnings is honoured");
            }
        }
        if let Some(uses) = step["uses"].as_str() {
            if uses.starts_with("github/codeql-action/upload-sarif@") {
                uploads_sarif = true;
                assert_eq!(step["if"], "${{ inputs.sarif == 'true' }}", "the upload runs only with sarif: true");
                assert!(step["with"]["sarif_file"].is_string());
            }
        }
    }
    assert!(runs_check_github, "a step runs `rustkeep check … --format github`");
    assert!(uploads_sarif, "a step uploads the SARIF");
    let last = steps.last().expect("a last step");
    assert!(last["run"].as_str().is_some_and(|s| s.contains("--format github")), "the check that decides the job's result runs last, after the SARIF upload");
}

#[test]
fn pre_commit_hook_checks_the_whole_workspace_on_toml_changes() {
    if !tools::pyyaml() {
        return;
    }
    let hooks = yaml(&std::fs::read_to_string(repo_root().join(".pre-commit-hooks.yaml")).expect(".pre-commit-hooks.yaml"));
    let hooks = hooks.as_array().expect("a list of hooks");
    let hook = hooks.iter().find(|h| h["id"] == "rustkeep-check").expect("the hook `rustkeep-check`");
    for key in ["id", "name", "entry", "language"] {
        assert!(hook[key].is_string(), "pre-commit requires `{key}`");
    }
    assert!(hook["entry"].as_str().is_some_and(|e| e.starts_with("rustkeep check")));
    assert!(matches!(hook["language"].as_str(), Some("system" | "rust")));
    assert_eq!(hook["pass_filenames"], false, "cross-file rules need the whole workspace");
    // pre-commit matches `files` with Python's `re.search`; ask Python.
    let files = hook["files"].as_str().expect("files");
    let out = Command::new("python3")
        .args([
            "-c",
            "import re, sys; p = re.compile(sys.argv[1]); print(' '.join(str(bool(p.search(f))) for f in sys.argv[2:]))",
            files,
            "mods/m/items.toml",
            "rustkeep.toml",
            "README.md",
            "items.toml.bak",
        ])
        .output()
        .expect("python3 runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "True True False False");
}

#[test]
fn ci_docs_workflow_uses_the_action_with_its_inputs() {
    if !tools::pyyaml() {
        return;
    }
    let root = repo_root();
    let action = yaml(&std::fs::read_to_string(root.join("action.yml")).expect("action.yml"));
    let inputs = action["inputs"].as_object().expect("inputs");
    let page = std::fs::read_to_string(root.join("docs/ci.md")).expect("docs/ci.md");
    let mut workflows = 0;
    for block in page.split("```yaml\n").skip(1) {
        let body = block.split("```").next().expect("a closed block");
        let doc = yaml(body);
        // PyYAML reads the key `on` as the boolean true (YAML 1.1). Only the GitHub workflows that
        // use this repository's action are checked here (the other forges' templates are run by
        // `ci_formats.rs`).
        let uses_action = doc["jobs"].as_object().is_some_and(|jobs| {
            jobs.values().flat_map(|j| j["steps"].as_array().into_iter().flatten()).any(|s| s["uses"].as_str().is_some_and(|u| u.contains("rustkeep-modkit@")))
        });
        if !uses_action {
            continue;
        }
        workflows += 1;
        assert!(doc.get("on").or(doc.get("true")).is_some(), "the workflow has triggers");
        let steps: Vec<&serde_json::Value> = doc["jobs"].as_object().expect("jobs").values().flat_map(|j| j["steps"].as_array().expect("steps")).collect();
        let ours = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.contains("rustkeep-modkit@"))).expect("a step uses the action");
        if ours["with"]["sarif"] == true || ours["with"]["sarif"] == "true" {
            assert_eq!(doc["permissions"]["security-events"], "write", "SARIF upload needs security-events: write");
        }
        for (name, _) in ours["with"].as_object().expect("with") {
            assert!(inputs.contains_key(name), "docs/ci.md passes `{name}`, which action.yml does not declare");
        }
        let checkout = steps.iter().position(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/checkout@")));
        let at = steps.iter().position(|s| std::ptr::eq(*s, *ours));
        assert!(checkout.is_some() && checkout < at, "the repository is checked out before the action runs");
    }
    assert!(workflows >= 1, "docs/ci.md shows a complete workflow");
}
