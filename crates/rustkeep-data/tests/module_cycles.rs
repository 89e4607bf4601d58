//! The modules inside each crate form a DAG (docs/ARCHITECTURE.md, "Crate map"): the crate
//! layering (`layering.rs`) holds between crates, this test holds inside them.
//!
//! A module is a file under `crates/*/src` (`a.rs` and `a/mod.rs` are `a`, `a/b.rs` is `a::b`);
//! the binaries under `src/bin/` are crates of their own and are left out, as are test modules
//! (`#[cfg(test)] mod tests { … }` and files named `tests.rs`), comments and doc links. A module
//! depends on another when it names it, or an item in it, by a path from `crate::` or `super::`
//! (`use` declarations, nested `use` groups and paths in code alike).
//!
//! At every level of the module tree, the modules that share a parent must not depend on each
//! other in a cycle, where a module stands for everything below it. A parent and its own
//! children are one unit — the parent declares them, and they may use what it defines — so the
//! edges between a module and its descendants are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rustkeep_testutil::{files_below, repo_path, repo_root, TempDir};

type Module = Vec<String>;

/// One dependency: from a module to a module, and where it is written (`file:line`).
#[derive(Debug)]
struct Edge {
    from: Module,
    to: Module,
    at: String,
}

/// The module path of a source file under `src`, or `None` for files left out.
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if !matches!(stem, "lib" | "main" | "mod") {
        parts.push(stem.to_string());
    }
    if parts.last().is_some_and(|p| p == "tests") {
        return None;
    }
    Some(parts)
}

/// The code of a file that counts: without comments and without its test module.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed == "#[cfg(test)]" && lines.peek().is_some_and(|(_, next)| next.trim_start().starts_with("mod tests")) {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        // A comment after code: `//` outside a string is rare enough in this code base that
        // cutting at the first one is exact for every file (a string with `//` names no module).
        let code = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        out.push((i + 1, code));
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path a line names from `crate::` or `super::`, as written (`super` kept), with nested
/// `use` groups expanded: `use crate::{a::{b, c}, d}` names `crate::a::b`, `crate::a::c`,
/// `crate::d`.
fn paths_in(line: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts = |word: &str| {
            let w: Vec<char> = word.chars().collect();
            bytes[i..].starts_with(&w) && (i == 0 || !is_ident(bytes[i - 1]))
        };
        if starts("crate::") || starts("super::") {
            let (paths, end) = path_tree(&bytes, i, Vec::new());
            out.extend(paths);
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Reads a path (with groups) starting at `at`, below `prefix`; returns the full paths and where
/// reading stopped.
fn path_tree(chars: &[char], mut at: usize, mut prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    loop {
        while at < chars.len() && chars[at] == ' ' {
            at += 1;
        }
        if at < chars.len() && chars[at] == '{' {
            let mut out = Vec::new();
            at += 1;
            loop {
                while at < chars.len() && matches!(chars[at], ' ' | ',') {
                    at += 1;
                }
                if at >= chars.len() {
                    return (out, at);
                }
                if chars[at] == '}' {
                    return (out, at + 1);
                }
                let (paths, end) = path_tree(chars, at, prefix.clone());
                out.extend(paths);
                if end == at {
                    // Nothing readable (`*`, `self`): skip one character.
                    at += 1;
                } else {
                    at = end;
                }
            }
        }
        let start = at;
        while at < chars.len() && is_ident(chars[at]) {
            at += 1;
        }
        if at == start {
            return (if prefix.is_empty() { Vec::new() } else { vec![prefix] }, at);
        }
        let ident: String = chars[start..at].iter().collect();
        if ident != "self" {
            prefix.push(ident);
        }
        if chars[at..].starts_with(&[':', ':']) {
            at += 2;
        } else {
            return (vec![prefix], at);
        }
    }
}

/// The module a path names: the longest module that is a prefix of it, with `crate` and `super`
/// resolved from the module `from`.
fn resolve(from: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module;
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &rest[1..];
        }
        Some("super") => {
            base = from.clone();
            while rest.first().is_some_and(|p| p == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut best = None;
    for part in rest {
        base.push(part.clone());
        if modules.contains(&base) {
            best = Some(base.clone());
        }
    }
    best
}

/// Every dependency between the modules of the crate whose sources are in `src`.
fn crate_edges(src: &Path) -> (BTreeSet<Module>, Vec<Edge>) {
    let files: Vec<(Module, PathBuf)> = files_below(src, "rs").into_iter().filter_map(|f| Some((module_of(src, &f)?, f))).collect();
    let modules: BTreeSet<Module> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges = Vec::new();
    for (module, file) in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        for (line, code) in code_lines(&text) {
            for path in paths_in(code) {
                if let Some(to) = resolve(module, &path, &modules) {
                    if &to != module {
                        edges.push(Edge { from: module.clone(), to, at: format!("{}:{line}", file.strip_prefix(repo_root()).unwrap_or(file).display()) });
                    }
                }
            }
        }
    }
    (modules, edges)
}

/// The cycles among the modules that share a parent, each as the modules in it and the
/// dependencies that close it.
fn sibling_cycles(modules: &BTreeSet<Module>, edges: &[Edge]) -> Vec<String> {
    let parents: BTreeSet<Module> = modules.iter().filter(|m| !m.is_empty()).map(|m| m[..m.len() - 1].to_vec()).collect();
    let mut found = Vec::new();
    for parent in parents {
        let depth = parent.len();
        let under = |m: &Module| m.len() > depth && m[..depth] == parent[..];
        // child → (child it depends on → where)
        let mut graph: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
        for e in edges.iter().filter(|e| under(&e.from) && under(&e.to) && e.from[depth] != e.to[depth]) {
            graph.entry(&e.from[depth]).or_default().entry(&e.to[depth]).or_insert(&e.at);
        }
        for cycle in cycles(&graph) {
            let name = if parent.is_empty() { "the crate root".to_string() } else { format!("`{}`", parent.join("::")) };
            let steps: Vec<String> = cycle.windows(2).map(|w| format!("{} → {} ({})", w[0], w[1], graph[w[0]][w[1]])).collect();
            found.push(format!("a cycle among the modules under {name}: {}", steps.join(", ")));
        }
    }
    found
}

/// One cycle through each strongly connected part of the graph that has one, as a closed walk
/// (`a, b, a`).
fn cycles<'a>(graph: &BTreeMap<&'a str, BTreeMap<&'a str, &'a str>>) -> Vec<Vec<&'a str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut covered: BTreeSet<&str> = BTreeSet::new();
    for &start in graph.keys() {
        if covered.contains(start) {
            continue;
        }
        // The shortest way back to `start`, breadth first.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closed = None;
        while let Some(at) = queue.pop_front() {
            for &next in graph.get(at).map(|m| m.keys().collect::<Vec<_>>()).unwrap_or_default() {
                if next == start {
                    closed = Some(at);
                    break;
                }
                if !came_from.contains_key(next) {
                    came_from.insert(next, at);
                    queue.push_back(next);
                }
            }
            if closed.is_some() {
                break;
            }
        }
        let Some(mut at) = closed else { continue };
        let mut walk = vec![start, at];
        while at != start {
            at = came_from.get(at).copied().unwrap_or(start);
            walk.push(at);
        }
        walk.reverse();
        covered.extend(walk.iter().copied());
        out.push(walk);
    }
    out
}

fn crate_sources() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(repo_path("crates")).expect("crates/ lists").flatten().map(|e| e.path().join("src")).filter(|p| p.is_dir()).collect();
    out.sort();
    out
}

#[test]
fn the_modules_of_every_crate_form_a_dag() {
    let sources = crate_sources();
    assert!(sources.len() >= 8, "the crates are found: {sources:?}");
    let mut problems = Vec::new();
    for src in &sources {
        let (modules, edges) = crate_edges(src);
        assert!(modules.len() > 1 || src.ends_with("rustkeep-testutil/src"), "{}: modules are found", src.display());
        problems.extend(sibling_cycles(&modules, &edges));
    }
    assert!(problems.is_empty(), "module cycles (move the shared item to a module below both, or merge the modules):\n{}", problems.join("\n"));
}

#[test]
fn a_cycle_is_found_through_use_groups_super_and_paths_in_code() {
    let t = TempDir::new("module-cycles");
    t.write("src/lib.rs", b"mod a;\nmod b;\nmod c;\nmod d;\n");
    // a → b by a nested use group, b → c by a path in code, c → a by `super`; d only uses a.
    t.write("src/a.rs", b"use crate::{x::{self}, b::{Thing, other::More}};\n");
    t.write("src/b.rs", b"mod other;\npub fn f() { crate::c::g() }\n");
    t.write("src/b/other.rs", b"use super::Thing; // a child may use its parent\n");
    t.write("src/c.rs", b"// crate::d::nothing is a comment\nuse super::a::Item;\n#[cfg(test)]\nmod tests {\n    use crate::d::T;\n}\n");
    t.write("src/d.rs", b"use crate::a;\n");
    let (modules, edges) = crate_edges(&t.path("src"));
    assert_eq!(modules.len(), 6, "{modules:?}");
    let found = sibling_cycles(&modules, &edges);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("a cycle among the modules under the crate root: a → b ("), "{}", found[0]);
    assert!(found[0].contains("b → c (") && found[0].contains("c → a ("), "{}", found[0]);
    // Without the edge that closes it, there is none.
    t.write("src/c.rs", b"pub fn g() {}\n");
    let (modules, edges) = crate_edges(&t.path("src"));
    assert!(sibling_cycles(&modules, &edges).is_empty());
}
