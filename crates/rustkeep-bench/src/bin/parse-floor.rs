//! `parse-floor DIR`: reads and parses every `*.toml` below DIR with the `toml` crate and nothing
//! else, single-threaded — the floor that `rustkeep check` is measured against.

#![forbid(unsafe_code)]

/// The allocator `rustkeep` ships with, so that the parse floor is measured under it too (docs/ARCHITECTURE.md, "Why each dependency is there").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let t = std::time::Instant::now();
    let (files, bytes) = rustkeep_bench::parse_floor(std::path::Path::new(&dir));
    println!("parse floor: {files} files, {bytes} bytes in {:?}", t.elapsed());
}
