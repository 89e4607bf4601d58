//! `rustkeep doc`: a static site documenting the loaded mods (docs/doc.md).
//!
//! The site is made of what the toolkit already knows, so no number on it is copied by hand: the
//! entries as the mods write them, in words (`rustkeep_present::words`), every ID linked to its
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
//! - `budget`: the site's size limit, 20 times its input plus 10 MB, and how it holds.
//!
//! The site works from `file://` with no network: every style, script and drawing is in the
//! output folder or in the page, and the search index is a script (browsers refuse `fetch` of a
//! file from a `file://` page).

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use rustkeep_data::diag::Diagnostic;
use rustkeep_engine::game::World;

mod budget;
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
///
/// The site stays within its size limit, 20 times the loaded files plus 10 MB (`budget`): when
/// the pages in full would pass it, the registry pages that multiply their input the most list
/// their entries in brief. A site that passes it even so is refused with an error naming its
/// size and the limit, and what this build wrote is removed.
pub fn build(world: &World, diagnostics: &[Diagnostic], opts: &Options) -> Result<Built, String> {
    let mut site = site::Site::new(world, diagnostics, opts);
    let limit = budget::limit(site.input);
    let jobs: Vec<(usize, pages::Job)> = pages::jobs(&site).into_iter().enumerate().collect();
    let sizes: Vec<AtomicU64> = jobs.iter().map(|_| AtomicU64::new(0)).collect();
    let (mut built, total) = write_within(&opts.out, &site, &jobs, &sizes, limit)?;
    if total > limit {
        // Over the limit in full: plan which registry pages to make brief from the sizes just
        // measured (every other page stays as it is), and write the site again.
        let candidates: Vec<budget::Candidate> = jobs
            .par_iter()
            .filter_map(|&(i, job)| match job {
                pages::Job::Registry(p) => Some(budget::Candidate {
                    page: p,
                    full: sizes[i].load(Ordering::Relaxed),
                    brief: pages::brief(&site, p).len() as u64,
                    input: pages::written_bytes(&site, p) as u64,
                }),
                _ => None,
            })
            .collect();
        let brief = budget::plan(total, limit, candidates).map_err(|least| refuse(&opts.out, &site, least, limit))?;
        for p in brief {
            site.brief[p] = true;
        }
        let (again, total) = write_within(&opts.out, &site, &jobs, &sizes, limit)?;
        if total > limit {
            return Err(refuse(&opts.out, &site, total, limit));
        }
        built = Built { written: built.written.max(again.written), ..again };
    }
    built.entries = site.entry_count();
    Ok(built)
}

/// Makes and writes every file of the site, recording each one's size in `sizes`, and returns
/// what was written and the sum of the sizes. Once the sum passes `limit`, the files are still
/// made (to measure them) but written empty, so that no site over the limit is ever written.
fn write_within(out: &std::path::Path, site: &site::Site, jobs: &[(usize, pages::Job)], sizes: &[AtomicU64], limit: u64) -> Result<(Built, u64), String> {
    let total = AtomicU64::new(0);
    let built = write::write(out, jobs, |&(i, job)| {
        let (path, text) = pages::make(site, job);
        let size = text.len() as u64;
        sizes[i].store(size, Ordering::Relaxed);
        if total.fetch_add(size, Ordering::Relaxed) + size > limit {
            return (path, String::new());
        }
        (path, text)
    })?;
    Ok((built, total.into_inner()))
}

/// Removes the files the build wrote (the folder keeps only its list of files, now empty) and
/// says why: the site would pass its size limit, `total` bytes with every registry page brief.
fn refuse(out: &std::path::Path, site: &site::Site, total: u64, limit: u64) -> String {
    let removed = write::write(out, &[] as &[pages::Job], |&job| pages::make(site, job));
    let left = match removed {
        Ok(_) => format!("no page of it is left in {}", out.display()),
        Err(e) => format!("and what was written could not be removed: {e}"),
    };
    let mb = |b: u64| b as f64 / 1e6;
    format!(
        "the documentation site would take {:.1} MB, more than its limit of {:.1} MB ({} times the {:.1} MB of the loaded files plus {:.0} MB), even with its registry pages in brief: {} mods and {} entries are too many for so little data; {left}",
        mb(total),
        mb(limit),
        budget::PER_INPUT_BYTE,
        mb(site.input),
        mb(budget::BASE),
        site.mods.len(),
        site.entry_count()
    )
}

/// The site as files (path in the site → content), without writing them: for tests.
pub fn render(world: &World, diagnostics: &[Diagnostic], opts: &Options) -> Vec<(String, String)> {
    let site = site::Site::new(world, diagnostics, opts);
    pages::render(&site)
}
