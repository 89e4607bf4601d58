//! [`headless`]: Neovim driven by a Lua script, as the editor tests run it.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `nvim --headless --clean -u INIT FILE` in `cwd` with the extra environment `env`, waits
/// for it to quit, and returns what the script wrote to `result`. The script writes its findings
/// there and quits by itself; the two minutes allowed are a guard against a hung editor, not a
/// timing assertion.
pub fn headless(init: &Path, file: &Path, cwd: &Path, env: &[(&str, &OsStr)], result: &Path) -> String {
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-u"])
        .arg(init)
        .arg(file)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("nvim starts");
    let start = Instant::now();
    while child.try_wait().expect("nvim can be waited for").is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::read_to_string(result).unwrap_or_else(|e| panic!("nvim wrote no results to {}: {e}", result.display()))
}
