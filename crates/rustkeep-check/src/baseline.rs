//! Baselines: record today's diagnostics so CI reports only new ones.
//!
//! A fingerprint hashes the code, the file, the message and the text under the primary span, but
//! not the line: unrelated edits that shift lines keep fingerprints stable. Identical diagnostics
//! in one file are matched by count.

use std::collections::HashMap;

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::Project;
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

pub fn fingerprint(project: &Project, d: &Diagnostic) -> String {
    let f = project.file(d.loc.file);
    let snippet = f.text.get(d.loc.span.clone()).unwrap_or("");
    format!("{:016x}", fnv1a(&[d.code.name(), &f.path, &d.message, snippet]))
}

/// The baseline file: readable JSON with one record per diagnostic.
pub fn write(project: &Project, diags: &[Diagnostic]) -> String {
    let records: Vec<Value> = diags
        .iter()
        .map(|d| json!({ "fingerprint": fingerprint(project, d), "code": d.code.name(), "file": project.file(d.loc.file).path, "message": d.message }))
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
    diags
        .into_iter()
        .filter(|d| {
            let fp = fingerprint(project, d);
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
