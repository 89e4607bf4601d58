//! The output folder, written incrementally: a file is written only when its bytes change (so a
//! rebuild after a small edit rewrites the few pages it touches, and their times tell which), and
//! the files a previous build wrote that are no longer part of the site are removed. The list of
//! what a build wrote is kept in the folder ([`MARKER`]); a folder that is neither empty nor
//! marked is refused rather than written over, and so is one that holds a symbolic link.

use std::collections::BTreeSet;
use std::path::Path;

use rayon::prelude::*;

use rustkeep_data::files::OutDir;

use crate::Built;

/// The file listing what the last build wrote, one path per line; its presence marks the folder
/// as a site `rustkeep doc` may write over.
pub const MARKER: &str = ".rustkeep-doc";

/// Makes each file (in parallel) and writes it unless the folder holds the same bytes; then
/// removes what the previous build wrote and this one did not. Nothing is written or removed
/// through a symbolic link: a folder holding one is refused before anything is written
/// ([`rustkeep_data::files::OutDir`]), and the clean-up removes only regular files inside it.
pub fn write<J: Sync>(out: &Path, jobs: &[J], make: impl Fn(&J) -> (String, String) + Sync) -> Result<Built, String> {
    let dir = OutDir::open(out)?;
    let marker = out.join(MARKER);
    let before: BTreeSet<String> = match std::fs::symlink_metadata(&marker) {
        Ok(m) if m.is_file() => {
            let text = std::fs::read_to_string(&marker).map_err(|e| format!("cannot read {}: {e}", marker.display()))?;
            text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect()
        }
        _ => {
            let used = !rustkeep_data::files::is_empty_folder(out).unwrap_or(true);
            if used {
                return Err(format!(
                    "{} is a folder that `rustkeep doc` did not write (it has no {MARKER} file): choose another with --out, or empty it",
                    out.display()
                ));
            }
            BTreeSet::new()
        }
    };
    let made: Vec<Result<(String, u64, bool), String>> = jobs
        .par_iter()
        .map(|job| {
            let (p, text) = make(job);
            let written = dir.write(&p, text.as_bytes())?;
            Ok((p, text.len() as u64, written))
        })
        .collect();
    let mut built = Built { files: jobs.len(), ..Built::default() };
    let mut now: Vec<String> = Vec::with_capacity(made.len());
    for m in made {
        let (p, size, written) = m?;
        built.written += usize::from(written);
        built.bytes += size;
        if size > built.largest.1 {
            built.largest = (p.clone(), size);
        }
        now.push(p);
    }
    now.sort();
    for old in before.iter().filter(|p| now.binary_search(p).is_err()) {
        if dir.remove(old) {
            built.removed += 1;
        }
    }
    let list: String = now.iter().map(|p| format!("{p}\n")).collect();
    dir.write(MARKER, list.as_bytes())?;
    Ok(built)
}
