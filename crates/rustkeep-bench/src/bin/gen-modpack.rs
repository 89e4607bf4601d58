//! `gen-modpack SIZE DIR`: writes a deterministic synthetic workspace (small, medium or large).

#![forbid(unsafe_code)]

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(size), Some(dir)) = (args.get(1).and_then(|s| rustkeep_bench::Size::by_name(s)), args.get(2)) else {
        eprintln!("usage: gen-modpack small|medium|large DIR");
        std::process::exit(2);
    };
    match rustkeep_bench::generate(std::path::Path::new(dir), size) {
        Ok((files, bytes)) => println!("{}: {} mods, {} entries, {files} files, {:.1} MB in {dir}", size.name, size.mods, size.entries(), bytes as f64 / 1e6),
        Err(e) => {
            eprintln!("gen-modpack: {e}");
            std::process::exit(2);
        }
    }
}
