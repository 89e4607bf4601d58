//! Embeds the bundled core game (`core/*.toml`) into the binary, sorted by file name.
use std::fmt::Write;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("core");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("crates/rustkeep-data/core exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let mut out = String::from("/// `(file name, text)` of every core data file, in load order.\npub const CORE_FILES: &[(&str, &str)] = &[\n");
    for n in &names {
        println!("cargo:rerun-if-changed={}", dir.join(n).display());
        writeln!(out, "    ({n:?}, include_str!({:?})),", dir.join(n).display().to_string()).unwrap();
    }
    out.push_str("];\n");
    std::fs::write(std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("core_files.rs"), out).unwrap();
}
