//! (a) Arbitrary bytes as a data file (or, with the first byte odd, as the manifest) of a mod next
//! to the bundled core → load, analyze, loot. No panic, no hang, spans valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rustkeep_fuzz::{check_project, project_with};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let p = if sel & 1 == 1 {
        project_with(&[("mod.toml", rest), ("items.toml", b"[[items]]\nid = \"fz:a\"\nname = \"A\"\n")])
    } else {
        project_with(&[("data.toml", rest)])
    };
    check_project(&p, f64::from(sel >> 1));
});
