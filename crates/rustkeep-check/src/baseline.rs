//! Baselines: record today's diagnostics so CI reports only new ones.
//!
//! A fingerprint hashes the code, the file, the message and the text under the primary span, but
//! not the line: unrelated edits that shift lines keep fingerprints stable. The file is keyed by
//! its path from the workspace root (outside one, by its mod's ID and its path inside the mod),
//! not from the current folder, so a baseline written in one folder of a workspace hides the same
//! findings in any other, and in any checkout. Identical diagnostics in one file are matched by
//! count.

use std::collections::HashMap;
use std::path::Path;

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::{enclosing_mod, nearest_workspace, Project};
use rustkeep_data::source::FileId;
use serde_json::{json, Value};

/// FNV-1a, 64 bit: stable across platforms and releases (unlike `DefaultHasher`).
fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The path a fingerprint keys a file by, `/`-separated, the same from any folder and in any
/// checkout: in a workspace, its path from the workspace root (the folder of the nearest
/// `rustkeep.toml` at or above it, as discovery finds the workspace); outside one, its mod's ID
/// and its path inside the mod (`smithy/items.toml`, from inside `smithy` as from above it,
/// whatever the folder the mod was checked out in is called); a file in no mod, its name. A file
/// with no place on disk (the bundled core, a mod held in memory) keeps the path it is shown with.
pub fn file_key(project: &Project, file: FileId) -> String {
    let f = project.file(file);
    let Some(path) = f.disk_path.as_deref() else { return f.path.clone() };
    let Some(dir) = path.parent() else { return f.path.clone() };
    let (base, prefix) = match (nearest_workspace(dir), enclosing_mod(dir)) {
        (Some(ws), _) => (ws, None),
        (None, Some(m)) => {
            let id = project.mods.iter().find(|x| x.root.as_deref() == Some(m.as_path())).map(|x| x.id.clone());
            let prefix = id.unwrap_or_else(|| m.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
            (m, Some(prefix))
        }
        (None, None) => (dir.to_path_buf(), None),
    };
    match (path.strip_prefix(&base), prefix) {
        (Ok(rel), Some(prefix)) => format!("{prefix}/{}", slashed(rel)),
        (Ok(rel), None) => slashed(rel),
        (Err(_), _) => f.path.clone(),
    }
}

fn slashed(rel: &Path) -> String {
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The fingerprints of diagnostics, each file keyed once ([`file_key`] looks for the workspace
/// on disk, which a report of many findings in one file should not repeat).
pub struct Fingerprints<'p> {
    project: &'p Project,
    keys: HashMap<FileId, String>,
}

impl<'p> Fingerprints<'p> {
    pub fn new(project: &'p Project) -> Fingerprints<'p> {
        Fingerprints { project, keys: HashMap::new() }
    }

    /// The path `d`'s file is keyed by ([`file_key`]).
    pub fn key(&mut self, d: &Diagnostic) -> &str {
        let project = self.project;
        self.keys.entry(d.loc.file).or_insert_with(|| file_key(project, d.loc.file))
    }

    /// 16 hex digits of FNV-1a over the code, the file's key, the message and the text under the
    /// primary span.
    pub fn of(&mut self, d: &Diagnostic) -> String {
        let f = self.project.file(d.loc.file);
        let snippet = f.text.get(d.loc.span.clone()).unwrap_or("");
        let key = self.key(d);
        format!("{:016x}", fnv1a(&[d.code.name(), key, &d.message, snippet]))
    }
}

/// The baseline file: readable JSON with one record per diagnostic.
pub fn write(project: &Project, diags: &[Diagnostic]) -> String {
    let mut fps = Fingerprints::new(project);
    let records: Vec<Value> = diags
        .iter()
        .map(|d| {
            let fingerprint = fps.of(d);
            json!({ "fingerprint": fingerprint, "code": d.code.name(), "file": fps.key(d), "message": d.message })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&json!({ "version": 1, "diagnostics": records })).expect("JSON values serialize");
    s.push('\n');
    s
}

/// Reads a baseline file into fingerprint counts.
pub fn read(text: &str) -> Result<HashMap<String, usize>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not a rustkeep baseline (JSON): {e}"))?;
    let list = v.get("diagnostics").and_then(Value::as_array).ok_or("not a rustkeep baseline: no `diagnostics` array")?;
    let mut counts = HashMap::new();
    for r in list {
        let fp = r.get("fingerprint").and_then(Value::as_str).ok_or("a baseline record has no `fingerprint`")?;
        *counts.entry(fp.to_string()).or_insert(0) += 1;
    }
    Ok(counts)
}

/// Drops the diagnostics the baseline already holds.
pub fn filter(project: &Project, diags: Vec<Diagnostic>, mut baseline: HashMap<String, usize>) -> Vec<Diagnostic> {
    let mut fps = Fingerprints::new(project);
    diags
        .into_iter()
        .filter(|d| {
            let fp = fps.of(d);
            match baseline.get_mut(&fp) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            }
        })
        .collect()
}
