//! End-to-end tests of `rustkeep fmt` (and of `check --fix` keeping formatted files formatted):
//! the real binary on temporary mods.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{output_with_input, run, run_with_input, rustkeep_in, stderr, stdout};
use rustkeep_testutil::TempDir;

const MANIFEST: &str = "[mod]\nversion = \"0.1.0\"\nname = \"Lamp\"\nid = \"lamp\"\n";
const MANIFEST_FORMATTED: &str = "[mod]\nid = \"lamp\"\nname = \"Lamp\"\nversion = \"0.1.0\"\n";
const ITEMS: &str = "[[items]]\nname = \"Oil Lamp\"\nid = \"lamp:oil_lamp\"\ntags=[\"lamp:light\",]\n";
const ITEMS_FORMATTED: &str = "[[items]]\nid = \"lamp:oil_lamp\"\nname = \"Oil Lamp\"\ntags = [\n  \"lamp:light\",\n]\n";
const FORMATTED: &str = "[[npcs]]\nid = \"lamp:keeper\"\nname = \"Keeper\"\n";

fn lamp_mod() -> TempDir {
    TempDir::with_files("lamp", &[("lamp/mod.toml", MANIFEST), ("lamp/items.toml", ITEMS), ("lamp/npcs.toml", FORMATTED)])
}

#[test]
fn formats_every_file_of_the_mods_in_place() {
    let t = lamp_mod();
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/mod.toml"), MANIFEST_FORMATTED);
    assert_eq!(t.read("lamp/items.toml"), ITEMS_FORMATTED);
    assert_eq!(t.read("lamp/npcs.toml"), FORMATTED);
    assert!(stderr(&o).contains("2 files reformatted, 1 file already formatted"), "{}", stderr(&o));
    // Nothing left behind, and a second run changes nothing.
    assert_eq!(t.names(), vec!["items.toml", "mod.toml", "npcs.toml"]);
    let o = run(&t.0, &["fmt"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("0 files reformatted, 3 files already formatted"), "{}", stderr(&o));
}

/// A mod's scenarios are part of it for `check`, `test` and `new`, so `fmt` formats them too
/// (layout only: a scenario's keys keep the order they are written in).
#[test]
fn the_scenarios_of_a_mod_are_formatted_with_it() {
    let t = lamp_mod();
    let scenario = "seed = 1\nmods = [\"..\"]\n[player]\nitems=[{item=\"lamp:oil_lamp\"},]\n[[expect]]\nhas_item = \"lamp:oil_lamp\"\n";
    let formatted = "seed = 1\nmods = [\"..\"]\n\n[player]\nitems = [\n  { item = \"lamp:oil_lamp\" },\n]\n\n[[expect]]\nhas_item = \"lamp:oil_lamp\"\n";
    t.write("lamp/scenarios/smoke.toml", scenario);
    let o = run(&t.0, &["fmt", "--check", "lamp"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "lamp/scenarios/smoke.toml"), "{}", stdout(&o));
    assert_eq!(t.read("lamp/scenarios/smoke.toml"), scenario, "--check changes nothing");
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/scenarios/smoke.toml"), formatted);
    // From inside the mod too, and formatted it stays as it is.
    let o = run(&t.path("lamp"), &["fmt", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("4 files already formatted"), "{}", stderr(&o));
}

/// The scenarios in a workspace's own `scenarios/` folder are formatted with its mods, from the
/// root and from inside that folder, keeping every comment: above a key, after a value, inside
/// an array and after a separating comma, after a header.
#[test]
fn the_scenarios_of_a_workspace_are_formatted_with_every_comment_kept() {
    let t = lamp_mod();
    t.write("rustkeep.toml", "[workspace]\nmods = [\"lamp\"]\n");
    let scenario = "# The lamp is carried.\nseed = 1 # any seed\nmods = [\"../lamp\"]\n[player]\nitems=[\n  # the lamp\n  {item=\"lamp:oil_lamp\"} # lit\n  , # after the comma\n]\n[[expect]] # at the end\nhas_item = \"lamp:oil_lamp\"\n";
    let formatted = "# The lamp is carried.\nseed = 1 # any seed\nmods = [\"../lamp\"]\n\n[player]\nitems = [\n  # the lamp\n  { item = \"lamp:oil_lamp\" }, # lit\n  # after the comma\n]\n\n[[expect]] # at the end\nhas_item = \"lamp:oil_lamp\"\n";
    t.write("scenarios/lamp.toml", scenario);
    let o = run(&t.0, &["fmt", "--check"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "scenarios/lamp.toml"), "{}", stdout(&o));
    assert_eq!(t.read("scenarios/lamp.toml"), scenario, "--check changes nothing");
    let o = run(&t.path("scenarios"), &["fmt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("scenarios/lamp.toml"), formatted);
    let o = run(&t.0, &["fmt", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("0 files would be reformatted, 5 files already formatted"), "{}", stderr(&o));
    // It still runs as it did.
    let o = run(&t.0, &["test"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "1 passed, 0 failed (1 scenario)\n"));
}

#[test]
fn check_lists_the_files_that_would_change_and_changes_nothing() {
    let t = lamp_mod();
    let o = run(&t.0, &["fmt", "--check", "lamp"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "lamp/items.toml\nlamp/mod.toml\n");
    assert_eq!(t.read("lamp/items.toml"), ITEMS);
    assert_eq!(t.read("lamp/mod.toml"), MANIFEST);
    run(&t.0, &["fmt", "lamp"]);
    let o = run(&t.0, &["fmt", "--check", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn diff_prints_a_unified_diff_and_changes_nothing() {
    let t = lamp_mod();
    let o = run(&t.0, &["fmt", "--diff", "lamp"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let d = stdout(&o);
    assert!(d.contains("--- a/lamp/items.toml\n+++ b/lamp/items.toml\n@@ -1,4 +1,6 @@\n [[items]]\n-name = \"Oil Lamp\"\n id = \"lamp:oil_lamp\"\n"), "{d}");
    assert!(d.contains("--- a/lamp/mod.toml\n"), "{d}");
    assert!(!d.contains("npcs.toml"), "{d}");
    assert_eq!(t.read("lamp/items.toml"), ITEMS);
    // `patch` (where present) applies it and gets the formatted files.
    if Command::new("patch").arg("--version").output().is_ok() {
        let mut child = Command::new("patch").args(["-p1", "-s"]).current_dir(&t.0).stdin(Stdio::piped()).spawn().unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), d.as_bytes()).unwrap();
        drop(child.stdin.take());
        assert!(child.wait().unwrap().success());
        assert_eq!(t.read("lamp/items.toml"), ITEMS_FORMATTED);
        assert_eq!(t.read("lamp/mod.toml"), MANIFEST_FORMATTED);
    }
}

#[test]
fn a_dash_formats_standard_input_to_standard_output() {
    let t = TempDir::new("stdin");
    let o = run_with_input(&t.0, &["fmt", "-"], ITEMS);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), ITEMS_FORMATTED);
    // The file name decides which key orders apply.
    let o = run_with_input(&t.0, &["fmt", "-", "--stdin-filename", "lamp/mod.toml"], MANIFEST);
    assert_eq!(stdout(&o), MANIFEST_FORMATTED);
    // --check: no text, the answer is the exit code.
    let o = run_with_input(&t.0, &["fmt", "--check", "-"], ITEMS);
    assert_eq!((o.status.code(), stdout(&o)), (Some(1), "<stdin>\n".to_string()));
    let o = run_with_input(&t.0, &["fmt", "--check", "-"], ITEMS_FORMATTED);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), String::new()));
    // A syntax error: nothing on standard output, the error on standard error, exit 2.
    let o = run_with_input(&t.0, &["fmt", "-"], "a = 1\na = 2\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("error[toml-syntax]") && stderr(&o).contains("<stdin>:2:1"), "{}", stderr(&o));
}

#[test]
fn a_file_with_a_syntax_error_is_reported_untouched_and_the_others_are_formatted() {
    let t = lamp_mod();
    let broken = "[[items]]\nid = \"lamp:wick\"\nname = \"Wick\" price = 3\n";
    t.write("lamp/broken.toml", broken);
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("error[toml-syntax]") && e.contains("lamp/broken.toml:3:15") && e.contains("the file was not formatted"), "{e}");
    assert_eq!(t.read("lamp/broken.toml"), broken);
    assert_eq!(t.read("lamp/items.toml"), ITEMS_FORMATTED);
    // --check reports it the same way, with exit 2 winning over 1.
    t.write("lamp/items.toml", ITEMS);
    let o = run(&t.0, &["fmt", "--check", "lamp"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("lamp/broken.toml:3:15"), "{}", stderr(&o));
    // An unclosed bracket is one error at its opening, with where reading gave up, as in `check`.
    let unclosed = "[[items]]\nid = \"lamp:wick\"\nname = \"Wick\"\ntags = [\"lamp:light\"\n\n[[items]]\nid = \"lamp:oil\"\nname = \"Oil\"\n";
    t.write("lamp/broken.toml", unclosed);
    let o = run(&t.0, &["fmt", "--check", "lamp/broken.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.matches("error[toml-syntax]").count(), 1, "{e}");
    assert!(e.contains("this array opened on line 4 is never closed; the file was not formatted") && e.contains("lamp/broken.toml:4:8"), "{e}");
    assert!(e.contains("6 │ [[items]]") && e.contains("reading gave up here"), "{e}");
    // Bytes that are not UTF-8 are a syntax error too.
    t.write("lamp/broken.toml", "");
    std::fs::write(t.path("lamp/broken.toml"), b"a = \"\xff\"\n").unwrap();
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid UTF-8"), "{}", stderr(&o));
    assert_eq!(std::fs::read(t.path("lamp/broken.toml")).unwrap(), b"a = \"\xff\"\n");
}

/// The security review's case: a comment after an element and another after the comma on the next
/// line. Both are kept, each where it was between the two elements.
const TWO_COMMENTS: &str = "[[items]]\nid = \"lamp:wick\"\nname = \"Wick\"\ntags = [\n  \"x\" # A\n  , # B\n  \"y\",\n]\n";
const TWO_COMMENTS_FORMATTED: &str = "[[items]]\nid = \"lamp:wick\"\nname = \"Wick\"\ntags = [\n  \"x\", # A\n  # B\n  \"y\",\n]\n";

#[test]
fn a_comment_before_a_separating_comma_is_kept() {
    let t = lamp_mod();
    t.write("lamp/wick.toml", TWO_COMMENTS);
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/wick.toml"), TWO_COMMENTS_FORMATTED);
    let o = run_with_input(&t.0, &["fmt", "-"], TWO_COMMENTS);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), TWO_COMMENTS_FORMATTED.to_string()), "{}", stderr(&o));
}

/// A file whose formatting would lose a comment is left as it is, with one message naming the line
/// of that comment, and exit 2 — by `fmt`, `--check`, `--diff` and `-` alike, while the other files
/// are formatted. `RUSTKEEP_TEST_FMT_LOSE_COMMENT` makes the formatter's result lose its first
/// comment, as a bug would; the formatter's check must catch it.
#[test]
fn a_file_whose_formatting_would_lose_a_comment_is_left_alone_with_one_message() {
    // `input`: given on standard input, with the arguments for it.
    let losing = |dir: &Path, args: &[&str], input: Option<&str>| {
        let mut command = rustkeep_in(dir);
        command.args(args).env("RUSTKEEP_TEST_FMT_LOSE_COMMENT", "1");
        output_with_input(command, input.unwrap_or(""))
    };
    let said = "lamp/wick.toml: formatting would lose the comment on line 5 (a bug of the formatter); the file is left as it is";
    let t = lamp_mod();
    t.write("lamp/wick.toml", TWO_COMMENTS);
    for (args, summary) in [
        (&["fmt", "--check", "lamp"][..], "2 files would be reformatted, 1 file already formatted"),
        (&["fmt", "--diff", "lamp"][..], "2 files would be reformatted, 1 file already formatted"),
        (&["fmt", "lamp"][..], "2 files reformatted, 1 file already formatted"),
    ] {
        let o = losing(&t.0, args, None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.matches("lamp/wick.toml").count(), 1, "{args:?}: one message for the file: {e}");
        assert!(e.contains(&format!("rustkeep: {said}\n")) && e.contains(summary), "{args:?}: {e}");
        assert!(!stdout(&o).contains("wick"), "{args:?}: not listed or diffed as a change: {}", stdout(&o));
        assert_eq!(t.read("lamp/wick.toml"), TWO_COMMENTS, "{args:?}");
    }
    // The other files were formatted (they hold no comment to lose).
    assert_eq!(t.read("lamp/items.toml"), ITEMS_FORMATTED);
    let o = losing(&t.0, &["fmt", "-", "--stdin-filename", "lamp/wick.toml"], Some(TWO_COMMENTS));
    assert_eq!((o.status.code(), stdout(&o)), (Some(2), String::new()), "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("rustkeep: {said}\n"));
}

#[test]
fn line_endings_and_byte_order_marks_are_kept_on_disk() {
    let t = lamp_mod();
    t.write("lamp/items.toml", format!("\u{feff}{}", ITEMS.replace('\n', "\r\n")));
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/items.toml"), format!("\u{feff}{}", ITEMS_FORMATTED.replace('\n', "\r\n")));
}

/// `fmt lamp` on the lamp mod with its items file given the permissions `mode`: the mod, and what
/// the command printed.
#[cfg(unix)]
fn fmt_with_items_mode(mode: u32) -> (TempDir, Output) {
    use std::os::unix::fs::PermissionsExt;
    let t = lamp_mod();
    std::fs::set_permissions(t.path("lamp/items.toml"), std::fs::Permissions::from_mode(mode)).unwrap();
    let o = run(&t.0, &["fmt", "lamp"]);
    (t, o)
}

#[cfg(unix)]
#[test]
fn writes_keep_permissions_and_leave_nothing_behind() {
    use std::os::unix::fs::PermissionsExt;
    let (t, o) = fmt_with_items_mode(0o640);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/items.toml"), ITEMS_FORMATTED);
    assert_eq!(std::fs::metadata(t.path("lamp/items.toml")).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(t.names(), vec!["items.toml", "mod.toml", "npcs.toml"]);
}

#[cfg(unix)]
#[test]
fn a_file_that_cannot_be_written_is_left_as_it_was_with_exit_2() {
    // A read-only file is refused even where the folder would allow replacing it (and even for
    // root, who may write anything).
    let (t, o) = fmt_with_items_mode(0o444);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write lamp/items.toml") && stderr(&o).contains("left as it was"), "{}", stderr(&o));
    assert_eq!(t.read("lamp/items.toml"), ITEMS);
    assert_eq!(t.read("lamp/mod.toml"), MANIFEST_FORMATTED, "the other files are still formatted");
    assert_eq!(t.names(), vec!["items.toml", "mod.toml", "npcs.toml"]);
}

#[test]
fn a_missing_path_is_an_error() {
    let t = TempDir::new("missing");
    let o = run(&t.0, &["fmt", "nowhere"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere: no such file or folder"), "{}", stderr(&o));
}

#[test]
fn a_single_file_is_formatted_alone() {
    let t = lamp_mod();
    let o = run(&t.0, &["fmt", "lamp/items.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/items.toml"), ITEMS_FORMATTED);
    assert_eq!(t.read("lamp/mod.toml"), MANIFEST, "only the file named");
}

#[test]
fn the_workspace_format_table_applies() {
    let t = lamp_mod();
    t.write("rustkeep.toml", "[workspace]\nmods = [\"lamp\"]\n\n[format]\nline_width = 30\nreorder_keys = false\n");
    t.write("lamp/items.toml", "[[items]]\nname = \"Oil Lamp\"\nid = \"lamp:oil_lamp\"\ntags = [\"lamp:light\", \"lamp:oil\"]\n");
    let o = run(&t.0, &["fmt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(t.read("lamp/items.toml"), "[[items]]\nname = \"Oil Lamp\"\nid = \"lamp:oil_lamp\"\ntags = [\n  \"lamp:light\",\n  \"lamp:oil\",\n]\n");
    // The same for a single file below the workspace, and for standard input named into it.
    t.write("lamp/npcs.toml", "[[npcs]]\nname = \"Keeper\"\nid = \"lamp:keeper\"\non_talk = [{ action = \"open_shop\", shop = \"lamp:shop\" }]\n");
    let o = run(&t.0, &["fmt", "lamp/npcs.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(t.read("lamp/npcs.toml").starts_with("[[npcs]]\nname = \"Keeper\"\nid = \"lamp:keeper\"\non_talk = [\n"), "{}", t.read("lamp/npcs.toml"));
    let o = run_with_input(&t.0, &["fmt", "-", "--stdin-filename", "lamp/x.toml"], "tags = [\"lamp:light\", \"lamp:oil\"]\n");
    assert_eq!(stdout(&o), "tags = [\n  \"lamp:light\",\n  \"lamp:oil\",\n]\n");
    // A wrong [format] value is a finding of `check`, and `fmt` keeps the default.
    t.write("rustkeep.toml", "[workspace]\nmods = [\"lamp\"]\n\n[format]\nline_width = \"wide\"\n");
    let o = run(&t.0, &["check", "--format", "json"]);
    assert!(stdout(&o).contains("`line_width` must be an integer"), "{}", stdout(&o));
}

/// A file that already uses TOML 1.1-only syntax is formatted without more of it, and `fmt` says
/// once for the file, at its first use, that it needs a TOML 1.1 reader; with
/// `toml_version = "1.1"` that syntax was chosen, and nothing is said.
#[test]
fn a_file_using_toml_1_1_syntax_gets_one_note_and_no_more_of_it() {
    let t = lamp_mod();
    let items = "[[items]]\nid = \"lamp:oil_lamp\"\nname = \"Oil Lamp\"\nmodifiers = [ { attribute = \"damage\",\n  add = 1 } ]\n\n[[items]]\nid = \"lamp:wick\"\nname = \"Wick\\e\"\nmodifiers = [ { attribute = \"damage\", add = 5, condition = [ { check = \"health_below\", who = \"self\", value = 0.5 } ] } ]\n";
    t.write("lamp/items.toml", items);
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("rustkeep: note: ")).collect();
    let out = t.read("lamp/items.toml");
    // The inline table across two lines is joined (TOML 1.0 again); the long one of the second
    // item stays on one line; the escape `\e` is kept, and the note names it where it is now.
    assert!(out.contains("modifiers = [ { attribute = \"damage\", add = 1 } ]\n"), "{out}");
    assert!(out.contains("  { attribute = \"damage\", add = 5, condition = [ { check = \"health_below\", who = \"self\", value = 0.5 } ] },\n"), "{out}");
    let line = out.lines().position(|l| l.contains("\\e")).expect("the escape is kept") + 1;
    let column = out.lines().nth(line - 1).unwrap().find("\\e").unwrap() + 1;
    assert_eq!(
        notes,
        [format!("rustkeep: note: lamp/items.toml:{line}:{column}: the escape `\\e` needs a TOML 1.1 reader; TOML 1.0 readers (Taplo, Even Better TOML, Python's tomllib) refuse this file")],
        "{err}\n{out}"
    );
    // The other files say nothing.
    assert!(!stderr(&o).contains("mod.toml") && !stderr(&o).contains("npcs.toml"), "{}", stderr(&o));
    // Chosen in the workspace: no note.
    t.write("rustkeep.toml", "[workspace]\nmods = [\"lamp\"]\n\n[format]\ntoml_version = \"1.1\"\n");
    t.write("lamp/items.toml", items);
    let o = run(&t.0, &["fmt", "lamp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
}

#[test]
fn check_fix_keeps_a_formatted_file_formatted() {
    let t = TempDir::with_files("fix", &[("lamp/mod.toml", MANIFEST_FORMATTED)]);
    // Formatted, with a typo whose fix makes the trigger too long for one line (a dropped letter:
    // an unsafe fix, so `--unsafe-fixes` applies it).
    let line = "triggers = [ { on = \"room_entred\", actions = [ { action = \"start_quest\", quest = \"lamp:lite\" } ] } ]";
    assert_eq!(line.len(), 100);
    let text = format!("[[items]]\nid = \"lamp:oil_lamp\"\nname = \"Oil Lamp\"\n{line}\n");
    let opts = rustkeep_fmt::FormatOptions::default();
    assert_eq!(rustkeep_fmt::format_document(&text, &opts).unwrap(), text, "formatted before the fix");
    let naive = text.replace("room_entred", "room_entered");
    let formatted = rustkeep_fmt::format_document(&naive, &opts).unwrap();
    assert_ne!(naive, formatted, "the fix alone would leave it unformatted");
    t.write("lamp/items.toml", &text);
    let o = run(&t.0, &["check", "--fix", "--unsafe-fixes", "lamp"]);
    assert!(stderr(&o).contains("applied 1 fix"), "{}", stderr(&o));
    assert_eq!(t.read("lamp/items.toml"), formatted);
    // A file that was not formatted gets the fix only.
    let unformatted = text.replace("name = \"Oil Lamp\"", "name   =   \"Oil Lamp\"");
    t.write("lamp/items.toml", &unformatted);
    run(&t.0, &["check", "--fix", "--unsafe-fixes", "lamp"]);
    assert_eq!(t.read("lamp/items.toml"), unformatted.replace("room_entred", "room_entered"));
}

// ----- CI: the GitHub Action's format-check and the pre-commit hook ----------------------------

/// `action.yml`, its steps, and its step `id`, which runs when the input `input` — off by
/// default — is `'true'`.
fn step_on_request(input: &str, id: &str) -> (serde_json::Value, Vec<serde_json::Value>, serde_json::Value) {
    let action = yaml("action.yml");
    assert_eq!(action["inputs"][input]["default"], "false", "the input `{input}` is off by default");
    let steps = action["runs"]["steps"].as_array().expect("the action's steps").clone();
    let step = steps.iter().find(|s| s["id"] == id).unwrap_or_else(|| panic!("a step with id `{id}`")).clone();
    assert_eq!(step["if"], format!("${{{{ inputs.{input} == 'true' }}}}"));
    (action, steps, step)
}

/// A YAML file of the repository as JSON (PyYAML, as the other CI tests read it).
fn yaml(rel: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    let out = Command::new("python3")
        .args(["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]).read())))"])
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{rel}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Runs a step's script as the runner would, with `rustkeep` on PATH; returns (exit, stdout, GITHUB_OUTPUT).
fn run_step(dir: &TempDir, script: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_rustkeep")).parent().unwrap().to_path_buf();
    let output_file = dir.path("github_output");
    std::fs::write(&output_file, "").unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new("bash");
    cmd.args(["-c", script]).current_dir(&dir.0).env("PATH", path).env("RUNNER_TEMP", &dir.0).env("GITHUB_OUTPUT", &output_file);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap();
    (o.status.code().unwrap_or(-1), stdout(&o), std::fs::read_to_string(&output_file).unwrap())
}

#[test]
fn the_action_checks_formatting_on_request_and_fails_after_the_check() {
    if !rustkeep_testutil::tools::pyyaml() {
        return;
    }
    let (_, steps, format) = step_on_request("format-check", "format");
    let format_script = format["run"].as_str().unwrap();
    assert!(format_script.contains("rustkeep fmt --check"));
    let check = steps.last().unwrap();
    assert_eq!(check["env"]["RK_UNFORMATTED"], "${{ steps.format.outputs.unformatted }}");
    let check_script = check["run"].as_str().unwrap();

    // The scripts at work: an unformatted mod is annotated, the diff logged, the job failed by the
    // last step even though `rustkeep check` itself passes.
    let t = lamp_mod();
    let (code, out, gh) = run_step(&t, format_script, &[("RK_PATH", "lamp")]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("::error file=lamp/items.toml,title=rustkeep fmt::not formatted"), "{out}");
    assert!(out.contains("::group::rustkeep fmt --diff") && out.contains("+++ b/lamp/items.toml"), "{out}");
    assert_eq!(gh, "unformatted=true\n");
    let (code, out, _) = run_step(&t, check_script, &[("RK_PATH", "lamp"), ("RK_DENY_WARNINGS", "false"), ("RK_UNFORMATTED", "true")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("files are not formatted"), "{out}");
    // Formatted: nothing to say, the check decides alone.
    run(&t.0, &["fmt", "lamp"]);
    let (code, out, gh) = run_step(&t, format_script, &[("RK_PATH", "lamp")]);
    assert_eq!((code, gh.as_str()), (0, ""), "{out}");
    assert!(!out.contains("::error"), "{out}");
    let (code, out, _) = run_step(&t, check_script, &[("RK_PATH", "lamp"), ("RK_DENY_WARNINGS", "false"), ("RK_UNFORMATTED", "")]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn the_pre_commit_hook_formats_the_whole_workspace() {
    if !rustkeep_testutil::tools::pyyaml() {
        return;
    }
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hook = hooks.as_array().unwrap().iter().find(|h| h["id"] == "rustkeep-fmt").expect("the hook `rustkeep-fmt`");
    assert_eq!(hook["entry"], "rustkeep fmt");
    assert_eq!(hook["language"], "system");
    // Discovery decides which files are mod files; passing names would also format Cargo.toml.
    assert_eq!(hook["pass_filenames"], false);
    assert_eq!(hook["files"], "\\.toml$");
}

/// What `rustkeep fmt` writes by default reads in a TOML 1.0 reader (Python's `tomllib`) as the
/// value it read before: the bundled core, the example mods and a generated workspace of 24 mods
/// (whose layout is not the canonical one, so most of its files change).
#[test]
fn the_core_the_examples_and_a_generated_pack_format_to_toml_1_0() {
    if !rustkeep_testutil::tools::python_module("tomllib", "Python 3.11 or later as `python3`") {
        return;
    }
    let t = TempDir::new("fmt-toml-1-0");
    assert_eq!(run(&t.0, &["core", "export", "core"]).status.code(), Some(0));
    let examples = rustkeep_testutil::repo_path("examples");
    for m in ["fire_and_thorns", "rat_catcher"] {
        for e in std::fs::read_dir(examples.join(m)).unwrap().flatten().filter(|e| e.path().extension().is_some_and(|x| x == "toml")) {
            t.write(&format!("examples/{m}/{}", e.file_name().to_string_lossy()), std::fs::read_to_string(e.path()).unwrap());
        }
    }
    for (path, text) in rustkeep_testutil::modpack::workspace(24) {
        t.write(&format!("pack/{path}"), &text);
    }
    // Every file as it was, read by tomllib before formatting.
    const READ_ALL: &str = r#"
import json, pathlib, sys, tomllib
root = pathlib.Path(sys.argv[1])
out = {}
for f in sorted(root.rglob("*.toml")):
    try:
        out[str(f.relative_to(root))] = json.loads(json.dumps(tomllib.loads(f.read_text(encoding="utf-8")), default=str))
    except tomllib.TOMLDecodeError as e:
        out[str(f.relative_to(root))] = "refused: " + str(e)
print(json.dumps(out, sort_keys=True))
"#;
    let read_all = || -> serde_json::Value {
        let o = Command::new("python3").args(["-c", READ_ALL]).arg(&t.0).output().expect("python3 runs");
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).expect("JSON")
    };
    let before = read_all();
    let files = before.as_object().unwrap();
    assert!(files.len() > 60, "{} files", files.len());
    let before_core = t.read("core/affixes.toml");
    // The exported core is no mod (it has no `mod.toml`): its files are named one by one.
    let mut core: Vec<String> = std::fs::read_dir(t.0.join("core")).unwrap().flatten().map(|e| format!("core/{}", e.file_name().to_string_lossy())).collect();
    core.sort();
    let core: Vec<&str> = core.iter().map(String::as_str).collect();
    for paths in [&core[..], &["examples/fire_and_thorns", "examples/rat_catcher", "pack"]] {
        let o = run(&t.0, &[&["fmt"], paths].concat());
        assert_eq!(o.status.code(), Some(0), "{paths:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("note:"), "{paths:?}: no file needs a TOML 1.1 reader:\n{}", stderr(&o));
    }
    let after = read_all();
    for (path, value) in files {
        assert!(!value.as_str().is_some_and(|s| s.starts_with("refused")), "{path} was not TOML 1.0 before: {value}");
        assert_eq!(&after[path], value, "{path}: tomllib reads another value after `rustkeep fmt`");
    }
    // The core and the examples are kept formatted; the generated pack was not.
    assert_eq!(t.read("core/affixes.toml"), before_core);
    let o = run(&t.0, &[&["fmt", "--check", "examples/fire_and_thorns", "examples/rat_catcher"], &core[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// `test: true` of the action: the test step annotates each failed expectation on its line and
/// records the failure without stopping the job; the check step then fails the job after the
/// check has run (and passes when the expectations hold).
#[test]
fn the_action_runs_the_scenarios_on_request_and_fails_after_the_check() {
    if !rustkeep_testutil::tools::pyyaml() {
        return;
    }
    let (_, steps, test) = step_on_request("test", "test");
    let test_script = test["run"].as_str().unwrap();
    let check = steps.last().unwrap();
    assert_eq!(check["env"]["RK_TEST_FAILED"], "${{ steps.test.outputs.failed }}");
    let check_script = check["run"].as_str().unwrap();

    let t = lamp_mod();
    let scenario = |count: u32| format!("seed = 1\n\n[player]\noptions = [\"core:warrior\"]\n\n[[expect]]\nhas_item = \"core:iron_sword\"\ncount = {count}\n");
    t.write("lamp/scenarios/kit.toml", scenario(5));
    let (code, out, gh) = run_step(&t, test_script, &[("RK_PATH", "lamp")]);
    assert_eq!(code, 0, "the step records the failure and lets the check run: {out}");
    assert!(
        out.contains("::error file=lamp/scenarios/kit.toml,line=6,title=rustkeep test::expect core:iron_sword carried by player: expected 5, got 1"),
        "{out}"
    );
    assert_eq!(gh, "failed=true\n");
    let env = |failed: &'static str| [("RK_PATH", "lamp"), ("RK_DENY_WARNINGS", "false"), ("RK_UNFORMATTED", ""), ("RK_TEST_FAILED", failed)];
    let (code, out, _) = run_step(&t, check_script, &env("true"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("expectations failed (test: true)"), "{out}");
    // The expectation holds: nothing recorded, the check decides alone.
    t.write("lamp/scenarios/kit.toml", scenario(1));
    let (code, out, gh) = run_step(&t, test_script, &[("RK_PATH", "lamp")]);
    assert_eq!((code, gh.as_str()), (0, ""), "{out}");
    assert!(!out.contains("::error") && out.contains("1 passed, 0 failed"), "{out}");
    let (code, out, _) = run_step(&t, check_script, &env(""));
    assert_eq!(code, 0, "{out}");
}

/// `doc: true` of the action: the doc step writes the site and names its folder for the upload,
/// data with errors included (the check step fails the job on them).
#[test]
fn the_action_writes_the_documentation_site_on_request() {
    if !rustkeep_testutil::tools::pyyaml() {
        return;
    }
    let (action, steps, doc) = step_on_request("doc", "doc");
    assert_eq!(action["inputs"]["doc-out"]["default"], "rustkeep-doc");
    let upload = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/upload-artifact@"))).expect("an upload step");
    assert_eq!(upload["with"]["path"], "${{ steps.doc.outputs.dir }}");
    let script = doc["run"].as_str().unwrap();

    let t = lamp_mod();
    let (code, out, gh) = run_step(&t, script, &[("RK_PATH", "lamp"), ("RK_DOC_OUT", "site")]);
    assert_eq!((code, gh.as_str()), (0, "dir=site\n"), "{out}");
    assert!(t.path("site/index.html").is_file() && t.path("site/mods/lamp/index.html").is_file());
    t.write("lamp/items.toml", "[[items]]\nid = \"lamp:broken\"\n");
    let (code, out, gh) = run_step(&t, script, &[("RK_PATH", "lamp"), ("RK_DOC_OUT", "site2")]);
    assert_eq!((code, gh.as_str()), (0, "dir=site2\n"), "{out}");
    assert!(std::fs::read_to_string(t.path("site2/index.html")).unwrap().contains("The mods have 1 error."));
    // A folder it did not write fails the step.
    t.write("mine/notes.txt", "mine");
    let (code, _, gh) = run_step(&t, script, &[("RK_PATH", "lamp"), ("RK_DOC_OUT", "mine")]);
    assert_eq!((code, gh.as_str()), (2, ""));
}

/// A pull request's checkout of the lamp mod: the base branch `main` on a bare remote `origin`,
/// and the working tree, where `items.toml` gets a price; a stand-in `gh` in `bin/` that logs its
/// calls to `gh.log` and lists a comment only once one was posted.
fn pull_request_checkout() -> TempDir {
    let t = lamp_mod();
    let git = |dir: &str, args: &[&str]| rustkeep_testutil::git(&t.path(dir), args);
    git(".", &["init", "-q", "-b", "main"]);
    git(".", &["add", "lamp"]);
    git(".", &["commit", "-q", "-m", "base"]);
    git(".", &["clone", "-q", "--bare", ".", "origin.git"]);
    git(".", &["remote", "add", "origin", "origin.git"]);
    t.write("lamp/items.toml", ITEMS.replace("id = \"lamp:oil_lamp\"", "id = \"lamp:oil_lamp\"\nprice = 9"));
    t.write(
        "bin/gh",
        "#!/bin/sh\necho \"$*\" >> \"$GH_LOG\"\ncase \"$*\" in\n  *--paginate*) [ -f \"$GH_LOG.posted\" ] && echo 4242 ;;\n  *POST*) touch \"$GH_LOG.posted\" ;;\nesac\nexit 0\n",
    );
    std::fs::set_permissions(t.path("bin/gh"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    t
}

/// The environment the diff step gets on a pull request into `main`, with the inputs `diff` and
/// `semver`.
fn diff_step_env(t: &TempDir, diff: &str, semver: &str) -> Vec<(String, String)> {
    let rustkeep_dir = Path::new(env!("CARGO_BIN_EXE_rustkeep")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}:{}", t.path("bin").display(), rustkeep_dir.display(), std::env::var("PATH").unwrap_or_default());
    [
        ("RK_PATH", "."),
        ("RK_DIFF", diff),
        ("RK_SEMVER", semver),
        ("RK_DIFF_BASE", ""),
        ("RK_PR", "7"),
        ("GITHUB_BASE_REF", "main"),
        ("GITHUB_REPOSITORY", "me/lamp"),
        ("GH_LOG", t.path("gh.log").to_str().unwrap()),
        ("GITHUB_STEP_SUMMARY", t.path("step-summary.txt").to_str().unwrap()),
        ("PATH", path.as_str()),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn pairs(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// `diff: true` of the action on a pull request: the diff step fetches the base branch, writes
/// `rustkeep diff` of it against the pull request's tree as markdown, and posts one comment — then
/// updates that comment, found by its first line, on the next push (`gh` is a stand-in here that
/// records its calls and answers the listing).
#[test]
fn the_action_posts_the_diff_as_one_comment_and_updates_it() {
    if !rustkeep_testutil::tools::pyyaml() || !rustkeep_testutil::require("git", rustkeep_testutil::tools::runs("git", &["--version"]), "apt-get install git") {
        return;
    }
    let action = yaml("action.yml");
    assert_eq!((&action["inputs"]["diff"]["default"], &action["inputs"]["diff-base"]["default"]), (&"false".into(), &"".into()));
    let steps = action["runs"]["steps"].as_array().unwrap();
    let step = steps.iter().find(|s| s["id"] == "diff").expect("a step with id `diff`");
    assert!(step["if"].as_str().unwrap().contains("inputs.diff == 'true'") && step["if"].as_str().unwrap().contains("pull_request"));
    assert_eq!(step["env"]["GH_TOKEN"], "${{ github.token }}");
    assert_eq!((&step["env"]["RK_DIFF"], &step["env"]["RK_SEMVER"]), (&"${{ inputs.diff }}".into(), &"${{ inputs.semver }}".into()));
    let script = step["run"].as_str().unwrap();

    let t = pull_request_checkout();
    let env = diff_step_env(&t, "true", "false");
    for _ in 0..2 {
        let (code, out, gh_out) = run_step(&t, script, &pairs(&env));
        assert_eq!(code, 0, "{out}");
        // The version is too small for the change, but `semver` is off: no failure recorded.
        assert!(gh_out.starts_with("file=") && !gh_out.contains("semver-failed"), "{gh_out}");
    }
    let body = std::fs::read_to_string(t.path("rustkeep-diff-comment.txt")).unwrap();
    // The comment opens with the semver verdict (a new price is a change: a patch release).
    assert!(
        body.starts_with("<!-- rustkeep diff -->\nsemver: change — needs 0.1.1, the manifest says 0.1.0\n\n- change: item `lamp:oil_lamp` changed: `price`\n"),
        "{body}"
    );
    assert!(body.contains("\n### rustkeep diff: `origin/main` → `working tree`\n"), "{body}");
    assert!(body.contains("`price`: `(absent)` → `9`"), "{body}");
    let summary = std::fs::read_to_string(t.path("step-summary.txt")).unwrap();
    assert!(summary.contains("semver: change — needs 0.1.1") && summary.contains("### rustkeep diff"), "{summary}");
    let calls = std::fs::read_to_string(t.path("gh.log")).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 4, "{calls:?}");
    assert!(calls[0].starts_with("api repos/me/lamp/issues/7/comments --paginate"), "{calls:?}");
    assert!(calls[1].starts_with("api --silent -X POST repos/me/lamp/issues/7/comments -F body=@"), "{calls:?}");
    assert!(calls[3].starts_with("api --silent -X PATCH repos/me/lamp/issues/comments/4242 -F body=@"), "{calls:?}");
}

/// `semver: true` of the action: the diff step runs `rustkeep diff --check-semver`, annotates a
/// version too small for the pull request's changes with the verdict and records it; the check
/// step then fails the job after the check has run. A version bumped enough passes; without
/// `diff`, nothing is posted.
#[test]
fn the_action_fails_a_version_too_small_for_the_changes_on_request() {
    if !rustkeep_testutil::tools::pyyaml() || !rustkeep_testutil::require("git", rustkeep_testutil::tools::runs("git", &["--version"]), "apt-get install git") {
        return;
    }
    let action = yaml("action.yml");
    assert_eq!(action["inputs"]["semver"]["default"], "false", "the input `semver` is off by default");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let step = steps.iter().find(|s| s["id"] == "diff").expect("a step with id `diff`");
    assert!(step["if"].as_str().unwrap().contains("inputs.semver == 'true'"), "{}", step["if"]);
    let script = step["run"].as_str().unwrap();
    let check = steps.last().unwrap();
    assert_eq!(check["env"]["RK_SEMVER_FAILED"], "${{ steps.diff.outputs.semver-failed }}");
    let check_script = check["run"].as_str().unwrap();
    let check_env = |failed: &'static str| {
        [("RK_PATH", "lamp"), ("RK_DENY_WARNINGS", "false"), ("RK_UNFORMATTED", ""), ("RK_TEST_FAILED", ""), ("RK_SEMVER_FAILED", failed)]
    };

    // A price added with the version left at 0.1.0: the patch release 0.1.1 is needed.
    let t = pull_request_checkout();
    let env = diff_step_env(&t, "true", "true");
    let (code, out, gh_out) = run_step(&t, script, &pairs(&env));
    assert_eq!(code, 0, "the step records the verdict and lets the check run: {out}");
    assert!(out.contains("::error title=rustkeep diff::semver: change — needs 0.1.1, the manifest says 0.1.0 (semver: true)"), "{out}");
    assert!(gh_out.starts_with("file=") && gh_out.ends_with("semver-failed=true\n"), "{gh_out}");
    let body = std::fs::read_to_string(t.path("rustkeep-diff-comment.txt")).unwrap();
    assert!(body.starts_with("<!-- rustkeep diff -->\nsemver: change — needs 0.1.1, the manifest says 0.1.0\n"), "the comment is posted all the same: {body}");
    let (code, out, _) = run_step(&t, check_script, &check_env("true"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a mod's version is too small for its changes (semver: true)"), "{out}");

    // Removing an item is breaking: 0.1.1 is too small now, 0.2.0 is enough.
    t.write("lamp/npcs.toml", "");
    t.write("lamp/mod.toml", MANIFEST.replace("0.1.0", "0.1.1"));
    let (code, out, gh_out) = run_step(&t, script, &pairs(&env));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("::error title=rustkeep diff::semver: breaking — needs 0.2.0, the manifest says 0.1.1 (semver: true)"), "{out}");
    assert!(gh_out.contains("semver-failed=true"), "{gh_out}");
    t.write("lamp/mod.toml", MANIFEST.replace("0.1.0", "0.2.0"));
    let (code, out, gh_out) = run_step(&t, script, &pairs(&env));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("::error") && !gh_out.contains("semver-failed"), "{out}\n{gh_out}");
    let body = std::fs::read_to_string(t.path("rustkeep-diff-comment.txt")).unwrap();
    assert!(
        body.starts_with("<!-- rustkeep diff -->\nsemver: breaking — needs 0.2.0, the manifest says 0.2.0\n\n- breaking: NPC `lamp:keeper` removed"),
        "{body}"
    );
    let (code, out, _) = run_step(&t, check_script, &check_env(""));
    assert_eq!(code, 0, "{out}");

    // `semver` without `diff`: the verdict decides, and no comment is posted.
    t.write("lamp/mod.toml", MANIFEST);
    std::fs::remove_file(t.path("gh.log")).ok();
    let env = diff_step_env(&t, "false", "true");
    let (code, out, gh_out) = run_step(&t, script, &pairs(&env));
    assert_eq!((code, gh_out.as_str()), (0, "semver-failed=true\n"), "{out}");
    assert!(!t.path("gh.log").exists(), "no call to gh without `diff`");
}
