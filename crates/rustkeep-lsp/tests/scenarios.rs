//! Scenario files in the editor: the same located diagnostics as `rustkeep check`, completion of
//! their keys, headers, creatures and payload keys, and hover docs — a scenario is checked like
//! data.

mod common;

use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_lsp::handlers::*;
use rustkeep_lsp::lsp::*;

const CREATURES: &str = "[[creatures]]\nid = \"testmod:brawler\"\nname = \"Brawler\"\nattributes = { max_health = 12, damage = 3 }\n";

/// A scenario with five kinds of mistakes, one per line marked.
const MISTAKES: &str = r#"seed = "forty-two"
mods = [".."]

[player]
options = ["core:warior"]

[[enemies]]
creature = "testmod:brawler"
count = 2

[[steps]]
attack = "enemy:0"
sorce = "player"

[[steps]]
attack = "enemy:5"

[[steps]]
event = "damage_taken"
payload = { amount = 2, damage_type = "fyre" }
"#;

fn fixture(scenario: &str) -> Fixture {
    Fixture::new(&[("creatures.toml", CREATURES), ("scenarios/fight.toml", scenario)], Encoding::Utf16)
}

#[test]
fn a_scenario_with_five_kinds_of_mistakes_gets_five_located_diagnostics() {
    let mut f = fixture(MISTAKES);
    f.open("scenarios/fight.toml", MISTAKES);
    let fid = f.state.file_of(&f.uri("scenarios/fight.toml")).expect("the scenario is part of the project");
    let mut got: Vec<(u32, String)> = f
        .state
        .diagnostics_of(fid)
        .iter()
        .map(|d| {
            (
                d.range.start.line + 1,
                match &d.code {
                    Some(Code::String(s)) => s.clone(),
                    _ => String::new(),
                },
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (1, "wrong-type".to_string()),
            (5, "unknown-reference".to_string()),
            (13, "unknown-field".to_string()),
            (16, "unknown-reference".to_string()),
            (20, "unknown-damage-type".to_string()),
        ]
    );
    // The same as `rustkeep check` reports for the same files.
    let cli = rustkeep_check::analyze(&f.state.project);
    let mut cli: Vec<(u32, String)> = cli
        .diagnostics
        .iter()
        .filter(|d| d.loc.file == fid)
        .map(|d| {
            let file = f.state.project.file(fid);
            (file.index.line_of(d.loc.span.start) as u32 + 1, d.code.name().to_string())
        })
        .collect();
    cli.sort();
    assert_eq!(got, cli);
}

#[test]
fn completes_the_keys_of_a_step_and_the_headers_of_a_scenario() {
    let mut f = fixture("");
    let p = f.open("scenarios/fight.toml", "mods = [\"..\"]\n\n[[steps]]\n$0");
    let l = labels(&completion::completion(&f.state, &p).unwrap_or_default());
    for k in ["attack", "event", "talk", "pickup", "source"] {
        assert!(l.contains(&k.to_string()), "{k}: {l:?}");
    }
    assert!(!l.contains(&"id".to_string()), "no registry fields in a scenario: {l:?}");
    let p = f.open("scenarios/fight.toml", "[[$0");
    let l = labels(&completion::completion(&f.state, &p).unwrap_or_default());
    assert_eq!(l, ["enemies", "steps", "expect"]);
    let p = f.open("scenarios/fight.toml", "[$0");
    assert_eq!(labels(&completion::completion(&f.state, &p).unwrap_or_default()), ["player"]);
}

/// The keys of an `[[expect]]` come from the vocabulary like every other table's: each kind of
/// expectation, and once one is written, the keys that go with it.
#[test]
fn completes_the_keys_of_an_expectation() {
    let mut f = fixture("");
    let p = f.open("scenarios/fight.toml", "mods = [\"..\"]\n\n[[steps]]\nwait = true\n\n[[expect]]\n$0");
    let l = labels(&completion::completion(&f.state, &p).unwrap_or_default());
    for k in ["quest", "has_item", "health", "event", "fired", "outcome", "loot", "arena", "after_step"] {
        assert!(l.contains(&k.to_string()), "{k}: {l:?}");
    }
    assert!(!l.contains(&"attack".to_string()), "no step keys in an expectation: {l:?}");
    let p = f.open("scenarios/fight.toml", "[[expect]]\nquest = \"core:rattenplage\"\n$0");
    let l = labels(&completion::completion(&f.state, &p).unwrap_or_default());
    assert!(l.contains(&"state".to_string()) && !l.contains(&"quest".to_string()), "{l:?}");
    let p = f.open("scenarios/fight.toml", "[[expect]]\nquest = \"core:rattenpl$0\"\n");
    assert!(labels(&completion::completion(&f.state, &p).unwrap_or_default()).contains(&"core:rattenplage".to_string()));
    // And hover explains the key.
    f.open("scenarios/fight.toml", "[[expect]]\nhas_item = \"core:gold\"\n");
    let fid = f.state.file_of(&f.uri("scenarios/fight.toml")).unwrap();
    let (md, _) = hover::hover_at(&f.state, fid, 13).expect("a hover on `has_item`");
    assert!(md.contains("**has_item**"), "{md}");
}

#[test]
fn completes_creatures_ids_and_payload_keys_of_the_steps_event() {
    let mut f = fixture("");
    let base = "mods = [\"..\"]\n[[enemies]]\ncreature = \"testmod:brawler\"\ncount = 2\n[[steps]]\n";
    let p = f.open("scenarios/fight.toml", &format!("{base}attack = \"$0\"\n"));
    assert_eq!(labels(&completion::completion(&f.state, &p).unwrap_or_default()), ["player", "enemy:0", "enemy:1"]);
    let p = f.open("scenarios/fight.toml", "[[enemies]]\ncreature = \"testmod:b$0\"\n");
    assert!(labels(&completion::completion(&f.state, &p).unwrap_or_default()).contains(&"testmod:brawler".to_string()));
    let p = f.open("scenarios/fight.toml", &format!("{base}event = \"damage_taken\"\npayload = {{ $0 }}\n"));
    assert_eq!(labels(&completion::completion(&f.state, &p).unwrap_or_default()), ["damage_type", "amount"]);
    let p = f.open("scenarios/fight.toml", &format!("{base}event = \"damage_taken\"\npayload = {{ damage_type = \"$0\" }}\n"));
    assert!(labels(&completion::completion(&f.state, &p).unwrap_or_default()).contains(&"fire".to_string()));
}

#[test]
fn hovers_the_keys_and_values_of_a_scenario() {
    let mut f = fixture("");
    f.open("scenarios/fight.toml", "enemies_act = true\n[[steps]]\nevent = \"npc_talked\"\n");
    let fid = f.state.file_of(&f.uri("scenarios/fight.toml")).unwrap();
    let (md, _) = hover::hover_at(&f.state, fid, 2).expect("a hover on `enemies_act`");
    assert!(md.contains("**enemies_act**") && md.contains("every living enemy takes its own turn"), "{md}");
    let text = f.state.text(fid).to_string();
    let (md, _) = hover::hover_at(&f.state, fid, text.find("npc_talked").unwrap() + 2).expect("a hover on the event");
    assert!(md.contains("npc_talked"), "{md}");
}

/// In a data file too: with the cursor right after a closing quote, completion replaces the
/// string instead of writing a second one behind it.
#[test]
fn completion_after_a_closing_quote_replaces_the_string() {
    let mut f = Fixture::new(&[("quests.toml", "")], Encoding::Utf16);
    let text = "[[quests]]\nid = \"testmod:q\"\nname = \"Q\"\non = \"creature_died\"$0\n";
    let p = f.open("quests.toml", text);
    let items = completion::completion(&f.state, &p).unwrap_or_default();
    let it = items.iter().find(|i| i.label == "turn_started").expect("events are offered");
    let Some(CompletionItemTextEdit::TextEdit(e)) = &it.text_edit else { panic!("a text edit") };
    assert_eq!(e.new_text, "\"turn_started\"");
    assert_eq!((e.range.start, e.range.end), (Position { line: 3, character: 5 }, Position { line: 3, character: 20 }), "the old string with its quotes");
}

/// The options' `group` and the floors' `first_rooms` reach the cross-file rules from files the
/// editor does not show (the server keeps only their outline): a scenario naming two classes gets
/// `option-group-conflict`, a floor's first room that it does not lay out
/// `first-room-not-in-prefabs`, as `rustkeep check` reports them.
#[test]
fn groups_and_first_rooms_of_files_not_open_reach_the_rules() {
    const OPTIONS: &str = "[[character_options]]\nid = \"testmod:ranger\"\nname = \"Ranger\"\ngroup = \"class\"\n";
    const FLOORS: &str =
        "[[floors]]\nid = \"testmod:pit\"\ndepth = 9\nprefabs = [\"core:corridor\", \"core:storeroom\"]\nfirst_rooms = [\"core:corridor\", \"core:forge\"]\ncreatures = [\"testmod:brawler\"]\n";
    let scenario = "seed = 1\nmods = [\"..\"]\n\n[player]\noptions = [\"core:grave_digger\", \"core:warrior\", \"testmod:ranger\"]\n";
    let mut f =
        Fixture::new(&[("creatures.toml", CREATURES), ("options.toml", OPTIONS), ("floors.toml", FLOORS), ("scenarios/fight.toml", scenario)], Encoding::Utf16);
    f.open("scenarios/fight.toml", scenario);
    let codes = |rel: &str| -> Vec<(u32, String)> {
        let fid = f.state.file_of(&f.uri(rel)).expect("a file of the project");
        f.state
            .diagnostics_of(fid)
            .iter()
            .map(|d| {
                let code = match &d.code {
                    Some(Code::String(s)) => s.clone(),
                    _ => String::new(),
                };
                (d.range.start.line + 1, code)
            })
            .collect()
    };
    assert_eq!(codes("scenarios/fight.toml"), [(5, "option-group-conflict".to_string())]);
    assert_eq!(codes("floors.toml"), [(5, "first-room-not-in-prefabs".to_string())]);
    let cli = rustkeep_check::analyze(&f.state.project);
    let mut cli: Vec<&str> = cli.diagnostics.iter().map(|d| d.code.name()).collect();
    cli.sort();
    assert_eq!(cli, ["first-room-not-in-prefabs", "option-group-conflict"]);
}
