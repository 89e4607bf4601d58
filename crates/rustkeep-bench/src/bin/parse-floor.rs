//! `parse-floor DIR`: reads and parses every `*.toml` below DIR with the `toml` crate and nothing
//! else, single-threaded — the floor that `rustkeep check` is measured against.

#![forbid(unsafe_code)]

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let t = std::time::Instant::now();
    let (files, bytes) = rustkeep_bench::parse_floor(std::path::Path::new(&dir));
    println!("parse floor: {files} files, {bytes} bytes in {:?}", t.elapsed());
}
