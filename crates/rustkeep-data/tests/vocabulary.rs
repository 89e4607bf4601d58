//! The vocabulary is the only place a name is written (docs/ARCHITECTURE.md, invariant "One vocabulary"). The
//! rows themselves are tested in `vocab::tests`; this file guards the copies that cannot import
//! them: the editors' ID grammar, and readers elsewhere in the workspace that would spell a field
//! name as a string literal instead of a `vocab::field` constant.

use std::path::{Path, PathBuf};

use rustkeep_data::vocab::{ID_PATTERN, NAMESPACE_GRAMMAR, SEGMENT_CHARS};
use rustkeep_testutil::{files_below, product_code};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The text between `start` and the next `end` after it, on the line that holds `start`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let line = text.lines().find(|l| l.contains(start))?;
    let from = line.find(start)? + start.len();
    let len = line[from..].find(end)?;
    Some(&line[from..from + len])
}

#[test]
fn the_vscode_extension_checks_ids_with_the_vocabulary_grammar() {
    let ts = read("editors/vscode/src/server.ts");
    let id = between(&ts, "const ID = /", "/;").expect("server.ts defines `const ID = /…/;`");
    // A JavaScript regular-expression literal escapes its own delimiter.
    assert_eq!(id, ID_PATTERN.replace('/', "\\/"), "editors/vscode/src/server.ts: `ID` differs from the vocabulary's ID grammar");
    let id_char = between(&ts, "const ID_CHAR = /", "/;").expect("server.ts defines `const ID_CHAR = /…/;`");
    assert_eq!(id_char, format!("[{SEGMENT_CHARS}:/]"), "editors/vscode/src/server.ts: `ID_CHAR` differs from the characters of an ID");
}

#[test]
fn the_neovim_plugin_finds_ids_with_the_vocabulary_grammar() {
    let lua = read("editors/neovim/lua/rustkeep/init.lua");
    let body = lua.split("function M.id_at(").nth(1).expect("init.lua defines M.id_at");
    let pattern = between(body, "line:find(\"", "\"").expect("M.id_at searches with line:find(\"…\")");
    // A Lua pattern has no groups: the namespace, a colon, then segment characters and slashes;
    // M.id_at itself refuses empty segments and trailing slashes.
    assert_eq!(
        pattern,
        format!("{NAMESPACE_GRAMMAR}:[{SEGMENT_CHARS}/]+"),
        "editors/neovim/lua/rustkeep/init.lua: the ID pattern differs from the vocabulary's"
    );
}

/// Accessors of `rustkeep_data::model::Entry` and of the language server's table frames that take
/// a field name: called with a string literal, they would silently read nothing after a rename.
const FIELD_READERS: &[&str] =
    &[".str(\"", ".int(\"", ".float(\"", ".bool(\"", ".reference(\"", ".ref_list(\"", ".range(\"", ".actions(\"", ".field(\"", ".string(\""];

#[test]
fn no_product_source_spells_a_field_name_where_it_reads_one() {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root().join("crates")).expect("crates/").flatten() {
        files.extend(files_below(&krate.path().join("src"), "rs"));
    }
    assert!(files.len() > 20, "found the product sources");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        // Unit tests at the end of a file may spell names: they test the readers.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") {
                continue;
            }
            if let Some(r) = FIELD_READERS.iter().find(|r| line.contains(*r)) {
                found.push(format!("{}:{}: `{}…` — use a `vocab::field` constant", f.strip_prefix(root()).unwrap_or(f).display(), i + 1, r));
            }
        }
    }
    assert!(found.is_empty(), "field names spelled as literals:\n{}", found.join("\n"));
}

/// The VS Code extension ships a copy of the draft-07 schema (Even Better TOML reads it from the
/// extension); the committed schema itself is checked against the vocabulary by
/// `crates/rustkeep-cli/tests/schema.rs`.
#[test]
fn the_vscode_schema_copy_is_the_committed_schema() {
    let committed = read("schemas/rustkeep.draft-07.schema.json");
    let copy = read("editors/vscode/schemas/rustkeep.draft-07.schema.json");
    assert!(copy == committed, "editors/vscode/schemas/ is stale: copy schemas/rustkeep.draft-07.schema.json there (`npm run sync-schema` in editors/vscode)");
}

/// Every name of the data language and of its configuration files, from the vocabulary's typed
/// lists and rows.
fn vocabulary_names() -> std::collections::BTreeSet<&'static str> {
    use rustkeep_data::vocab::{self, attr, damage, field, key, outcome, payload, slot, who};
    let mut names: std::collections::BTreeSet<&str> =
        [field::ALL, attr::ALL, damage::ALL, payload::ALL, outcome::ALL, slot::ALL, who::ALL, key::ALL].concat().into_iter().collect();
    names.extend(vocab::EVENTS.iter().map(|e| e.name));
    names.extend(vocab::CHECKS.iter().map(|c| c.name));
    names.extend(vocab::ACTIONS.iter().map(|a| a.name));
    names.extend(vocab::REGISTRIES.iter().map(|r| r.key));
    names.extend([vocab::BALANCE_KEY, vocab::CORE_NAMESPACE]);
    names
}

/// The closed lists of the vocabulary, by what they are called in a failure.
fn vocabulary_lists() -> Vec<(&'static str, Vec<&'static str>)> {
    use rustkeep_data::vocab::{self, attr, damage, key, payload};
    vec![
        ("events", vocab::EVENTS.iter().map(|e| e.name).collect()),
        ("checks", vocab::CHECKS.iter().map(|c| c.name).collect()),
        ("actions", vocab::ACTIONS.iter().map(|a| a.name).collect()),
        ("registries", vocab::REGISTRIES.iter().map(|r| r.key).collect()),
        ("attributes", attr::ALL.to_vec()),
        ("damage types", damage::ALL.to_vec()),
        ("payload keys and `when` fields", payload::ALL.to_vec()),
        ("keys of mod.toml and rustkeep.toml", key::ALL.to_vec()),
    ]
}

/// The string literals of the arm on `line` of a `match` (its patterns and its guard, up to
/// `=>`), or none when the line holds no `=>` outside string literals.
fn match_arm_literals(line: &str) -> Vec<&str> {
    let mut literals = Vec::new();
    let mut start = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match (start, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(s), '"') => {
                literals.push(&line[s..i]);
                start = None;
            }
            (Some(_), _) => {}
            (None, '"') => start = Some(i + 1),
            (None, '=') if line[i..].starts_with("=>") => return literals,
            (None, _) => {}
        }
    }
    Vec::new()
}

/// Files whose `match` arms may spell names of the vocabulary, and why.
const ARMS_ALLOWED: &[(&str, &str)] = &[
    // `move`, `use`, `talk`, … are the words of the line console, its own language: a console
    // command keeps its name when a scenario key is renamed.
    ("crates/rustkeep-play/src/command.rs", "the console's command words"),
    ("crates/rustkeep-play/src/line_edit.rs", "the console's command words"),
];

/// A reader that matches on `"damage_type"` keeps matching after the vocabulary renames the
/// field, and silently reads nothing; `vocab::field::DAMAGE_TYPE` would not compile.
#[test]
fn no_product_source_matches_on_a_name_of_the_vocabulary() {
    let names = vocabulary_names();
    let mut found = Vec::new();
    for (rel, code) in product_code() {
        if rel.contains("/src/vocab") || ARMS_ALLOWED.iter().any(|(f, _)| *f == rel) {
            continue;
        }
        for (i, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for lit in match_arm_literals(line).into_iter().filter(|l| names.contains(l)) {
                found.push(format!("{rel}:{}: `\"{lit}\"` — use the vocabulary's constant", i + 1));
            }
        }
    }
    assert!(found.is_empty(), "match arms spelling names of the vocabulary:\n{}", found.join("\n"));
}

#[test]
fn the_match_arm_scan_sees_patterns_and_guards_only() {
    assert_eq!(match_arm_literals(r#"            "who" | "target" if vocab::WHO.iter().any(|w| w.0 == v) => 4,"#), ["who", "target"]);
    assert_eq!(match_arm_literals(r#"    ("mods" | "core", _) => diag(out, "`{}` => x"),"#), ["mods", "core"]);
    assert_eq!(match_arm_literals(r#"        DeValue::String(s) if s == "core" => diag(),"#), ["core"]);
    assert!(match_arm_literals(r#"    let s = format!("a => \"b\"");"#).is_empty(), "an arrow inside a string is no arm");
    assert!(match_arm_literals(r#"    out.push("id");"#).is_empty());
}

/// `"core"` is the reserved namespace (and a key of `rustkeep.toml`): written once each, in the
/// vocabulary, so that no check of "is this the core" can drift from the others.
#[test]
fn the_reserved_namespace_is_spelled_only_in_the_vocabulary() {
    let mut found = Vec::new();
    for (rel, code) in product_code() {
        if rel.contains("/src/vocab") {
            continue;
        }
        for (i, line) in code.lines().enumerate() {
            if !line.trim_start().starts_with("//") && line.contains("\"core\"") {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "`\"core\"` spelled outside the vocabulary (use `vocab::CORE_NAMESPACE`, or `vocab::key::CORE` for the key):\n{}",
        found.join("\n")
    );
}

/// The runs of a text that read as a list of words: `a, b, c`, `a, b or c`, `a, b, and c`.
fn word_lists(text: &str) -> Vec<Vec<&str>> {
    let is_word = |c: char| c.is_ascii_lowercase() || c == '_';
    let mut lists = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(is_word) {
        let mut items = Vec::new();
        let mut s = &rest[at..];
        loop {
            let end = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
            items.push(&s[..end]);
            s = &s[end..];
            let Some(after) = [", and ", ", or ", ", ", " and ", " or "].iter().find_map(|sep| s.strip_prefix(sep)) else { break };
            if !after.starts_with(is_word) {
                break;
            }
            s = after;
        }
        rest = s.strip_prefix(|c: char| !is_word(c)).unwrap_or(s);
        if items.len() >= 3 {
            lists.push(items);
        }
    }
    lists
}

/// A list of the vocabulary written out in prose (`The events are turn_started, combat_started,
/// …`) is a second list: the next event would be missing from it. Such prose names the list by a
/// placeholder its renderer fills from the vocabulary (as `rustkeep_check::explain` does). A few
/// names as examples are fine; a run of at least three that covers half a list is a copy.
#[test]
fn no_product_source_writes_out_a_list_of_the_vocabulary() {
    let lists = vocabulary_lists();
    let mut found = Vec::new();
    for (rel, code) in product_code() {
        if rel.contains("/src/vocab") {
            continue;
        }
        for run in word_lists(&code) {
            for (what, names) in &lists {
                let hits: std::collections::BTreeSet<&&str> = run.iter().filter(|w| names.contains(w)).collect();
                if hits.len() >= 3 && hits.len() * 2 >= names.len() {
                    found.push(format!("{rel}: the {what}, written out: {}", run.join(", ")));
                }
            }
        }
    }
    assert!(found.is_empty(), "lists of the vocabulary spelled in prose (fill them from `rustkeep_data::vocab`):\n{}", found.join("\n"));
}

#[test]
fn the_list_scan_sees_lists_in_prose() {
    assert_eq!(word_lists("Not one of: physical, fire, ice, lightning, or poison."), [vec!["physical", "fire", "ice", "lightning", "poison"]]);
    assert_eq!(word_lists("(attack_hit, damage_taken and creature_died)"), [vec!["attack_hit", "damage_taken", "creature_died"]]);
    assert!(word_lists("a fire, an ice").is_empty(), "two items are no list");
}
