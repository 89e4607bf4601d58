//! `rustkeep test` as a modder's CI runs it: the whole command on the example mods' scenarios
//! (process start, discovery, validation, every run and its expectations, on 2 cores), and what an
//! `arena` expectation of 2,000 fights adds — the same scenario timed with and without it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::json;

use crate::ExtraFigure;

/// Median and maximum (ms) of `runs` runs of `rustkeep ARGS` in `cwd`, each required to exit with
/// `code`.
fn timed(exe: &Path, cwd: &Path, args: &[&str], code: i32, runs: usize) -> Result<(f64, f64), String> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(3) {
        let t = Instant::now();
        let o = Command::new(exe).current_dir(cwd).args(args).output().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if o.status.code() != Some(code) {
            return Err(format!("`rustkeep {}` exited {:?}: {}", args.join(" "), o.status.code(), String::from_utf8_lossy(&o.stdout)));
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    Ok((times[times.len() / 2], times[times.len() - 1]))
}

/// A scenario of five rats against a warrior with a quest expectation, and with an arena
/// expectation of 2,000 fights added when `arena`.
fn scenario(arena: bool) -> String {
    let mut s = String::from(
        "seed = 42\n\n[player]\noptions = [\"core:warrior\"]\n\n[[enemies]]\ncreature = \"core:rat\"\ncount = 5\n\n[[steps]]\nattack = \"enemy:0\"\n\n[[expect]]\nevent = \"attack_hit\"\ncount = { at_least = 0 }\n",
    );
    if arena {
        s.push_str("\n[[expect]]\narena = { option = \"core:warrior\", runs = 2000 }\nwin_rate = { at_least = 0 }\n");
    }
    s
}

pub fn test_figures(exe: &Path, runs: usize) -> Vec<ExtraFigure> {
    let mut out = Vec::new();
    let root = PathBuf::from(".");
    match timed(exe, &root, &["test", "examples"], 0, runs) {
        Ok((p50, max)) => out.push(ExtraFigure {
            figure: "test: `rustkeep test examples` (3 scenarios, 18 expectations, one arena of 2,000 fights), whole command (median / max)".into(),
            value: format!("{p50:.0} ms / {max:.0} ms"),
            target: "≤ 1 s".into(),
            ok: Some(max <= 1000.0),
            json: json!({ "p50_ms": p50, "max_ms": max }),
        }),
        Err(e) => eprintln!("test on the examples: {e}"),
    }
    let with_and_without = (|| -> Result<(f64, f64), String> {
        // Removed when dropped.
        let temp = tempfile::Builder::new().prefix("rustkeep-bench-test-").tempdir().map_err(|e| e.to_string())?;
        let dir = temp.path();
        for (name, arena) in [("without", false), ("with", true)] {
            let d = dir.join(name).join("scenarios");
            std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
            std::fs::write(d.join("rats.toml"), scenario(arena)).map_err(|e| e.to_string())?;
        }
        let (without, _) = timed(exe, &dir.join("without"), &["test"], 0, runs.max(7))?;
        let (with, _) = timed(exe, &dir.join("with"), &["test"], 0, runs.max(7))?;
        Ok((without, with))
    })();
    match with_and_without {
        Ok((without, with)) => out.push(ExtraFigure {
            figure: "test: what an arena expectation of 2,000 fights adds to a scenario's test (median with − without)".into(),
            value: format!("{:.0} ms ({with:.0} − {without:.0} ms)", with - without),
            target: "≤ 50 ms".into(),
            ok: Some(with - without <= 50.0),
            json: json!({ "with_ms": with, "without_ms": without }),
        }),
        Err(e) => eprintln!("test: the arena expectation: {e}"),
    }
    out
}
