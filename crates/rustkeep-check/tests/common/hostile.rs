//! The helpers of the hostile-input tests of the validator (`tests/hostile.rs`) and of those the
//! validator and the loot engine must agree on (`crates/rustkeep-cli/tests/hostile_loot.rs`,
//! which includes this file).
#![allow(dead_code)]

use rustkeep_check::{analyze, Analysis};
use rustkeep_data::diag::Code;
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;

/// The bundled core plus a mod `h` holding `files`.
pub fn project(files: &[(&str, &str)]) -> Project {
    let mut p = Project::with_bundled_core();
    // A content pack: these tests read hostile text, not what the game never uses.
    let mut all = vec![("mod.toml", "[mod]\nid = \"h\"\nname = \"Hostile\"\nversion = \"0.1.0\"\nlibrary = true\n")];
    all.extend_from_slice(files);
    p.add_memory_mod("h", &all);
    p
}

/// [`project`] of `files`, and its analysis.
pub fn analysed(files: &[(&str, &str)]) -> (Project, Analysis) {
    let p = project(files);
    let a = analyze(&p);
    (p, a)
}

/// `(code, 1-based line, 1-based scalar column)` of every diagnostic.
pub fn found(p: &Project, a: &Analysis) -> Vec<(Code, u32, u32)> {
    a.diagnostics
        .iter()
        .map(|d| {
            let f = p.file(d.loc.file);
            assert!(d.loc.span.start <= d.loc.span.end && d.loc.span.end <= f.text.len(), "{d:?} lies inside its file");
            let lc = f.index.position(&f.text, d.loc.span.start, Encoding::Scalar);
            (d.code, lc.line + 1, lc.col + 1)
        })
        .collect()
}

pub fn codes(a: &Analysis) -> Vec<Code> {
    a.diagnostics.iter().map(|d| d.code).collect()
}
