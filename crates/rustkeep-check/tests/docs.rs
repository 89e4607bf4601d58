//! The pages of `docs/` that say what the checker does, held to it (docs/ARCHITECTURE.md,
//! invariant "Docs that cannot drift"):
//!
//! - `docs/diagnostics.md` is generated from the code catalogue, and the list of warnings in
//!   `docs/checking.md` from the codes table; `cargo xtask update` regenerates both (as do these
//!   tests with `UPDATE_EXPECT=1`).
//! - Every ```` ```toml ```` example of `docs/` is checked by the real checker. A block is one
//!   whole file: `mod.toml` (it has `[mod]`), `rustkeep.toml` (`[workspace]`, `[lints]` or
//!   `[format]`), a scenario (top-level scenario keys such as `seed`, `[player]` or `[[steps]]`),
//!   else a data file. It is loaded next to the bundled core — a data file as the only file of a mod
//!   named after the namespace of its IDs (a content pack, unless its marker expects one of the
//!   warnings content packs are spared or its text names one: the rest of a mod would give and
//!   place what it defines),
//!   a scenario with the mods it names present (without entries) — and must give no diagnostic at
//!   all. A block whose language is `toml` and more
//!   (`toml before`, the unformatted side of a formatting example) is checked the same way. An HTML comment on
//!   the line before the block says otherwise:
//!   - `<!-- expect: CODE, … -->`: checked alone, it gives exactly these codes (a mistake the page
//!     shows, or a warning about what the rest of a mod would provide);
//!   - `<!-- fragment -->`: a part of a file (a field, keys of an entry): valid TOML;
//!   - `<!-- other tool -->`: a file of another program (an editor's settings): valid TOML.
//!
//!   A block that defines entries of the core (`id = "core:…"`) shows the core's own data: each
//!   such entry must equal the bundled core's entry of that ID, key for key. A block right after a
//!   line `` `items.toml`: `` is a file of a walkthrough, written and checked by
//!   `crates/rustkeep-cli/tests/docs_commands.rs`, which replays the page; its page must be one of
//!   [`REPLAYED`].

use std::collections::BTreeSet;
use std::path::PathBuf;

use rustkeep_check::analyze;
use rustkeep_data::diag::{Code, Severity};
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::vocab::{self, SCENARIO_FIELDS};
use rustkeep_testutil::{ensure_block_contents, ensure_file_contents, repo_path, TempDir};

#[test]
fn diagnostics_md_matches_the_catalogue() {
    let expected = rustkeep_check::explain::catalog_markdown();
    ensure_file_contents(&repo_path("docs/diagnostics.md"), &expected);
    for code in Code::ALL {
        assert!(expected.contains(code.name()), "docs/diagnostics.md does not mention `{}`", code.name());
    }
}

/// The codes that are warnings by default, as `docs/checking.md` lists them.
fn warnings_list() -> String {
    Code::ALL
        .iter()
        .filter(|c| c.default_severity() == Severity::Warning)
        .map(|c| format!("- [`{0}`](diagnostics.md#{0}): {1}\n", c.name(), c.summary()))
        .collect()
}

#[test]
fn the_warnings_of_checking_md_are_the_codes_table() {
    let list = warnings_list();
    ensure_block_contents(&repo_path("docs/checking.md"), "the codes table", "warnings", &list);
    let warnings = Code::ALL.iter().filter(|c| c.default_severity() == Severity::Warning).count();
    assert!(warnings >= 14 && list.lines().count() == warnings, "{list}");
}

// ---------------------------------------------------------------------------------------------
// The TOML examples

/// The pages `crates/rustkeep-cli/tests/docs_commands.rs` replays, files and commands.
const REPLAYED: &[&str] = &["docs/getting-started.md", "docs/arena.md"];

/// Generated pages: their generators own their examples (`docs/diagnostics.md` shows each code's
/// mistake, from `crates/rustkeep-check/src/explain.rs`).
const GENERATED: &[&str] = &["docs/diagnostics.md", "docs/reference.md"];

#[derive(Debug, PartialEq)]
enum Marker {
    Whole,
    Expect(BTreeSet<String>),
    Fragment,
    OtherTool,
    /// A file of a walkthrough: `` `NAME`: `` on the line before.
    Walkthrough(String),
}

#[derive(Debug)]
struct Example {
    line: usize,
    marker: Marker,
    body: String,
}

/// The ```` ```toml ```` blocks of a page with what the line before each says about it.
fn examples(page: &str) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    let mut before = "";
    let mut lines = page.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        if line.trim_start().starts_with("```") {
            // `toml` and what follows it (`toml before`: the unformatted side of a formatting example).
            let toml = line.trim().strip_prefix("```").and_then(|info| info.split_whitespace().next()) == Some("toml");
            let mut body = String::new();
            for (_, inner) in lines.by_ref() {
                if inner.trim_start().starts_with("```") {
                    break;
                }
                body.push_str(inner);
                body.push('\n');
            }
            if toml {
                out.push(Example { line: i + 1, marker: marker(before).map_err(|e| format!("line {i}: {e}"))?, body });
            }
            before = "";
        } else if !line.trim().is_empty() {
            before = line.trim();
        }
    }
    Ok(out)
}

fn marker(before: &str) -> Result<Marker, String> {
    if let Some(name) = before.strip_prefix('`').and_then(|r| r.strip_suffix("`:")).filter(|n| !n.contains(['`', ' '])) {
        return Ok(Marker::Walkthrough(name.to_string()));
    }
    let Some(comment) = before.strip_prefix("<!--").and_then(|r| r.strip_suffix("-->")).map(str::trim) else { return Ok(Marker::Whole) };
    match comment {
        "fragment" => Ok(Marker::Fragment),
        "other tool" => Ok(Marker::OtherTool),
        _ => {
            let codes =
                comment.strip_prefix("expect:").ok_or_else(|| format!("`{before}` is no marker of a TOML example (expect: CODE, fragment, other tool)"))?;
            let codes: BTreeSet<String> = codes.split(',').map(|c| c.trim().to_string()).collect();
            match codes.iter().find(|c| Code::from_name(c).is_none()) {
                Some(c) => Err(format!("`{c}` in `{before}` is not a diagnostic code")),
                None => Ok(Marker::Expect(codes)),
            }
        }
    }
}

/// The kind of file a whole example is, by its tables and top-level keys.
#[derive(Debug, PartialEq)]
enum Kind {
    Manifest,
    Workspace,
    Scenario,
    Data,
}

fn kind(doc: &toml::Table) -> Kind {
    let has = |k: &str| doc.contains_key(k);
    if has(vocab::key::MOD) {
        Kind::Manifest
    } else if [vocab::key::WORKSPACE, vocab::key::LINTS, vocab::key::FORMAT].iter().any(|k| has(k)) {
        Kind::Workspace
    } else if doc.keys().any(|k| SCENARIO_FIELDS.iter().any(|f| f.name == k)) && !doc.keys().any(|k| vocab::Registry::from_key(k).is_some()) {
        Kind::Scenario
    } else {
        Kind::Data
    }
}

/// The entries of a data file that carry an ID, as `(registry, id, entry)`.
fn entries(doc: &toml::Table) -> Vec<(String, String, toml::Table)> {
    let mut out = Vec::new();
    for (registry, value) in doc {
        for entry in value.as_array().into_iter().flatten().filter_map(toml::Value::as_table) {
            if let Some(id) = entry.get(vocab::field::ID).and_then(toml::Value::as_str) {
                out.push((registry.clone(), id.to_string(), entry.clone()));
            }
        }
    }
    out
}

/// The bundled core's entries.
fn core_entries() -> Vec<(String, String, toml::Table)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(repo_path("crates/rustkeep-data/core")).expect("the bundled core").flatten() {
        let text = std::fs::read_to_string(e.path()).expect("a core file");
        out.extend(entries(&text.parse::<toml::Table>().expect("the core is valid TOML")));
    }
    out
}

/// The namespace of the first ID a data file defines or overrides, for the mod it is loaded in.
fn namespace(doc: &toml::Table) -> String {
    let ids =
        doc.values().flat_map(|v| v.as_array().into_iter().flatten()).filter_map(toml::Value::as_table).filter_map(|e| {
            e.get(vocab::field::ID).or(e.get(vocab::field::OVERRIDES)).and_then(toml::Value::as_str).map(|id| vocab::namespace_of(id).to_string())
        });
    ids.into_iter().find(|ns| ns != vocab::CORE_NAMESPACE && vocab::is_valid_namespace(ns)).unwrap_or_else(|| "my_mod".to_string())
}

/// The warnings about an entry that nothing in the mod's game places, gives, applies, starts, opens
/// or uses, which a content pack (`library = true`) is spared for its own entries.
const NEVER: [&str; 8] = [
    "npc-never-placed",
    "prefab-never-used",
    "item-never-obtainable",
    "status-never-applied",
    "creature-never-met",
    "shop-never-opened",
    "quest-never-started",
    "unused-loot-table",
];

/// The codes a whole example gives when it is checked as its kind of file, next to the core,
/// with the first messages. A data file is the only file of its mod: a part of a mod whose other
/// files would give, place and start what it defines. So its mod is a content pack, which hears
/// nothing of entries never used, unless `never` (the example is about one of those warnings).
fn check(kind: &Kind, doc: &toml::Table, body: &str, never: bool) -> (BTreeSet<String>, Vec<String>) {
    let tmp = TempDir::new("docs_example");
    let write = |rel: &str, text: &str| {
        let path = tmp.0.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
        std::fs::write(&path, text).expect("write the example");
        path
    };
    let manifest = |id: &str| format!("[mod]\nid = \"{id}\"\nname = \"Example\"\nversion = \"0.1.0\"\n");
    let path: PathBuf = match kind {
        Kind::Manifest => write("example/mod.toml", body).parent().expect("the mod").to_path_buf(),
        Kind::Workspace => write("rustkeep.toml", body).parent().expect("the workspace").to_path_buf(),
        Kind::Scenario => {
            // The mods a scenario names are there, as mods without entries.
            let mods = doc.get(vocab::field::MODS).and_then(toml::Value::as_array).into_iter().flatten().filter_map(toml::Value::as_str);
            for m in mods {
                let id = m.rsplit('/').next().filter(|id| vocab::is_valid_namespace(id)).unwrap_or("named");
                let folder = tmp.0.join("scenarios").join(m);
                if folder.starts_with(&tmp.0) && !folder.join("mod.toml").exists() {
                    std::fs::create_dir_all(&folder).expect("create the mod");
                    std::fs::write(folder.join("mod.toml"), manifest(id)).expect("write the manifest");
                }
            }
            write("scenarios/example.scenario.toml", body)
        }
        Kind::Data => {
            let ns = namespace(doc);
            let pack = if never { "" } else { "library = true\n" };
            write(&format!("{ns}/mod.toml"), &format!("{}{pack}", manifest(&ns)));
            write(&format!("{ns}/example.toml"), body).parent().expect("the mod").to_path_buf()
        }
    };
    let project = load(&[path], &tmp.0, &Overlay::new());
    let analysis = analyze(&project);
    let codes = analysis.diagnostics.iter().map(|d| d.code.name().to_string()).collect();
    let messages = analysis.diagnostics.iter().take(4).map(|d| format!("{}: {}", d.code.name(), d.message)).collect();
    (codes, messages)
}

/// What is wrong with one example, if anything.
fn example_problem(page: &str, e: &Example, core: &[(String, String, toml::Table)]) -> Option<String> {
    let parsed = e.body.parse::<toml::Table>();
    let doc = match (&e.marker, parsed) {
        (_, Err(err)) if !matches!(&e.marker, Marker::Expect(codes) if codes.contains("toml-syntax")) => {
            return Some(format!("is not valid TOML: {}", err.message()));
        }
        (Marker::Fragment | Marker::OtherTool, _) => return None,
        (Marker::Walkthrough(name), _) => {
            return (!REPLAYED.contains(&page))
                .then(|| format!("is the file `{name}` of a walkthrough, but crates/rustkeep-cli/tests/docs_commands.rs does not replay {page}"));
        }
        (_, parsed) => parsed.unwrap_or_default(),
    };
    // Entries of the core itself (an override of a core entry has `overrides`, and belongs to a mod).
    let defined: Vec<_> = entries(&doc).into_iter().filter(|(_, _, e)| !e.contains_key(vocab::field::OVERRIDES)).collect();
    if defined.iter().any(|(_, id, _)| vocab::namespace_of(id) == vocab::CORE_NAMESPACE) {
        for (registry, id, entry) in &defined {
            match core.iter().find(|(r, i, _)| r == registry && i == id) {
                Some((_, _, real)) if real == entry => {}
                Some(_) => return Some(format!("shows `{id}` of the core, but the bundled core's `{id}` differs")),
                None => return Some(format!("shows `{id}` as an entry of the core's `{registry}`, which the bundled core does not have")),
            }
        }
        return None;
    }
    let want = match &e.marker {
        Marker::Expect(codes) => codes.clone(),
        _ => BTreeSet::new(),
    };
    // An example about one of those warnings expects it, or names it in an allow comment.
    let never = NEVER.iter().any(|c| want.contains(*c) || e.body.contains(c));
    let (got, messages) = check(&kind(&doc), &doc, &e.body, never);
    (got != want).then(|| {
        let how = if want.is_empty() { "must check clean".to_string() } else { format!("must give exactly {want:?} (its `<!-- expect: … -->`)") };
        format!("{how}, but gives {got:?}: {messages:?}")
    })
}

fn pages() -> Vec<String> {
    let mut pages = Vec::new();
    for dir in ["docs", "docs/editors"] {
        for e in std::fs::read_dir(repo_path(dir)).expect("docs/").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let rel = format!("{dir}/{name}");
            if name.ends_with(".md") && !GENERATED.contains(&rel.as_str()) {
                pages.push(rel);
            }
        }
    }
    pages.sort();
    pages
}

#[test]
fn every_toml_example_of_the_docs_is_checked() {
    let core = core_entries();
    assert!(core.len() > 100, "read the bundled core");
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(repo_path(&page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        let examples = match examples(&text) {
            Ok(examples) => examples,
            Err(e) => {
                problems.push(format!("{page}: {e}"));
                continue;
            }
        };
        for e in examples {
            checked += 1;
            if let Some(p) = example_problem(&page, &e, &core) {
                problems.push(format!("{page}:{}: the example {p}", e.line));
            }
        }
    }
    assert!(checked > 30, "found the examples ({checked})");
    assert!(problems.is_empty(), "TOML examples of the docs that do not say what the checker says:\n{}", problems.join("\n"));
}

#[test]
fn the_example_check_sees_wrong_examples() {
    let core = core_entries();
    let page = "A quest:\n\n```toml\n[[quests]]\nid = \"my_mod:q\"\nname = \"Q\"\non = \"enemy_killed\"\n```\n\n\
                <!-- expect: unknown-event, quest-never-started -->\n```toml\n[[quests]]\nid = \"my_mod:q\"\nname = \"Q\"\non = \"enemy_killed\"\n```\n\n\
                <!-- fragment -->\n```toml\nmodifiers = [ { attribute = \"luck\", add = 1 } ]\n```\n\n\
                ```toml\n[[loot_tables]]\nid = \"core:rare_table\"\nentries = []\n```\n\n\
                `items.toml`:\n```toml\n[[items]]\n```\n\n<!-- fragment -->\n```toml\nx = [\n```\n";
    let found = examples(page).expect("the markers read");
    let problems: Vec<Option<String>> = found.iter().map(|e| example_problem("docs/loot.md", e, &core)).collect();
    assert!(problems[0].as_deref().is_some_and(|p| p.contains("unknown-event")), "{problems:?}");
    assert_eq!(problems[1], None, "the expected mistake");
    assert_eq!(problems[2], None, "a fragment");
    assert!(problems[3].as_deref().is_some_and(|p| p.contains("core:rare_table")), "{problems:?}");
    assert!(problems[4].as_deref().is_some_and(|p| p.contains("walkthrough")), "{problems:?}");
    assert!(problems[5].as_deref().is_some_and(|p| p.contains("not valid TOML")), "{problems:?}");
    assert!(examples("<!-- expect: no-such-code -->\n```toml\n```\n").is_err());
    assert!(examples("<!-- fragmentary -->\n```toml\n```\n").is_err());
    let data = "[[items]]\nid = \"lamp:oil\"\n".parse::<toml::Table>().expect("TOML");
    assert_eq!((kind(&data), namespace(&data)), (Kind::Data, "lamp".to_string()));
    assert_eq!(kind(&"seed = 1\n[[steps]]\nwait = true\n".parse().expect("TOML")), Kind::Scenario);
    assert_eq!(kind(&"[lints]\n".parse().expect("TOML")), Kind::Workspace);
}
