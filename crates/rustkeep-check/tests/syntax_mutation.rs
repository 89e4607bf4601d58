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

/// A library whose manifest carries a version, a dependency and `[renamed]`, and a mod that
/// requires a version of it and still names its old IDs.
const LIB_MANIFEST: &str = "[mod]\nid = \"lib\"\nname = \"Library\"\nversion = \"1.3.0\"\ndepends = [\"core\"]\nlibrary = true\n\n[renamed]\n\"lib:old_blade\" = \"lib:blade\"\n\"lib:old_loot\" = \"lib:loot\"\n";
const LIB_DATA: &str = "[[items]]\nid = \"lib:blade\"\nname = \"Blade\"\nslot = \"weapon\"\n\n[[loot_tables]]\nid = \"lib:loot\"\nentries = [ { item = \"lib:blade\", weight = 1 } ]\n";
const USER_MANIFEST: &str = "[mod]\nid = \"user\"\nname = \"User\"\nversion = \"0.1.0\"\ndepends = [\"core\", \"lib ^1.2\"]\nlibrary = true\n";
const USER_DATA: &str = "[[creatures]]\nid = \"user:thief\"\nname = \"Thief\"\nglyph = \"t\"\nloot = \"lib:old_loot\"\nattributes = { level = 1, max_health = 5, damage = 1 }\n\n[[npcs]]\nid = \"user:smith\"\nname = \"Smith\"\non_talk = [ { action = \"give_item\", item = \"lib:old_blade\", target = \"self\" } ]\n";

fn versioned(lib_manifest: &str) -> (Project, rustkeep_check::Analysis) {
    let mut p = Project::with_bundled_core();
    p.add_memory_mod("lib", &[("mod.toml", lib_manifest), ("data.toml", LIB_DATA)]);
    p.add_memory_mod("user", &[("mod.toml", USER_MANIFEST), ("data.toml", USER_DATA)]);
    let a = analyze(&p);
    (p, a)
}

/// The same bound for a manifest, every deletion tried: its mod keeps what still reads (its ID,
/// its version, the renames of the lines that read), and what may be written in the part that
/// does not read is not claimed missing elsewhere (a version a requirement needs, an old ID a
/// reference names, a use of a table).
#[test]
fn one_deletion_in_a_manifest_gives_at_most_two_diagnostics_in_the_manifest() {
    let key = |p: &Project, d: &rustkeep_data::diag::Diagnostic| (p.file(d.loc.file).path.clone(), d.loc.span.clone(), d.code);
    let (p, clean) = versioned(LIB_MANIFEST);
    let before: std::collections::HashSet<_> = clean.diagnostics.iter().map(|d| key(&p, d)).collect();
    assert!(clean.diagnostics.iter().all(|d| d.code == Code::RenamedReference), "{:#?}", clean.diagnostics);
    assert_eq!(before.len(), 2, "the two old IDs are named: {:#?}", clean.diagnostics);
    let mut failures = Vec::new();
    let mut syntax = 0;
    let places = candidates(LIB_MANIFEST);
    for &at in &places {
        let mut text = LIB_MANIFEST.to_string();
        let deleted = text.remove(at);
        let (p, a) = versioned(&text);
        let new: Vec<&rustkeep_data::diag::Diagnostic> = a.diagnostics.iter().filter(|d| !before.contains(&key(&p, d))).collect();
        syntax += usize::from(new.iter().any(|d| d.code == Code::TomlSyntax));
        if new.len() > 2 || new.iter().any(|d| !p.file(d.loc.file).path.ends_with("lib/mod.toml")) {
            let line = LIB_MANIFEST[..at].matches('\n').count() + 1;
            let listed: Vec<String> = new.iter().map(|d| format!("  {}:{:?} {} {}", p.file(d.loc.file).path, d.loc.span, d.code.name(), d.message)).collect();
            failures.push(format!("`{deleted}` deleted on line {line}:\n{}", listed.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{} of {} mutants broke the bound:\n{}", failures.len(), places.len(), failures.join("\n"));
    assert!(syntax * 4 >= places.len() * 3, "only {syntax} of {} mutants were syntax errors", places.len());
}

/// A byte that is not UTF-8 is one mistake: in a comment, a name or a key of any data file of the
/// set, it is the one diagnostic. Its section is unreadable (nothing is claimed missing that it may
/// give, place or start), and the IDs it spells still resolve.
#[test]
fn a_byte_that_is_not_utf8_gives_one_diagnostic_in_its_file() {
    let base = clean_project();
    let facts = lower_all(&base, 1);
    let mut failures = Vec::new();
    let files: Vec<FileId> = base.files.iter().filter(|f| f.kind == FileKind::Data).map(|f| f.id).collect();
    for &fid in &files {
        let original = base.file(fid).text.to_string();
        // In a comment, in the first name, and in the first key.
        let quote = original.find("name = \"").map_or(0, |q| q + 8);
        let key = original.lines().find(|l| l.contains(" = ")).and_then(|l| original.find(l)).unwrap_or(0);
        for at in [0, quote, key] {
            let mut bytes = original.as_bytes().to_vec();
            bytes.splice(at..at, if at == 0 { b"# caf\xE9\n".to_vec() } else { b"\xE9".to_vec() });
            let mut project = base.clone();
            let f = &mut project.files[fid.0 as usize];
            let (text, bad) = rustkeep_data::source::SourceFile::decode(&bytes);
            f.index = std::sync::Arc::new(rustkeep_data::text::LineIndex::new(&text));
            (f.text, f.invalid_utf8_at) = (text, bad);
            let mut mutant_facts = facts.clone();
            mutant_facts[fid.0 as usize] = lower_source(project.file(fid));
            let diags = analyze_with(&project, mutant_facts).diagnostics;
            if diags.len() != 1 || diags[0].code != Code::TomlSyntax || diags[0].loc.file != fid {
                let listed: Vec<String> =
                    diags.iter().map(|d| format!("  {}:{:?} {} {}", project.file(d.loc.file).path, d.loc.span, d.code.name(), d.message)).collect();
                failures.push(format!("a bad byte at {}:{at}:\n{}", project.file(fid).path, listed.join("\n")));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} mutants broke the bound:\n{}", failures.len(), files.len() * 3, failures.join("\n"));
}

/// A content pack whose own quest and loot table nothing uses: one deletion in its manifest (its
/// `library = true` may be what no longer reads) gives at most two diagnostics, in the manifest.
#[test]
fn one_deletion_in_a_content_packs_manifest_claims_nothing_unused() {
    const PACK: &str = "[mod]\nid = \"pack\"\nname = \"Pack\"\nversion = \"1.0.0\"\nlibrary = true\n";
    const PACK_DATA: &str = "[[quests]]\nid = \"pack:hunt\"\nname = \"Hunt\"\non = \"creature_died\"\nactions = [ { action = \"give_item\", item = \"core:gold\", count = 5, target = \"self\" } ]\n\n[[loot_tables]]\nid = \"pack:loot\"\nentries = [ { item = \"core:gold\", count = \"1-2\", weight = 1 } ]\n";
    let run = |manifest: &str| {
        let mut p = Project::with_bundled_core();
        p.add_memory_mod("pack", &[("mod.toml", manifest), ("data.toml", PACK_DATA)]);
        let a = analyze(&p);
        (p, a)
    };
    let (_, clean) = run(PACK);
    assert!(clean.diagnostics.is_empty(), "{:#?}", clean.diagnostics);
    let mut failures = Vec::new();
    let places = candidates(PACK);
    for &at in &places {
        let mut text = PACK.to_string();
        let deleted = text.remove(at);
        let (p, a) = run(&text);
        if a.diagnostics.len() > 2 || a.diagnostics.iter().any(|d| !p.file(d.loc.file).path.ends_with("pack/mod.toml")) {
            let listed: Vec<String> =
                a.diagnostics.iter().map(|d| format!("  {}:{:?} {} {}", p.file(d.loc.file).path, d.loc.span, d.code.name(), d.message)).collect();
            failures.push(format!("`{deleted}` deleted at {at}:\n{}", listed.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{} of {} mutants broke the bound:\n{}", failures.len(), places.len(), failures.join("\n"));
}
