//! The output folder, written incrementally: a file is written only when its bytes change (so a
//! rebuild after a small edit rewrites the few pages it touches, and their times tell which), and
//! the files a previous build wrote that are no longer part of the site are removed. The list of
//! what a build wrote is kept in the folder ([`MARKER`]); a folder that is neither empty nor
//! marked is refused rather than written over.

use std::collections::BTreeSet;
use std::path::Path;

use rayon::prelude::*;

use crate::Built;

/// The file listing what the last build wrote, one path per line; its presence marks the folder
/// as a site `rustkeep doc` may write over.
pub const MARKER: &str = ".rustkeep-doc";

/// Makes each file (in parallel) and writes it unless the folder holds the same bytes; then
/// removes what the previous build wrote and this one did not.
pub fn write<J: Sync>(out: &Path, jobs: &[J], make: impl Fn(&J) -> (String, String) + Sync) -> Result<Built, String> {
    let marker = out.join(MARKER);
    let before: BTreeSet<String> = match std::fs::read_to_string(&marker) {
        Ok(text) => text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect(),
        Err(_) => {
            let used = std::fs::read_dir(out).map(|mut d| d.next().is_some()).unwrap_or(false);
            if used {
                return Err(format!(
                    "{} is a folder that `rustkeep doc` did not write (it has no {MARKER} file): choose another with --out, or empty it",
                    out.display()
                ));
            }
            BTreeSet::new()
        }
    };
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let made: Vec<Result<(String, u64, bool), String>> = jobs
        .par_iter()
        .map(|job| {
            let (p, text) = make(job);
            let path = out.join(&p);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            let same = std::fs::metadata(&path).is_ok_and(|m| m.len() == text.len() as u64) && std::fs::read(&path).is_ok_and(|old| old == text.as_bytes());
            if !same {
                std::fs::write(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            Ok((p, text.len() as u64, !same))
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
        // Only paths inside the folder, as a previous build wrote them.
        if old.split('/').any(|part| part == ".." || part.is_empty()) || Path::new(old).is_absolute() {
            continue;
        }
        if std::fs::remove_file(out.join(old)).is_ok() {
            built.removed += 1;
        }
    }
    let list: String = now.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&marker, list).map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
    Ok(built)
}
