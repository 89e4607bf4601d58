//! In-process tests, one group per capability, on fixture text with a `$0` cursor marker.

mod common;

use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_lsp::handlers::*;
use rustkeep_lsp::lsp::*;

const ITEMS: &str = r#"[[items]]
id = "testmod:blade"
name = "Blade"
slot = "weapon"
triggers = [
  { on = "damage_taken", when = { damage_type = "fire" }, actions = [ { action = "heal", amount = 1, target = "self" } ] },
]

[[loot_tables]]
id = "testmod:drops"
entries = [
  { item = "testmod:blade", weight = 1, affixes = "core:weapon_affixes" },
  { item = "core:gold", weight = 3 },
  { nothing = true, weight = 4 },
]

[[creatures]]
id = "testmod:slime"
name = "Slime"
tags = ["testmod:gooey"]
loot = "testmod:drops"
"#;

fn fixture() -> Fixture {
    Fixture::new(&[("items.toml", ITEMS)], Encoding::Utf16)
}

fn complete(f: &mut Fixture, text: &str) -> Vec<CompletionItem> {
    let p = f.open("items.toml", text);
    completion::completion(&f.state, &p).unwrap_or_default()
}

// ----- completion ------------------------------------------------------------------------------

#[test]
fn completes_registry_names_after_double_bracket() {
    let mut f = fixture();
    let items = complete(&mut f, &format!("{ITEMS}\n[[qu$0"));
    let l = labels(&items);
    assert!(l.contains(&"quests".to_string()) && l.contains(&"loot_tables".to_string()), "{l:?}");
    assert!(!l.contains(&"balance".to_string()), "balance is a single-bracket table");
}

#[test]
fn completes_missing_fields_required_first() {
    let mut f = fixture();
    let items = complete(&mut f, &format!("{ITEMS}\n[[items]]\nid = \"testmod:x\"\n$0"));
    let l = labels(&items);
    assert!(!l.contains(&"id".to_string()), "id is present: {l:?}");
    assert!(l.contains(&"price".to_string()) && l.contains(&"triggers".to_string()));
    let mut sorted = items.clone();
    sorted.sort_by(|a, b| a.sort_text.cmp(&b.sort_text));
    assert_eq!(sorted[0].label, "name", "the missing required field comes first");
}

#[test]
fn completes_events_in_on() {
    let mut f = fixture();
    let items = complete(&mut f, &format!("{ITEMS}\n[[quests]]\nid = \"testmod:q\"\nname = \"Q\"\non = \"cre$0\"\n"));
    let l = labels(&items);
    assert_eq!(l.len(), 12, "{l:?}");
    assert!(l.contains(&"creature_died".to_string()));
    // Inside the string: the edit replaces the content, without adding quotes.
    let it = items.iter().find(|i| i.label == "creature_died").unwrap();
    let Some(CompletionItemTextEdit::TextEdit(e)) = &it.text_edit else { panic!("text edit expected") };
    assert_eq!(e.new_text, "creature_died");
}

#[test]
fn completes_when_fields_of_the_triggers_event_only() {
    let mut f = fixture();
    let text = format!("{ITEMS}\n[[quests]]\nid = \"testmod:q\"\nname = \"Q\"\non = \"combat_ended\"\nwhen = {{ $0 }}\n");
    assert_eq!(labels(&complete(&mut f, &text)), vec!["outcome"]);
    let text = "[[items]]\nid = \"testmod:b\"\nname = \"B\"\ntriggers = [ { on = \"attack_hit\", when = { $0 } } ]\n";
    assert_eq!(labels(&complete(&mut f, text)), vec!["damage_type"]);
}

#[test]
fn completes_checks_actions_who_attributes_damage_types() {
    let mut f = fixture();
    let base = "[[items]]\nid = \"testmod:b\"\nname = \"B\"\n";
    let l = labels(&complete(&mut f, &format!("{base}modifiers = [ {{ attribute = \"$0\" }} ]\n")));
    assert!(l.contains(&"max_health".to_string()) && l.len() == 16, "{l:?}");
    let l = labels(&complete(&mut f, &format!("{base}triggers = [ {{ on = \"attack_hit\", condition = [ {{ check = \"$0\" }} ] }} ]\n")));
    assert_eq!(l, vec!["has_tag", "attribute", "has_item", "health_below"]);
    let l = labels(&complete(&mut f, &format!("{base}triggers = [ {{ on = \"attack_hit\", condition = [ {{ check = \"has_tag\", who = \"$0\" }} ] }} ]\n")));
    assert_eq!(l, vec!["self", "target"]);
    let l = labels(&complete(&mut f, &format!("{base}damage_type = $0\n")));
    assert_eq!(l.len(), 5);
    let items = complete(&mut f, &format!("{base}use = [ {{ action = \"$0\" }} ]\n"));
    let dmg = items.iter().find(|i| i.label == "damage").expect("damage action");
    assert_eq!(dmg.insert_text_format, Some(InsertTextFormat::Snippet));
    let Some(CompletionItemTextEdit::TextEdit(e)) = &dmg.text_edit else { panic!() };
    assert!(e.new_text.starts_with("damage\", amount = ${1:1}, damage_type = \"${2|physical,"), "{}", e.new_text);
    assert!(e.new_text.contains("target = \"${3|self,target|}\""), "{}", e.new_text);
    // The edit swallows the closing quote the snippet provides again.
    assert_eq!(e.range.end.character - e.range.start.character, 1);
}

#[test]
fn completes_ids_of_the_right_registry_and_table_kind() {
    let mut f = fixture();
    let base = "[[creatures]]\nid = \"testmod:c\"\nname = \"C\"\n";
    let items = complete(&mut f, &format!("{ITEMS}\n{base}loot = \"$0\"\n"));
    let l = labels(&items);
    assert!(l.contains(&"testmod:drops".to_string()) && l.contains(&"core:floor_3_table".to_string()), "{l:?}");
    assert!(!l.contains(&"core:weapon_affixes".to_string()), "an affix table is no item table: {l:?}");
    let d = items.iter().find(|i| i.label == "testmod:drops").unwrap();
    assert!(d.detail.as_deref().unwrap().contains("testmod"), "{:?}", d.detail);
    let l = labels(&complete(
        &mut f,
        &format!("{ITEMS}\n[[loot_tables]]\nid = \"testmod:t\"\nentries = [ {{ item = \"core:gold\", weight = 1, affixes = \"$0\" }} ]\n"),
    ));
    assert!(l.contains(&"core:weapon_affixes".to_string()) && !l.contains(&"testmod:drops".to_string()), "{l:?}");
    // A table does not nest itself: the table being written is not offered.
    let l = labels(&complete(&mut f, &format!("{ITEMS}\n[[loot_tables]]\nid = \"testmod:t\"\nentries = [ {{ table = \"testmod:$0\", weight = 1 }} ]\n")));
    assert!(l.contains(&"testmod:drops".to_string()) && !l.contains(&"testmod:t".to_string()), "{l:?}");
    let items = complete(&mut f, &format!("{ITEMS}\n[[items]]\nid = \"testmod:z\"\nname = \"Z\"\nuse = [ {{ action = \"give_item\", item = \"$0\" }} ]\n"));
    let gold = items.iter().find(|i| i.label == "core:gold").expect("core items are offered");
    assert!(gold.detail.as_deref().unwrap().contains("core"));
    assert!(!labels(&items).contains(&"testmod:slime".to_string()));
}

/// A prefab's `npcs` (the NPCs of its `n` glyphs): NPC IDs, and the field among a prefab's fields.
#[test]
fn completes_the_npcs_of_a_prefab() {
    let mut f = fixture();
    let prefab = "[[prefabs]]\nid = \"testmod:hall\"\ngrid = \"\"\"\n#####\n#n@.#\n##+##\n\"\"\"\n";
    let l = labels(&complete(&mut f, &format!("{ITEMS}\n{prefab}npcs = [\"$0\"]\n")));
    assert!(l.contains(&"core:elder".to_string()) && !l.contains(&"core:gold".to_string()), "{l:?}");
    let l = labels(&complete(&mut f, &format!("{ITEMS}\n{prefab}$0\n")));
    assert!(l.contains(&"npcs".to_string()), "{l:?}");
    let h = hover_text(&mut f, &format!("{ITEMS}\n{prefab}np$0cs = [\"core:elder\"]\n"));
    assert!(h.contains("**npcs**") && h.contains("i-th `n`"), "{h}");
}

// ----- hover -----------------------------------------------------------------------------------

fn hover_text(f: &mut Fixture, text: &str) -> String {
    let p = f.open("items.toml", text);
    match hover::hover(&f.state, &p).map(|h| h.contents) {
        Some(Contents::MarkupContent(m)) => m.value,
        other => panic!("no hover: {other:?}"),
    }
}

#[test]
fn hovers_events_actions_and_ids() {
    let mut f = fixture();
    let h = hover_text(&mut f, &ITEMS.replace("on = \"damage_taken\"", "on = \"damage_$0taken\""));
    assert!(h.contains("**damage_taken** (event)") && h.contains("source: ") && h.contains("`when` fields: `damage_type`"), "{h}");
    let h = hover_text(&mut f, &ITEMS.replace("action = \"heal\"", "action = \"he$0al\""));
    assert!(h.contains("**heal** (action)") && h.contains("`amount`"), "{h}");
    let h = hover_text(&mut f, &ITEMS.replace("item = \"core:gold\"", "item = \"core:g$0old\""));
    assert!(h.contains("**core:gold** (item)") && h.contains("mod `core`") && h.contains("<core>/items.toml"), "{h}");
}

#[test]
fn hovers_loot_tables_with_exact_chances() {
    let mut f = fixture();
    let h = hover_text(&mut f, &ITEMS.replace("loot = \"testmod:drops\"", "loot = \"testmod:d$0rops\""));
    // One roll: gold with weight 3 of 8, written as `rustkeep loot` writes it.
    assert!(h.contains("| `core:gold` | 37.50 % | 0.3750 |"), "{h}");
    assert!(h.contains("| `testmod:blade` | 12.50 % | 0.1250 |"), "{h}");
}

// ----- definition, references, highlight, rename -----------------------------------------------

#[test]
fn goes_to_definitions_across_files_and_into_the_core() {
    let mut f = fixture();
    let p = f.open("items.toml", &ITEMS.replace("item = \"core:gold\"", "item = \"core:go$0ld\""));
    let locs = definition::definition(&f.state, &p).unwrap();
    assert_eq!(locs.len(), 1);
    let path = rustkeep_lsp::uri::to_path(&locs[0].uri).unwrap();
    assert!(path.starts_with(f.state.core_dir.as_ref().unwrap()) && path.ends_with("items.toml"), "{path:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.lines().nth(locs[0].range.start.line as usize).unwrap();
    assert!(line.contains("\"core:gold\""), "{line}");
    // The served core is read-only.
    assert!(std::fs::metadata(&path).unwrap().permissions().readonly());

    let p = f.open("items.toml", &ITEMS.replace("loot = \"testmod:drops\"", "loot = \"testmod:dr$0ops\""));
    let locs = definition::definition(&f.state, &p).unwrap();
    assert_eq!(locs[0].uri, f.uri("items.toml"));
    assert_eq!(locs[0].range.start.line, 9, "the `id` line of the table");
}

#[test]
fn finds_references_and_highlights() {
    let mut f = fixture();
    let p = f.open("items.toml", &ITEMS.replace("id = \"testmod:blade\"", "id = \"testmod:bl$0ade\""));
    let refs = references::references(&f.state, &p, true).unwrap();
    assert_eq!(refs.len(), 2, "{refs:?}");
    let refs = references::references(&f.state, &p, false).unwrap();
    assert_eq!(refs.len(), 1);
    let hl = document_highlight::document_highlight(&f.state, &p).unwrap();
    assert_eq!(hl.len(), 2);
    // Tags: the carrier is the definition.
    let p = f.open("items.toml", &format!("{ITEMS}\n[[items]]\nid = \"testmod:t\"\nname = \"T\"\nmodifiers = [ {{ attribute = \"damage\", add = 1, condition = [ {{ check = \"has_tag\", who = \"target\", value = \"testmod:goo$0ey\" }} ] }} ]\n"));
    let locs = definition::definition(&f.state, &p).unwrap();
    assert_eq!(locs[0].range.start.line, 19);
}

#[test]
fn renames_an_id_everywhere_and_refuses_vocabulary_and_core() {
    let mut f = fixture();
    // A new file: created on disk (as editors do on save), then opened.
    let more = "[[npcs]]\nid = \"testmod:n\"\nname = \"N\"\non_talk = [ { action = \"give_item\", item = \"testmod:blade\", target = \"self\" } ]\n";
    std::fs::write(f.path("more.toml"), more).unwrap();
    f.state.disk_changed(&[f.path("more.toml")]);
    f.state.open(
        f.path("more.toml"),
        "[[npcs]]\nid = \"testmod:n\"\nname = \"N\"\non_talk = [ { action = \"give_item\", item = \"testmod:blade\", target = \"self\" } ]\n".into(),
        1,
    );
    let p = f.open("items.toml", &ITEMS.replace("id = \"testmod:blade\"", "id = \"testmod:bl$0ade\""));
    let r = rename::prepare(&f.state, &p).unwrap();
    assert_eq!((r.start.character, r.end.character), (6, 19), "inside the quotes");
    let edit = rename::rename(&f.state, &p, "testmod:sword").unwrap();
    let mut changes = edit.changes.unwrap();
    // The mod has a `version`: its manifest keeps the old ID working (tests/versions_and_renames.rs).
    let manifest = changes.remove(&f.uri("mod.toml")).expect("a `[renamed]` line");
    assert_eq!(manifest[0].new_text, "\n[renamed]\n\"testmod:blade\" = \"testmod:sword\"\n");
    assert_eq!(changes.len(), 2, "both files");
    assert_eq!(changes[&f.uri("items.toml")].len(), 2);
    assert!(changes.values().flatten().all(|e| e.new_text == "\"testmod:sword\""));
    assert!(rename::rename(&f.state, &p, "Not An Id").is_err());
    // An entry keeps its mod's namespace: another mod's, or the core's, would leave errors.
    for foreign in ["other:sword", "core:sword"] {
        assert!(rename::rename(&f.state, &p, foreign).unwrap_err().contains("outside the namespace"), "{foreign}");
    }

    let p = f.open("items.toml", &ITEMS.replace("item = \"core:gold\"", "item = \"core:go$0ld\""));
    assert!(rename::prepare(&f.state, &p).unwrap_err().contains("core"));
    let p = f.open("items.toml", &ITEMS.replace("on = \"damage_taken\"", "on = \"dam$0age_taken\""));
    assert!(rename::prepare(&f.state, &p).unwrap_err().contains("vocabulary"));
}

// ----- code actions ----------------------------------------------------------------------------

fn actions(f: &Fixture, rel: &str, line: u32) -> Vec<CodeAction> {
    let range = Range { start: Position { line, character: 0 }, end: Position { line, character: 200 } };
    code_action::code_actions(&f.state, &f.uri(rel), range)
        .unwrap()
        .into_iter()
        .map(|a| match a {
            CodeActionResponse::CodeAction(a) => a,
            CodeActionResponse::Command(_) => panic!("commands are not used"),
        })
        .collect()
}

fn only_edit(a: &CodeAction) -> TextEdit {
    a.edit.as_ref().unwrap().changes.as_ref().unwrap().values().next().unwrap()[0].clone()
}

#[test]
fn offers_fixes_missing_fields_and_silencing() {
    let mut f = fixture();
    // Two letters swapped: a safe fix, the preferred action.
    f.open("items.toml", &ITEMS.replace("on = \"damage_taken\"", "on = \"damage_taekn\"").replace("name = \"Slime\"\n", ""));
    let acts = actions(&f, "items.toml", 5);
    let titles: Vec<&str> = acts.iter().map(|a| a.title.as_str()).collect();
    assert!(titles.iter().any(|t| t.contains("damage_taken")), "{titles:?}");
    let fix = acts.iter().find(|a| a.title.contains("damage_taken")).unwrap();
    assert_eq!(only_edit(fix).new_text, "\"damage_taken\"");
    assert_eq!(fix.is_preferred, Some(true));
    let silence = acts.iter().find(|a| a.title.starts_with("Silence")).unwrap();
    assert_eq!(only_edit(silence).new_text, "  # rustkeep: allow(unknown-event)\n");
    assert_eq!(only_edit(silence).range.start, Position { line: 5, character: 0 });

    // The creature lost its name: add it after the header.
    let acts = actions(&f, "items.toml", 16);
    let add = acts.iter().find(|a| a.title == "Add `name`").expect("add missing field");
    let e = only_edit(add);
    assert_eq!((e.range.start, e.new_text.as_str()), (Position { line: 17, character: 0 }, "name = \"\"\n"));
}

#[test]
fn adds_missing_fields_to_inline_tables() {
    let mut f = fixture();
    f.open("items.toml", "[[items]]\nid = \"testmod:b\"\nname = \"B\"\nuse = [ { action = \"heal\", target = \"self\" } ]\n");
    let acts = actions(&f, "items.toml", 3);
    let add = acts.iter().find(|a| a.title == "Add `amount`").expect("add amount");
    let e = only_edit(add);
    assert_eq!(e.new_text, ", amount = 1");
    assert_eq!(e.range.start, Position { line: 3, character: 42 });
}

// ----- symbols, inlay hints, semantic tokens ---------------------------------------------------

#[test]
fn outlines_by_registry_and_finds_workspace_symbols() {
    let mut f = fixture();
    f.open("items.toml", ITEMS);
    let syms = document_symbol::document_symbols(&f.state, &f.uri("items.toml")).unwrap();
    let names: Vec<(&str, Vec<&str>)> =
        syms.iter().map(|s| (s.name.as_str(), s.children.as_ref().unwrap().iter().map(|c| c.name.as_str()).collect())).collect();
    assert_eq!(names, vec![("items", vec!["testmod:blade"]), ("loot_tables", vec!["testmod:drops"]), ("creatures", vec!["testmod:slime"])]);
    let ws = workspace_symbol::workspace_symbols(&f.state, "testmod:slime");
    assert_eq!(ws.len(), 1);
    assert_eq!(ws[0].base_symbol_information.name, "testmod:slime");
    assert_eq!(ws[0].base_symbol_information.container_name.as_deref(), Some("creatures · Slime"));
    assert!(workspace_symbol::workspace_symbols(&f.state, "core:gold").iter().any(|s| s.base_symbol_information.name == "core:gold"));
}

#[test]
fn shows_loot_shares_as_inlay_hints() {
    let mut f = fixture();
    f.open("items.toml", ITEMS);
    let all = Range { start: Position { line: 0, character: 0 }, end: Position { line: 99, character: 0 } };
    let hints = inlay_hint::inlay_hints(&f.state, &f.uri("items.toml"), all).unwrap();
    let labels: Vec<String> = hints
        .iter()
        .map(|h| match &h.label {
            Label::String(s) => s.clone(),
            Label::InlayHintLabelPartList(_) => panic!(),
        })
        .collect();
    assert_eq!(labels, vec!["12.50 %", "37.50 %", "50.00 %"]);
    assert_eq!(hints[0].position.line, 11);
    // Written as every chance is: `rustkeep loot`'s 33.33 %.
    assert_eq!(inlay_hint::share(1, 3), "33.33 %");
    assert_eq!(inlay_hint::share(1, 400), "0.25 %");
}

/// Semantic tokens decoded from their deltas to (line, column, length, type).
fn decoded(t: &SemanticTokens) -> Vec<(u32, u32, u32, u32)> {
    let (mut line, mut col) = (0, 0);
    let mut toks = Vec::new();
    for s in &t.data {
        if s.delta_line > 0 {
            col = 0;
        }
        line += s.delta_line;
        col += s.delta_start;
        toks.push((line, col, s.length, s.token_type));
    }
    toks
}

#[test]
fn colours_ids_events_and_vocabulary() {
    let mut f = fixture();
    f.open("items.toml", ITEMS);
    let toks = decoded(&semantic_tokens::full(&f.state, &f.uri("items.toml")).unwrap());
    assert!(toks.contains(&(1, 6, 13, 0)), "the blade's id: {toks:?}");
    assert!(toks.iter().any(|t| t.0 == 5 && t.3 == 2), "the event on line 6: {toks:?}");
    assert!(toks.iter().any(|t| t.0 == 5 && t.3 == 3), "the action: {toks:?}");
}

/// Columns of tokens that share a line are counted on from the token before: on a line of many
/// tags after text that UTF-16 counts apart from UTF-8 (an umlaut, an emoji), every token sits
/// where a conversion of its own offset puts it.
#[test]
fn tokens_on_one_long_line_sit_where_their_offsets_are() {
    let tags: Vec<String> = (0..300).map(|i| format!("\"testmod:t{i}\"")).collect();
    let text = format!("[[items]]\nid = \"testmod:x\"\nname = \"Schlüssel 🗝\"\ntags = [{}] # ä\n", tags.join(", "));
    for enc in [Encoding::Utf16, Encoding::Utf8] {
        let mut f = Fixture::new(&[("items.toml", ITEMS)], enc);
        f.open("items.toml", &text);
        let t = semantic_tokens::full(&f.state, &f.uri("items.toml")).unwrap();
        let starts: Vec<(u32, u32, u32)> = decoded(&t).into_iter().map(|(line, col, len, _)| (line, col, len)).collect();
        let fid = f.state.file_of(&f.uri("items.toml")).unwrap();
        let expected: Vec<(u32, u32, u32)> = text
            .match_indices("testmod:")
            .map(|(at, _)| {
                let end = at + text[at..].find('"').unwrap();
                let (a, b) = (f.state.position(fid, at), f.state.position(fid, end));
                (a.line, a.character, b.character - a.character)
            })
            .collect();
        assert_eq!(starts, expected, "{enc:?}");
    }
}

/// Quick fixes over a range as large as a file of thousands of warnings answer at once: the fixes
/// of the first thousand diagnostics, not a menu nobody reads built over every one.
#[test]
fn quick_fixes_over_a_whole_file_are_bounded() {
    let items: String = (0..3000).map(|i| format!("[[items]]\nid = \"testmod:i{i}\"\nname = \"I\"\nprice = -1\n\n")).collect();
    let mut f = fixture();
    f.open("items.toml", &items);
    let all = Range { start: Position { line: 0, character: 0 }, end: Position { line: 20_000, character: 0 } };
    let actions = code_action::code_actions(&f.state, &f.uri("items.toml"), all).unwrap();
    let fixed: std::collections::BTreeSet<String> = actions
        .iter()
        .filter_map(|a| match a {
            CodeActionResponse::CodeAction(a) => a.diagnostics.as_ref().and_then(|d| d.first()).map(|d| format!("{:?}", d.range)),
            _ => None,
        })
        .collect();
    assert_eq!(fixed.len(), 1000, "the first thousand diagnostics of the range");
}

/// "Silence with an allow comment" is offered only where such a comment works: not for
/// `toml-syntax`, which always shows.
#[test]
fn silencing_is_offered_only_where_an_allow_comment_works() {
    let mut f = fixture();
    f.open("items.toml", "[[items]]\nid = \"testmod:x\"\nname = \"X\"\nprice = -1\n\n[[items]\nid = \"testmod:y\"\n");
    let all = Range { start: Position { line: 0, character: 0 }, end: Position { line: 99, character: 0 } };
    let titles: Vec<String> = code_action::code_actions(&f.state, &f.uri("items.toml"), all)
        .unwrap()
        .into_iter()
        .filter_map(|a| match a {
            CodeActionResponse::CodeAction(a) => Some(a.title),
            _ => None,
        })
        .collect();
    assert!(titles.iter().any(|t| t.starts_with("Silence `wrong-type`")), "{titles:?}");
    assert!(!titles.iter().any(|t| t.contains("toml-syntax")), "{titles:?}");
}

// ----- display data ----------------------------------------------------------------------------

#[test]
fn completes_and_hovers_glyphs_and_colours() {
    let mut f = fixture();
    for registry in ["items", "creatures", "npcs"] {
        let base = format!("[[{registry}]]\nid = \"testmod:x\"\nname = \"X\"\n");
        let l = labels(&complete(&mut f, &format!("{base}$0")));
        assert!(l.contains(&"glyph".to_string()) && l.contains(&"color".to_string()), "{registry}: {l:?}");
        let items = complete(&mut f, &format!("{base}color = \"$0\"\n"));
        let l = labels(&items);
        assert_eq!(l.len(), 16, "{registry}: {l:?}");
        assert!(l.contains(&"bright_red".to_string()) && l.contains(&"black".to_string()), "{l:?}");
        assert!(items.iter().all(|i| i.kind == Some(CompletionItemKind::Color)));
    }
    let h = hover_text(&mut f, "[[creatures]]\nid = \"testmod:x\"\nname = \"X\"\ncolor = \"bright_$0red\"\n");
    assert!(h.contains("**bright_red** (colour)") && h.contains("LightRed"), "{h}");
    let h = hover_text(&mut f, "[[creatures]]\nid = \"testmod:x\"\nname = \"X\"\ngl$0yph = \"x\"\n");
    assert!(h.contains("**glyph**") && h.contains("one character") && h.contains("lower-case first letter"), "{h}");
}
