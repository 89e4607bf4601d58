//! The site's size limit: at most [`PER_INPUT_BYTE`] times its input plus [`BASE`] bytes, the
//! input being the text of every loaded file (the bundled core, the manifests and the data
//! files). A mod of a few megabytes must not make a site of hundreds.
//!
//! # How the limit holds
//!
//! Every page is bounded by a constant plus a multiple of what it documents, because nothing
//! that comes from elsewhere is copied into it unbounded:
//!
//! - A name, an ID or a path repeated where something is mentioned (links, lists, drawings,
//!   breadcrumbs, the side navigation, the search index, the diagnostics) is cut to
//!   [`crate::html::SHOWN`] characters (a path to its last 120, a diagnostic's message to 400);
//!   the full text stands once, on the page of the entry or mod it belongs to. A link to an entry
//!   whose ID is cut leads to its page without the anchor, and a mod's folder takes at most 64
//!   characters of its ID, so every link is bounded too.
//! - The words of an entry take at most 512 bytes plus 2 per byte of the entry as written (they
//!   name other entries, whose names may be long).
//! - Every list is cut, with the count of the rest and, where there is one, the command that
//!   lists them all: the drops of a table (20), the bars of its chart (12), who rolls it (3), the
//!   tables an item comes from (8), the entries referring to or giving an entry (40), the
//!   mods a mod depends on (40), the rows of a mod's trigger table and quest chains (2,000), the
//!   nodes drawn per column (120), the arena's creatures (100) and options (40), the
//!   diagnostics (2,000); a pager links at most 9 pages.
//! - What remains is the page's own matter: the entries' text as written (escaped, at most 6
//!   bytes per byte), their headings, one row per mod on the index, one record per entry in the
//!   search index, 100 entries per registry page.
//!
//! So a page takes at most a constant plus a constant per entry (or mod) it documents plus a
//! multiple of their text. That bounds the site by a multiple of its input only when entries
//! are not tiny: an entry of 14 bytes (`{id="h:1a2b"},`) still gets a section of some 600 bytes
//! and a search record, and a table of one line nesting a large table gets its 20 drops and
//! chart. So the limit is also kept by measure, in [`crate::build`]: the pages are made and
//! written as always, their sizes added up; if the sum passes the limit (never for the core, the
//! examples or the benchmark's large pack, which stays near 16 times its input), the registry
//! pages that multiply their input the most list their entries in brief (a row each, which
//! keeps every anchor, so no other page changes) until the site fits ([`plan`]), and the
//! site is written again. Only a site that does not fit even so — tens of thousands of mods of
//! a few bytes each, each with its overview page — is refused: `build` returns an error naming
//! the size and the limit, and removes what it wrote rather than leave a site over it.

/// Bytes of site per byte of input.
pub const PER_INPUT_BYTE: u64 = 20;
/// Bytes of site beyond that: the style sheet and scripts, the index, the diagnostics, the
/// pages of a small mod.
pub const BASE: u64 = 10_000_000;
/// Room kept free when pages are made brief, for the note on the index that says so.
const RESERVE: u64 = 4_096;

/// The most bytes the site of `input` bytes of files may take.
pub fn limit(input: u64) -> u64 {
    input.saturating_mul(PER_INPUT_BYTE).saturating_add(BASE)
}

/// One registry page as the plan sees it.
pub struct Candidate {
    /// Its index into `Site::pages`.
    pub page: usize,
    /// Its size in full and in brief, in bytes.
    pub full: u64,
    pub brief: u64,
    /// The bytes of its entries as written.
    pub input: u64,
}

/// Which registry pages to make brief so that a site of `total` bytes (every page in full)
/// takes at most `limit`: those that multiply their input the most first (their size in full
/// per byte of their entries), until the site fits; an error when it does not fit even with every
/// page brief: `Err` holds the site's size then.
pub fn plan(total: u64, limit: u64, mut pages: Vec<Candidate>) -> Result<Vec<usize>, u64> {
    let target = limit.saturating_sub(RESERVE);
    // Most amplifying first; the order is total (ties by page), so the plan is the same on
    // every run.
    pages.sort_by(|a, b| {
        let (x, y) = (a.full as u128 * (b.input as u128 + 1), b.full as u128 * (a.input as u128 + 1));
        y.cmp(&x).then(a.page.cmp(&b.page))
    });
    let mut size = total;
    let mut brief = Vec::new();
    for p in pages {
        if size <= target {
            break;
        }
        if p.brief < p.full {
            size -= p.full - p.brief;
            brief.push(p.page);
        }
    }
    if size <= target {
        Ok(brief)
    } else {
        Err(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(page: usize, full: u64, brief: u64, input: u64) -> Candidate {
        Candidate { page, full, brief, input }
    }

    #[test]
    fn the_limit_is_twenty_times_the_input_and_ten_megabytes() {
        assert_eq!(limit(0), 10_000_000);
        assert_eq!(limit(1_000_000), 30_000_000);
        assert_eq!(limit(u64::MAX), u64::MAX);
    }

    #[test]
    fn the_pages_that_multiply_their_input_most_are_made_brief_first() {
        let limit = 130 + RESERVE;
        // Page 1 takes 100 bytes per byte of input, page 0 and page 2 less.
        let pages = vec![page(0, 100, 10, 99), page(1, 100, 10, 0), page(2, 50, 10, 9)];
        assert_eq!(plan(250, limit, pages), Ok(vec![1, 2]));
    }

    #[test]
    fn a_site_that_fits_changes_nothing_and_one_that_cannot_fit_is_refused() {
        assert_eq!(plan(10, 10 + RESERVE, vec![page(0, 10, 1, 1)]), Ok(vec![]));
        assert_eq!(plan(1_000_000, 10 + RESERVE, vec![page(0, 1_000_000, 900_000, 1)]), Err(900_000));
    }
}
