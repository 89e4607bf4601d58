//! A stranger's repository against the file system (docs/reliability.md, "Files and folders"):
//! symbolic links that lead out of the workspace or the output folder are never followed for a
//! write or a delete, and a manifest, workspace file, scenario or data file reached through a
//! link that leaves the workspace is not read, so none of it reaches a CI log. Each case is a
//! finding of a security review, rebuilt in a temporary folder.
#![cfg(unix)]

mod common;

use std::os::unix::fs::{symlink, FileTypeExt};
use std::process::{Command, Output};

use common::run;
use rustkeep_testutil::TempDir;

const MANIFEST: &str = "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n";
/// What a link must never let out: it appears in no output of any command.
const SECRET: &str = "aws_secret_access_key = \"hunter2-do-not-print\"\n";

fn all_output(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A fresh folder with a workspace `ws/` holding the mod `m`, a folder `outside/` beside it
/// holding the secret, and `more` files: the folder, the workspace and `outside/`.
fn repo(tag: &str, more: &[(&str, &str)]) -> (TempDir, std::path::PathBuf, std::path::PathBuf) {
    let t = TempDir::with_files(
        tag,
        &[("ws/m/mod.toml", MANIFEST), ("ws/m/items.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\n"), ("outside/secret.toml", SECRET)],
    );
    for (rel, text) in more {
        t.write(rel, text);
    }
    let (ws, outside) = (t.path("ws"), t.path("outside"));
    (t, ws, outside)
}

#[test]
fn doc_writes_and_deletes_nothing_through_links_in_its_output_folder() {
    let (t, ws, outside) = repo("doc-links", &[("outside/victim.html", "precious"), ("outside/other.html", "keep me")]);
    // The repository ships its own `rustkeep-doc/`: the previous build's list, and links where
    // the build would write the index and where the clean-up would delete.
    t.write("ws/rustkeep-doc/.rustkeep-doc", "index.html\nold.html\n");
    symlink(outside.join("victim.html"), ws.join("rustkeep-doc/index.html")).expect("links can be made");
    symlink(outside.join("other.html"), ws.join("rustkeep-doc/old.html")).expect("links can be made");
    let o = run(&ws, &["doc", "m"]);
    assert_eq!(o.status.code(), Some(2), "{}", all_output(&o));
    assert!(all_output(&o).contains("symbolic link"), "{}", all_output(&o));
    assert_eq!(t.read("outside/victim.html"), "precious");
    assert_eq!(t.read("outside/other.html"), "keep me");
    assert_eq!(std::fs::read_dir(ws.join("rustkeep-doc")).expect("the folder is there").count(), 3, "nothing was written");

    // A link to a folder inside the output folder, and the output folder itself a link.
    std::fs::remove_file(ws.join("rustkeep-doc/index.html")).expect("removable");
    std::fs::remove_file(ws.join("rustkeep-doc/old.html")).expect("removable");
    symlink(&outside, ws.join("rustkeep-doc/static")).expect("links can be made");
    let o = run(&ws, &["doc", "m"]);
    assert_eq!(o.status.code(), Some(2), "{}", all_output(&o));
    std::fs::remove_dir_all(ws.join("rustkeep-doc")).expect("removable");
    t.write("outside/.rustkeep-doc", "victim.html\n");
    symlink(&outside, ws.join("rustkeep-doc")).expect("links can be made");
    let o = run(&ws, &["doc", "m"]);
    assert_eq!(o.status.code(), Some(2), "{}", all_output(&o));
    let names: Vec<String> = std::fs::read_dir(&outside).expect("readable").flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 4, "nothing was written into the linked folder: {names:?}");
    assert_eq!(t.read("outside/victim.html"), "precious");

    // Without links the site is written; a previous build's list that names files outside the
    // folder (or a folder inside it) removes none of them.
    std::fs::remove_file(ws.join("rustkeep-doc")).expect("removable");
    t.write("ws/rustkeep-doc/.rustkeep-doc", format!("../../outside/other.html\n{}\nmods\n", outside.join("victim.html").display()));
    let o = run(&ws, &["doc", "m"]);
    assert_eq!(o.status.code(), Some(0), "{}", all_output(&o));
    assert!(ws.join("rustkeep-doc/index.html").is_file());
    assert_eq!(t.read("outside/victim.html"), "precious");
    assert_eq!(t.read("outside/other.html"), "keep me");
}

#[test]
fn a_manifest_or_workspace_file_linked_from_outside_is_not_read_and_not_printed() {
    for linked in ["ws/m/mod.toml", "ws/rustkeep.toml", "ws/m/items.toml", "ws/scenarios/raid.toml"] {
        let (t, ws, outside) = repo("read-links", &[("ws/rustkeep.toml", "[workspace]\n")]);
        let at = t.path(linked);
        let _ = std::fs::remove_file(&at);
        std::fs::create_dir_all(at.parent().expect("a folder")).expect("folders can be made");
        symlink(outside.join("secret.toml"), &at).expect("links can be made");
        for format in ["human", "json", "github", "gitlab", "junit", "sarif"] {
            let o = run(&ws, &["check", ".", "--format", format]);
            let out = all_output(&o);
            assert!(!out.contains("hunter2"), "{linked} ({format}) leaked the file it links to:\n{out}");
            assert_eq!(o.status.code(), Some(1), "{linked} ({format}): one error\n{out}");
            if format == "human" {
                assert!(out.contains("symbolic link that leads outside the workspace"), "{linked}: {out}");
            }
        }
        for args in [&["test", "."][..], &["doc", ".", "--out", "site"], &["fmt", "--check", "."], &["fmt", "--diff", "."]] {
            let out = all_output(&run(&ws, args));
            assert!(!out.contains("hunter2"), "{linked} ({args:?}) leaked the file it links to:\n{out}");
        }
        let _ = std::fs::remove_dir_all(ws.join("site"));
    }
}

#[test]
fn a_link_that_stays_inside_the_workspace_is_read() {
    let (_t, ws, _) = repo("inner-links", &[("ws/rustkeep.toml", "[workspace]\n"), ("ws/common/common.toml", "[[items]]\nid = \"m:b\"\nname = \"B\"\n")]);
    symlink(ws.join("common/common.toml"), ws.join("m/common.toml")).expect("links can be made");
    let o = run(&ws, &["check", "m", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["summary"]["errors"], 0, "{}", all_output(&o));
    let o = run(&ws, &["show", "m:b"]);
    assert_eq!(o.status.code(), Some(0), "the linked file's entry is loaded: {}", all_output(&o));
}

#[test]
fn fmt_and_fix_never_write_through_a_link() {
    let (t, ws, outside) = repo("write-links", &[]);
    // A manifest that needs formatting, linked from outside the workspace, and a data file with
    // a fixable mistake linked from inside it.
    let messy = "[mod]\nversion   =   \"0.1.0\"\nid = \"m\"\nname = \"M\"\n";
    t.write("outside/mod.toml", messy);
    std::fs::remove_file(ws.join("m/mod.toml")).expect("removable");
    symlink(outside.join("mod.toml"), ws.join("m/mod.toml")).expect("links can be made");
    let fixable = "[items]\nid   =   \"m:c\"\nname = \"C\"\n";
    t.write("ws/common/more.toml", fixable);
    symlink(ws.join("common/more.toml"), ws.join("m/more.toml")).expect("links can be made");
    for args in [&["fmt", "m"][..], &["fmt", "m/mod.toml"], &["fmt", "m/more.toml"], &["check", "m", "--fix"]] {
        let o = run(&ws, args);
        assert_ne!(o.status.code(), Some(101), "{args:?}: {}", all_output(&o));
        assert_eq!(t.read("outside/mod.toml"), messy, "{args:?} wrote through the manifest's link");
        assert_eq!(t.read("ws/common/more.toml"), fixable, "{args:?} wrote through the data file's link");
        assert!(std::fs::symlink_metadata(ws.join("m/more.toml")).expect("there").file_type().is_symlink(), "{args:?} replaced the link");
    }
    let o = run(&ws, &["fmt", "m/more.toml"]);
    assert!(all_output(&o).contains("symbolic link"), "the refusal says why: {}", all_output(&o));
}

#[test]
fn doc_refuses_a_named_pipe_in_its_output_folder_instead_of_waiting_on_it() {
    // A site built before, with its list of pages, and a pipe where the index goes.
    let (t, ws, _) = repo("doc-fifo", &[("ws/rustkeep-doc/.rustkeep-doc", "index.html\n")]);
    let pipe = ws.join("rustkeep-doc/index.html");
    assert!(Command::new("mkfifo").arg(&pipe).status().expect("mkfifo runs").success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .args(["doc", "m"])
        .current_dir(&ws)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("rustkeep starts");
    // Opening a pipe to write blocks until something reads it: a command that does would never end.
    let start = std::time::Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("`rustkeep doc` waits on the named pipe in its output folder");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().expect("its output");
    assert_eq!(o.status.code(), Some(2), "{}", all_output(&o));
    assert!(all_output(&o).contains("not a regular file"), "the refusal says why: {}", all_output(&o));
    assert!(std::fs::symlink_metadata(&pipe).expect("still there").file_type().is_fifo(), "the pipe is left as it was");
    drop(t);
}

#[test]
fn reports_saves_and_recordings_are_never_written_through_a_link() {
    let (t, ws, outside) = repo("output-links", &[("outside/target.txt", "untouched")]);
    for name in ["report.json", "baseline.json", "save.json", "game.jsonl", "plot.svg"] {
        symlink(outside.join("target.txt"), ws.join(name)).expect("links can be made");
    }
    let cases: [&[&str]; 4] = [
        &["check", "m", "--format", "json:report.json"],
        &["check", "m", "--write-baseline", "baseline.json"],
        &["play", "--line", "--option", "core:warrior", "--record", "game.jsonl"],
        &["loot", "core:floor_1_table", "--plot", "plot.svg"],
    ];
    for args in cases {
        let o = run(&ws, args);
        assert_ne!(o.status.code(), Some(101), "{args:?}: {}", all_output(&o));
        assert!(all_output(&o).contains("symbolic link"), "{args:?}: {}", all_output(&o));
        assert_eq!(t.read("outside/target.txt"), "untouched", "{args:?} wrote through a link");
    }
    // A save asked for in the game.
    let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .args(["play", "--line", "--option", "core:warrior"])
        .current_dir(&ws)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("play runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), b"save save.json\n").expect("the script is written");
    let o = child.wait_with_output().expect("play ends");
    assert!(all_output(&o).contains("symbolic link"), "{}", all_output(&o));
    assert_eq!(t.read("outside/target.txt"), "untouched", "the save was written through a link");
}

#[test]
fn a_scenarios_mods_never_lead_out_of_the_workspace() {
    let (t, ws, _) = repo("scenario-mods", &[("ws/rustkeep.toml", "[workspace]\n")]);
    // A mod outside whose broken file would be printed in a snippet.
    t.write("outside/private/mod.toml", "[mod]\nid = \"private\"\nname = \"P\"\nversion = \"0.1.0\"\n");
    t.write("outside/private/items.toml", format!("[[items]]\n{SECRET}"));
    t.write(
        "ws/scenarios/raid.toml",
        "mods = [\"../../outside/private\", \"/\"]\n[player]\noptions = [\"core:warrior\"]\n[[expect]]\nevent = \"turn_started\"\ncount = 0\n",
    );
    let o = run(&ws, &["check", "."]);
    let out = all_output(&o);
    assert!(!out.contains("hunter2"), "{out}");
    assert_eq!(out.matches("leads outside the folders this command reads").count(), 2, "{out}");
    let out = all_output(&run(&ws, &["test", "."]));
    assert!(!out.contains("hunter2"), "{out}");
}
