//! Seeded mutation test of fix safety over real data: the bundled core and the example mods, one
//! name misspelt per mutant, checked in-process. Names are the values of `on`, `action`, `check`,
//! `attribute` and `damage_type`, IDs in references, and the field keys of registry entries.
//! Each is misspelt three ways:
//!
//! - by a slip of the hand: two neighbouring letters swapped, or one letter's case;
//! - toward another valid name of the same kind: one edit from the original that is also one edit
//!   from another name (`heal` → `deal`-like, where `deal` could be either);
//! - by one letter changed at random.
//!
//! Whatever the mutant, a safe fix at the misspelt place writes the original back: never a third
//! spelling. A slip with no other name as close is restored by a safe fix; a misspelling one edit
//! from two valid names gets no safe fix.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use rustkeep_check::analyze;
use rustkeep_data::diag::{toml_string, Applicability};
use rustkeep_data::project::{bundled::CORE_FILES, Project};
use rustkeep_data::source::SourceFile;
use rustkeep_data::suggest::distance;
use rustkeep_data::vocab::{IdText, ACTIONS, ATTRIBUTES, CHECKS, DAMAGE_TYPES, EVENTS, REGISTRIES};
use rustkeep_testutil::modpack::Gen;

/// Where the data comes from: the core (by its index in `CORE_FILES`) or an example mod's file.
#[derive(Clone, Copy, Debug)]
enum Origin {
    Core(usize),
    Example(&'static str, usize),
}

const EXAMPLES: &[&str] = &["fire_and_thorns", "rat_catcher"];

fn example_files(name: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("the example mod is there")
        .map(|e| e.expect("a readable folder").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).expect("a readable file")))
        .collect();
    out.sort();
    out
}

/// The project with the core as a mod's files (so its diagnostics are reported) and both
/// examples; `replace` swaps one file's text.
fn project(examples: &[Vec<(String, String)>], replace: Option<(Origin, &str)>) -> (Project, Option<usize>) {
    let mut p = Project::with_bundled_core();
    let mut at = None;
    for f in &mut p.files {
        f.bundled = false;
    }
    p.mods[0].bundled = false;
    if let Some((Origin::Core(i), text)) = replace {
        let old = &p.files[i];
        let mut f = SourceFile::new(old.id, old.path.clone(), Arc::from(text), old.kind);
        f.bundled = false;
        p.files[i] = f;
        at = Some(i);
    }
    for (k, name) in EXAMPLES.iter().enumerate() {
        let mut files: Vec<(String, String)> = examples[k].clone();
        if let Some((Origin::Example(n, j), text)) = replace {
            if n == *name {
                files[j].1 = text.to_string();
            }
        }
        let start = p.files.len();
        let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        p.add_memory_mod(name, &refs);
        if let Some((Origin::Example(n, j), _)) = replace {
            if n == *name {
                let path = format!("{name}/{}", files[j].0);
                at = (start..p.files.len()).find(|&i| p.files[i].path == path);
            }
        }
    }
    (p, at)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Vocabulary(&'static str),
    Id,
    Field,
}

/// A name written in a file: its text, where (a byte range of the name itself, inside quotes
/// for values) and the names of its kind it could be confused with.
#[derive(Clone, Debug)]
struct Site {
    origin: Origin,
    start: usize,
    name: String,
    kind: Kind,
    /// For a quoted value, the span including the quotes (what a fix replaces).
    quoted: bool,
    candidates: Arc<Vec<String>>,
}

fn vocabulary(key: &str) -> Option<Vec<String>> {
    let names: Vec<&str> = match key {
        "on" => EVENTS.iter().map(|e| e.name).collect(),
        "action" => ACTIONS.iter().map(|a| a.name).collect(),
        "check" => CHECKS.iter().map(|c| c.name).collect(),
        "attribute" => ATTRIBUTES.iter().map(|a| a.0).collect(),
        "damage_type" => DAMAGE_TYPES.iter().map(|d| d.0).collect(),
        _ => return None,
    };
    Some(names.into_iter().map(String::from).collect())
}

/// Every `key = "value"` whose value is a vocabulary name or an ID reference, and the key of every
/// field line right below a `[[registry]]` header.
fn sites(origin: Origin, text: &str, ids_of: &dyn Fn(&str) -> Option<Arc<Vec<String>>>) -> Vec<Site> {
    let mut out = Vec::new();
    let vocabularies: Vec<(&str, Arc<Vec<String>>)> =
        ["on", "action", "check", "attribute", "damage_type"].iter().map(|k| (*k, Arc::new(vocabulary(k).expect("listed")))).collect();
    let mut fields: Option<Arc<Vec<String>>> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if let Some(h) = trimmed.strip_prefix("[[").and_then(|h| h.strip_suffix("]]")) {
            fields = REGISTRIES.iter().find(|r| r.key == h).map(|r| Arc::new(r.fields.iter().map(|f| f.name.to_string()).collect()));
        } else if trimmed.starts_with('[') {
            fields = None;
        } else if let Some(fs) = &fields {
            if let Some((key, _)) = trimmed.split_once(" = ") {
                // Not `id` or `overrides`: an entry without its ID is another test's business.
                if fs.iter().any(|f| f == key) && key != "id" && key != "overrides" {
                    out.push(Site { origin, start: offset, name: key.to_string(), kind: Kind::Field, quoted: false, candidates: fs.clone() });
                }
            }
        }
        // Quoted values after `key = `, on any line (inline tables included).
        let mut rest = 0;
        while let Some(eq) = line[rest..].find(" = \"") {
            let key_end = rest + eq;
            let key_start = line[..key_end].rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
            let key = &line[key_start..key_end];
            let v_start = key_end + 4;
            let Some(len) = line[v_start..].find('"') else { break };
            let value = &line[v_start..v_start + len];
            rest = v_start + len + 1;
            let kind_and_candidates = if let Some((_, c)) = vocabularies.iter().find(|(k, _)| *k == key) {
                c.contains(&value.to_string()).then(|| (Kind::Vocabulary(vocabularies.iter().find(|(k, _)| *k == key).unwrap().0), c.clone()))
            } else if key != "id" && key != "overrides" {
                ids_of(value).map(|c| (Kind::Id, c))
            } else {
                None
            };
            if let Some((kind, candidates)) = kind_and_candidates {
                out.push(Site { origin, start: offset + v_start, name: value.to_string(), kind, quoted: true, candidates });
            }
        }
        offset += line.len();
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    Slip,
    TowardAnother,
    Random,
}

/// The single edits of `name` (a letter changed, dropped or added) that are one edit from
/// another candidate as well, and are no candidate themselves.
fn toward_others(name: &str, candidates: &[String]) -> Vec<String> {
    let letters: Vec<char> = ('a'..='z').chain(['_']).collect();
    let chars: Vec<char> = name.chars().collect();
    let mut edits = BTreeSet::new();
    for i in 0..=chars.len() {
        for &c in &letters {
            let mut v = chars.clone();
            v.insert(i, c);
            edits.insert(v.into_iter().collect::<String>());
            if i < chars.len() {
                let mut v = chars.clone();
                v[i] = c;
                edits.insert(v.into_iter().collect::<String>());
            }
        }
        if i < chars.len() {
            let mut v = chars.clone();
            v.remove(i);
            edits.insert(v.into_iter().collect::<String>());
        }
    }
    edits
        .into_iter()
        .filter(|m| m != name && IdText::of(m).is_bare() == IdText::of(name).is_bare() && !candidates.contains(m))
        .filter(|m| candidates.iter().any(|c| c != name && distance(m, c, 1).is_some()))
        .collect()
}

fn slips(g: &mut Gen, name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    // Swaps of two different neighbours, the namespace's colon aside.
    let swaps: Vec<usize> = (0..chars.len().saturating_sub(1)).filter(|&i| chars[i] != chars[i + 1] && chars[i] != ':' && chars[i + 1] != ':').collect();
    if let Some(&i) = g.pick(&swaps) {
        let mut v = chars.clone();
        v.swap(i, i + 1);
        out.push(v.into_iter().collect());
    }
    let letters: Vec<usize> = (0..chars.len()).filter(|&i| chars[i].is_ascii_lowercase()).collect();
    if let Some(&i) = g.pick(&letters) {
        let mut v = chars.clone();
        v[i] = v[i].to_ascii_uppercase();
        out.push(v.into_iter().collect());
    }
    out
}

fn random_edit(g: &mut Gen, name: &str) -> String {
    let mut v: Vec<char> = name.chars().collect();
    let positions: Vec<usize> = (0..v.len()).filter(|&i| v[i] != ':').collect();
    let i = *g.pick(&positions).expect("a name has letters");
    v[i] = (b'a' + g.below(26) as u8) as char;
    v.into_iter().collect()
}

#[test]
fn safe_fixes_of_misspelt_names_restore_them_and_nothing_else() {
    let examples: Vec<Vec<(String, String)>> = EXAMPLES.iter().map(|n| example_files(n)).collect();
    let (clean, _) = project(&examples, None);
    let db = analyze(&clean).db;
    let registries: Vec<Arc<Vec<String>>> = db.resolved.defs.iter().map(|d| Arc::new(d.keys().cloned().collect())).collect();
    let ids_of = |v: &str| -> Option<Arc<Vec<String>>> {
        let regs = db.resolved.registries_of(v);
        (regs.len() == 1).then(|| registries[regs[0].index()].clone())
    };

    let mut texts: Vec<(Origin, String)> = Vec::new();
    for (i, (_, text)) in CORE_FILES.iter().enumerate() {
        texts.push((Origin::Core(i), text.to_string()));
    }
    for (k, name) in EXAMPLES.iter().enumerate() {
        for (j, (file, text)) in examples[k].iter().enumerate() {
            if file != "mod.toml" {
                texts.push((Origin::Example(name, j), text.clone()));
            }
        }
    }
    let mut all_sites = Vec::new();
    for (origin, text) in &texts {
        all_sites.extend(sites(*origin, text, &ids_of));
    }
    assert!(all_sites.len() > 200, "only {} names found", all_sites.len());

    let mut g = Gen::new(30);
    let mut mutants: Vec<(Site, String, How)> = Vec::new();
    // Every vocabulary and field site gets its slips; IDs and fields are many, so a sample of them.
    for site in &all_sites {
        let take = match site.kind {
            Kind::Vocabulary(_) => true,
            Kind::Id | Kind::Field => g.below(3) == 0,
        };
        if !take {
            continue;
        }
        for m in slips(&mut g, &site.name) {
            if !site.candidates.contains(&m) {
                mutants.push((site.clone(), m, How::Slip));
            }
        }
        // Up to three of them: names with a neighbour are few, and they are the point.
        let mut toward = toward_others(&site.name, &site.candidates);
        for _ in 0..3 {
            if toward.is_empty() {
                break;
            }
            let m = toward.swap_remove(g.below(toward.len()));
            mutants.push((site.clone(), m, How::TowardAnother));
        }
        let m = random_edit(&mut g, &site.name);
        if m != site.name && !site.candidates.contains(&m) {
            mutants.push((site.clone(), m, How::Random));
        }
    }
    // Every misspelling toward another name, and a sample of the others, so that the test runs
    // in seconds: each mutant is one analysis of the core and both examples.
    let mut kept = Vec::new();
    let (mut slips_kept, mut random_kept) = (0, 0);
    let total = mutants.len();
    for (i, m) in mutants.into_iter().enumerate() {
        let keep = match m.2 {
            How::TowardAnother => true,
            How::Slip => slips_kept < 320 && g.below(total - i) < 320 - slips_kept + 40,
            How::Random => random_kept < 80 && g.below(total - i) < 80 - random_kept + 20,
        };
        if keep {
            slips_kept += usize::from(m.2 == How::Slip);
            random_kept += usize::from(m.2 == How::Random);
            kept.push(m);
        }
    }
    let mutants = kept;
    let count = |h: How| mutants.iter().filter(|m| m.2 == h).count();
    assert!(mutants.len() >= 400, "only {} mutants", mutants.len());
    assert!(count(How::TowardAnother) >= 100, "only {} mutants toward another name", count(How::TowardAnother));

    let mut restored = 0;
    let mut ambiguous = 0;
    let mut failures = Vec::new();
    for (site, m, how) in &mutants {
        let text = &texts.iter().find(|(o, _)| format!("{o:?}") == format!("{:?}", site.origin)).expect("the site's file").1;
        let mutated = format!("{}{m}{}", &text[..site.start], &text[site.start + site.name.len()..]);
        let (p, at) = project(&examples, Some((site.origin, &mutated)));
        let at = at.expect("the mutated file is in the project");
        let a = analyze(&p);
        let (lo, hi) = if site.quoted { (site.start - 1, site.start + m.len() + 1) } else { (site.start, site.start + m.len()) };
        let fixes: Vec<_> = a
            .diagnostics
            .iter()
            .filter(|d| d.loc.file.0 as usize == at)
            .filter_map(|d| d.fix.as_ref().map(|f| (d, f)))
            .filter(|(_, f)| f.span.start <= lo && hi <= f.span.end && f.span.end - f.span.start <= hi - lo)
            .collect();
        let original = if site.quoted { toml_string(&site.name) } else { site.name.clone() };
        let safe: Vec<_> = fixes.iter().filter(|(_, f)| f.applicability == Applicability::Safe).collect();
        for (d, f) in &safe {
            if f.replacement != original {
                failures.push(format!("{how:?} `{}` → `{m}`: a safe fix writes {} ({})", site.name, f.replacement, d.message));
            }
        }
        let rival = site.candidates.iter().any(|c| *c != site.name && distance(&m.to_lowercase(), c, 1).is_some());
        match how {
            How::Slip if !rival => {
                if safe.iter().any(|(_, f)| f.replacement == original) {
                    restored += 1;
                } else {
                    let offered: Vec<String> = fixes.iter().map(|(_, f)| format!("{} ({})", f.replacement, f.applicability.as_str())).collect();
                    failures.push(format!("{:?} slip `{}` → `{m}` is not restored as safe; fixes: {offered:?}", site.kind, site.name));
                }
            }
            How::TowardAnother => {
                ambiguous += 1;
                if !safe.is_empty() {
                    failures.push(format!("`{m}` is one edit from `{}` and another name, yet has a safe fix", site.name));
                }
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{} of {} mutants failed:\n{}", failures.len(), mutants.len(), failures.join("\n"));
    eprintln!(
        "{} mutants ({} slips, {} toward another name, {} random); {restored} slips restored",
        mutants.len(),
        count(How::Slip),
        count(How::TowardAnother),
        count(How::Random)
    );
    assert!(restored >= 150, "only {restored} slips were restored");
    assert!(ambiguous >= 100, "only {ambiguous} ambiguous misspellings were tried");
}
