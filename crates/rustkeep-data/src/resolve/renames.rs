//! `[renamed]` of the manifests: which old IDs lead to which IDs in force. References from any mod
//! to an old ID resolve to the end of its chain of renames ([`super::Resolved::get`]); a chain that
//! comes back to where it started is noted (`rename-cycle`, reported by the validator). What the
//! renames say about the registries (an old ID still defined, a new one that is not) is the
//! validator's to check.

use std::collections::BTreeMap;

use super::Finding;
use crate::hash::{FxHashMap, FxHashSet};
use crate::model::Sp;
use crate::project::Project;
use crate::source::FileId;
use crate::text::Span;

/// One old ID of a `[renamed]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Rename {
    /// The ID at the end of the chain of renames (the one that should be in force).
    pub to: String,
    /// The new ID this line writes (the chain's next step).
    pub next: String,
    /// The mod (index into [`Project::mods`]) whose manifest holds the line.
    pub mod_idx: usize,
    /// The manifest, and the spans of the line's old ID (its key) and new ID (its value).
    pub file: FileId,
    pub old_span: Span,
    pub new_span: Span,
}

/// The renames of every loaded mod in `order`, each old ID mapped to the end of its chain.
/// Old IDs whose chain runs into a cycle are left out (their references are unknown); each
/// cycle is noted once, from its first old ID in ID order.
pub fn renames(project: &Project, order: &[usize], findings: &mut Vec<Finding>) -> FxHashMap<String, Rename> {
    let mut next: BTreeMap<&str, Rename> = BTreeMap::new();
    for &mi in order {
        let m = &project.mods[mi];
        let Some(file) = m.manifest_file else { continue };
        for (old, new) in &m.manifest.renamed {
            if old.value == new.value {
                findings.push(Finding::SelfRename { file, old: Sp { span: old.span.clone(), value: old.value.clone() } });
                continue;
            }
            next.entry(old.value.as_str()).or_insert(Rename {
                to: new.value.clone(),
                next: new.value.clone(),
                mod_idx: mi,
                file,
                old_span: old.span.clone(),
                new_span: new.span.clone(),
            });
        }
    }
    // Where each old ID's chain ends: an ID, or a cycle. Each old ID is walked once: a walk
    // stops at an old ID whose end is known, so long chains cost their length, not its square.
    let mut ends: FxHashMap<&str, Option<&str>> = FxHashMap::default();
    for &first in next.keys() {
        let mut path: Vec<&str> = Vec::new();
        let mut on_path: FxHashMap<&str, usize> = FxHashMap::default();
        let mut at = first;
        let end = loop {
            if let Some(&end) = ends.get(at) {
                break end;
            }
            if let Some(&k) = on_path.get(at) {
                // A cycle, met for the first time: noted from its first member in ID order.
                let members = &path[k..];
                let start = members.iter().enumerate().min_by_key(|(_, m)| **m).map_or(0, |(i, _)| i);
                let ring = members[start..].iter().chain(&members[..start]).map(|m| (m.to_string(), next[*m].clone())).collect();
                findings.push(Finding::RenameCycle { ring });
                break None;
            }
            let Some(step) = next.get(at) else { break Some(at) };
            on_path.insert(at, path.len());
            path.push(at);
            at = step.next.as_str();
        };
        ends.extend(path.into_iter().map(|p| (p, end)));
    }
    let mut out = FxHashMap::default();
    for (&old, r) in &next {
        if let Some(Some(to)) = ends.get(old) {
            out.insert(old.to_string(), Rename { to: to.to_string(), ..r.clone() });
        }
    }
    out
}

/// The IDs spelled in the text of the loaded mods' manifests that could not be read
/// ([`crate::manifest::Manifest::unread_ids`]).
pub fn unread_ids(project: &Project, order: &[usize]) -> FxHashSet<String> {
    order.iter().filter_map(|&mi| project.mods.get(mi)).flat_map(|m| m.manifest.unread_ids.iter().cloned()).collect()
}
