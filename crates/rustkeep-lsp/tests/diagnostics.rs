//! Diagnostics: the same set as `rustkeep check`, incremental updates across files, and columns
//! in both negotiated encodings.

mod common;

use std::path::PathBuf;

use common::*;
use rustkeep_check::analyze;
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::text::Encoding;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::uri;

/// The example mods, copied and broken in a few places so that there is something to compare.
fn broken_examples() -> TempDir {
    let root = TempDir::new("examples");
    copy_dir(&examples(), &root);
    let q = root.join("rat_catcher/quests.toml");
    let text = std::fs::read_to_string(&q).unwrap();
    let text =
        text.replacen("on = \"creature_died\"", "on = \"creature_dyed\"", 1).replacen("\"rat_catcher:find_the_nest\"", "\"rat_catcher:find_the_nets\"", 1);
    std::fs::write(&q, format!("# Umlaute: Ä Ö Ü ß, emoji 🐀\n{text}")).unwrap();
    let l = root.join("fire_and_thorns/loot.toml");
    let text = std::fs::read_to_string(&l).unwrap().replacen("weight = 4 }", "weight = 0 }", 1);
    std::fs::write(&l, text).unwrap();
    root
}

fn code_of(d: &Diagnostic) -> String {
    match &d.code {
        Some(Code::String(s)) => s.clone(),
        other => panic!("string codes expected, got {other:?}"),
    }
}

#[test]
fn same_diagnostics_as_rustkeep_check_on_the_examples() {
    let root = broken_examples();
    for enc in [Encoding::Utf16, Encoding::Utf8] {
        let mut state = state_over(&root, enc);
        let published = state.take_publish();
        let mut lsp: Vec<(PathBuf, String, Range)> =
            published.iter().flat_map(|(u, ds, _)| ds.iter().map(move |d| (uri::to_path(u).unwrap(), code_of(d), d.range))).collect();

        let project = load(std::slice::from_ref(&root.0), &root, &Overlay::new());
        let analysis = analyze(&project);
        let mut cli: Vec<(PathBuf, String, Range)> = analysis
            .diagnostics
            .iter()
            .map(|d| {
                let f = project.file(d.loc.file);
                let pos = |o| {
                    let lc = f.index.position(&f.text, o, enc);
                    Position { line: lc.line, character: lc.col }
                };
                (f.disk_path.clone().unwrap(), d.code.name().to_string(), Range { start: pos(d.loc.span.start), end: pos(d.loc.span.end) })
            })
            .collect();
        lsp.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        cli.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        assert!(cli.len() >= 3, "the broken examples report something: {cli:?}");
        assert_eq!(lsp, cli, "{enc:?}");
        // Every file of the project got a list (empty for clean files), so stale ones clear.
        assert_eq!(published.len(), project.files.iter().filter(|f| !f.bundled).count());
        // Nothing changed: nothing to publish again.
        assert!(state.take_publish().is_empty());
    }
}

#[test]
fn an_edit_updates_every_affected_file_and_lowers_only_the_edited_one() {
    let root = examples_workspace(&["rat_catcher", "fire_and_thorns"]);
    let mut state = state_over(&root, Encoding::Utf16);
    let first = state.take_publish();
    assert!(first.iter().all(|(_, d, _)| d.is_empty()), "the examples are clean: {first:?}");
    let items = root.join("rat_catcher/items.toml");
    let text = std::fs::read_to_string(&items).unwrap();
    state.open(items.clone(), text.clone(), 1);
    state.refresh();
    // Rename the cudgel's id in place (an incremental edit on line 3): quests.toml now names nothing.
    let line = text.lines().position(|l| l == "id = \"rat_catcher:ratcatchers_cudgel\"").unwrap() as u32;
    let change = TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial {
        range: Range { start: Position { line, character: 18 }, end: Position { line, character: 36 } },
        #[allow(deprecated)]
        range_length: None,
        text: "rat_cudgel".into(),
    });
    assert!(state.change(&items, 2, vec![change]));
    assert_eq!(state.docs[&items].text.lines().nth(line as usize).unwrap(), "id = \"rat_catcher:rat_cudgel\"");
    let published = state.take_publish();
    assert_eq!(state.last_lowered, 1, "only the edited file is lowered again");
    let quests = uri::from_path(&root.join("rat_catcher/quests.toml"));
    let q = published.iter().find(|(u, _, _)| *u == quests).expect("quests.toml is republished");
    assert!(q.1.iter().any(|d| code_of(d) == "unknown-reference"), "{:?}", q.1);
    // Undo with a full-text change: the error goes away again (an empty list clears it).
    let full = TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text });
    assert!(state.change(&items, 3, vec![full]));
    let published = state.take_publish();
    let q = published.iter().find(|(u, _, _)| *u == quests).expect("quests.toml is cleared");
    assert!(q.1.is_empty());
}

#[test]
fn a_change_to_a_never_opened_document_is_ignored() {
    let root = TempDir::new("never");
    copy_dir(&examples(), &root);
    let mut state = state_over(&root, Encoding::Utf16);
    let change = TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text: "garbage".into() });
    assert!(!state.change(&root.join("rat_catcher/items.toml"), 2, vec![change]));
    assert!(!state.is_dirty());
}

/// A line with umlauts and an emoji before an error, edited incrementally in each encoding.
#[test]
fn columns_are_right_for_umlauts_and_emoji_in_utf16_and_utf8() {
    let prefix = "[[items]]\nid = \"testmod:klinge\"\nname = \"Ätherklinge 🔥\"\ntriggers = [ { on = \"turn_started\" } ]\nslot = \"weapon\"\n";
    for enc in [Encoding::Utf16, Encoding::Utf8] {
        let mut f = Fixture::new(&[("items.toml", prefix)], enc);
        let path = f.path("items.toml");
        f.state.open(path.clone(), prefix.to_string(), 1);
        assert!(f.state.take_publish().iter().all(|(_, d, _)| d.is_empty()));
        // Replace `turn_started` (after the emoji on the same line is irrelevant: different line),
        // then put a comment with umlauts and an emoji in front of the event on its own line.
        let line3 = "triggers = [ { on = \"turn_started\" } ]";
        let start = line3.find("turn_started").unwrap() as u32;
        let ch = |s: &str| -> u32 {
            match enc {
                Encoding::Utf16 => s.encode_utf16().count() as u32,
                _ => s.len() as u32,
            }
        };
        #[allow(deprecated)]
        let edit = |range: Range, text: &str| {
            TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial { range, range_length: None, text: text.into() })
        };
        let p = |line, character| Position { line, character };
        // 1. The event becomes unknown.
        assert!(f.state.change(&path, 2, vec![edit(Range { start: p(3, start), end: p(3, start + 12) }, "turn_begun")]));
        // 2. Umlauts and an emoji go into the `name` on line 2, before the closing quote.
        let name_line = "name = \"Ätherklinge 🔥\"";
        let q = ch(&name_line[..name_line.len() - 1]);
        assert!(f.state.change(&path, 3, vec![edit(Range { start: p(2, q), end: p(2, q) }, " – Größe 🐉")]));
        // 3. The event's line gets an emoji-carrying key in front: `{ on =` → `{ x = "🐀ü", on =`.
        let brace = ch("triggers = [ {");
        assert!(f.state.change(&path, 4, vec![edit(Range { start: p(3, brace), end: p(3, brace) }, " chance = 1.0, #")]));
        // That last edit commented out the rest of the line; undo it precisely.
        let inserted = ch(" chance = 1.0, #");
        assert!(f.state.change(&path, 5, vec![edit(Range { start: p(3, brace), end: p(3, brace + inserted) }, " chance = 0.5,")]));
        let text = f.state.docs[&path].text.clone();
        assert_eq!(text.lines().nth(2).unwrap(), "name = \"Ätherklinge 🔥 – Größe 🐉\"");
        let l3 = text.lines().nth(3).unwrap();
        assert_eq!(l3, "triggers = [ { chance = 0.5, on = \"turn_begun\" } ]");
        let published = f.state.take_publish();
        let (_, diags, version) = published.iter().find(|(u, _, _)| *u == f.uri("items.toml")).unwrap();
        assert_eq!(*version, Some(5));
        let d = diags.iter().find(|d| code_of(d) == "unknown-event").expect("unknown-event");
        let col = ch(&l3[..l3.find("\"turn_begun\"").unwrap()]);
        assert_eq!(d.range, Range { start: p(3, col), end: p(3, col + 12) }, "{enc:?}");
        // Now a diagnostic on a line with non-ASCII before it: an unknown field after the name.
        let after = ch("name = \"Ätherklinge 🔥 – Größe 🐉\"");
        assert!(f.state.change(&path, 6, vec![edit(Range { start: p(2, after), end: p(2, after) }, "\npreis = 3")]));
        // The new line is 3: `preis` at column 0 — but check a same-line case too: a key after
        // a non-ASCII value in an inline table.
        let published = f.state.take_publish();
        let (_, diags, _) = published.iter().find(|(u, _, _)| *u == f.uri("items.toml")).unwrap();
        let d = diags.iter().find(|d| code_of(d) == "unknown-field").expect("unknown-field");
        assert_eq!(d.range, Range { start: p(3, 0), end: p(3, 5) });
        let inline = "[[npcs]]\nid = \"testmod:alte\"\nname = \"Die Älteste 👵\"\non_talk = [ { action = \"heal\", amount = 1, target = \"self\", \"wörd\" = \"ä🐀\", zahl = 1 } ]\n";
        let full = TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text: inline.into() });
        assert!(f.state.change(&path, 7, vec![full]));
        let published = f.state.take_publish();
        let (_, diags, _) = published.iter().find(|(u, _, _)| *u == f.uri("items.toml")).unwrap();
        let line = inline.lines().nth(3).unwrap();
        let zahl = diags
            .iter()
            .find(|d| code_of(d) == "unknown-field" && d.range.start.character == ch(&line[..line.find("zahl").unwrap()]))
            .unwrap_or_else(|| panic!("`zahl` after the emoji: {diags:?}"));
        assert_eq!(zahl.range.end.character - zahl.range.start.character, 4);
        let wort = ch(&line[..line.find("\"wörd\"").unwrap()]);
        let w = diags.iter().find(|d| d.range.start.character == wort).unwrap_or_else(|| panic!("`wörd`: {diags:?}"));
        assert_eq!(w.range.end.character - wort, ch("\"wörd\""), "{enc:?}");
    }
}

/// Typing a line char by char (an unclosed array, then a string, then the rest): after every
/// keystroke the Problems panel shows at most one error in the edited file and nothing in the
/// others, the error of an unclosed bracket at its opening, and the finished line clears it.
#[test]
fn an_unfinished_line_is_one_problem_at_its_opening_while_typing() {
    let root = examples_workspace(&["rat_catcher", "fire_and_thorns"]);
    let mut state = state_over(&root, Encoding::Utf16);
    assert!(state.take_publish().iter().all(|(_, d, _)| d.is_empty()), "the examples are clean");
    let path = root.join("rat_catcher/creatures.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    state.open(path.clone(), text.clone(), 1);
    state.refresh();
    state.take_publish();
    // The first creature's `tags` line, typed anew: other files name this creature.
    let line = text.lines().position(|l| l.starts_with("tags = ")).unwrap() as u32;
    let old_len = text.lines().nth(line as usize).unwrap().len() as u32;
    let typed = "tags = [\"core:rat\", \"core:beast\"]";
    let me = uri::from_path(&path);
    let mut shown: std::collections::HashMap<Uri, Vec<Diagnostic>> = std::collections::HashMap::new();
    let mut with_error = 0;
    // The line emptied first, then typed again.
    #[allow(deprecated)]
    let newline = TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial {
        range: Range { start: Position { line, character: 0 }, end: Position { line, character: old_len } },
        range_length: None,
        text: String::new(),
    });
    assert!(state.change(&path, 2, vec![newline]));
    for (i, c) in typed.chars().enumerate() {
        let at = Position { line, character: i as u32 };
        #[allow(deprecated)]
        let change = TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial {
            range: Range { start: at, end: at },
            range_length: None,
            text: c.to_string(),
        });
        assert!(state.change(&path, 3 + i as i32, vec![change]));
        for (u, d, _) in state.take_publish() {
            shown.insert(u, d);
        }
        let problems: Vec<(&Uri, &Diagnostic)> = shown.iter().flat_map(|(u, ds)| ds.iter().map(move |d| (u, d))).collect();
        let partial = &typed[..i + 1];
        assert!(problems.len() <= 1 && problems.iter().all(|(u, _)| **u == me), "after typing `{partial}`: {problems:#?}");
        if let Some((_, d)) = problems.first() {
            with_error += 1;
            assert_eq!(code_of(d), "toml-syntax", "{d:?}");
            if partial.contains('[') && !partial.contains(']') && partial.matches('"').count().is_multiple_of(2) && partial.ends_with(['[', ' ', ',']) {
                // An array still open: the error is at its `[`, with where reading gave up.
                assert_eq!(d.range.start, Position { line, character: 7 }, "after typing `{partial}`: {d:?}");
                assert!(d.related_information.as_ref().is_some_and(|r| !r.is_empty()), "{d:?}");
            }
        }
    }
    assert!(with_error > 10, "typing went through broken states: {with_error}");
    assert!(shown.values().all(Vec::is_empty), "the finished line is clean: {shown:#?}");
}
