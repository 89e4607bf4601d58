//! The state of a run changes only through the engine's operations (docs/ARCHITECTURE.md, "Who
//! changes a game"): `struct Game` declares no `pub` field, so no other crate can write one.

/// The fields of `struct Game` in `source` whose visibility is plain `pub`, by name.
fn public_fields(source: &str) -> Option<Vec<String>> {
    let start = source.find("pub struct Game {")?;
    let body = &source[start..];
    let body = &body[..body.find("\n}")?];
    Some(
        body.lines()
            .skip(1)
            .map(str::trim_start)
            .filter(|l| l.starts_with("pub ") || l.starts_with("pub\t"))
            .map(|l| l.trim_start_matches("pub").trim_start().split(':').next().unwrap_or_default().to_string())
            .collect(),
    )
}

#[test]
fn the_game_declares_no_public_field() {
    let public = public_fields(include_str!("../src/game.rs")).expect("game.rs declares `pub struct Game { … }`");
    assert!(public.is_empty(), "`Game` has public fields {public:?}: read them through methods and change them through the engine's operations");
}

#[test]
fn a_public_field_is_seen() {
    let source = "pub struct Game {\n    /// Doc.\n    pub player: Creature,\n    pub(crate) step: usize,\n    seed: u64,\n}\n";
    assert_eq!(public_fields(source), Some(vec!["player".to_string()]));
}
