//! Byte spans inside, line/column at the edges (docs/ARCHITECTURE.md, invariant "Byte spans inside,
//! line/column at the edges").
//!
//! One [`LineIndex`] per text converts byte offsets to the CLI's 1-based line and Unicode-scalar
//! column, and to the language server's UTF-8 or UTF-16 positions, and back. ([`thousands`]
//! writes a count as the messages and pages print it.)

/// A byte range in one source text.
pub type Span = std::ops::Range<usize>;

/// How columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Unicode scalar values (the CLI, docs/cli.md).
    Scalar,
    /// UTF-16 code units (LSP default).
    Utf16,
    /// Bytes (LSP when negotiated).
    Utf8,
}

impl Encoding {
    /// How many columns `s` takes in this encoding.
    pub fn width(self, s: &str) -> usize {
        match self {
            Encoding::Utf8 => s.len(),
            Encoding::Scalar => s.chars().count(),
            Encoding::Utf16 => s.chars().map(char::len_utf16).sum(),
        }
    }
}

/// A zero-based line and column in some [`Encoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Where each line starts. Offsets are kept as `u32` (half the memory of `usize`, and every
/// file's index is kept): a text longer than 4 GiB has its lines indexed up to there, and later
/// offsets count as the last indexed line (such a file is refused long before as data).
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    len: usize,
}

impl LineIndex {
    /// Lines end at `\n`, `\r\n`, or a lone `\r`, as LSP 3.17 and editors count them (a lone CR
    /// is never valid TOML, but the language server must still agree with the client on where
    /// each line starts, or edits land in the wrong place).
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = Vec::with_capacity(text.len() / 32 + 1);
        line_starts.push(0);
        let bytes = text.as_bytes();
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n') {
                match u32::try_from(i + 1) {
                    Ok(start) => line_starts.push(start),
                    Err(_) => break,
                }
            }
        }
        line_starts.shrink_to_fit();
        LineIndex { line_starts, len: text.len() }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The start of a zero-based line.
    fn start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).map(|&s| s as usize)
    }

    /// The zero-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        self.line_starts.partition_point(|&s| s as usize <= offset) - 1
    }

    /// Byte range of a zero-based line, without its line end.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let start = self.start(line).unwrap_or(self.len);
        let mut end = self.start(line + 1).unwrap_or(self.len);
        let bytes = text.as_bytes();
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        // `\r\n`, or a lone `\r` (see `new`).
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end
    }

    /// Position of a byte offset. Offsets inside a multi-byte character snap back to its start.
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> LineCol {
        let mut offset = offset.min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        // An offset inside a `\r\n` snaps to the line end: LSP positions cannot point between
        // the two (found by the `lsp_edits` fuzz target), and an LF file would give the same.
        let span = self.line_span(text, line);
        let offset = offset.min(span.end);
        LineCol { line: line as u32, col: enc.width(&text[span.start..offset]) as u32 }
    }

    /// Byte offset of a position; columns past the end of the line clamp to the line end, lines
    /// past the end clamp to the end of the text, and columns inside a character snap to its start.
    pub fn offset(&self, text: &str, pos: LineCol, enc: Encoding) -> usize {
        let line = pos.line as usize;
        if line >= self.line_starts.len() {
            return text.len();
        }
        let span = self.line_span(text, line);
        let line_text = &text[span.clone()];
        let mut units = 0usize;
        for (i, ch) in line_text.char_indices() {
            if units >= pos.col as usize {
                return span.start + i;
            }
            units += match enc {
                Encoding::Utf8 => ch.len_utf8(),
                Encoding::Scalar => 1,
                Encoding::Utf16 => ch.len_utf16(),
            };
            if units > pos.col as usize {
                return span.start + i;
            }
        }
        span.end
    }
}

/// A count as prose writes it, its thousands grouped: `1,000`, `10,000`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_every_encoding() {
        let text = "a = 1\nname = \"Ätherklinge 🔥\" # x\r\nz";
        let idx = LineIndex::new(text);
        let off = text.find('#').unwrap();
        assert_eq!(idx.position(text, off, Encoding::Scalar), LineCol { line: 1, col: 23 });
        assert_eq!(idx.position(text, off, Encoding::Utf16), LineCol { line: 1, col: 24 });
        assert_eq!(idx.position(text, off, Encoding::Utf8), LineCol { line: 1, col: 27 });
        for enc in [Encoding::Scalar, Encoding::Utf16, Encoding::Utf8] {
            let p = idx.position(text, off, enc);
            assert_eq!(idx.offset(text, p, enc), off);
        }
        assert_eq!(idx.line_span(text, 1), 6..text.find('\r').unwrap());
        assert_eq!(idx.offset(text, LineCol { line: 1, col: 999 }, Encoding::Utf16), text.find('\r').unwrap());
        assert_eq!(idx.offset(text, LineCol { line: 9, col: 0 }, Encoding::Utf16), text.len());
        // Inside the surrogate pair of the emoji: snaps to its start.
        let fire = text.find('🔥').unwrap();
        let p = idx.position(text, fire, Encoding::Utf16);
        assert_eq!(idx.offset(text, LineCol { line: 1, col: p.col + 1 }, Encoding::Utf16), fire);
        assert_eq!(idx.position(text, fire + 2, Encoding::Scalar), idx.position(text, fire, Encoding::Scalar));
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line_as_in_lsp() {
        // Found by the `lsp_edits` fuzz target: the client counts `\r` as a line end, so the
        // server must too, or positions after it disagree.
        let text = "🐀\r\rb\r\nc\r";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 5);
        assert_eq!(idx.line_span(text, 0), 0..4);
        assert_eq!(idx.line_span(text, 1), 5..5);
        assert_eq!(idx.line_span(text, 2), 6..7);
        assert_eq!(idx.line_span(text, 3), 9..10);
        assert_eq!(idx.line_span(text, 4), 11..11);
        assert_eq!(idx.position(text, text.len(), Encoding::Utf8), LineCol { line: 4, col: 0 });
        assert_eq!(idx.offset(text, LineCol { line: 2, col: 0 }, Encoding::Utf16), 6);
        assert_eq!(idx.offset(text, LineCol { line: 0, col: 99 }, Encoding::Utf16), 4);
        // Between `\r` and `\n`: the end of the line, as in the same file with LF line ends.
        assert_eq!(idx.position(text, 8, Encoding::Utf16), LineCol { line: 2, col: 1 });
        assert_eq!(idx.position(text, 7, Encoding::Utf16), LineCol { line: 2, col: 1 });
    }
}
