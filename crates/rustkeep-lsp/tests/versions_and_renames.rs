//! Versions and renames in the editor: `depends` completes mods and the version requirements
//! their loaded versions meet, and its hover tells the verdict `rustkeep check` gives
//! (`dependency-version` is published on the manifest); navigation follows `[renamed]` from an
//! old ID to the entry in force, references find an entry under its old IDs, and a rename keeps
//! the old ID working with a line of `[renamed]`.

mod common;

use std::path::PathBuf;

use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_data::vocab::Registry;
use rustkeep_lsp::handlers::*;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;
use rustkeep_lsp::uri;

const SEWERS: &str = "[mod]\nid = \"sewers\"\nname = \"Sewer Expansion\"\nversion = \"1.1.0\"\nlibrary = true\n";
const SEWER_ITEMS: &str = "[[items]]\nid = \"sewers:grate\"\nname = \"Grate\"\n";
/// `testmod` renamed its cheese to a wedge (and, before that, its curd to cheese).
const MANIFEST: &str =
    "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\nlibrary = true\ndepends = [\"core\", \"sewers >= 1.2\"]\n\n[renamed]\n\"testmod:curd\" = \"testmod:cheese\"\n\"testmod:cheese\" = \"testmod:wedge\"\n";
const ITEMS: &str = "[[items]]\nid = \"testmod:wedge\"\nname = \"Wedge\"\n\n[[items]]\nid = \"testmod:knife\"\nname = \"Knife\"\n\n\
                     [[loot_tables]]\nid = \"testmod:drops\"\nentries = [\n  { item = \"testmod:cheese\", weight = 1 },\n  { item = \"testmod:wedge\", weight = 1 },\n  { item = \"testmod:curd\", weight = 1 },\n]\n";

struct Ws {
    root: TempDir,
    state: State,
    _core: TempDir,
}

impl Ws {
    /// The two mods, `testmod`'s manifest as given.
    fn new(manifest: &str) -> Ws {
        let root = TempDir::with_files(
            "versions",
            &[("sewers/mod.toml", SEWERS), ("sewers/items.toml", SEWER_ITEMS), ("testmod/mod.toml", manifest), ("testmod/items.toml", ITEMS)],
        );
        let (state, core) = state_with_core(&root, Encoding::Utf16);
        Ws { root, state, _core: core }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn uri(&self, rel: &str) -> Uri {
        uri::from_path(&self.path(rel))
    }

    /// Opens `rel` with `text` and returns the position of the `$0` marker (or the start).
    fn open(&mut self, rel: &str, text: &str) -> TextDocumentPositionParams {
        let offset = text.find(CURSOR).unwrap_or(0);
        self.state.open(self.path(rel), text.replace(CURSOR, ""), 1);
        self.state.refresh();
        let fid = self.state.file_of(&self.uri(rel)).expect("a file of the project");
        TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri: self.uri(rel) }, position: self.state.position(fid, offset) }
    }

    fn complete(&mut self, manifest: &str) -> Vec<CompletionItem> {
        let p = self.open("testmod/mod.toml", manifest);
        completion::completion(&self.state, &p).unwrap_or_default()
    }

    fn hover(&mut self, rel: &str, text: &str) -> String {
        let p = self.open(rel, text);
        match hover::hover(&self.state, &p).map(|h| h.contents) {
            Some(Contents::MarkupContent(m)) => m.value,
            other => panic!("no hover: {other:?}"),
        }
    }

    /// `(file, line)` of each location, sorted.
    fn places(&self, locs: &[Location]) -> Vec<(String, u32)> {
        let mut out: Vec<(String, u32)> = locs
            .iter()
            .map(|l| {
                let path = uri::to_path(&l.uri).unwrap();
                (path.strip_prefix(&self.root.0).unwrap().to_string_lossy().replace('\\', "/"), l.range.start.line)
            })
            .collect();
        out.sort();
        out
    }

    /// The text of `rel` with `edits` applied, as a client applies them.
    fn applied(&self, rel: &str, edits: &[TextEdit]) -> String {
        let fid = self.state.file_of(&self.uri(rel)).unwrap();
        let mut text = self.state.text(fid).to_string();
        let mut spans: Vec<(usize, usize, &str)> =
            edits.iter().map(|e| (self.state.offset(fid, e.range.start), self.state.offset(fid, e.range.end), e.new_text.as_str())).collect();
        spans.sort_by_key(|s| (s.0, s.1));
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "edits overlap: {edits:?}");
        }
        for (s, e, t) in spans.into_iter().rev() {
            text.replace_range(s..e, t);
        }
        text
    }

    fn codes(&self, rel: &str) -> Vec<String> {
        let fid = self.state.file_of(&self.uri(rel)).unwrap();
        self.state.diagnostics(fid).iter().map(|d| d.code.name().to_string()).collect()
    }
}

fn edit_of(item: &CompletionItem) -> &TextEdit {
    match item.text_edit.as_ref().expect("a text edit") {
        CompletionItemTextEdit::TextEdit(e) => e,
        other => panic!("a plain text edit expected: {other:?}"),
    }
}

fn line_of(text: &str, needle: &str) -> u32 {
    text[..text.find(needle).unwrap_or_else(|| panic!("{needle} in {text}"))].matches('\n').count() as u32
}

// ----- depends ---------------------------------------------------------------------------------

#[test]
fn the_fixture_checks_as_intended() {
    let ws = Ws::new(MANIFEST);
    assert_eq!(ws.codes("testmod/mod.toml"), ["dependency-version"]);
    assert_eq!(ws.codes("testmod/items.toml"), ["renamed-reference", "renamed-reference"]);
    assert_eq!(ws.codes("sewers/items.toml"), Vec::<String>::new());
}

#[test]
fn depends_completes_the_mods_of_the_workspace_and_the_core() {
    let mut ws = Ws::new(MANIFEST);
    let m = MANIFEST.replace("\"sewers >= 1.2\"", "\"$0\"");
    let items = ws.complete(&m);
    assert_eq!(labels(&items), ["sewers", "core"], "the manifest's own mod is left out");
    let sewers = &items[0];
    assert_eq!(sewers.detail.as_deref(), Some("version 1.1.0 · Sewer Expansion"));
    assert_eq!(edit_of(sewers).new_text, "sewers", "inside the string: no quotes");
    assert_eq!(items[1].detail.as_deref(), Some(&*format!("version {} · the base game", env!("CARGO_PKG_VERSION"))));
    // No string yet: a quoted ID.
    let items = ws.complete(&MANIFEST.replace("\"sewers >= 1.2\"", "$0"));
    assert_eq!(edit_of(&items[0]).new_text, "\"sewers\"");
    // After a sign, only the ID is written; a string being typed (not closed) completes too.
    let text = MANIFEST.replace("\"sewers >= 1.2\"]", "\"? sew$0");
    let items = ws.complete(&text);
    let e = edit_of(&items[0]);
    let col = text.lines().nth(e.range.start.line as usize).unwrap().find("sew").unwrap() as u32;
    assert_eq!((e.range.start.character, e.range.end.character - e.range.start.character), (col, 3));
    // `load_after` takes mod IDs too.
    let items = ws.complete(&MANIFEST.replace("library = true\n", "library = true\nload_after = [\"$0\"]\n"));
    assert_eq!(labels(&items), ["sewers", "core"]);
}

#[test]
fn depends_completes_the_requirements_the_loaded_version_meets() {
    let mut ws = Ws::new(MANIFEST);
    let text = MANIFEST.replace("\"sewers >= 1.2\"", "\"sewers $0\"");
    let items = ws.complete(&text);
    assert_eq!(labels(&items), ["^1.1", ">= 1.1.0", "=1.1.0"]);
    assert_eq!(items[0].detail.as_deref(), Some("the loaded `sewers` is 1.1.0"));
    let e = edit_of(&items[1]);
    assert_eq!((e.new_text.as_str(), e.range.start, e.range.end), (">= 1.1.0", e.range.start, e.range.start), "inserted at the cursor");
    // A requirement already written is replaced whole.
    let text = MANIFEST.replace("\"sewers >= 1.2\"", "\"? sewers >=$0 1.0\"");
    let items = ws.complete(&text);
    let e = edit_of(&items[0]);
    let line = text.replace(CURSOR, "").lines().nth(e.range.start.line as usize).unwrap().to_string();
    assert_eq!(&line[e.range.start.character as usize..e.range.end.character as usize], ">= 1.0");
    // The core's version is the toolkit's; a mod not loaded gets nothing.
    let l = labels(&ws.complete(&MANIFEST.replace("\"sewers >= 1.2\"", "\"core $0\"")));
    assert!(l.contains(&format!(">= {}", env!("CARGO_PKG_VERSION"))), "{l:?}");
    assert!(ws.complete(&MANIFEST.replace("\"sewers >= 1.2\"", "\"bestiary $0\"")).is_empty());
    // A mod without a version meets `*` only; a pre-release is left out of `^`.
    for (version, expected) in [("", vec!["*"]), ("version = \"2.0.0-beta.1\"\n", vec![">= 2.0.0-beta.1", "=2.0.0-beta.1"])] {
        ws.open("sewers/mod.toml", &SEWERS.replace("version = \"1.1.0\"\n", version));
        assert_eq!(labels(&ws.complete(&text.replace(">=$0 1.0", "$0"))), expected, "{version}");
    }
}

#[test]
fn depends_hovers_with_the_loaded_version_and_the_verdict() {
    let mut ws = Ws::new(MANIFEST);
    let hover = |ws: &mut Ws, entry: &str| ws.hover("testmod/mod.toml", &MANIFEST.replace("\"sewers >= 1.2\"", &format!("\"{entry}\"")));
    let h = hover(&mut ws, "sew$0ers >= 1.2");
    assert!(h.starts_with("**sewers** — Sewer Expansion (mod)"), "{h}");
    assert!(h.contains("Required dependency") && h.contains("Loaded: version 1.1.0 (sewers/mod.toml)"), "{h}");
    assert!(h.contains("does not meet `>= 1.2`: an error (`dependency-version`)"), "{h}");
    let h = hover(&mut ws, "sewers ^$01");
    assert!(h.contains("Loaded: version 1.1.0") && h.contains("meets `^1`."), "{h}");
    let h = hover(&mut ws, "? best$0iary ^2");
    assert!(h.contains("Optional dependency") && h.contains("Not loaded") && h.contains("this mod loads without it"), "{h}");
    let h = hover(&mut ws, "! sewers$0");
    assert!(h.contains("Incompatible") && h.contains("`incompatible-mod`"), "{h}");
    let h = hover(&mut ws, "! sewers$0 >= 2");
    assert!(h.contains("does not allow it: no conflict"), "{h}");
    let h = hover(&mut ws, "sewers >= x$0");
    assert!(h.contains("`>= x` is not a version requirement"), "{h}");
    let h = hover(&mut ws, "co$0re");
    assert!(h.contains("the base game's version is the toolkit's"), "{h}");
}

#[test]
fn dependency_version_is_published_on_the_manifest_with_where_the_version_is_set() {
    let mut ws = Ws::new(MANIFEST);
    let published = ws.state.take_publish();
    let (_, diags, _) = published.iter().find(|(u, _, _)| *u == ws.uri("testmod/mod.toml")).expect("the manifest's list is published");
    let d = diags.iter().find(|d| d.code == Some(Code::String("dependency-version".into()))).expect("dependency-version");
    assert_eq!(d.range.start.line, line_of(MANIFEST, "sewers >= 1.2"));
    let related = d.related_information.as_ref().expect("related information");
    assert_eq!(related[0].location.uri, ws.uri("sewers/mod.toml"));
    assert_eq!(related[0].location.range.start.line, line_of(SEWERS, "version"));
    // A new version of the dependency, typed in the editor, takes it away.
    ws.open("sewers/mod.toml", &SEWERS.replace("1.1.0", "1.2.0"));
    let published = ws.state.take_publish();
    let (_, diags, _) = published.iter().find(|(u, _, _)| *u == ws.uri("testmod/mod.toml")).expect("the list changed");
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn a_manifest_being_typed_never_fails_a_request() {
    let mut ws = Ws::new(MANIFEST);
    for text in [
        "[mod]\ndepends = [\"",
        "[mod]\ndepends = [\"? ",
        "[mod]\ndepends = [\"!é",
        "[mod]\ndepends = [\"sewers >= ",
        "[mod]\ndepends = [\"sewers \u{feff}",
        "depends = [\"sewers",
    ] {
        for cut in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            let p = ws.open("testmod/mod.toml", &format!("{}$0{}", &text[..cut], &text[cut..]));
            completion::completion(&ws.state, &p);
            hover::hover(&ws.state, &p);
        }
    }
}

// ----- renames ---------------------------------------------------------------------------------

#[test]
fn an_old_id_goes_to_the_entry_it_was_renamed_to() {
    let mut ws = Ws::new(MANIFEST);
    let wedge = line_of(ITEMS, "id = \"testmod:wedge\"");
    // From a reference with the old ID, and from one two renames old.
    for old in ["testmod:cheese", "testmod:curd"] {
        let p = ws.open("testmod/items.toml", &ITEMS.replace(&format!("item = \"{old}\""), &format!("item = \"{old}$0\"")));
        let locs = definition::definition(&ws.state, &p).expect("a definition");
        assert_eq!(ws.places(&locs), [("testmod/items.toml".to_string(), wedge)], "{old}");
    }
    // From the lines of `[renamed]`, old ID and new.
    for needle in ["\"testmod:curd\" =", "= \"testmod:wedge\""] {
        let at = MANIFEST.find(needle).unwrap() + needle.find("testmod").unwrap() + 9;
        let p = ws.open("testmod/mod.toml", &format!("{}$0{}", &MANIFEST[..at], &MANIFEST[at..]));
        let locs = definition::definition(&ws.state, &p).expect("a definition");
        assert_eq!(ws.places(&locs), [("testmod/items.toml".to_string(), wedge)], "{needle}");
    }
    let h = ws.hover("testmod/items.toml", &ITEMS.replace("item = \"testmod:curd\"", "item = \"testmod:cu$0rd\""));
    assert!(h.contains("**testmod:curd** (item) — Wedge"), "{h}");
    assert!(h.contains("renamed to `testmod:wedge` (through `testmod:cheese`) by `[renamed]` in "), "{h}");
}

#[test]
fn references_of_an_entry_include_those_written_with_its_old_ids() {
    let mut ws = Ws::new(MANIFEST);
    let lines = |needles: &[&str]| -> Vec<u32> { needles.iter().map(|n| line_of(ITEMS, n)).collect() };
    let m = |needle: &str| ("testmod/mod.toml".to_string(), line_of(MANIFEST, needle));
    let mut expected: Vec<(String, u32)> = lines(&["id = \"testmod:wedge\"", "\"testmod:cheese\"", "item = \"testmod:wedge\"", "\"testmod:curd\""])
        .into_iter()
        .map(|l| ("testmod/items.toml".to_string(), l))
        .collect();
    // Both lines of `[renamed]`: the first twice (its old ID and its new, itself an old ID).
    expected.extend([m("\"testmod:curd\" ="), m("\"testmod:curd\" ="), m("\"testmod:cheese\" ="), m("\"testmod:cheese\" =")]);
    expected.sort();
    let p = ws.open("testmod/items.toml", &ITEMS.replace("id = \"testmod:wedge\"", "id = \"testmod:we$0dge\""));
    let refs = references::references(&ws.state, &p, true).unwrap();
    assert_eq!(ws.places(&refs), expected);
    let without = references::references(&ws.state, &p, false).unwrap();
    assert_eq!(without.len(), expected.len() - 1, "all but the entry's own `id`");
    // From an old ID: the same places.
    let p = ws.open("testmod/items.toml", &ITEMS.replace("item = \"testmod:cheese\"", "item = \"testmod:ch$0eese\""));
    assert_eq!(ws.places(&references::references(&ws.state, &p, true).unwrap()), expected);
    let hl = document_highlight::document_highlight(&ws.state, &p).unwrap();
    assert_eq!(hl.len(), 4, "the entry and its three references: {hl:?}");
}

#[test]
fn renaming_an_entry_keeps_its_old_ids_working() {
    let mut ws = Ws::new(MANIFEST);
    let p = ws.open("testmod/items.toml", &ITEMS.replace("id = \"testmod:wedge\"", "id = \"testmod:we$0dge\""));
    let edit = rename::rename(&ws.state, &p, "testmod:brie").unwrap();
    let changes = edit.changes.unwrap();
    let items = ws.applied("testmod/items.toml", &changes[&ws.uri("testmod/items.toml")]);
    // What names the ID is rewritten; the references written with old IDs are left as they are.
    assert_eq!(items, ITEMS.replace("testmod:wedge", "testmod:brie"));
    let manifest = ws.applied("testmod/mod.toml", &changes[&ws.uri("testmod/mod.toml")]);
    assert_eq!(
        manifest,
        MANIFEST.replace("\"testmod:cheese\" = \"testmod:wedge\"\n", "\"testmod:cheese\" = \"testmod:brie\"\n\"testmod:wedge\" = \"testmod:brie\"\n")
    );
    // Applied, every old ID leads to the new one, and nothing but the old references is reported.
    ws.open("testmod/items.toml", &items);
    ws.open("testmod/mod.toml", &manifest);
    for old in ["testmod:wedge", "testmod:cheese", "testmod:curd", "testmod:brie"] {
        assert_eq!(ws.state.db().resolved.canonical(old), "testmod:brie", "{old}");
        assert!(ws.state.db().resolved.get(Registry::Items, old).is_some(), "{old}");
    }
    assert_eq!(ws.codes("testmod/items.toml"), ["renamed-reference", "renamed-reference"]);
    assert_eq!(ws.codes("testmod/mod.toml"), ["dependency-version"]);

    // Renaming back to an old ID of the entry takes its line away (and keeps `brie` working).
    let p = ws.open("testmod/items.toml", &items.replace("id = \"testmod:brie\"", "id = \"testmod:br$0ie\""));
    let changes = rename::rename(&ws.state, &p, "testmod:cheese").unwrap().changes.unwrap();
    let back = ws.applied("testmod/mod.toml", &changes[&ws.uri("testmod/mod.toml")]);
    assert_eq!(
        back,
        MANIFEST.replace("\"testmod:cheese\" = \"testmod:wedge\"\n", "\"testmod:wedge\" = \"testmod:cheese\"\n\"testmod:brie\" = \"testmod:cheese\"\n")
    );
    ws.open("testmod/items.toml", &ws.applied("testmod/items.toml", &changes[&ws.uri("testmod/items.toml")]));
    ws.open("testmod/mod.toml", &back);
    assert_eq!(ws.codes("testmod/mod.toml"), ["dependency-version"]);
    assert_eq!(ws.codes("testmod/items.toml"), ["renamed-reference"], "only `curd` is still written with an old ID");
}

#[test]
fn a_rename_adds_the_renamed_table_to_released_mods_only() {
    let bare = MANIFEST.split("\n[renamed]").next().unwrap().to_string();
    let items = ITEMS.replace("testmod:cheese", "testmod:wedge").replace("testmod:curd", "testmod:wedge");
    let rename = |manifest: &str| {
        let mut ws = Ws::new(manifest);
        let p = ws.open("testmod/items.toml", &items.replace("id = \"testmod:wedge\"", "id = \"testmod:we$0dge\""));
        let changes = rename::rename(&ws.state, &p, "testmod:brie").unwrap().changes.unwrap();
        changes.get(&ws.uri("testmod/mod.toml")).map(|e| ws.applied("testmod/mod.toml", e))
    };
    // Released (a `version`): a `[renamed]` table at the end, which loads.
    let with = rename(&bare).expect("the manifest is edited");
    assert_eq!(with, format!("{bare}\n[renamed]\n\"testmod:wedge\" = \"testmod:brie\"\n"));
    let ws = Ws::new(&with);
    assert_eq!(ws.state.db().resolved.canonical("testmod:wedge"), "testmod:brie");
    // Without a `version`, nothing is added.
    assert_eq!(rename(&bare.replace("version = \"0.1.0\"\n", "")), None);
}

#[test]
fn old_ids_are_not_renamed_and_no_rename_takes_an_id_in_use() {
    let mut ws = Ws::new(MANIFEST);
    let p = ws.open("testmod/items.toml", &ITEMS.replace("item = \"testmod:cheese\"", "item = \"testmod:ch$0eese\""));
    let e = rename::prepare(&ws.state, &p).unwrap_err();
    assert!(e.contains("old ID") && e.contains("testmod:wedge"), "{e}");
    let p = ws.open("testmod/items.toml", &ITEMS.replace("id = \"testmod:knife\"", "id = \"testmod:kn$0ife\""));
    let e = rename::rename(&ws.state, &p, "testmod:curd").unwrap_err();
    assert!(e.contains("old ID of `testmod:wedge`"), "{e}");
    // Onto an ID the registry defines: two entries of one ID, refused.
    let e = rename::rename(&ws.state, &p, "testmod:wedge").unwrap_err();
    assert!(e.contains("`testmod:wedge` is already defined") && e.contains("items.toml"), "{e}");
}

#[test]
fn a_renamed_reference_has_a_preferred_quick_fix() {
    let mut ws = Ws::new(MANIFEST);
    ws.open("testmod/items.toml", ITEMS);
    let line = line_of(ITEMS, "\"testmod:cheese\"");
    let range = Range { start: Position { line, character: 0 }, end: Position { line, character: 99 } };
    let actions = code_action::code_actions(&ws.state, &ws.uri("testmod/items.toml"), range).unwrap();
    let fix = actions
        .into_iter()
        .find_map(|a| match a {
            CodeActionResponse::CodeAction(a) if a.title == "Replace with `testmod:wedge`" => Some(a),
            _ => None,
        })
        .expect("the fix of `renamed-reference`");
    assert_eq!(fix.is_preferred, Some(true), "a safe fix is the preferred action");
    let edits = &fix.edit.as_ref().unwrap().changes.as_ref().unwrap()[&ws.uri("testmod/items.toml")];
    assert_eq!(ws.applied("testmod/items.toml", edits), ITEMS.replacen("testmod:cheese", "testmod:wedge", 1));
}

#[test]
fn an_override_of_an_old_id_overrides_the_entry_in_force() {
    let mut ws = Ws::new(MANIFEST);
    ws.open("sewers/mod.toml", &format!("{SEWERS}\n[renamed]\n\"sewers:old_grate\" = \"sewers:grate\"\n"));
    let text = format!("{ITEMS}\n[[loot_tables]]\nid = \"testmod:more\"\nentries = [ {{ item = \"sewers:old_$0grate\", weight = 1 }} ]\n");
    let p = ws.open("testmod/items.toml", &text);
    let actions = code_action::code_actions(&ws.state, &p.text_document.uri, Range { start: p.position, end: p.position }).unwrap();
    let titles: Vec<String> = actions
        .into_iter()
        .filter_map(|a| match a {
            CodeActionResponse::CodeAction(a) if a.title.starts_with("Override") => Some(a.title),
            _ => None,
        })
        .collect();
    assert_eq!(titles, ["Override `sewers:grate` in this mod (copy it to overrides/sewers_grate.toml)"]);
}
