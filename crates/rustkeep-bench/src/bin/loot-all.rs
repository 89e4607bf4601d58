//! `loot-all DIR [LUCK]`: exact analysis of every loot table of a workspace, timed (profiling aid
//! for the benchmark report's loot figure).

#![forbid(unsafe_code)]

fn main() {
    // The one thread setting (RUSTKEEP_THREADS), before anything runs in parallel.
    let _ = rustkeep_data::threads::configure();
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let luck: f64 = std::env::args().nth(2).and_then(|l| l.parse().ok()).unwrap_or(5.0);
    let cwd = std::env::current_dir().expect("cwd");
    let project = rustkeep_data::project::load(&[std::path::PathBuf::from(&dir)], &cwd, &Default::default());
    let analysis = rustkeep_check::analyze(&project);
    let db = rustkeep_engine::loot::LootDb::new(&analysis.db);
    let t = std::time::Instant::now();
    let all = db.analyze_all(luck);
    let ok = all.iter().filter(|(_, r)| r.is_ok()).count();
    println!("{} tables ({ok} analysed) in {:?}", all.len(), t.elapsed());
}
