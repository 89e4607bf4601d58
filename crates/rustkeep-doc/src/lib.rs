//! `rustkeep doc`: a static site documenting the loaded mods (docs/doc.md).
//!
//! The site is made of what the toolkit already knows, so no number on it is copied by hand: the
//! entries as the mods write them, in words (`rustkeep_engine::words`), every ID linked to its
//! entry; what overrides what and the field-by-field difference; what refers to each entry; the
//! exact drop chances of every loot table (the analysis behind `rustkeep loot`) as a chart and a
//! table, and for every item and affix the tables it comes from, with who rolls them; quest
//! chains and the trigger graph of each mod as drawings with a list beside them; the arena's
//! matrix of a mod's creatures against the character options on request; the check's summary.
//!
//! The parts:
//! - `site`: what the pages are made of — the mods, their entries page by page, where every ID is
//!   documented, what refers to what, the loot analysis and where things drop.
//! - `html`: escaping, the frame every page shares (landmarks, the search box), links.
//! - `pages`: the pages themselves — the index, a mod's overview, the registry pages with their
//!   entries, the diagnostics.
//! - `draw`: the drawings (SVG): drop charts, quest chains, trigger graphs.
//! - `search`: the search index, in shards loaded by the page when the search is first used.
//! - `write`: the output folder, written incrementally (only files whose bytes changed) and
//!   cleaned of pages a previous build wrote that are gone.
//!
//! The site works from `file://` with no network: every style, script and drawing is in the
//! output folder or in the page, and the search index is a script (browsers refuse `fetch` of a
//! file from a `file://` page).

#![forbid(unsafe_code)]

use std::path::PathBuf;

use rustkeep_data::diag::Diagnostic;
use rustkeep_engine::game::World;

mod draw;
mod html;
mod pages;
mod search;
mod site;
mod write;

pub use write::MARKER;

/// What `rustkeep doc` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The output folder.
    pub out: PathBuf,
    /// A link to an entry's source: `{path}` and `{line}` are replaced by the file's path (as
    /// `rustkeep check` prints it) and the entry's line. `None`: the place is shown as text.
    pub source_url: Option<String>,
    /// Fights per cell of the arena's matrix on each mod's page; `None`: no arena.
    pub arena_runs: Option<u64>,
    /// The seed of those fights.
    pub arena_seed: u64,
    /// The luck of the second column of every drop chance (the first is luck 0).
    pub luck: f64,
}

/// What a build wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Built {
    /// Files of the site (pages, styles, scripts, search shards).
    pub files: usize,
    /// Of those, the ones whose bytes changed and were written.
    pub written: usize,
    /// Files a previous build wrote that are gone now, removed.
    pub removed: usize,
    /// Entries documented.
    pub entries: usize,
    /// The total size of the site in bytes.
    pub bytes: u64,
    /// The largest file (its path in the site) and its size.
    pub largest: (String, u64),
}

/// Builds the site of `world` into `opts.out`; `diagnostics` are the check's. Data with errors is
/// documented as far as it reads: the index lists the errors, an ID that names nothing is not
/// linked, a table that cannot be evaluated says why, and the arena (which would fight with
/// half-read creatures) is left out.
pub fn build(world: &World, diagnostics: &[Diagnostic], opts: &Options) -> Result<Built, String> {
    let site = site::Site::new(world, diagnostics, opts);
    let mut built = write::write(&opts.out, &pages::jobs(&site), |&job| pages::make(&site, job))?;
    built.entries = site.entry_count();
    Ok(built)
}

/// The site as files (path in the site → content), without writing them: for tests.
pub fn render(world: &World, diagnostics: &[Diagnostic], opts: &Options) -> Vec<(String, String)> {
    let site = site::Site::new(world, diagnostics, opts);
    pages::render(&site)
}
