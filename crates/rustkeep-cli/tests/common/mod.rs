//! What the tests of the `rustkeep` binary share.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary under test, to run in `cwd`, without colours.
pub fn rustkeep_in(cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rustkeep"));
    command.current_dir(cwd).env("NO_COLOR", "1");
    command
}

/// `rustkeep ARGS` in `cwd`, without colours: what it printed and how it ended.
pub fn run(cwd: &Path, args: &[&str]) -> Output {
    rustkeep_in(cwd).args(args).output().expect("the rustkeep binary runs")
}

/// What `o` printed on its standard output, which must be UTF-8.
#[track_caller]
pub fn stdout(o: &Output) -> String {
    utf8("stdout", &o.stdout)
}

/// What `o` printed on its standard error, which must be UTF-8.
#[track_caller]
pub fn stderr(o: &Output) -> String {
    utf8("stderr", &o.stderr)
}

#[track_caller]
fn utf8(stream: &str, bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap_or_else(|e| panic!("{stream} is not UTF-8 ({e}):\n{}", String::from_utf8_lossy(bytes)))
}

/// The JSON document `o` printed on its standard output.
#[track_caller]
pub fn json(o: &Output) -> serde_json::Value {
    let text = stdout(o);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{text}\nstderr:\n{}", String::from_utf8_lossy(&o.stderr)))
}

/// `rustkeep ARGS` in `cwd` with `input` on its standard input; what it printed and how it ended.
pub fn run_with_input(cwd: &Path, args: &[&str], input: &str) -> Output {
    let mut command = rustkeep_in(cwd);
    command.args(args);
    output_with_input(command, input)
}

/// Runs `command` with `input` on its standard input; what it printed and how it ended.
pub fn output_with_input(mut command: Command, input: &str) -> Output {
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the rustkeep binary runs");
    // A command that refuses its arguments may exit before it reads its input: a closed pipe is
    // its answer, not a failure of the test.
    match child.stdin.take().expect("stdin").write_all(input.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write stdin: {e}"),
        _ => {}
    }
    child.wait_with_output().expect("rustkeep finishes")
}

/// `PROGRAM lsp` (the binary under test, or another build of it), its core files cached below
/// `cache`.
pub fn lsp_command(program: impl AsRef<OsStr>, cache: &Path) -> Command {
    let mut command = Command::new(program);
    command.arg("lsp").env("XDG_CACHE_HOME", cache);
    command
}
