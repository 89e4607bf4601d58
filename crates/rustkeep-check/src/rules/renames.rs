//! What `[renamed]` says about the registries: an old ID that is still defined
//! (`renamed-id-exists`: the rename would never apply) and a new ID that nothing defines
//! (`unknown-reference`: the old references would lead nowhere). Chains and cycles are read with
//! the manifests (`rustkeep_data::resolve::renames`); references to old IDs are
//! `renamed-reference` ([`super::references`]).

use std::hash::Hash;

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::vocab::Registry;

/// The rule, for the batch check and the language server: it reads which IDs a file defines.
pub const RULE: super::Whole = super::Whole {
    name: "renamed-id-exists",
    absence: false,
    run: |_, db, out| {
        let resolved = &db.resolved;
        if resolved.renamed.is_empty() {
            return;
        }
        let mut lines: Vec<_> = resolved.renamed.iter().collect();
        lines.sort_by(|a, b| a.0.cmp(b.0));
        let defined = |id: &str| Registry::ALL.into_iter().find_map(|reg| resolved.defs[reg.index()].get(id).map(|d| (reg, d)));
        for (old, r) in lines {
            if let Some((reg, def)) = defined(old) {
                let msg = format!(
                    "`{old}` is renamed to `{}`, but {} `{old}` is still defined, so the rename never applies: remove the entry, or this line",
                    r.next,
                    reg.noun()
                );
                let e = db.entry(def.current);
                let at = e.key().map_or(e.span.clone(), |k| k.span.clone());
                let d = Diagnostic::new(Code::RenamedIdExists, Loc { file: r.file, span: r.old_span.clone() }, msg)
                    .with_related(Loc { file: e.file, span: at }, format!("`{old}` is defined here"));
                out.push(d);
            } else if r.next == r.to && defined(&r.to).is_none() {
                // Reported once, on the last step of the chain.
                let msg = format!("`[renamed]` maps `{old}` to `{}`, which nothing defines: references to `{old}` lead nowhere", r.to);
                out.push(Diagnostic::new(Code::UnknownReference, Loc { file: r.file, span: r.new_span.clone() }, msg));
            }
        }
    },
    view: |ff| {
        super::view_hash(|h| {
            for e in &ff.entries {
                e.registry.index().hash(h);
                e.key().map(|k| k.value.as_str()).hash(h);
            }
        })
    },
};
