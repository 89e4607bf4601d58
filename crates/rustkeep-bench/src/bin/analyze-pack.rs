//! `analyze-pack DIR`: loads and checks a workspace in-process and prints the time of each phase
//! and the diagnostic counts — the same work as `rustkeep check` without rendering, for profiling.

#![forbid(unsafe_code)]

use std::io::Write;

fn main() {
    // The one thread setting (RUSTKEEP_THREADS), before anything runs in parallel.
    let _ = rustkeep_data::threads::configure();
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let cwd = std::env::current_dir().expect("cwd");
    let threads = rayon::current_num_threads();
    let t = std::time::Instant::now();
    let project = rustkeep_data::project::load(&[std::path::PathBuf::from(&dir)], &cwd, &Default::default());
    let loaded = t.elapsed();
    let facts = rustkeep_check::lower_all(&project, threads);
    let lowered = t.elapsed();
    let analysis = rustkeep_check::analyze_with(&project, facts);
    let total = t.elapsed();
    let mut by_code = std::collections::BTreeMap::new();
    for d in &analysis.diagnostics {
        *by_code.entry(d.code.name()).or_insert(0) += 1;
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "files {} | threads {threads} | load {:?} | lower {:?} | resolve+rules {:?} | total {:?} | errors {} warnings {}",
        project.files.len(),
        loaded,
        lowered - loaded,
        total - lowered,
        total,
        analysis.errors(),
        analysis.warnings()
    );
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(l) = status.lines().find(|l| l.starts_with("VmHWM")) {
            let _ = writeln!(out, "  peak memory: {}", l.trim_start_matches("VmHWM:").trim());
        }
    }
    for (c, n) in by_code {
        let _ = writeln!(out, "  {c}: {n}");
    }
}
