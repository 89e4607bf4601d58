//! What `depends` entries ask of the mods they name beyond their presence: a version the
//! requirement allows (`dependency-version`) and, for `! id`, their absence (`incompatible-mod`).
//! A missing required mod and the load order are [`super::load_order`]'s.

use std::collections::BTreeMap;

use crate::diag::{Code, Diagnostic, Loc};
use crate::manifest::DependencyKind;
use crate::project::ModInfo;
use crate::vocab::CORE_NAMESPACE;

/// Checks every `depends` entry that names a loaded mod. `by_id` maps each mod id to the first
/// mod with it (a second one with the same id is reported by the load order already).
pub(super) fn check(mods: &[ModInfo], by_id: &BTreeMap<&str, usize>, diags: &mut Vec<Diagnostic>) {
    for (i, m) in mods.iter().enumerate() {
        let Some(file) = m.manifest_file else { continue };
        if m.is_core || by_id.get(m.id.as_str()) != Some(&i) {
            continue;
        }
        for dep in &m.manifest.depends {
            let other = if dep.id.value == CORE_NAMESPACE { mods.iter().position(|x| x.is_core) } else { by_id.get(dep.id.value.as_str()).copied() };
            let Some(j) = other.filter(|&j| j != i) else { continue };
            let o = &mods[j];
            let version = o.version();
            let parsed = version.and_then(|v| semver::Version::parse(v).ok());
            let allowed = dep.allows(parsed.as_ref());
            let shown = version.map_or_else(|| "without a version".to_string(), |v| format!("version {v}"));
            match dep.kind {
                DependencyKind::Incompatible if allowed => {
                    let which = match &dep.req_text {
                        Some(r) => format!("`{}` {r} ({shown} is loaded)", o.id),
                        None => format!("`{}`", o.id),
                    };
                    let msg = format!("`{}` is incompatible with {which}, and both are loaded: remove one of them from the workspace", m.id);
                    let mut d = Diagnostic::new(Code::IncompatibleMod, Loc { file, span: dep.span.clone() }, msg);
                    if let (Some(of), Some(id)) = (o.manifest_file, &o.manifest.id) {
                        d = d.with_related(Loc { file: of, span: id.span.clone() }, format!("`{}` is loaded from here", o.id));
                    }
                    diags.push(d);
                }
                DependencyKind::Required | DependencyKind::Optional if !allowed => {
                    let (Some(req), Some(text)) = (&dep.req, &dep.req_text) else { continue };
                    let optional = if dep.kind == DependencyKind::Optional { "optional " } else { "" };
                    let mut msg = format!("`{}` requires its {optional}dependency `{}` {text}, but the loaded `{}` is {shown}", m.id, o.id, o.id);
                    if version.is_none() {
                        msg.push_str(" (a mod without `version` meets only the requirement `*`)");
                    }
                    let mut d = Diagnostic::new(Code::DependencyVersion, Loc { file, span: req.span.clone() }, msg);
                    match (o.manifest_file, &o.manifest.version_span, &o.manifest.id) {
                        (Some(of), Some(span), _) => d = d.with_related(Loc { file: of, span: span.clone() }, format!("`{}`'s version is set here", o.id)),
                        (Some(of), None, Some(id)) => d = d.with_related(Loc { file: of, span: id.span.clone() }, format!("`{}` sets no `version`", o.id)),
                        _ => {}
                    }
                    diags.push(d);
                }
                _ => {}
            }
        }
    }
}
