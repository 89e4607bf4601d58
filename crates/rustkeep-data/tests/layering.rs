//! The crate layering, as `cargo metadata` reports it (docs/ARCHITECTURE.md, "Crate map"):
//!
//! ```text
//! rustkeep-data → { rustkeep-check, rustkeep-fmt } → rustkeep-lsp → rustkeep-cli
//! rustkeep-data → rustkeep-check → rustkeep-engine → rustkeep-ide → { rustkeep-lsp, rustkeep-cli }
//! rustkeep-data → rustkeep-check → rustkeep-engine → rustkeep-present → rustkeep-play → rustkeep-cli
//! rustkeep-data → rustkeep-check → rustkeep-engine → rustkeep-present → rustkeep-doc → rustkeep-cli
//! ```
//!
//! The engine depends on the validator for its types only — the validated model `World::new`
//! takes, which only the validator makes, and the wording of `loot-table-cycle` — and the
//! validator never depends on the engine, not even for its tests. The game (`rustkeep-play`)
//! plays data through the engine and never validates it: the validator is only a direct
//! dependency of its tests (which validate the bundled core before playing it, as the command
//! line does), so the game's own code cannot name it, and only the command line and the
//! benchmark may use the game.
//! A crate may depend (normal, dev or build) only on the workspace crates below it; a test that
//! needs two siblings lives in a crate above both. The benchmark crate sits on top
//! and may use every other. A workspace crate missing from the table is a tool on top of
//! everything (it may use any crate), and no crate of the table may depend on it: a shared test
//! helper used by a lower crate must be given its place here, below everything, and be named a
//! test-only crate, which every crate may use for its tests.

use std::collections::{BTreeMap, BTreeSet};

use rustkeep_testutil::{cargo_metadata, PRODUCT_CRATES};

/// Every workspace crate with the workspace crates it may depend on, lowest first; every crate
/// may also use the test-only crates ([`TEST_ONLY`]) for its tests.
/// `rustkeep-testutil` (repository paths, generated-file checks, required tools) sits below
/// everything and depends on nothing of the workspace; the product crates may use it only for
/// their tests (`the_test_helpers_are_never_linked_into_the_product`).
const ALLOWED: &[(&str, &[&str])] = &[
    ("rustkeep-testutil", &[]),
    ("rustkeep-data", &[]),
    ("rustkeep-check", &["rustkeep-data"]),
    // The validator for its types: `World::new` takes only a model the validator made.
    ("rustkeep-engine", &["rustkeep-data", "rustkeep-check"]),
    ("rustkeep-fmt", &["rustkeep-data"]),
    // Presentation (words, SVG, DOT) of what the engine reads and makes; it shows, never validates
    // (the validator builds into it through the engine, and into its tests directly).
    ("rustkeep-present", &["rustkeep-data", "rustkeep-check", "rustkeep-engine"]),
    // The pipelines the front ends share, above the validator and the engine.
    ("rustkeep-ide", &["rustkeep-data", "rustkeep-check", "rustkeep-engine"]),
    // The validator through the engine, and directly for its tests only
    // (`the_game_and_the_site_never_validate`).
    ("rustkeep-play", &["rustkeep-data", "rustkeep-check", "rustkeep-engine", "rustkeep-present"]),
    // The site of `rustkeep doc` documents data the command line has validated; like the game,
    // it never validates.
    ("rustkeep-doc", &["rustkeep-data", "rustkeep-check", "rustkeep-engine", "rustkeep-present"]),
    ("rustkeep-lsp", &["rustkeep-data", "rustkeep-check", "rustkeep-engine", "rustkeep-fmt", "rustkeep-ide"]),
    // The command line, the last of the product's crates, uses the others.
    ("rustkeep-cli", PRODUCT_CRATES.split_last().expect("the product has crates").1),
    ("rustkeep-bench", PRODUCT_CRATES),
];

/// Crates that only tests may use: never a normal or build dependency of a product crate.
const TEST_ONLY: &[&str] = &["rustkeep-testutil"];

/// Workspace crates that are no part of the product (never published, never released): the
/// benchmark drives the server with the tests' language-server client.
const NOT_SHIPPED: &[&str] = &["rustkeep-bench"];

/// A dependency edge between workspace crates: the crate it names, and whether it is linked
/// into the crate's own library and binaries (normal and build dependencies) or only into its
/// tests (dev dependencies).
struct Edge {
    to: String,
    linked: bool,
}

fn workspace_graph() -> BTreeMap<String, Vec<Edge>> {
    let meta = cargo_metadata();
    let packages = meta["packages"].as_array().expect("a package list");
    let names: BTreeSet<String> = packages.iter().filter_map(|p| p["name"].as_str()).map(String::from).collect();
    packages
        .iter()
        .map(|p| {
            let edges = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| {
                    let to = d["name"].as_str()?;
                    // Workspace crates only; `kind` is null for normal dependencies.
                    names.contains(to).then(|| Edge { to: to.to_string(), linked: d["kind"].as_str() != Some("dev") })
                })
                .collect();
            (p["name"].as_str().unwrap_or_default().to_string(), edges)
        })
        .collect()
}

/// The workspace crates that end up in some build of `krate`: its direct dependencies of every
/// kind, then whatever those link in turn (a dev dependency's own dev dependencies never build
/// with it).
fn reachable(graph: &BTreeMap<String, Vec<Edge>>, krate: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&str> = graph[krate].iter().map(|e| e.to.as_str()).collect();
    while let Some(k) = stack.pop() {
        if !seen.insert(k.to_string()) {
            continue;
        }
        stack.extend(graph.get(k).into_iter().flatten().filter(|e| e.linked).map(|e| e.to.as_str()));
    }
    seen
}

#[test]
fn every_crate_depends_only_on_the_layers_below_it() {
    let graph = workspace_graph();
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut problems = Vec::new();
    for krate in graph.keys() {
        // A crate outside the table is a tool on top of everything.
        let Some(ok) = allowed.get(krate.as_str()) else { continue };
        for dep in reachable(&graph, krate) {
            if !ok.contains(&dep.as_str()) && !TEST_ONLY.contains(&dep.as_str()) {
                problems
                    .push(format!("`{krate}` depends on `{dep}` (directly or through another crate), which the layering forbids; see ALLOWED in {}", file!()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The `test-hooks` features (environment switches the tests drive the binary with: a crash
/// before a save's rename, the language server's publication order unguarded, a formatter that
/// loses a comment) are enabled only
/// by dev dependencies and never by default, so a release build does not have them.
#[test]
fn the_test_hooks_are_never_enabled_in_the_product() {
    let meta = cargo_metadata();
    let mut hooked = Vec::new();
    let mut problems = Vec::new();
    for p in meta["packages"].as_array().expect("a package list") {
        let name = p["name"].as_str().unwrap_or_default();
        if p["features"].get("test-hooks").is_some() {
            hooked.push(name.to_string());
        }
        if p["features"]["default"].as_array().is_some_and(|d| d.iter().any(|f| f.as_str().is_some_and(|f| f.contains("test-hooks")))) {
            problems.push(format!("`{name}` enables test-hooks by default"));
        }
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let enables = d["features"].as_array().is_some_and(|f| f.iter().any(|f| f.as_str() == Some("test-hooks")));
            if enables && d["kind"].as_str() != Some("dev") {
                problems.push(format!("`{name}` enables test-hooks of `{}` outside its dev dependencies", d["name"]));
            }
        }
    }
    hooked.sort();
    assert_eq!(hooked, ["rustkeep-engine", "rustkeep-fmt", "rustkeep-lsp"], "the crates with test hooks");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_test_helpers_are_never_linked_into_the_product() {
    let graph = workspace_graph();
    let linked: Vec<String> = graph
        .iter()
        .filter(|(krate, _)| !NOT_SHIPPED.contains(&krate.as_str()))
        .flat_map(|(krate, edges)| edges.iter().filter(|e| e.linked && TEST_ONLY.contains(&e.to.as_str())).map(move |e| format!("`{krate}` links `{}`", e.to)))
        .collect();
    assert!(linked.is_empty(), "test helpers linked into the product (they are for tests only: a dev-dependency):\n{}", linked.join("\n"));
}

#[test]
fn the_layering_table_names_real_crates_and_has_no_cycle() {
    let graph = workspace_graph();
    for (krate, deps) in ALLOWED {
        assert!(graph.contains_key(*krate), "`{krate}` is in ALLOWED but not in the workspace");
        for d in *deps {
            assert!(graph.contains_key(*d), "`{krate}` may depend on `{d}`, which is not in the workspace");
            // The table lists lower layers first, so a crate may only name crates before it.
            let pos = |k: &str| ALLOWED.iter().position(|(n, _)| *n == k);
            assert!(pos(d) < pos(krate), "`{krate}` may depend on `{d}`, which is not below it");
        }
    }
    // The validator sits below the engine, never above it.
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    assert!(!allowed["rustkeep-check"].contains(&"rustkeep-engine"));
    // The game sits on the engine, and nothing below the command line may start it.
    let users: Vec<&str> = ALLOWED.iter().filter(|(_, deps)| deps.contains(&"rustkeep-play")).map(|(k, _)| *k).collect();
    assert_eq!(users, ["rustkeep-cli", "rustkeep-bench"], "only the command line and the benchmark may use the game");
}

/// The game and the site show and play the data they are given and never validate it: the
/// validator builds into them through the engine (for its types), but neither names it as a
/// dependency of its own code, so neither can call it; the game's tests may (they validate the
/// bundled core first, as the command line does before a game).
#[test]
fn the_game_and_the_site_never_validate() {
    let graph = workspace_graph();
    for krate in ["rustkeep-play", "rustkeep-doc", "rustkeep-present"] {
        let direct: Vec<&str> = graph[krate].iter().filter(|e| e.linked).map(|e| e.to.as_str()).collect();
        assert!(!direct.contains(&"rustkeep-check"), "`{krate}` names the validator as a dependency of its own code: {direct:?}");
    }
}

/// Data with errors reaches the engine only through `World::best_effort`, and only where data is
/// shown rather than run: the documentation site, `rustkeep diff` and the editor's balance lenses
/// (docs/ARCHITECTURE.md, invariant "The engine runs what it is given"). Every other world of
/// the product is made from a model the validator made (`World::new`). Tests may use either.
#[test]
fn only_the_viewers_take_data_with_errors() {
    const VIEWERS: &[&str] = &["crates/rustkeep-cli/src/diff.rs", "crates/rustkeep-cli/src/doc.rs", "crates/rustkeep-lsp/src/balance.rs"];
    let callers: Vec<String> = rustkeep_testutil::product_code()
        .into_iter()
        .filter(|(rel, code)| !rel.starts_with("crates/rustkeep-engine/") && !rel.ends_with("/tests.rs") && code.contains("World::best_effort("))
        .map(|(rel, _)| rel)
        .collect();
    assert_eq!(callers, VIEWERS, "the product's calls of `World::best_effort`");
}
