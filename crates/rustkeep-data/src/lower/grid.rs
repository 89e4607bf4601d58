//! Prefab grids: rows of glyphs of equal width, each bad glyph or ragged row pointed at exactly
//! where the literal allows it.

use super::Lower;
use crate::diag::{Code, Loc};
use crate::model::Grid;
use crate::text::Span;
use crate::vocab::{GRID_GLYPHS, MAX_GRID_SIDE};

impl Lower<'_> {
    pub(super) fn grid(&mut self, s: &str, span: Span) -> Option<Grid> {
        // Map decoded characters back to the source where the literal has no escapes, so that a
        // bad glyph can be pointed at exactly.
        let raw = &self.text[span.clone()];
        let body_offset = literal_body_offset(raw, s).map(|o| span.start + o);
        let lines: Vec<(usize, &str)> = {
            let mut offs = Vec::new();
            let mut pos = 0;
            for line in s.split('\n') {
                offs.push((pos, line.strip_suffix('\r').unwrap_or(line)));
                pos += line.len() + 1;
            }
            offs
        };
        let first = lines.iter().position(|(_, l)| !l.trim().is_empty());
        let last = lines.iter().rposition(|(_, l)| !l.trim().is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            self.diag(Code::InvalidPrefabGrid, span, "the grid is empty: write at least one row of glyphs");
            return None;
        };
        let rows = &lines[first..=last];
        let width = rows[0].1.chars().count();
        let mut ok = true;
        for (i, (off, row)) in rows.iter().enumerate() {
            for (ci, ch) in row.char_indices() {
                if !GRID_GLYPHS.iter().any(|(g, _)| *g == ch) {
                    let glyphs = GRID_GLYPHS.iter().map(|(g, n)| format!("`{g}` {n}")).collect::<Vec<_>>().join(", ");
                    let shown = if ch == ' ' { "a space".to_string() } else { format!("`{}`", ch.escape_debug()) };
                    let msg = format!("row {} of the grid has {shown}, which is not a glyph. Glyphs: {glyphs}", i + 1);
                    let at = body_offset.map(|b| b + off + ci..b + off + ci + ch.len_utf8());
                    let d = self.diag(Code::InvalidPrefabGrid, span.clone(), msg);
                    if let Some(at) = at {
                        let loc = Loc { file: d.loc.file, span: at };
                        *d = d.clone().with_related(loc, "the unknown glyph");
                    }
                    ok = false;
                    break;
                }
            }
            let w = row.chars().count();
            if w != width {
                let msg = format!("row {} of the grid is {w} glyphs wide, but the first row is {width}: rows must have equal width", i + 1);
                let at = body_offset.map(|b| b + off..b + off + row.len());
                let d = self.diag(Code::InvalidPrefabGrid, span.clone(), msg);
                if let Some(at) = at {
                    let loc = Loc { file: d.loc.file, span: at };
                    *d = d.clone().with_related(loc, "the ragged row");
                }
                ok = false;
            }
        }
        if ok && (width > MAX_GRID_SIDE || rows.len() > MAX_GRID_SIDE) {
            let msg = format!("the grid is {width} × {} tiles: a floor lays out prefabs of at most {MAX_GRID_SIDE} × {MAX_GRID_SIDE}", rows.len());
            self.diag(Code::InvalidPrefabGrid, span.clone(), msg);
            ok = false;
        }
        let row_starts = body_offset.map(|b| rows.iter().map(|(off, _)| b + off).collect()).unwrap_or_default();
        ok.then(|| Grid { rows: rows.iter().map(|(_, r)| r.to_string()).collect(), row_starts })
    }
}

/// Offset of the decoded string's first byte inside the raw literal, when the literal holds the
/// decoded text verbatim (no escapes), so decoded offsets map to source offsets one to one.
fn literal_body_offset(raw: &str, decoded: &str) -> Option<usize> {
    // `raw` is whatever the parser's span covered; in a broken file that need not be a string
    // literal at all (found by the `data_file` fuzz target: `grid = ك …` sliced inside `ك`).
    let delim = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else if raw.starts_with('"') || raw.starts_with('\'') {
        1
    } else {
        return None;
    };
    if raw.len() < 2 * delim {
        return None;
    }
    let mut start = delim;
    let body = raw.get(delim..raw.len() - delim)?;
    let mut body_trim = body;
    if delim == 3 {
        if let Some(b) = body.strip_prefix("\r\n") {
            body_trim = b;
            start += 2;
        } else if let Some(b) = body.strip_prefix('\n') {
            body_trim = b;
            start += 1;
        }
    }
    (body_trim == decoded).then_some(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_body_offset_tolerates_what_is_no_literal() {
        assert_eq!(literal_body_offset("\"ab\"", "ab"), Some(1));
        assert_eq!(literal_body_offset("\"\"\"\nab\"\"\"", "ab"), Some(4));
        // Found by the `data_file` fuzz target: a span that is no string literal, starting with a
        // two-byte character.
        assert_eq!(literal_body_offset("ك string was opened\".", "x"), None);
        assert_eq!(literal_body_offset("\"ك", "x"), None);
        assert_eq!(literal_body_offset("\"\u{feff}", "x"), None);
    }
}
