//! `rustkeep doc` as a modder and a CI job run it: the whole command (process start, discovery,
//! validation, the exact loot analysis of every table, every page, the writes) into a new folder,
//! on the example mods and on the large pack (200 mods, about 100,000 entries), on every core;
//! the size of the largest file of each site; and a rebuild of the large pack's site that
//! changes nothing (what `--watch`-style rebuilds and CI caches meet).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::json;

use crate::ExtraFigure;

/// One build into `out`: wall time (ms) and the site's largest file (path, bytes) and total bytes.
fn build(exe: &Path, args: &[&str], out: &Path) -> Result<(f64, (String, u64), u64), String> {
    let t = Instant::now();
    let o = Command::new(exe).args(args).arg("--out").arg(out).output().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    if !o.status.success() {
        return Err(format!("`rustkeep {}` exited {:?}: {}", args.join(" "), o.status.code(), String::from_utf8_lossy(&o.stderr)));
    }
    let (mut largest, mut total) = ((String::new(), 0u64), 0u64);
    for e in rustkeep_data::files::Walk::every_folder(out, usize::MAX) {
        let e = e.map_err(|e| e.to_string())?;
        if e.file_type().is_dir() {
            continue;
        }
        let size = e.metadata().map(|m| m.len()).unwrap_or(0);
        total += size;
        if size > largest.1 {
            largest = (e.path().strip_prefix(out).unwrap_or(e.path()).display().to_string(), size);
        }
    }
    Ok((ms, largest, total))
}

/// Median and maximum of `runs` builds (at least 3): each into a new folder below `out` when
/// `fresh` (as a CI job builds; not one just emptied, whose freed inodes the file system would
/// first search), else all into `out` itself.
fn timed(exe: &Path, args: &[&str], out: &Path, fresh: bool, runs: usize) -> Result<(f64, f64, (String, u64), u64), String> {
    let mut times = Vec::new();
    let mut last = ((String::new(), 0), 0);
    for i in 0..runs.max(3) {
        let dir = if fresh { out.join(format!("run-{i}")) } else { out.to_path_buf() };
        let (ms, largest, total) = build(exe, args, &dir)?;
        times.push(ms);
        last = (largest, total);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    Ok((times[times.len() / 2], times[times.len() - 1], last.0, last.1))
}

/// A new temporary folder for the figures of `command`, removed when dropped whatever happens
/// on the way; `None` (said on stderr) when there is none.
fn work_folder(command: &str) -> Option<tempfile::TempDir> {
    tempfile::Builder::new().prefix(&format!("rustkeep-bench-{command}-")).tempdir().map_err(|e| eprintln!("{command}: no temporary folder: {e}")).ok()
}

pub fn doc_figures(exe: &Path, packs: &Path, runs: usize) -> Vec<ExtraFigure> {
    let mut out = Vec::new();
    let Some(work) = work_folder("doc") else { return Vec::new() };
    let work = work.path();
    let examples = ["doc", "examples/fire_and_thorns", "examples/rat_catcher"];
    match timed(exe, &examples, &work.join("examples"), true, runs) {
        Ok((p50, max, largest, total)) => {
            out.push(ExtraFigure {
                figure: "doc: the examples' site (core + 2 mods), whole command into a new folder (median / max)".into(),
                value: format!("{p50:.0} ms / {max:.0} ms"),
                target: "≤ 200 ms".into(),
                ok: Some(max <= 200.0),
                json: json!({ "p50_ms": p50, "max_ms": max }),
            });
            out.push(site_size("the examples' site", format!("{:.0} KB", total as f64 / 1024.0), largest, total));
        }
        Err(e) => eprintln!("doc on the examples: {e}"),
    }
    let large: PathBuf = packs.join("large");
    if !large.is_dir() {
        if let Err(e) = crate::generate(&large, crate::LARGE) {
            eprintln!("doc: cannot write the large pack: {e}");
            return out;
        }
    }
    let large_arg = large.to_string_lossy().into_owned();
    let args = ["doc", large_arg.as_str()];
    // The large site takes seconds: three builds are enough for a median.
    match timed(exe, &args, &work.join("large"), true, runs.min(3)) {
        Ok((p50, max, largest, total)) => {
            out.push(ExtraFigure {
                figure: "doc: the large pack's site (200 mods, ~100,000 entries), whole command into a new folder (median / max)".into(),
                value: format!("{:.2} s / {:.2} s", p50 / 1e3, max / 1e3),
                target: "≤ 5 s".into(),
                ok: Some(max <= 5000.0),
                json: json!({ "p50_ms": p50, "max_ms": max }),
            });
            out.push(site_size("the large pack's site", format!("{:.0} MB", total as f64 / 1e6), largest, total));
            match timed(exe, &args, &work.join("large").join("run-0"), false, runs.min(3)) {
                Ok((p50, max, _, _)) => out.push(ExtraFigure {
                    figure: "doc: the large pack's site rebuilt with nothing changed (median / max)".into(),
                    value: format!("{:.2} s / {:.2} s", p50 / 1e3, max / 1e3),
                    target: "—".into(),
                    ok: None,
                    json: json!({ "p50_ms": p50, "max_ms": max }),
                }),
                Err(e) => eprintln!("doc rebuild on the large pack: {e}"),
            }
        }
        Err(e) => eprintln!("doc on the large pack: {e}"),
    }
    out
}

/// `rustkeep diff --check-semver` between the large pack and a copy of it with 10 entries changed
/// (a weight in each of ten mods' first loot table, and those ten mods' versions bumped by a patch,
/// as a release would): the whole command as a CI job runs it — the default arena, the semver
/// verdict of all 200 mods — both versions loaded, checked and analysed (median / max). The
/// verdict is checked too: ten mods changed, each a change its patch release covers.
pub fn diff_figures(exe: &Path, packs: &Path, runs: usize) -> Vec<ExtraFigure> {
    let large = packs.join("large");
    if !large.is_dir() && crate::generate(&large, crate::LARGE).is_err() {
        return Vec::new();
    }
    let Some(temp) = work_folder("diff") else { return Vec::new() };
    let work = temp.path();
    let edited = work.join("large");
    let copy = (|| -> std::io::Result<()> {
        for f in crate::toml_paths(&large) {
            let to = edited.join(f.strip_prefix(&large).unwrap_or(&f));
            std::fs::create_dir_all(to.parent().unwrap_or(work))?;
            std::fs::copy(&f, &to)?;
        }
        for k in 0..10 {
            let file = edited.join(format!("mods/m{:03}/content_00.toml", k * 20));
            let text = std::fs::read_to_string(&file)?;
            std::fs::write(&file, text.replacen("weight = 5, count = \"0-2\"", "weight = 50, count = \"0-2\"", 1))?;
            let manifest = edited.join(format!("mods/m{:03}/mod.toml", k * 20));
            let text = std::fs::read_to_string(&manifest)?;
            std::fs::write(&manifest, text.replacen(&format!("version = \"1.0.{}\"", k * 20), &format!("version = \"1.0.{}\"", k * 20 + 1), 1))?;
        }
        Ok(())
    })();
    if let Err(e) = copy {
        eprintln!("diff: cannot copy the large pack: {e}");
        return Vec::new();
    }
    let (old, new) = (large.to_string_lossy().into_owned(), edited.to_string_lossy().into_owned());
    let mut times = Vec::new();
    for _ in 0..runs.clamp(3, 5) {
        let t = Instant::now();
        let o = Command::new(exe).args(["diff", &old, &new, "--format", "json", "--check-semver"]).output();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        match o {
            Ok(o) if o.status.success() => {
                if let Err(e) = verdict_of_ten(&o.stdout) {
                    eprintln!("diff on the large pack: {e}");
                    return Vec::new();
                }
            }
            Ok(o) => {
                eprintln!("diff on the large pack exited {:?}: {}", o.status.code(), String::from_utf8_lossy(&o.stderr));
                return Vec::new();
            }
            Err(e) => {
                eprintln!("diff: {e}");
                return Vec::new();
            }
        }
    }
    drop(temp);
    times.sort_by(|a, b| a.total_cmp(b));
    let (p50, max) = (times[times.len() / 2], times[times.len() - 1]);
    vec![ExtraFigure {
        figure: "diff --check-semver: the large pack against a copy with 10 entries changed, whole command (median / max)".into(),
        value: format!("{:.2} s / {:.2} s", p50 / 1e3, max / 1e3),
        target: "≤ 3 s".into(),
        ok: Some(max <= 3000.0),
        json: json!({ "p50_ms": p50, "max_ms": max }),
    }]
}

/// The semver verdict of the large pack's diff: one per mod, the ten edited mods a `change` whose
/// patch release is enough, every other mod `none`.
fn verdict_of_ten(json: &[u8]) -> Result<(), String> {
    let v: serde_json::Value = serde_json::from_slice(json).map_err(|e| format!("not JSON: {e}"))?;
    let list = v["semver"].as_array().ok_or("no `semver` list")?;
    let changed: Vec<&str> = list.iter().filter(|s| s["class"] != "none").filter_map(|s| s["mod"].as_str()).collect();
    let expected: Vec<String> = (0..10).map(|k| format!("m{:03}", k * 20)).collect();
    if list.len() != 200 || changed != expected || list.iter().any(|s| s["ok"] != true) || list.iter().any(|s| s["class"] != "none" && s["class"] != "change") {
        return Err(format!("unexpected semver verdict: {} mods, changed {changed:?}", list.len()));
    }
    Ok(())
}

/// The size of a site (`total`, also written as `total_text`) and its largest file, which must
/// stay within 2 MB.
fn site_size(site: &str, total_text: String, largest: (String, u64), total: u64) -> ExtraFigure {
    ExtraFigure {
        figure: format!("doc: {site}, total size / largest file"),
        value: format!("{total_text} / {} at {:.0} KB", largest.0, largest.1 as f64 / 1024.0),
        target: "each file ≤ 2 MB".into(),
        ok: Some(largest.1 <= 2 * 1024 * 1024),
        json: json!({ "total_bytes": total, "largest": largest.0, "largest_bytes": largest.1 }),
    }
}
