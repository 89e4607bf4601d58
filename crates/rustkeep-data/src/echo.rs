//! What is echoed of a stranger's files is inert (docs/reliability.md, "What is echoed is
//! inert"): a file name, a folder name or a source line shown on a terminal or in a CI log has its
//! control characters escaped, so that it cannot retitle the terminal, clear it, or hide a line
//! of a log. [`inert`] escapes a text, [`InertText`] keeps track of where its offsets went (for
//! snippets whose labels must stay under what they name), and [`InertWriter`] escapes whatever
//! is written through it.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether `c` is shown escaped when echoed to a terminal or a CI log (docs/reliability.md,
/// "What is echoed is inert"): the C0 controls but tab and the line ends, DEL, and the C1
/// controls. `next` is the character after it: a carriage return ends a line only before `\n`.
fn needs_escape(c: char, next: Option<char>) -> bool {
    match c {
        '\t' | '\n' => false,
        '\r' => next != Some('\n'),
        c => c.is_control(),
    }
}

/// `s` with its control characters written as JSON escapes (`\u001b`): for JSON text, where
/// serde writes the C0 controls so already and leaves DEL and the C1 controls raw (valid JSON,
/// and a string holds them only inside a string, so the result is the same JSON value).
pub fn inert_json(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if c.is_control() && !matches!(c, '\t' | '\n' | '\r') {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `s` with every control character that could steer a terminal (ESC, BEL, a lone carriage
/// return, DEL, the C1 controls) written as its Rust escape (`\u{1b}`); tab and line ends stay.
/// A text without any is returned as it is.
pub fn inert(s: &str) -> std::borrow::Cow<'_, str> {
    match InertText::of(s) {
        Some(t) => std::borrow::Cow::Owned(t.text),
        None => std::borrow::Cow::Borrowed(s),
    }
}

/// `s` as XML text or attribute value, the one XML escaper of every XML output (JUnit reports,
/// the SVG charts): control characters first written as their escapes ([`inert`]), as every
/// human and CI format shows them; the markup characters as entities (`quick-xml`'s escaper:
/// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`); tab and the line ends as character references,
/// which an attribute keeps (a parser turns them into spaces otherwise); and what XML 1.0 cannot
/// carry at all as U+FFFD.
pub fn xml(s: &str) -> String {
    let s = inert(s);
    let marked = quick_xml::escape::escape(s.as_ref());
    let mut out = String::with_capacity(marked.len());
    for c in marked.chars() {
        match c {
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// [`inert`] of a text together with where each of its byte offsets went, so that a snippet of
/// the escaped text still underlines the characters a span names.
#[derive(Clone, Debug)]
pub struct InertText {
    /// The escaped text.
    pub text: String,
    /// For each escaped character: its offset in the original text and how many bytes the
    /// escapes up to and including it added.
    grown: Vec<(usize, usize)>,
}

impl InertText {
    /// The escaped text of `s`, or `None` when `s` has nothing to escape.
    pub fn of(s: &str) -> Option<InertText> {
        let mut chars = s.char_indices().peekable();
        let mut out: Option<InertText> = None;
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|(_, n)| *n);
            if !needs_escape(c, next) {
                if let Some(t) = &mut out {
                    t.text.push(c);
                }
                continue;
            }
            let t = out.get_or_insert_with(|| InertText { text: s[..i].to_string(), grown: Vec::new() });
            let escaped = format!("\\u{{{:x}}}", c as u32);
            let added = escaped.len() - c.len_utf8() + t.grown.last().map_or(0, |g| g.1);
            t.text.push_str(&escaped);
            t.grown.push((i, added));
        }
        out
    }

    /// Where the byte offset `offset` of the original text lies in the escaped text (an offset
    /// inside an escaped character goes to the start of its escape).
    pub fn offset(&self, offset: usize) -> usize {
        // The escapes of the characters before `offset` have grown the text before it.
        let before = self.grown.partition_point(|(at, _)| *at < offset);
        offset + before.checked_sub(1).map_or(0, |k| self.grown[k].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_offsets_follow() {
        for (text, escaped) in [
            ("plain\ttext\r\nnext", "plain\ttext\r\nnext"),
            ("a\u{1b}]0;x\u{7}b", "a\\u{1b}]0;x\\u{7}b"),
            ("lone\rcr \u{7f} \u{9b}", "lone\\u{d}cr \\u{7f} \\u{9b}"),
        ] {
            assert_eq!(inert(text), escaped);
        }
        let t = InertText::of("ab\u{1b}cd\u{7}e").expect("something to escape");
        assert_eq!(t.text, "ab\\u{1b}cd\\u{7}e");
        // `c` was at 3; it is after the 6-byte escape of a 1-byte character now.
        for (from, to, part) in [(3, 5, "cd"), (0, 2, "ab"), (6, 7, "e"), (2, 3, "\\u{1b}")] {
            assert_eq!(&t.text[t.offset(from)..t.offset(to)], part);
        }
        assert!(InertText::of("nothing\nhere").is_none());
    }

    #[test]
    fn xml_escapes_markup_and_control_characters() {
        assert_eq!(xml("a<b & \"c\"\n\u{1}"), "a&lt;b &amp; &quot;c&quot;&#10;\\u{1}");
        assert_eq!(xml("it's > \t\r\n"), "it&apos;s &gt; &#9;&#13;&#10;");
    }
}

/// Whether a reader of the output went away: nothing more is written.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// A writer that escapes control characters ([`inert`]) in what is written through it and drops
/// what a closed pipe no longer takes: a reader that goes away (`rustkeep check | head`) ends the
/// printing quietly, as cargo and ripgrep do, and the command ends with its own exit code.
pub struct InertWriter<W: Write> {
    /// Whether the text is JSON ([`inert_json`]) rather than text ([`inert`]).
    json: bool,
    inner: W,
    /// The end of the last write that may not be a whole character yet (a UTF-8 sequence cut in
    /// two, or a carriage return whose `\n` may follow).
    carry: Vec<u8>,
}

impl<W: Write> InertWriter<W> {
    pub fn new(inner: W) -> InertWriter<W> {
        InertWriter { json: false, inner, carry: Vec::new() }
    }

    /// A writer of JSON text: control characters become JSON escapes, so the text stays the same
    /// JSON value.
    pub fn json(inner: W) -> InertWriter<W> {
        InertWriter { json: true, inner, carry: Vec::new() }
    }

    fn escaped<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.json {
            inert_json(text)
        } else {
            inert(text)
        }
    }

    /// The writer written to.
    pub fn inner(&self) -> &W {
        &self.inner
    }

    /// The writer written to, for what is not text (a terminal's colour changes): call
    /// [`Write::flush`] first, so that no text is left behind.
    pub fn inner_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Whether a reader went away: whatever is written is dropped.
    pub fn closed() -> bool {
        CLOSED.load(Ordering::Relaxed)
    }

    fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        if CLOSED.load(Ordering::Relaxed) {
            return Ok(());
        }
        match self.inner.write_all(bytes) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                CLOSED.store(true, Ordering::Relaxed);
                Ok(())
            }
            other => other,
        }
    }
}

impl<W: Write> Write for InertWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.extend_from_slice(buf);
        // Keep back what may not be whole yet: a cut UTF-8 sequence, a final carriage return.
        let mut whole = match std::str::from_utf8(&bytes) {
            Ok(_) => bytes.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => bytes.len(),
        };
        if whole > 0 && bytes[whole - 1] == b'\r' {
            whole -= 1;
        }
        self.carry = bytes.split_off(whole);
        let text = String::from_utf8_lossy(&bytes);
        let out = self.escaped(&text).into_owned();
        self.send(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.carry.is_empty() {
            let rest = std::mem::take(&mut self.carry);
            let text = String::from_utf8_lossy(&rest).into_owned();
            let out = self.escaped(&text).into_owned();
            self.send(out.as_bytes())?;
        }
        match self.inner.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                CLOSED.store(true, Ordering::Relaxed);
                Ok(())
            }
            other => other,
        }
    }
}

impl<W: Write> Drop for InertWriter<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod writer_tests {
    use super::*;

    #[test]
    fn controls_are_escaped_across_writes_and_line_ends_stay() {
        let mut out = InertWriter::new(Vec::new());
        for chunk in [&b"a\x1b]0;t"[..], b"\x07 \xc2", b"\x9b x\r", b"\ny\r", b"z"] {
            out.write_all(chunk).expect("a vector takes everything");
        }
        out.flush().expect("a vector takes everything");
        assert_eq!(String::from_utf8(out.inner.clone()).expect("UTF-8"), "a\\u{1b}]0;t\\u{7} \\u{9b} x\r\ny\\u{d}z");
    }

    #[test]
    fn json_keeps_its_value() {
        let text = serde_json::to_string(&serde_json::json!({ "name": "a\u{1b}b\u{7f}c\u{85}" })).expect("JSON");
        let escaped = inert_json(&text);
        assert!(!escaped.chars().any(char::is_control), "{escaped}");
        let back: serde_json::Value = serde_json::from_str(&escaped).expect("still JSON");
        assert_eq!(back["name"], "a\u{1b}b\u{7f}c\u{85}");
    }
}
