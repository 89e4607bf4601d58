//! `reanalyze DIR [N] [AT]`: lowers a workspace once, then
//! - runs the whole cross-file pass N times over the cached files (what the language server did
//!   after each keystroke before the analysis became incremental), and
//! - builds the incremental analysis once and applies N edits to the first data file of the
//!   workspace's middle mod (the last character of the quoted value that the first `AT` in the
//!   file opens or runs into: by default `loot = "`, an ID reference; `id = "` edits the first
//!   definition, `id = "m100:creature` a creature's), alternately broken and restored,
//!   each re-lowering that file and updating the analysis — what the language server does now.
//!
//! Prints medians and the phases of the incremental updates.

#![forbid(unsafe_code)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use rustkeep_check::incremental::Incremental;
use rustkeep_data::source::{FileKind, SourceFile};
use rustkeep_data::text::LineIndex;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn main() {
    // The one thread setting (RUSTKEEP_THREADS), before anything runs in parallel.
    let _ = rustkeep_data::threads::configure();
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let n: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let anchor = std::env::args().nth(3).unwrap_or_else(|| "loot = \"".into());
    let cwd = std::env::current_dir().expect("cwd");
    let mut project = rustkeep_data::project::load(&[std::path::PathBuf::from(&dir)], &cwd, &Default::default());
    let facts = rustkeep_check::lower_all(&project, rayon::current_num_threads());
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let a = rustkeep_check::analyze_with(&project, facts.clone());
        times.push(t.elapsed());
        std::hint::black_box(a);
    }
    println!("cross-file pass over {} files: median {:?}", project.files.len(), median(times));

    let t = Instant::now();
    let mut inc = Incremental::new(&project, facts);
    println!("incremental analysis built in {:?}", t.elapsed());
    let users: Vec<usize> = project.mods.iter().enumerate().filter(|(_, m)| !m.is_core && !m.data_files.is_empty()).map(|(i, _)| i).collect();
    let Some(&mi) = users.get(users.len() / 2) else { return };
    let fid = project.mods[mi].data_files[0];
    let original = project.file(fid).text.to_string();
    // The edit: the last character of the quoted value at the anchor, else of any value.
    let at = original.find(&anchor).map(|i| i + anchor.len()).or_else(|| original.find(" = \"").map(|i| i + 4));
    let Some(at) = at else { return };
    let end = at + original[at..].find('"').unwrap_or(0);
    if end == at || project.file(fid).kind != FileKind::Data {
        return;
    }
    let broken = format!("{}x{}", &original[..end - 1], &original[end..]);
    let (mut total, mut lower, mut resolve, mut rules, mut finish) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let text = if i & 1 == 0 { &broken } else { &original };
        let t = Instant::now();
        let f = &mut project.files[fid.0 as usize];
        let (decoded, bad) = SourceFile::decode(text.as_bytes());
        f.index = Arc::new(LineIndex::new(&decoded));
        f.text = decoded;
        f.invalid_utf8_at = bad;
        let facts = rustkeep_check::lower_source(project.file(fid));
        let lowered = t.elapsed();
        inc.update(&project, vec![(fid, facts)]);
        total.push(t.elapsed());
        lower.push(lowered);
        let p = inc.timings();
        resolve.push(p.resolve);
        rules.push(p.rules);
        finish.push(p.finish);
        std::hint::black_box(inc.take_changed());
    }
    println!(
        "incremental edit of {} ({} bytes): median {:?} (lower {:?}, resolve {:?}, rules {:?}, finish {:?})",
        project.file(fid).path,
        original.len(),
        median(total),
        median(lower),
        median(resolve),
        median(rules),
        median(finish)
    );
}
