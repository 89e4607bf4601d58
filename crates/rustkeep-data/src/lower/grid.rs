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
        // Spaces and tabs at the end of a row are no glyph and invisible in the editor: they are
        // one mistake of their own, told apart from a row that is really shorter or longer, and
        // the widths are compared without them. A row of nothing but spaces is left to the glyph
        // check below.
        let trimmed: Vec<&str> = rows
            .iter()
            .map(|(_, r)| match r.trim_end_matches([' ', '\t']) {
                "" => *r,
                t => t,
            })
            .collect();
        let widths: Vec<usize> = trimmed.iter().map(|r| r.chars().count()).collect();
        let width = majority(&widths);
        let agreeing = widths.iter().filter(|w| **w == width).count();
        let mut ok = true;
        for (i, (off, row)) in rows.iter().enumerate() {
            let body = trimmed[i];
            if body.len() < row.len() {
                let spaces = &row[body.len()..];
                let n = spaces.len();
                let what = match (spaces.bytes().all(|c| c == b' '), n) {
                    (true, 1) => "a trailing space, which is not a glyph".to_string(),
                    (true, _) => format!("{n} trailing spaces, which are not glyphs"),
                    (false, _) => "trailing spaces and tabs, which are not glyphs".to_string(),
                };
                let mut msg = format!("row {} of the grid ends in {what}", i + 1);
                if widths[i] == width && rows.len() > 1 {
                    let them = if n == 1 { "it makes" } else { "they make" };
                    msg = format!("{msg}: {them} the row {} glyphs wide where the grid is {width}", row.chars().count());
                }
                match body_offset.map(|b| b + off + body.len()..b + off + row.len()) {
                    Some(at) => {
                        let fix = if n == 1 { "remove the trailing space" } else { "remove the trailing spaces" };
                        let d = self.diag(Code::InvalidPrefabGrid, at, msg);
                        *d = d.clone().with_fix(fix, "", crate::diag::Applicability::Safe);
                    }
                    None => {
                        self.diag(Code::InvalidPrefabGrid, span.clone(), msg);
                    }
                }
                ok = false;
            }
            for (ci, ch) in body.char_indices() {
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
            let w = widths[i];
            if w != width {
                let others = if agreeing == rows.len() - 1 {
                    format!("the other rows are {width}")
                } else if agreeing == 1 {
                    format!("row {} is {width}", widths.iter().position(|x| *x == width).map_or(1, |p| p + 1))
                } else {
                    format!("{agreeing} of its {} rows are {width}", rows.len())
                };
                let msg = format!("row {} of the grid is {w} glyphs wide, but {others}: rows must have equal width", i + 1);
                let at = body_offset.map(|b| b + off..b + off + body.len());
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

/// The width most rows have, which the others are held against; among equally common widths,
/// the one that comes first. So one short or long row is the one reported, wherever it stands.
fn majority(widths: &[usize]) -> usize {
    // Width → (rows, first row): linear, as a hostile grid may have any number of rows.
    let mut seen: std::collections::HashMap<usize, (usize, usize)> = std::collections::HashMap::new();
    for (i, &w) in widths.iter().enumerate() {
        seen.entry(w).or_insert((0, i)).0 += 1;
    }
    seen.into_iter().max_by_key(|(_, (rows, first))| (*rows, std::cmp::Reverse(*first))).map_or(0, |(w, _)| w)
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
    use crate::diag::Applicability;
    use crate::lower::lower_file;
    use crate::source::FileId;

    /// The file of one prefab whose `grid` is written `grid`, and its `invalid-prefab-grid`
    /// diagnostics.
    fn grid_diags(grid: &str) -> (String, Vec<crate::diag::Diagnostic>) {
        let text = format!("[[prefabs]]\nid = \"m:hall\"\ngrid = {grid}\n");
        let facts = lower_file(FileId(0), &text, None);
        let diags = facts.diagnostics.into_iter().filter(|d| d.code == Code::InvalidPrefabGrid).collect();
        (text, diags)
    }

    #[test]
    fn trailing_spaces_on_one_row_are_one_diagnostic_on_them_with_a_safe_fix() {
        for at in 0..4 {
            let mut rows = ["#####", "#.@.#", "#...#", "##+##"].map(String::from);
            rows[at].push_str("   ");
            let (text, diags) = grid_diags(&format!("\"\"\"\n{}\n\"\"\"", rows.join("\n")));
            assert_eq!(diags.len(), 1, "row {}: {diags:#?}", at + 1);
            let d = &diags[0];
            assert_eq!(&text[d.loc.span.clone()], "   ");
            assert_eq!(text[..d.loc.span.start].lines().count(), 4 + at, "on the row itself");
            assert_eq!(
                d.message,
                format!("row {} of the grid ends in 3 trailing spaces, which are not glyphs: they make the row 8 glyphs wide where the grid is 5", at + 1)
            );
            let fix = d.fix.as_ref().expect("a fix");
            assert_eq!((fix.span.clone(), fix.replacement.as_str(), fix.applicability), (d.loc.span.clone(), "", Applicability::Safe));
        }
        // In a literal string as well; a row of another width besides is a mistake of its own.
        let (text, diags) = grid_diags("'''\n#####\n#.@ \n#...#\n'''");
        let shown: Vec<(&str, &str)> = diags.iter().map(|d| (&text[d.loc.span.clone()], d.message.as_str())).collect();
        assert_eq!(shown[0], (" ", "row 2 of the grid ends in a trailing space, which is not a glyph"));
        assert!(shown[1].1.starts_with("row 2 of the grid is 3 glyphs wide, but the other rows are 5"), "{shown:?}");
        assert_eq!(shown.len(), 2);
        // Where the string has escapes, the spaces cannot be pointed at: the grid is, and no fix.
        let (_, diags) = grid_diags("\"#.#  \\n#.#\"");
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert!(diags[0].fix.is_none());
    }

    #[test]
    fn a_row_of_another_width_is_held_against_the_width_most_rows_have() {
        // The short row is the first: it is the one reported, not the three right ones.
        let (text, diags) = grid_diags("\"\"\"\n####\n#.@.#\n#...#\n##+##\n\"\"\"");
        let related: Vec<&str> = diags.iter().map(|d| &text[d.related[0].loc.span.clone()]).collect();
        assert_eq!(related, ["####"]);
        assert_eq!(diags[0].message, "row 1 of the grid is 4 glyphs wide, but the other rows are 5: rows must have equal width");
        // Two rows of two other widths: each is reported, held against the width most rows have.
        let (text, diags) = grid_diags("\"\"\"\n#####\n#.@#\n#...##\n##+##\n#####\n\"\"\"");
        let related: Vec<&str> = diags.iter().map(|d| &text[d.related[0].loc.span.clone()]).collect();
        assert_eq!(related, ["#.@#", "#...##"]);
        assert_eq!(diags[1].message, "row 3 of the grid is 6 glyphs wide, but 3 of its 5 rows are 5: rows must have equal width");
        // As many rows of each width: the first row's width is the grid's.
        let (_, diags) = grid_diags("\"#.#\\n#..#\"");
        assert_eq!(
            diags.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(),
            ["row 2 of the grid is 4 glyphs wide, but the other rows are 3: rows must have equal width"]
        );
    }

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
