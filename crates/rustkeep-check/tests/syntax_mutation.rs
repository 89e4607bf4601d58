//! One syntax mistake, one diagnostic (docs/checking.md): over a clean mod set made of the
//! bundled core and the example mods, one deleted bracket, brace, quote, comma or `=` at a
//! seeded choice of places yields at most two diagnostics, all in the file it was deleted from.
//! A deletion that leaves valid TOML of another meaning may give semantic diagnostics instead,
//! within the same bound; one that leaves the file as clean as before gives none.

mod common;

use common::set_text;
use rustkeep_check::{analyze, analyze_with, lower_all, lower_source};
use rustkeep_data::diag::Code;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::source::{FileId, FileKind};
use rustkeep_testutil::modpack::Gen;
use rustkeep_testutil::repo_root;

/// How many deletions the test makes; spread over the files by their number of candidates.
const MUTANTS: usize = 400;

fn clean_project() -> Project {
    let root = repo_root();
    let dirs = [root.join("examples/fire_and_thorns"), root.join("examples/rat_catcher")];
    let mut project = load(&dirs, root, &Overlay::new());
    // The core's own diagnostics are hidden from modders; here its files are mutated like any
    // other, so they are shown.
    for f in &mut project.files {
        f.bundled = false;
    }
    project
}

/// The bytes that may be deleted: brackets, braces, quotes, commas and `=`, outside comments.
fn candidates(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        // A `#` inside a string is not a comment, but no data file of the set writes one there
        // before a bracket on the same line; stopping at it only drops candidates.
        let code = line.split('#').next().unwrap_or("");
        out.extend(code.bytes().enumerate().filter(|(_, b)| b"[]{}\",=".contains(b)).map(|(i, _)| at + i));
        at += line.len();
    }
    out
}

#[test]
fn one_deleted_bracket_quote_comma_or_equals_gives_at_most_two_diagnostics_in_its_file() {
    let base = clean_project();
    let fresh = analyze(&base);
    let shown: Vec<String> = fresh.diagnostics.iter().map(|d| format!("{} {:?} {}", base.file(d.loc.file).path, d.loc.span, d.message)).collect();
    assert!(fresh.diagnostics.is_empty(), "the mod set is clean to begin with: {shown:#?}");
    let facts = lower_all(&base, 1);

    let files: Vec<FileId> = base.files.iter().filter(|f| f.kind == FileKind::Data).map(|f| f.id).collect();
    let places: Vec<(FileId, usize)> = files.iter().flat_map(|&f| candidates(&base.file(f).text).into_iter().map(move |at| (f, at))).collect();
    assert!(places.len() > MUTANTS * 4, "enough places to choose from: {}", places.len());

    let mut g = Gen::new(0x5eed_0030);
    let mut failures = Vec::new();
    let mut syntax = 0;
    let mut worst = 0;
    let started = std::time::Instant::now();
    for n in 0..MUTANTS {
        let &(fid, at) = g.pick(&places).expect("places");
        let original = &base.file(fid).text;
        let mut text = original.to_string();
        let deleted = text.remove(at);
        let mut project = base.clone();
        set_text(&mut project, fid, &text);
        let mut mutant_facts = facts.clone();
        mutant_facts[fid.0 as usize] = lower_source(project.file(fid));
        let analysis = analyze_with(&project, mutant_facts);
        let diags = &analysis.diagnostics;
        syntax += usize::from(diags.iter().any(|d| d.code == Code::TomlSyntax));
        worst = worst.max(diags.len());
        let elsewhere = diags.iter().any(|d| d.loc.file != fid);
        if diags.len() > 2 || elsewhere {
            let line = original[..at].matches('\n').count() + 1;
            let listed: Vec<String> =
                diags.iter().map(|d| format!("  {}:{:?} {} {}", project.file(d.loc.file).path, d.loc.span, d.code.name(), d.message)).collect();
            failures.push(format!("#{n}: `{deleted}` deleted at {}:{line}\n{}", project.file(fid).path, listed.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{} of {MUTANTS} mutants broke the bound:\n{}", failures.len(), failures.join("\n"));
    // Most single deletions are syntax errors; the seed must keep it so, or the test tests little.
    assert!(syntax * 4 >= MUTANTS * 3, "only {syntax} of {MUTANTS} mutants were syntax errors");
    assert!(worst >= 1, "the mutants gave no diagnostics at all");
    eprintln!("{MUTANTS} mutants, {syntax} with a syntax error, at most {worst} diagnostics, {:?}", started.elapsed());
}
