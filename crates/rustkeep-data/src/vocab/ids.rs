//! The ID grammar: `namespace:name`, a name of `/`-separated segments. Every spelling of it (the
//! regular expressions of the JSON Schemas and messages, the checks in code) is built here from
//! one text.

macro_rules! namespace_grammar {
    () => {
        "[a-z][a-z0-9_]*"
    };
}
macro_rules! segment_chars {
    () => {
        "a-z0-9_"
    };
}

/// The namespace of the base game: the mod id of the core, which no other mod may take.
pub const CORE_NAMESPACE: &str = "core";

/// A mod id, and so the namespace of an ID, as a regular expression.
pub const NAMESPACE_GRAMMAR: &str = namespace_grammar!();
/// A mod id as an anchored regular expression (the JSON Schemas of `mod.toml`).
pub const NAMESPACE_PATTERN: &str = concat!("^", namespace_grammar!(), "$");
/// The characters of one `/`-separated segment of an ID's name, as a character-class body.
pub const SEGMENT_CHARS: &str = segment_chars!();
/// An ID, `namespace:name`, as a regular expression (unanchored, for messages).
pub const ID_GRAMMAR: &str = concat!(namespace_grammar!(), ":[", segment_chars!(), "]+(/[", segment_chars!(), "]+)*");
/// An ID as an anchored regular expression (the JSON Schema's `pattern`, the editors' check).
pub const ID_PATTERN: &str = concat!("^", namespace_grammar!(), ":[", segment_chars!(), "]+(/[", segment_chars!(), "]+)*$");

/// Whether a string is an ID: [`ID_PATTERN`], checked in one pass over its bytes without a
/// regular-expression engine (this runs for every entry and reference of a pack).
pub fn is_valid_id(s: &str) -> bool {
    let mut bytes = s.bytes();
    if !matches!(bytes.next(), Some(c) if c.is_ascii_lowercase()) {
        return false;
    }
    let mut in_namespace = true;
    // Whether the segment being read has no byte yet.
    let mut segment_empty = true;
    for c in bytes {
        match c {
            b':' if in_namespace => in_namespace = false,
            b'/' if !in_namespace && !segment_empty => segment_empty = true,
            c if is_name_byte(c) => segment_empty &= in_namespace,
            _ => return false,
        }
    }
    !in_namespace && !segment_empty
}

/// A byte of `[a-z0-9_]`: what a namespace holds after its first letter and a segment holds.
pub(super) fn is_name_byte(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_'
}

/// Whether a string is a mod id / namespace: [`NAMESPACE_GRAMMAR`].
pub fn is_valid_namespace(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_lowercase()) && b.all(is_name_byte)
}
