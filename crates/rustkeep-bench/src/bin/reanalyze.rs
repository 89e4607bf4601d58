//! `reanalyze DIR [N]`: lowers a workspace once, then runs the cross-file pass N times over the
//! cached files — what the language server does after each keystroke. Prints the median.

#![forbid(unsafe_code)]

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let n: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let cwd = std::env::current_dir().expect("cwd");
    let project = rustkeep_data::project::load(&[std::path::PathBuf::from(&dir)], &cwd, &Default::default());
    let facts = rustkeep_check::lower_all(&project, rustkeep_check::default_threads());
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = std::time::Instant::now();
        let a = rustkeep_check::analyze_with(&project, facts.clone());
        times.push(t.elapsed());
        std::hint::black_box(a);
    }
    times.sort();
    println!("cross-file pass over {} files: median {:?}, min {:?}, max {:?}", project.files.len(), times[n / 2], times[0], times[n - 1]);
}
