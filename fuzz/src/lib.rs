//! Shared helpers of the fuzz targets: building an in-memory project around fuzzed text, and the
//! invariants every analysis must keep whatever the input (docs/ARCHITECTURE.md, invariant
//! "No panic on any input").

pub mod play;

use std::path::PathBuf;
use std::sync::Arc;

use rustkeep_check::{analyze_with, lower_source, Analysis};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::Project;
use rustkeep_data::source::SourceFile;
use rustkeep_data::text::{Encoding, LineIndex, Span};
use rustkeep_engine::loot::LootDb;
use rustkeep_engine::rng::Rng;

/// The manifest of the fuzzed mod `fz`.
pub const MANIFEST: &str = "[mod]\nid = \"fz\"\nname = \"Fuzz\"\nversion = \"0.1.0\"\n";

/// The bundled core plus one in-memory mod `fz` holding `files` (`(relative path, bytes)`; a
/// `mod.toml` among them is the manifest, else [`MANIFEST`] is used). The bytes go through the
/// same decoding as files read from disk (BOM, invalid UTF-8). Every file gets a fake disk path
/// so that `fix::apply` treats it as a user file.
pub fn project_with(files: &[(&str, &[u8])]) -> Project {
    let mut p = Project::with_bundled_core();
    let mut placeholders: Vec<(&str, &str)> = files.iter().map(|(rel, _)| (*rel, "")).collect();
    if !files.iter().any(|(rel, _)| *rel == "mod.toml") {
        placeholders.push(("mod.toml", MANIFEST));
    }
    let first = p.files.len();
    p.add_memory_mod("fz", &placeholders);
    for f in &mut p.files[first..] {
        let rel = f.path.strip_prefix("fz/").unwrap_or(&f.path).to_string();
        f.disk_path = Some(PathBuf::from("/nonexistent/fz").join(&rel));
        let Some((_, bytes)) = files.iter().find(|(r, _)| *r == rel) else { continue };
        let (text, bad) = SourceFile::decode(bytes);
        f.index = Arc::new(LineIndex::new(&text));
        f.text = text;
        f.invalid_utf8_at = bad;
    }
    // The manifest was read from the placeholder; read the fuzzed one instead.
    if files.iter().any(|(rel, _)| *rel == "mod.toml") {
        let texts: Vec<(String, String)> =
            p.files[first..].iter().map(|f| (f.path.strip_prefix("fz/").unwrap_or(&f.path).to_string(), f.text.to_string())).collect();
        let mut fresh = Project::with_bundled_core();
        let refs: Vec<(&str, &str)> = texts.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        fresh.add_memory_mod("fz", &refs);
        for (f, old) in fresh.files[first..].iter_mut().zip(&p.files[first..]) {
            f.disk_path = old.disk_path.clone();
            f.invalid_utf8_at = old.invalid_utf8_at;
        }
        p = fresh;
    }
    p
}

fn check_span(p: &Project, file: rustkeep_data::source::FileId, span: &Span, what: &str) {
    let f = p.files.get(file.0 as usize).unwrap_or_else(|| panic!("{what}: file id {file:?} out of range"));
    assert!(span.start <= span.end, "{what}: inverted span {span:?} in {}", f.path);
    assert!(span.end <= f.text.len(), "{what}: span {span:?} past the end ({}) of {}", f.text.len(), f.path);
    for enc in [Encoding::Scalar, Encoding::Utf16, Encoding::Utf8] {
        let a = f.index.position(&f.text, span.start, enc);
        let b = f.index.position(&f.text, span.end, enc);
        assert!(a <= b, "{what}: positions out of order");
        // Converting back lands inside the text, and on a character boundary.
        let back = f.index.offset(&f.text, a, enc);
        assert!(back <= f.text.len() && f.text.is_char_boundary(back));
    }
}

/// Analyses `p` and checks the invariants: spans inside their files, positions convertible in
/// every encoding, fix spans on character boundaries, `--fix` applicable, and every loot table
/// analysable or refused with an error (never a panic), with chances that are probabilities.
pub fn check_project(p: &Project, loot_luck: f64) -> Analysis {
    let a = analyze(p);
    check_analysis(p, &a, loot_luck);
    a
}

/// The lowered files of the bundled core, computed once per process: every project built by
/// [`project_with`] starts with them, so only the fuzzed mod is lowered per input.
fn core_facts() -> &'static [Option<Arc<FileFacts>>] {
    static CORE: std::sync::OnceLock<Vec<Option<Arc<FileFacts>>>> = std::sync::OnceLock::new();
    CORE.get_or_init(|| Project::with_bundled_core().files.iter().map(lower_source).collect())
}

/// `rustkeep_check::analyze`, reusing the core's lowered files (the language server's way).
pub fn analyze(p: &Project) -> Analysis {
    let core = core_facts();
    let facts = p.files.iter().enumerate().map(|(i, f)| if f.bundled && i < core.len() { core[i].clone() } else { lower_source(f) }).collect();
    analyze_with(p, facts)
}

fn check_analysis(p: &Project, a: &Analysis, loot_luck: f64) {
    for d in &a.diagnostics {
        check_span(p, d.loc.file, &d.loc.span, d.code.name());
        for r in &d.related {
            check_span(p, r.loc.file, &r.loc.span, "related");
        }
        if let Some(fix) = &d.fix {
            let f = p.file(d.loc.file);
            assert!(fix.span.start <= fix.span.end && fix.span.end <= f.text.len(), "fix span {:?} outside {}", fix.span, f.path);
            assert!(f.text.is_char_boundary(fix.span.start) && f.text.is_char_boundary(fix.span.end), "fix span {:?} splits a character", fix.span);
        }
    }
    let _ = rustkeep_check::fix::apply(p, &a.diagnostics, rustkeep_check::fix::Which::All);
    check_loot(a, loot_luck, 1);
}

/// Every table: exact analysis and `rolls` seeded rolls; errors are fine, panics and non-finite
/// chances are not.
pub fn check_loot(a: &Analysis, luck: f64, rolls: u64) {
    let db = LootDb::new(&a.db);
    let ids: Vec<String> = db.table_ids().map(str::to_string).collect();
    // The core's own tables are the same for every input unless a mod overrides them; a few of
    // them are enough.
    let mut core_budget = 4;
    for id in &ids {
        if id.starts_with("core:") {
            if core_budget == 0 {
                continue;
            }
            core_budget -= 1;
        }
        if let Ok(r) = db.analyze(id, luck) {
            for d in &r.drops {
                assert!((0.0..=1.0 + 1e-9).contains(&d.p_any), "{id}: p_any {} of {} is no probability", d.p_any, d.id);
                assert!(d.expected.is_finite() && d.expected >= 0.0, "{id}: bad expectation {} of {}", d.expected, d.id);
                for x in &d.affixes {
                    assert!((0.0..=1.0 + 1e-9).contains(&x.p_any), "{id}: affix p_any {} is no probability", x.p_any);
                }
            }
        }
        let mut rng = Rng::seeded(7);
        for _ in 0..rolls {
            let _ = db.try_roll(id, luck, &mut rng);
            let _ = db.try_roll_affixes(id, luck, &mut rng);
        }
    }
}
