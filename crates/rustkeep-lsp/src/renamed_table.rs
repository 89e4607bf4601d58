//! The `[renamed]` table of a `mod.toml`, for rename: where a line `"old" = "new"` goes, and which
//! line to take away. Both read the file's syntax (the one TOML reader, so a `#` or a bracket in
//! a string is never taken for a comment or a header) and answer `None` rather than risk a file
//! that no longer reads.

use rustkeep_data::diag::toml_string;
use rustkeep_data::syntax::{self, span, Event, EventKind};
use rustkeep_data::text::Span;

/// A key's name as written, without its quotes (a key with escapes never equals `renamed`).
fn key_name<'t>(text: &'t str, e: &Event) -> &'t str {
    let raw = &text[span(e)];
    raw.strip_prefix(['"', '\'']).and_then(|r| r.strip_suffix(['"', '\''])).unwrap_or(raw)
}

/// Where the line `"old" = "new"` goes in `text` and the text to insert there: after the last
/// line of the `[renamed]` table, or as a new `[renamed]` table at the end of the file. `None`
/// when the file does not read, or writes `renamed` as something else than one `[renamed]` table
/// (an inline table, dotted keys, `[renamed.x]`, `[[renamed]]`), where a table added would be a
/// second definition.
pub fn add_line(text: &str, old: &str, new: &str) -> Option<(usize, String)> {
    let syn = syntax::parse(text);
    if !syn.errors.is_empty() {
        return None;
    }
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let entry = format!("{} = {}", toml_string(old), toml_string(new));
    let events = &syn.events;
    // Where the table's last line ends (after its line break, if it has one).
    let mut table_end: Option<usize> = None;
    let (mut in_table, mut any_header, mut depth, mut line_start) = (false, false, 0usize, true);
    let mut i = 0;
    while let Some(e) = events.get(i) {
        match e.kind() {
            EventKind::StdTableOpen | EventKind::ArrayTableOpen => {
                let close = if e.kind() == EventKind::StdTableOpen { EventKind::StdTableClose } else { EventKind::ArrayTableClose };
                let end = i + events[i..].iter().position(|e| e.kind() == close)?;
                let keys: Vec<&str> = events[i..end].iter().filter(|e| e.kind() == EventKind::SimpleKey).map(|e| key_name(text, e)).collect();
                let named = keys.first() == Some(&"renamed");
                if named && (keys.len() > 1 || close == EventKind::ArrayTableClose || table_end.is_some()) {
                    return None;
                }
                in_table = named;
                any_header = true;
                if named {
                    table_end = Some(span(&events[end]).end);
                }
                (line_start, i) = (false, end + 1);
                continue;
            }
            EventKind::SimpleKey if depth == 0 && line_start => {
                // A root-level `renamed = …` or `renamed.x = …` before the first header.
                if !any_header && key_name(text, e) == "renamed" {
                    return None;
                }
                line_start = false;
            }
            EventKind::InlineTableOpen | EventKind::ArrayOpen => depth += 1,
            EventKind::InlineTableClose | EventKind::ArrayClose => {
                depth = depth.saturating_sub(1);
                if in_table && depth == 0 {
                    table_end = Some(span(e).end);
                }
            }
            EventKind::Scalar if in_table && depth == 0 => table_end = Some(span(e).end),
            EventKind::Newline if depth == 0 => {
                if in_table && !line_start {
                    table_end = Some(span(e).end);
                }
                line_start = true;
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(end) = table_end {
        let broken = text[..end].ends_with('\n');
        return Some(if broken { (end, format!("{entry}{nl}")) } else { (end, format!("{nl}{entry}{nl}")) });
    }
    let mut add = String::new();
    if !text.is_empty() && !text.ends_with('\n') {
        add.push_str(nl);
    }
    if !text.trim().is_empty() && !text.ends_with(&format!("{nl}{nl}")) {
        add.push_str(nl);
    }
    add.push_str(&format!("[renamed]{nl}{entry}{nl}"));
    Some((text.len(), add))
}

/// The whole line (with its line break) of the `[renamed]` entry whose key and value are at
/// these spans, when the line holds that entry alone (and perhaps a comment).
pub fn line_of(text: &str, key: &Span, value: &Span) -> Option<Span> {
    let syn = syntax::parse(text);
    let events = &syn.events;
    let k = events.iter().position(|e| e.kind() == EventKind::SimpleKey && span(e) == *key)?;
    // Nothing before the key on its line (a dotted key, an inline table, another entry).
    let start = match events[..k].last() {
        None => 0,
        Some(e) if e.kind() == EventKind::Newline => span(e).end,
        Some(_) => return None,
    };
    let [sep, v, rest @ ..] = &events[k + 1..] else { return None };
    if sep.kind() != EventKind::KeyValSep || v.kind() != EventKind::Scalar || span(v) != *value {
        return None;
    }
    let rest = match rest.first() {
        Some(c) if c.kind() == EventKind::Comment => &rest[1..],
        _ => rest,
    };
    match rest.first() {
        None => Some(start..text.len()),
        Some(e) if e.kind() == EventKind::Newline => Some(start..span(e).end),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(text: &str) -> Option<String> {
        let (at, add) = add_line(text, "m:old", "m:new")?;
        let mut t = text.to_string();
        t.insert_str(at, &add);
        Some(t)
    }

    #[test]
    fn adds_the_line_to_the_table_or_a_new_one() {
        let m = "[mod]\nid = \"m\"\n";
        assert_eq!(added(m).unwrap(), "[mod]\nid = \"m\"\n\n[renamed]\n\"m:old\" = \"m:new\"\n");
        assert_eq!(added("[mod]\nid = \"m\"").unwrap(), "[mod]\nid = \"m\"\n\n[renamed]\n\"m:old\" = \"m:new\"\n");
        assert_eq!(added("[mod]\r\nid = \"m\"\r\n\r\n").unwrap(), "[mod]\r\nid = \"m\"\r\n\r\n[renamed]\r\n\"m:old\" = \"m:new\"\r\n");
        // After the table's last line, before the next table and the blank lines and comments.
        let t = "[renamed] # old IDs\n\"m:a\" = \"m:b\"\n\n# next\n[mod]\nid = \"m\"\n";
        assert_eq!(added(t).unwrap(), "[renamed] # old IDs\n\"m:a\" = \"m:b\"\n\"m:old\" = \"m:new\"\n\n# next\n[mod]\nid = \"m\"\n");
        assert_eq!(added("[mod]\nid = \"m\"\n[ \"renamed\" ]").unwrap(), "[mod]\nid = \"m\"\n[ \"renamed\" ]\n\"m:old\" = \"m:new\"\n");
        // `renamed` written otherwise: nothing is added.
        assert_eq!(added("renamed = {}\n[mod]\nid = \"m\"\n"), None);
        assert_eq!(added("renamed.\"m:a\" = \"m:b\"\n[mod]\n"), None);
        assert_eq!(added("[renamed]\n[renamed]\n"), None);
        assert_eq!(added("[renamed.x]\n"), None);
        assert_eq!(added("[[renamed]]\n"), None);
        // A `#` in a string is no comment, and a string that looks like a header is none.
        let t = "[mod]\nname = \"a # [renamed]\" # c\n";
        assert_eq!(added(t).unwrap(), format!("{t}\n[renamed]\n\"m:old\" = \"m:new\"\n"));
        // A value over several lines ends where its array closes.
        let t = "[renamed]\n\"m:a\" = \"m:b\"\n[mod]\nload_after = [\n  \"x\",\n]\n";
        assert_eq!(added(t).unwrap(), "[renamed]\n\"m:a\" = \"m:b\"\n\"m:old\" = \"m:new\"\n[mod]\nload_after = [\n  \"x\",\n]\n");
        // A file that does not read is left alone.
        assert_eq!(added("[mod\n"), None);
    }

    #[test]
    fn takes_away_a_line_only_when_it_holds_the_entry_alone() {
        let t = "[renamed]\n\"m:a\" = \"m:b\" # why\n\"m:c\" = \"m:d\"";
        let span = |s: &str| t.find(s).unwrap()..t.find(s).unwrap() + s.len();
        let second = t.find("\"m:c\"").unwrap();
        assert_eq!(line_of(t, &span("\"m:a\""), &span("\"m:b\"")), Some(10..second));
        assert_eq!(line_of(t, &span("\"m:c\""), &span("\"m:d\"")), Some(second..t.len()));
        let shared = "[renamed]\n\"m:a\" = \"m:b\" ; \"m:c\" = 1\n";
        let span = |s: &str| shared.find(s).unwrap()..shared.find(s).unwrap() + s.len();
        assert_eq!(line_of(shared, &span("\"m:a\""), &span("\"m:b\"")), None);
        let inline = "renamed = { \"m:a\" = \"m:b\" }\n";
        let span = |s: &str| inline.find(s).unwrap()..inline.find(s).unwrap() + s.len();
        assert_eq!(line_of(inline, &span("\"m:a\""), &span("\"m:b\"")), None);
    }
}
