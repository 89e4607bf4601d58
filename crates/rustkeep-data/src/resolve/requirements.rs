//! What `depends` entries ask of the mods they name beyond their presence: a version the
//! requirement allows (`dependency-version`) and, for `! id`, their absence (`incompatible-mod`),
//! noted for the validator to report. A missing required mod and the load order are
//! [`super::load_order`]'s.

use std::collections::BTreeMap;

use super::Finding;
use crate::manifest::DependencyKind;
use crate::project::ModInfo;
use crate::vocab::CORE_NAMESPACE;

/// Checks every `depends` entry that names a loaded mod. `by_id` maps each mod id to the first
/// mod with it (a second one with the same id is noted by the load order already).
pub(super) fn check(mods: &[ModInfo], by_id: &BTreeMap<&str, usize>, findings: &mut Vec<Finding>) {
    for (i, m) in mods.iter().enumerate() {
        if m.manifest_file.is_none() || m.is_core || by_id.get(m.id.as_str()) != Some(&i) {
            continue;
        }
        for (k, dep) in m.manifest.depends.iter().enumerate() {
            let other = if dep.id.value == CORE_NAMESPACE { mods.iter().position(|x| x.is_core) } else { by_id.get(dep.id.value.as_str()).copied() };
            let Some(j) = other.filter(|&j| j != i) else { continue };
            // A version that may sit in the text of its manifest that could not be read is not
            // judged: the syntax error is the one diagnostic.
            if mods[j].version().is_none() && mods[j].manifest.unreadable && dep.req.is_some() {
                continue;
            }
            let parsed = mods[j].version().and_then(|v| semver::Version::parse(v).ok());
            let allowed = dep.allows(parsed.as_ref());
            let unmet = match dep.kind {
                DependencyKind::Incompatible => allowed,
                // A requirement that is not met and written (an entry without one allows every version).
                DependencyKind::Required | DependencyKind::Optional => !allowed && dep.req.is_some() && dep.req_text.is_some(),
            };
            if unmet {
                findings.push(Finding::UnmetRequirement { mod_idx: i, dep: k, other: j });
            }
        }
    }
}
