//! IDs taken apart: the one place that splits `namespace:name` at its `:`. [`Id`] is text of the
//! ID grammar ([`super::is_valid_id`]), parsed once; [`IdText`] is any text that may be an ID, or
//! a bare name a modder wrote without its namespace (which the checker then resolves or
//! reports), split once at its first `:`.

use std::fmt;

/// An ID of the grammar (`namespace:name`), with the position of its `:` found when it was
/// parsed: asking for its namespace or its name splits nothing again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id<'a> {
    text: &'a str,
    colon: usize,
}

impl<'a> Id<'a> {
    /// The ID `s` is, if it is one ([`super::is_valid_id`]).
    pub fn parse(s: &'a str) -> Option<Id<'a>> {
        if !super::is_valid_id(s) {
            return None;
        }
        let colon = s.bytes().position(|b| b == b':')?;
        Some(Id { text: s, colon })
    }

    /// The part before the `:`: the mod id that owns the ID.
    pub fn namespace(self) -> &'a str {
        &self.text[..self.colon]
    }

    /// The part after the `:` (its local name, possibly `/`-separated segments).
    pub fn name(self) -> &'a str {
        &self.text[self.colon + 1..]
    }

    /// The whole ID.
    pub fn as_str(self) -> &'a str {
        self.text
    }
}

impl fmt::Display for Id<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// Text that may be an ID or a bare name, split at its first `:`: everything before it is the
/// namespace, everything after it the name (for text outside the grammar too, so that
/// `a:b:c` has the namespace `a` and the name `b:c`); text without a `:` is a bare name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdText<'a> {
    namespace: Option<&'a str>,
    name: &'a str,
}

impl<'a> IdText<'a> {
    /// `s` split at its first `:`.
    pub fn of(s: &'a str) -> IdText<'a> {
        match s.bytes().position(|b| b == b':') {
            Some(i) => IdText { namespace: Some(&s[..i]), name: &s[i + 1..] },
            None => IdText { namespace: None, name: s },
        }
    }

    /// Whether the text has no namespace (no `:`).
    pub fn is_bare(self) -> bool {
        self.namespace.is_none()
    }

    /// The part before the first `:`; `None` for a bare name.
    pub fn namespace(self) -> Option<&'a str> {
        self.namespace
    }

    /// The part after the first `:`, or the whole text of a bare name.
    pub fn name(self) -> &'a str {
        self.name
    }

    /// The part after the first `:` of text that has one; `None` for a bare name.
    pub fn qualified_name(self) -> Option<&'a str> {
        self.namespace.map(|_| self.name)
    }
}

/// The namespace of an ID, `""` for a bare name.
pub fn namespace_of(id: &str) -> &str {
    IdText::of(id).namespace.unwrap_or("")
}

/// Whether `s` is a name an ID may have after its namespace: `/`-separated segments of
/// [`super::SEGMENT_CHARS`] (what a modder writes when leaving the namespace out).
pub fn is_valid_name(s: &str) -> bool {
    s.split('/').all(|seg| !seg.is_empty() && seg.bytes().all(super::ids::is_name_byte))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The namespace and the name of `s` split as [`IdText`].
    fn split_id(s: &str) -> (Option<&str>, &str) {
        let t = IdText::of(s);
        (t.namespace(), t.name())
    }

    #[test]
    fn a_valid_id_parses_into_its_parts() {
        let id = Id::parse("core:rat").expect("an ID");
        assert_eq!((id.namespace(), id.name(), id.as_str()), ("core", "rat", "core:rat"));
        assert_eq!(id.to_string(), "core:rat");
        let id = Id::parse("m2:3x").expect("an ID");
        assert_eq!((id.namespace(), id.name()), ("m2", "3x"));
    }

    #[test]
    fn a_nested_name_keeps_its_segments() {
        let id = Id::parse("a:b/c").expect("an ID");
        assert_eq!((id.namespace(), id.name()), ("a", "b/c"));
        assert_eq!(IdText::of("a:b/c"), IdText { namespace: Some("a"), name: "b/c" });
        assert!(is_valid_name("b/c") && !is_valid_name("b//c") && !is_valid_name("b/"));
    }

    #[test]
    fn a_bare_name_is_no_id_but_has_a_name() {
        assert_eq!(Id::parse("rat"), None);
        let t = IdText::of("rat");
        assert!(t.is_bare());
        assert_eq!((t.namespace(), t.name(), t.qualified_name()), (None, "rat", None));
        assert_eq!(split_id("rat"), (None, "rat"));
        assert_eq!(namespace_of("rat"), "");
        assert!(is_valid_name("rat"));
    }

    #[test]
    fn empty_parts_are_no_id_but_split_as_written() {
        for s in ["", ":", "core:", ":rat"] {
            assert_eq!(Id::parse(s), None, "{s:?}");
        }
        assert_eq!(split_id(""), (None, ""));
        assert_eq!(split_id(":"), (Some(""), ""));
        assert_eq!(split_id("core:"), (Some("core"), ""));
        assert_eq!(split_id(":rat"), (Some(""), "rat"));
        assert_eq!(IdText::of("core:").qualified_name(), Some(""));
        assert!(!is_valid_name(""));
    }

    #[test]
    fn two_colons_split_at_the_first() {
        assert_eq!(Id::parse("core:rat:x"), None);
        assert_eq!(split_id("core:rat:x"), (Some("core"), "rat:x"));
        assert_eq!(namespace_of("core:rat:x"), "core");
        assert!(!is_valid_name("rat:x"));
    }

    #[test]
    fn non_ascii_text_splits_on_character_boundaries() {
        assert_eq!(Id::parse("core:ratté"), None);
        assert_eq!(Id::parse("cœur:rat"), None);
        assert_eq!(split_id("cœur:rätte"), (Some("cœur"), "rätte"));
        assert_eq!(split_id("ü"), (None, "ü"));
        assert!(!is_valid_name("rätte"));
    }
}
