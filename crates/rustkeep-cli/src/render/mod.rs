//! One renderer per output format: human, JSON and JSON Lines, SARIF, GitHub annotations, GitLab
//! Code Quality, JUnit XML and reviewdog's rdjson. Each is a pure function of the project and the
//! diagnostics; where the text goes (standard output, a file) is decided in `check.rs`.

use std::path::{Path, PathBuf};

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Encoding;

pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod json_lines;
pub mod junit;
pub mod rdjson;
pub mod sarif;

/// Where the diagnostics documentation lives online: `docs/diagnostics.md` of the repository.
/// The line that says what a fix does and whether `check --fix` applies it, the same in every
/// output meant for people (the terminal, GitHub annotations).
pub fn fix_note(fix: &rustkeep_data::diag::Fix) -> String {
    match fix.applicability {
        rustkeep_data::diag::Applicability::Safe => format!("fix: {} (safe: `rustkeep check --fix` applies it)", fix.message),
        rustkeep_data::diag::Applicability::Unsafe => format!("fix: {} (unsafe: only with `--fix --unsafe-fixes`, or in the editor)", fix.message),
    }
}

pub fn docs_url(code: &str) -> String {
    format!("{}/blob/main/docs/diagnostics.md#{code}", env!("CARGO_PKG_REPOSITORY"))
}

/// The root that report paths are relative to for code-review tools (SARIF's `%SRCROOT%`, GitLab's
/// `location.path`): the repository holding the current folder (the nearest folder above it with
/// a `.git`), else the current folder itself.
pub fn source_root(cwd: &Path) -> PathBuf {
    cwd.ancestors().find(|d| d.join(".git").exists()).unwrap_or(cwd).to_path_buf()
}

/// A file's path relative to `root` with `/` separators, if it lies below it.
pub fn relative_to(project: &Project, file: FileId, root: &Path) -> Option<String> {
    let disk = project.file(file).disk_path.as_ref()?;
    let rel = disk.strip_prefix(root).ok()?;
    Some(rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"))
}

/// What a path in a report's URI keeps as it is: the unreserved characters of RFC 3986 and `/`;
/// every other byte is percent-encoded.
const URI_PATH: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~').remove(b'/');

/// Percent-encodes a path for a URI: everything but unreserved characters and `/`.
pub fn percent_encode_path(path: &str) -> String {
    percent_encoding::utf8_percent_encode(path, URI_PATH).to_string()
}

/// An absolute path as a `file://` URI (a folder's with a trailing `/`).
pub fn file_uri(path: &Path, folder: bool) -> String {
    let mut p = path.to_string_lossy().replace('\\', "/");
    if !p.starts_with('/') {
        // A Windows drive path: file:///C:/…
        p.insert(0, '/');
    }
    if folder && !p.ends_with('/') {
        p.push('/');
    }
    format!("file://{}", percent_encode_path(&p))
}

/// 1-based line and column (in Unicode scalar values) of a byte offset.
pub fn line_col(project: &Project, file: FileId, offset: usize) -> (u32, u32) {
    let f = project.file(file);
    let p = f.index.position(&f.text, offset, Encoding::Scalar);
    (p.line + 1, p.col + 1)
}

/// Identical diagnostics (same fingerprint) are numbered in order, so that every finding of a
/// report has a fingerprint of its own and keeps it when lines move.
pub fn unique_fingerprints(project: &Project, diags: &[Diagnostic]) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut fps = rustkeep_check::baseline::Fingerprints::new(project);
    diags
        .iter()
        .map(|d| {
            let fp = fps.of(d);
            let n = seen.entry(fp.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                fp
            } else {
                format!("{fp}-{n}")
            }
        })
        .collect()
}

/// Counts for the summary line / object.
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub files: usize,
    pub mods: usize,
}

impl Summary {
    pub fn of(project: &Project, diags: &[rustkeep_data::diag::Diagnostic]) -> Summary {
        use rustkeep_data::diag::Severity;
        Summary {
            errors: diags.iter().filter(|d| d.severity == Severity::Error).count(),
            warnings: diags.iter().filter(|d| d.severity == Severity::Warning).count(),
            files: project.files.iter().filter(|f| !f.bundled && f.disk_path.as_ref().is_none_or(|p| p.is_file())).count(),
            mods: project.mods.iter().filter(|m| !m.is_core).count(),
        }
    }
}
