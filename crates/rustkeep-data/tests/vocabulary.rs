//! The vocabulary is the only place a name is written (docs/ARCHITECTURE.md, invariant 1). The
//! rows themselves are tested in `vocab::tests`; this file guards the copies that cannot import
//! them: the editors' ID grammar, and readers elsewhere in the workspace that would spell a field
//! name as a string literal instead of a `vocab::field` constant.

use std::path::{Path, PathBuf};

use rustkeep_data::vocab::{ID_PATTERN, NAMESPACE_GRAMMAR, SEGMENT_CHARS};

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

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_product_source_spells_a_field_name_where_it_reads_one() {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root().join("crates")).expect("crates/").flatten() {
        rust_sources(&krate.path().join("src"), &mut files);
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
