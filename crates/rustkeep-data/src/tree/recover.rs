//! Recovery from syntax errors: one mistake, one diagnostic at its cause, and the rest of the
//! file read as usual (docs/checking.md, "One syntax mistake, one diagnostic").
//!
//! This only runs once the `toml` reader has refused the whole text, so none of it costs
//! anything on a file that reads. The text is cut into sections at every line that starts a
//! table header (`[` or `[[` at column 1); each section is read on its own, and a section that
//! does not read is *unreadable*: its body is blanked (spaces, newlines kept, so every span stays
//! where it was) and the rest is read again. A section whose header line still reads keeps it,
//! so that the sub-tables below (`[creatures.attributes]`) still land on the entry they belong
//! to. Each unreadable section gives one diagnostic: an unclosed `[`, `{` or string at its
//! opening with the place where reading gave up as a related span, else the reader's first
//! error in that section. The `id = "…"` an unreadable section spells (even with a quote or
//! the `=` missing) is kept, so that references to it elsewhere still resolve.

use toml::de::DeTable;

use super::SyntaxError;
use crate::text::Span;

/// At most this many rounds of reading the blanked text again: each round blanks at least one
/// more section, and what is still refused after them is left to the plain error list.
const MAX_ROUNDS: usize = 4;

/// A part of the text that could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    /// From the header line (or the start of the file) to the next header line.
    pub span: Span,
    /// The key of the header the section starts with, unless it adds to an entry
    /// (`[creatures.attributes]`), read leniently (a bracket may be missing), and its span; `kept` when the header itself still reads and
    /// so made an entry of its own.
    pub header: Option<(String, Span, bool)>,
    /// The `id` the section spells, and where.
    pub id: Option<(String, Span)>,
    /// The `overrides` the section spells, and where.
    pub overrides: Option<(String, Span)>,
    /// For a registry written inline (`affixes = [ { id = … }, … ]`): the registry key, and
    /// every `id` spelt after it, with where.
    pub inline: Vec<(String, String, Span)>,
    /// Every other `namespace:name` it spells: what the section would have referred to.
    pub mentions: Vec<String>,
}

/// The outcome of recovery: the text with the unreadable sections blanked, one error per
/// section, and the sections.
pub struct Recovery {
    pub text: String,
    pub errors: Vec<SyntaxError>,
    pub unreadable: Vec<Unreadable>,
}

struct Section {
    span: Span,
    /// End of the header line (its newline excluded), or `span.start` without a header.
    header_end: usize,
    broken: bool,
    /// Only the body is blanked.
    keep_header: bool,
    error: Option<SyntaxError>,
}

/// Recovers from the `errors` the `toml` reader found in `text`, and from the bytes at `not_utf8`
/// that were not UTF-8 (decoded as U+FFFD: the section of each is unreadable, as what it says
/// there is a guess). `None` when the errors are not in any one section (such as a table defined
/// twice) or still remain after blanking; the caller then reports them as they are.
pub fn recover(text: &str, errors: &[(Span, String)], not_utf8: &[usize]) -> Option<Recovery> {
    let mut sections = sections(text);
    // First, each section alone: a section that does not read by itself is where a mistake is.
    for s in &mut sections {
        if let Some(&at) = not_utf8.iter().find(|at| s.span.contains(at)) {
            s.broken = true;
            s.error = Some(SyntaxError { span: at..at + 1, message: super::NOT_UTF8.into(), related: None, meant: None });
            s.keep_header = header_reads(text, s);
            continue;
        }
        let body = &text[s.span.clone()];
        let (_, errs) = DeTable::parse_recoverable(body);
        if let Some(first) = errs.first() {
            let at = first.span().unwrap_or(0..0);
            let first = (s.span.start + at.start..s.span.start + at.end, first.message().trim().to_string());
            s.broken = true;
            s.error = Some(cause(text, s, first, errors));
            s.keep_header = header_reads(text, s);
        }
    }
    // The sub-tables of an entry whose header goes (`[items.x]` below a `[[items]` that does not
    // read) would land on the entry above it, or make `items` a table: they go with it, silently.
    let mut dropped: Option<String> = None;
    for s in &mut sections {
        let key = header_key(&text[s.span.start..s.header_end]);
        match (&dropped, key) {
            (Some(d), Some((k, true))) if *d == k => {
                s.broken = true;
                s.keep_header = false;
            }
            (_, Some((k, false))) => dropped = (s.broken && !s.keep_header).then_some(k),
            (_, _) if s.header_end > s.span.start => dropped = None,
            _ => {}
        }
    }
    let mut blanked = text.as_bytes().to_vec();
    let mut rounds = 0;
    loop {
        for s in sections.iter().filter(|s| s.broken) {
            let from = if s.keep_header { s.header_end } else { s.span.start };
            for b in &mut blanked[from..s.span.end] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        // Only whole sections and ASCII spaces were written, and sections start at line starts.
        let candidate = String::from_utf8(blanked.clone()).ok()?;
        let (_, errs) = DeTable::parse_recoverable(&candidate);
        if errs.is_empty() {
            if !sections.iter().any(|s| s.broken) {
                return None;
            }
            let unreadable = sections.iter().filter(|s| s.broken).map(|s| unreadable(text, s)).collect();
            let errors = sections.iter_mut().filter_map(|s| s.error.take()).collect();
            return Some(Recovery { text: candidate, errors, unreadable });
        }
        rounds += 1;
        if rounds > MAX_ROUNDS {
            return None;
        }
        // What is still refused is a mistake across sections (a key or table defined twice, a
        // sub-table of an entry whose header is gone): its section goes too, with the error.
        let mut progress = false;
        for e in &errs {
            let at = e.span().unwrap_or(0..0).start;
            let Some(s) = sections.iter_mut().find(|s| s.span.contains(&at) || (s.span.end == at && at == text.len())) else { continue };
            if !s.broken {
                s.broken = true;
                s.keep_header = false;
                s.error = Some(SyntaxError { span: e.span().unwrap_or(0..0), message: e.message().trim().to_string(), related: None, meant: None });
                progress = true;
            } else if s.keep_header {
                s.keep_header = false;
                progress = true;
            }
        }
        if !progress {
            return None;
        }
    }
}

/// A `[name]` header in a text whose other headers write `[[name]]`: a table header where an
/// entry of that array of tables was meant (TOML refuses the pair, whichever comes first).
#[derive(Clone, Debug, PartialEq)]
pub struct Misheader {
    pub name: String,
    /// The header's brackets, `[name]`.
    pub header: Span,
    /// The key between them.
    pub key: Span,
    /// The brackets of the `[[name]]` header nearest above it (else the first below it).
    pub array: Span,
    /// The header and the sub-table headers below it that add to it (`[name.x]`,
    /// `[[name.triggers]]`) with their bodies: the entry as it was meant.
    pub entry: Span,
}

/// Every `[name]` header of `text` whose key some `[[name]]` header writes as an array of
/// tables. Only headers of one bare key at column 1 count, as for [`recover`]'s sections.
pub fn misheaders(text: &str) -> Vec<Misheader> {
    let sections = sections(text);
    let simple: Vec<Option<(bool, Span, Span)>> = sections.iter().map(|s| simple_header(text, s)).collect();
    // The `[[name]]` headers of each name, in the order of the text.
    let mut arrays: std::collections::HashMap<&str, Vec<Span>> = std::collections::HashMap::new();
    for (double, header, key) in simple.iter().flatten() {
        if *double {
            arrays.entry(&text[key.clone()]).or_default().push(header.clone());
        }
    }
    let mut out = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        let Some((false, header, key)) = simple[i].clone() else { continue };
        let name = &text[key.clone()];
        let Some(headers) = arrays.get(name) else { continue };
        let above = headers.partition_point(|h| h.start < header.start);
        let array = headers[above.saturating_sub(1)].clone();
        let mut end = s.span.end;
        for next in &sections[i + 1..] {
            match header_key(&text[next.span.start..next.header_end]) {
                Some((k, true)) if k == name => end = next.span.end,
                _ => break,
            }
        }
        out.push(Misheader { name: name.to_string(), header, key, array, entry: s.span.start..end });
    }
    out
}

/// A section's header when it is one bare key in brackets, `[name]` or `[[name]]`, maybe with
/// spaces inside the brackets and a comment after them: whether the brackets are doubled, their
/// span, and the key's span.
fn simple_header(text: &str, s: &Section) -> Option<(bool, Span, Span)> {
    let line = &text[s.span.start..s.header_end];
    let double = line.starts_with("[[");
    let open = if double { 2 } else { 1 };
    let inner = line.get(open..)?;
    let key_start = open + (inner.len() - inner.trim_start_matches([' ', '\t']).len());
    let key_len = line[key_start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(line.len() - key_start);
    if key_len == 0 {
        return None;
    }
    let after = &line[key_start + key_len..];
    let spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
    let close = if double { "]]" } else { "]" };
    let rest = after[spaces..].strip_prefix(close)?;
    let tail = rest.trim_start_matches([' ', '\t']).trim_end_matches('\r');
    if !(tail.is_empty() || tail.starts_with('#')) {
        return None;
    }
    let start = s.span.start;
    let header_end = start + key_start + key_len + spaces + close.len();
    Some((double, start..header_end, start + key_start..start + key_start + key_len))
}

/// Cuts `text` at every line that starts a table header.
fn sections(text: &str) -> Vec<Section> {
    let mut starts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > 0 && looks_like_header(line) {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| {
            let span = w[0]..w[1];
            let header_end = if looks_like_header(&text[span.clone()]) { w[0] + text[span.clone()].find('\n').unwrap_or(span.len()) } else { w[0] };
            Section { span, header_end, broken: false, keep_header: false, error: None }
        })
        .collect()
}

/// A line that starts at column 1 with `[` followed by a key: a table header, or what is left of
/// one (an array's `[1, 2]` or `["a"]` element at column 1 does not count).
fn looks_like_header(line: &str) -> bool {
    let rest = line.strip_prefix("[[").or_else(|| line.strip_prefix('[')).map(|r| r.trim_start_matches([' ', '\t']));
    rest.is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '"' || c == '\''))
}

/// The first key of a header line, read leniently, and whether more parts follow it
/// (`[items.x]` adds to an `items` entry).
fn header_key(line: &str) -> Option<(String, bool)> {
    let rest = line.strip_prefix("[[").or_else(|| line.strip_prefix('['))?.trim_start_matches([' ', '\t']);
    let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
    (len > 0).then(|| (rest[..len].to_string(), rest[len..].trim_start_matches([' ', '\t']).starts_with('.')))
}

/// Whether the section's header line reads by itself (`[[creatures]]`, not `[[creatures]`).
fn header_reads(text: &str, s: &Section) -> bool {
    s.header_end > s.span.start && DeTable::parse_recoverable(&text[s.span.start..s.header_end]).1.is_empty()
}

/// The error to report for a section that does not read: an unclosed bracket or string at its
/// opening when one opens before the reader's first complaint, else that complaint.
fn cause(text: &str, s: &Section, first: (Span, String), whole: &[(Span, String)]) -> SyntaxError {
    if let Some(open) = unclosed(text, s.span.clone()) {
        if open.at.start <= first.0.start {
            let line = text[..open.at.start].matches('\n').count() + 1;
            // Where the whole text's reading went wrong: the first complaint at or after the
            // opening, else the point where the scan found the opening still open.
            let gave_up = open
                .closer
                .clone()
                .or_else(|| whole.iter().map(|(sp, _)| sp.clone()).filter(|sp| sp.start >= open.at.end).min_by_key(|sp| sp.start))
                .unwrap_or(open.end.clone());
            let what = open.what;
            let related = match open.closer {
                Some(_) => format!("reading gave up here: this does not close the {what} opened on line {line}"),
                None => format!("reading gave up here, with the {what} opened on line {line} still open"),
            };
            return SyntaxError {
                span: open.at,
                message: format!("this {what} opened on line {line} is never closed"),
                related: Some((gave_up, related)),
                meant: None,
            };
        }
    }
    SyntaxError { span: first.0, message: first.1, related: None, meant: None }
}

struct Open {
    what: &'static str,
    at: Span,
    /// The bracket that does not match it, if that is where it ends.
    closer: Option<Span>,
    /// Where the scan stopped: the end of the line (strings) or of the section.
    end: Span,
}

/// Finds the first opening that is never closed in `span` of `text`: a string still open at the
/// end of its line (or a multi-line one at the end of the section), a `[` or `{` met by the other
/// kind of closing bracket, or one still open at the end of the section.
fn unclosed(text: &str, span: Span) -> Option<Open> {
    let b = text.as_bytes();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut i = span.start;
    let end = span.end;
    let name = |c: u8| if c == b'[' { "array" } else { "inline table" };
    while i < end {
        match b[i] {
            b'#' => {
                while i < end && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                let multi = i + 2 < end && b[i + 1] == q && b[i + 2] == q;
                let open = i;
                if multi {
                    i += 3;
                    loop {
                        if i + 2 >= end {
                            return Some(Open { what: "multi-line string", at: open..open + 3, closer: None, end: end..end });
                        }
                        if q == b'"' && b[i] == b'\\' {
                            i += 2;
                            continue;
                        }
                        if b[i] == q && b[i + 1] == q && b[i + 2] == q {
                            // Up to two more quotes belong to the string.
                            i += 3;
                            let mut extra = 0;
                            while extra < 2 && i < end && b[i] == q {
                                i += 1;
                                extra += 1;
                            }
                            break;
                        }
                        i += 1;
                    }
                    continue;
                }
                i += 1;
                loop {
                    if i >= end || b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) == Some(&b'\n')) {
                        return Some(Open { what: "string", at: open..open + 1, closer: None, end: i..i });
                    }
                    if q == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == q {
                        break;
                    }
                    i += 1;
                }
            }
            c @ (b'[' | b'{') => stack.push((c, i)),
            c @ (b']' | b'}') => match stack.last() {
                Some(&(o, _)) if (o == b'[') == (c == b']') => {
                    stack.pop();
                }
                Some(&(o, at)) => return Some(Open { what: name(o), at: at..at + 1, closer: Some(i..i + 1), end: i..i + 1 }),
                // A closing bracket with nothing open: the reader's own message says it better.
                None => return None,
            },
            _ => {}
        }
        i += 1;
    }
    // The outermost opening still open: the innermost ones would read had it been closed.
    stack.first().map(|&(o, at)| Open { what: name(o), at: at..at + 1, closer: None, end: end..end })
}

/// What an unreadable section still says: its header's registry and the `id` it spells.
fn unreadable(text: &str, s: &Section) -> Unreadable {
    let header = (s.header_end > s.span.start)
        .then(|| {
            let line = &text[s.span.start..s.header_end];
            // One of the two brackets may be the one missing (`[quests]]`).
            let rest = line.strip_prefix("[[").or_else(|| line.strip_prefix('['))?.trim_start_matches([' ', '\t']);
            let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            let after = rest[name_len..].trim_start_matches([' ', '\t']);
            // `[[creatures.triggers]]` adds to an entry; it is not one.
            (name_len > 0 && !after.starts_with('.')).then(|| (rest[..name_len].to_string(), s.span.start..s.header_end, s.keep_header))
        })
        .flatten();
    let inline = if header.is_none() { inline_ids(text, s.span.clone()) } else { Vec::new() };
    let (id, overrides) = (spelt(text, s.span.clone(), "id"), spelt(text, s.span.clone(), "overrides"));
    Unreadable { span: s.span.clone(), header, id, overrides, inline, mentions: mentions(&text[s.span.clone()]) }
}

/// The `id`s spelt after a `key = [` at column 1, with that key.
fn inline_ids(text: &str, span: Span) -> Vec<(String, String, Span)> {
    let mut out = Vec::new();
    let mut key: Option<&str> = None;
    let mut at = span.start;
    for line in text[span].split_inclusive('\n') {
        let start = at;
        at += line.len();
        let name_len = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
        if name_len > 0 && line[name_len..].trim_start_matches([' ', '\t']).strip_prefix('=').is_some_and(|r| r.trim_start().starts_with('[')) {
            key = Some(&line[..name_len]);
            continue;
        }
        if let (Some(k), Some((id, span))) = (key, spelt(text, start..at, "id")) {
            out.push((k.to_string(), id, span));
        }
    }
    out
}

/// The `namespace:name` words of `text`, quoted or not (a quote may be what is missing).
fn mentions(text: &str) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.');
    let mut out: Vec<String> = text.split(|c: char| !word(c)).filter(|w| w.contains(':') && crate::vocab::is_valid_id(w)).map(str::to_string).collect();
    out.sort();
    out.dedup();
    out
}

/// The first `key = "…"` (`id`, `overrides`) in `span`, read leniently: the `=` or either quote
/// may be missing.
fn spelt(text: &str, span: Span, key: &str) -> Option<(String, Span)> {
    let mut at = span.start;
    for line in text[span].split_inclusive('\n') {
        let start = at;
        at += line.len();
        // A byte that was not UTF-8 (U+FFFD) in front of the key is noise around it.
        let trimmed = line.trim_start_matches([' ', '\t', '{', ',', char::REPLACEMENT_CHARACTER]);
        let Some(rest) = trimmed.strip_prefix(key) else { continue };
        if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        let rest = rest.trim_start_matches([' ', '\t']);
        let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start_matches([' ', '\t']);
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))).unwrap_or(rest.len());
        if len == 0 {
            continue;
        }
        let from = start + (line.len() - rest.len());
        return Some((rest[..len].to_string(), from..from + len));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<(Span, String)> {
        DeTable::parse_recoverable(text).1.iter().map(|e| (e.span().unwrap_or(0..0), e.message().to_string())).collect()
    }

    #[test]
    fn an_unclosed_array_is_reported_once_at_its_opening() {
        let text = "[[creatures]]\nid = \"m:a\"\nai = [\n  { actions = [] },\n\n[[creatures]]\nid = \"m:b\"\nname = \"B\"\n";
        let r = recover(text, &errors(text), &[]).expect("recovers");
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
        let e = &r.errors[0];
        assert_eq!(&text[e.span.clone()], "[");
        assert_eq!(e.message, "this array opened on line 3 is never closed");
        let (gave_up, _) = e.related.clone().expect("the give-up point");
        assert!(gave_up.start >= text.find("\n[[creatures]]\nid = \"m:b\"").unwrap(), "{gave_up:?}");
        // The second entry reads as usual; the first keeps its header and its ID.
        assert!(r.text.contains("id = \"m:b\"\nname = \"B\""));
        assert!(!r.text.contains("m:a"));
        assert_eq!(r.text.len(), text.len());
        let u = &r.unreadable[0];
        assert_eq!(u.header.as_ref().map(|h| (h.0.as_str(), h.2)), Some(("creatures", true)));
        assert_eq!(u.id.as_ref().map(|i| i.0.as_str()), Some("m:a"));
    }

    #[test]
    fn a_mismatched_bracket_names_the_opening_and_the_closer() {
        let text = "[[items]]\nid = \"m:a\"\ntags = [ { a = 1 ]\n";
        let r = recover(text, &errors(text), &[]).expect("recovers");
        assert_eq!(r.errors.len(), 1);
        assert_eq!(&text[r.errors[0].span.clone()], "{");
        assert_eq!(&text[r.errors[0].related.clone().unwrap().0], "]");
    }

    #[test]
    fn ids_are_read_leniently() {
        for line in ["id \"m:a\"", "id = m:a\"", "id = \"m:a", "id = 'm:a'"] {
            let text = format!("[[items]]\n{line}\n");
            assert_eq!(spelt(&text, 0..text.len(), "id").map(|i| i.0), Some("m:a".to_string()), "{line}");
        }
        assert_eq!(spelt("identity = \"x\"\n", 0..15, "id"), None);
    }

    #[test]
    fn a_broken_header_takes_its_section() {
        let text = "[[items]\nid = \"m:a\"\n[items.x]\ny = 1\n[[items]]\nid = \"m:b\"\n";
        let r = recover(text, &errors(text), &[]).expect("recovers");
        assert!(r.text.contains("id = \"m:b\""));
        assert!(!r.errors.is_empty() && r.errors.len() <= 2, "{:?}", r.errors);
        assert_eq!(r.unreadable[0].header.as_ref().map(|h| h.2), Some(false));
    }

    #[test]
    fn a_table_header_where_the_file_writes_an_array_of_tables_is_a_misheader() {
        let text = "[[items]]\nid = \"m:a\"\n\n[ items ] # the rope\nid = \"m:b\"\n[items.x]\ny = 1\n[[items.triggers]]\non = \"t\"\n[[npcs]]\nid = \"m:c\"\n";
        let found = misheaders(text);
        assert_eq!(found.len(), 1, "{found:?}");
        let m = &found[0];
        assert_eq!((m.name.as_str(), &text[m.header.clone()], &text[m.key.clone()], &text[m.array.clone()]), ("items", "[ items ]", "items", "[[items]]"));
        // The entry takes its sub-tables along, up to the next header of something else.
        assert_eq!(&text[m.entry.clone()], "[ items ] # the rope\nid = \"m:b\"\n[items.x]\ny = 1\n[[items.triggers]]\non = \"t\"\n");
        // Only a key some `[[…]]` header writes; `[balance]` and dotted headers are left alone.
        assert_eq!(misheaders("[balance]\nx = 1\n[[items]]\nid = \"m:a\"\n[items.y]\n"), []);
        // Before the first `[[items]]` as well.
        let text = "[items]\nid = \"m:a\"\n[[items]]\nid = \"m:b\"\n";
        assert_eq!(misheaders(text).iter().map(|m| &text[m.array.clone()]).collect::<Vec<_>>(), ["[[items]]"]);
    }

    #[test]
    fn an_unclosed_string_ends_at_its_line() {
        let text = "[[items]]\nid = \"m:a\"\nname = \"Sword\nprice = 3\n";
        let r = recover(text, &errors(text), &[]).expect("recovers");
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].span, text.find("\"Sword").unwrap()..text.find("\"Sword").unwrap() + 1);
        assert_eq!(r.errors[0].message, "this string opened on line 3 is never closed");
    }
}
