//! The semantic-versioning verdict of `rustkeep diff` (docs/balance.md, "Versions"): every change
//! of a mod is classified — `breaking` (an ID removed without a `[renamed]` line, a required
//! dependency added or a requirement narrowed, an item's `slot` changed or removed), `addition`
//! (an ID added, an optional dependency added, a `[renamed]` line added) or `change` (any other
//! value) — and the bump from the old manifest's `version` to the new one's is held against the
//! largest class. Also what saves of the old version lose: the IDs they may hold that the new
//! version neither loads nor renames.
//!
//! Only mods present in both versions (by mod id) are classified; the core is not.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use ::semver::{Comparator, Op, Version, VersionReq};
use rustkeep_data::manifest::{Dependency, DependencyKind, Manifest};
use rustkeep_data::project::Project;
use rustkeep_data::resolve::Def;
use rustkeep_data::vocab::{field, Registry, CORE_NAMESPACE};
use rustkeep_engine::game::World;
use schemars::JsonSchema;
use serde::Serialize;

use super::{EntriesJson, EntryJson};

/// How much a change asks of the version, the smallest first.
#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Nothing of the mod changed: the old version still fits.
    None,
    /// A value changed (balance, texts, tables): a patch release.
    Change,
    /// Something was added (an ID, an optional dependency, a `[renamed]` line): a minor release
    /// (a patch release while the major version is 0).
    Addition,
    /// Something other mods or saves rely on is gone or stricter: a major release (a minor
    /// release while the major version is 0).
    Breaking,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::None => "none",
            Class::Change => "change",
            Class::Addition => "addition",
            Class::Breaking => "breaking",
        }
    }
}

/// The verdict for one mod present in both versions.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SemverJson {
    /// The mod's id.
    #[serde(rename = "mod")]
    pub mod_id: String,
    /// The largest class among `reasons` (`none` without any).
    pub class: Class,
    /// The smallest version the new manifest may have: the old `version` bumped as `class`
    /// needs; the old version itself for `none`; `null` when the old manifest has no valid
    /// `version` (then any version is a first release).
    pub required: Option<String>,
    /// The old manifest's `version`; `null` when it has none (or none that is a semantic
    /// version).
    pub old: Option<String>,
    /// The new manifest's `version`; `null` when it has none.
    pub new: Option<String>,
    /// Whether `new` is at least `required` by semantic-versioning precedence (build metadata
    /// aside). Without a new version: true only for `none`. Without an old version: true.
    pub ok: bool,
    /// Every change of the mod with its class, the largest class first.
    pub reasons: Vec<ReasonJson>,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ReasonJson {
    pub class: Class,
    /// One sentence: "item `rat_catcher:cheese` removed (a save or a mod that names it loses it)".
    pub text: String,
}

/// The IDs of the old version that the new version can neither load nor rename: `entries.removed`
/// less those a `[renamed]` line leads to an ID in force in the same registry. A save holds IDs of
/// every registry (`rustkeep_engine::save::from_json` reconciles each with the data in force):
/// items and their affixes, character options, statuses, enemies' creatures, quests, piles' loot
/// tables, floors, prefabs, NPCs on the map and shops with their stock.
pub fn saves_lose(nw: &World, entries: &EntriesJson) -> Vec<EntryJson> {
    entries.removed.iter().filter(|e| Registry::from_key(&e.registry).is_some_and(|r| !nw.exists(r, &e.id))).cloned().collect()
}

/// One side's mods: the index of each mod (the first with its id, the core left out) and the mod
/// each data file belongs to.
struct Mods<'a> {
    project: &'a Project,
    by_id: BTreeMap<&'a str, usize>,
    file_mod: Vec<usize>,
}

impl<'a> Mods<'a> {
    fn new(project: &'a Project) -> Self {
        let mut by_id = BTreeMap::new();
        let mut file_mod = vec![usize::MAX; project.files.len()];
        for (i, m) in project.mods.iter().enumerate() {
            for f in &m.data_files {
                if let Some(slot) = file_mod.get_mut(f.0 as usize) {
                    *slot = i;
                }
            }
            if !m.is_core {
                by_id.entry(m.id.as_str()).or_insert(i);
            }
        }
        Mods { project, by_id, file_mod }
    }

    /// The id of mod `i`, unless it is the core.
    fn id(&self, i: usize) -> Option<&'a str> {
        self.project.mods.get(i).filter(|m| !m.is_core).map(|m| m.id.as_str())
    }

    /// The mod that defines the ID (not one that overrides it).
    fn definer(&self, def: &Def) -> Option<&'a str> {
        let i = def.defined.and_then(|r| self.file_mod.get(r.file.0 as usize).copied()).filter(|&i| i != usize::MAX).unwrap_or(def.mod_idx);
        self.id(i)
    }
}

fn def<'w>(w: &'w World, r: Registry, id: &str) -> Option<&'w Def> {
    w.db.resolved.defs.get(r.index())?.get(id)
}

/// The verdict for every mod present in both versions, by mod id.
pub fn assess(ow: &World, nw: &World, entries: &EntriesJson) -> Vec<SemverJson> {
    let (om, nm) = (Mods::new(&ow.project), Mods::new(&nw.project));
    let mut reasons: BTreeMap<&str, Vec<(Class, String)>> = om.by_id.keys().filter(|id| nm.by_id.contains_key(*id)).map(|id| (*id, Vec::new())).collect();
    let mut push = |m: Option<&str>, class: Class, text: String| {
        if let Some(list) = m.and_then(|m| reasons.get_mut(m)) {
            list.push((class, text));
        }
    };
    for e in &entries.added {
        let Some(r) = Registry::from_key(&e.registry) else { continue };
        let owner = def(nw, r, &e.id).and_then(|d| nm.definer(d));
        push(owner, Class::Addition, format!("{} `{}` added", r.noun(), e.id));
    }
    for e in &entries.removed {
        let Some(r) = Registry::from_key(&e.registry) else { continue };
        let owner = def(ow, r, &e.id).and_then(|d| om.definer(d));
        if !nw.exists(r, &e.id) {
            push(owner, Class::Breaking, format!("{} `{}` removed (a save or a mod that names it loses it)", r.noun(), e.id));
        } else if ow.db.resolved.renamed.contains_key(&e.id) {
            // The `[renamed]` line was there before the entry went: the removal is what makes it
            // lead somewhere. (A new line is a reason of its own, below.)
            let to = nw.db.resolved.canonical(&e.id);
            push(owner, Class::Addition, format!("{} `{}` removed; `[renamed]` leads it to `{to}`", r.noun(), e.id));
        }
    }
    for c in &entries.changed {
        let Some(r) = Registry::from_key(&c.registry) else { continue };
        // The mods whose entry is in force on either side: an override is its mod's change.
        let mut owners: BTreeSet<&str> = BTreeSet::new();
        owners.extend(def(ow, r, &c.id).and_then(|d| om.id(d.mod_idx)));
        owners.extend(def(nw, r, &c.id).and_then(|d| nm.id(d.mod_idx)));
        let mut others: Vec<&str> = Vec::new();
        let mut slot = None;
        for f in &c.fields {
            if r == Registry::Items && f.field == field::SLOT {
                slot = Some(f);
            } else if !others.contains(&f.path.as_str()) {
                others.push(&f.path);
            }
        }
        for m in owners {
            if let Some(f) = slot {
                let bare = |s: &str| s.trim_matches('"').to_string();
                match (&f.old, &f.new) {
                    (Some(o), Some(n)) => push(Some(m), Class::Breaking, format!("item `{}`'s `slot` changed from `{}` to `{}`", c.id, bare(o), bare(n))),
                    (Some(o), None) => push(Some(m), Class::Breaking, format!("item `{}`'s `slot` removed (it was `{}`)", c.id, bare(o))),
                    (None, Some(n)) => push(Some(m), Class::Change, format!("item `{}` gets the `slot` `{}`", c.id, bare(n))),
                    (None, None) => {}
                }
            }
            if !others.is_empty() {
                push(Some(m), Class::Change, format!("{} `{}` changed: {}", r.noun(), c.id, paths(&others)));
            }
        }
    }
    let mut out = Vec::new();
    for (id, mut list) in reasons {
        let (Some(&oi), Some(&ni)) = (om.by_id.get(id), nm.by_id.get(id)) else { continue };
        let (o, n) = (&ow.project.mods[oi], &nw.project.mods[ni]);
        manifest_changes(&o.manifest, &n.manifest, nw, &mut list);
        // The largest class first; within a class, in the order found.
        list.sort_by_key(|r| std::cmp::Reverse(r.0));
        let class = list.first().map_or(Class::None, |r| r.0);
        let (old, new) = (version_of(&o.manifest), version_of(&n.manifest));
        let required = old.as_ref().map(|v| required(v, class));
        let ok = match (&required, &new) {
            (Some(Some(req)), Some(new)) => new.cmp_precedence(req) != Ordering::Less,
            // No version after the old one is big enough.
            (Some(None), _) => false,
            (None, Some(_)) => true,
            (_, None) => class == Class::None,
        };
        out.push(SemverJson {
            mod_id: id.to_string(),
            class,
            required: required.flatten().map(|v| v.to_string()),
            old: old.map(|v| v.to_string()),
            new: new.map(|v| v.to_string()),
            ok,
            reasons: list.into_iter().map(|(class, text)| ReasonJson { class, text }).collect(),
        });
    }
    out
}

/// "`price`, `use[0].amount`", at most six paths and the count of the rest.
fn paths(list: &[&str]) -> String {
    let shown: Vec<String> = list.iter().take(6).map(|p| format!("`{p}`")).collect();
    match list.len().saturating_sub(6) {
        0 => shown.join(", "),
        rest => format!("{} and {rest} more", shown.join(", ")),
    }
}

fn version_of(m: &Manifest) -> Option<Version> {
    m.version.as_deref().and_then(|v| Version::parse(v).ok())
}

/// The smallest version after `old` that a change of `class` needs. While the major version is
/// 0, a breaking change needs a minor release and an addition a patch release. A pre-release is
/// followed by its release (or anything later), whatever changed. `None` when no such version
/// exists: the number to raise is the largest there is.
pub fn required(old: &Version, class: Class) -> Option<Version> {
    let (ma, mi, pa) = (old.major, old.minor, old.patch);
    let v = |a: u64, b: u64, c: u64| Some(Version::new(a, b, c));
    if class == Class::None {
        return Some(old.clone());
    }
    if !old.pre.is_empty() {
        return v(ma, mi, pa);
    }
    match (class, ma) {
        (Class::Breaking, 0) => v(0, mi.checked_add(1)?, 0),
        (Class::Breaking, _) => v(ma.checked_add(1)?, 0, 0),
        (Class::Addition, 0) => v(0, mi, pa.checked_add(1)?),
        (Class::Addition, _) => v(ma, mi.checked_add(1)?, 0),
        _ => v(ma, mi, pa.checked_add(1)?),
    }
}

/// The changes of the manifest itself: `depends`, `[renamed]`, `name`, `library`, `load_after`.
fn manifest_changes(o: &Manifest, n: &Manifest, nw: &World, out: &mut Vec<(Class, String)>) {
    let first = |m: &Manifest| -> BTreeMap<String, Dependency> {
        let mut map = BTreeMap::new();
        for d in &m.depends {
            map.entry(d.id.value.clone()).or_insert_with(|| d.clone());
        }
        map
    };
    let (od, nd) = (first(o), first(n));
    for (id, d) in &nd {
        match od.get(id) {
            Some(old) => dependency_change(old, d, out),
            // The core is always loaded: a bare `core` asks nothing, and a requirement on it is
            // weighed against no requirement.
            None if id == CORE_NAMESPACE && d.kind == DependencyKind::Required => {
                let any = Dependency { req: None, req_text: None, ..d.clone() };
                dependency_change(&any, d, out);
            }
            None => match d.kind {
                DependencyKind::Required => out.push((Class::Breaking, format!("required dependency `{}` added", shown(d)))),
                DependencyKind::Optional => out.push((Class::Addition, format!("optional dependency `{}` added", shown(d)))),
                DependencyKind::Incompatible => out.push((Class::Breaking, format!("incompatibility with `{}` added", shown(d)))),
            },
        }
    }
    for (id, d) in &od {
        if !nd.contains_key(id) {
            let what = if d.kind == DependencyKind::Incompatible { "incompatibility with" } else { "dependency" };
            out.push((Class::Change, format!("{what} `{}` removed", shown(d))));
        }
    }
    let renamed = |m: &Manifest| -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        for (a, b) in &m.renamed {
            map.entry(a.value.clone()).or_insert_with(|| b.value.clone());
        }
        map
    };
    let (or, nr) = (renamed(o), renamed(n));
    for (a, b) in &nr {
        match or.get(a) {
            None => out.push((Class::Addition, format!("`[renamed]` adds `{a}` → `{b}`"))),
            Some(was) if was != b => out.push((Class::Change, format!("`[renamed]` now leads `{a}` to `{b}`, not `{was}`"))),
            Some(_) => {}
        }
    }
    for (a, b) in &or {
        if !nr.contains_key(a) {
            if nw.db.resolved.registries_of(a).is_empty() {
                out.push((Class::Breaking, format!("`[renamed]` drops `{a}` → `{b}` (a save or a mod that names `{a}` loses it)")));
            } else {
                out.push((Class::Change, format!("`[renamed]` drops `{a}` → `{b}` (`{a}` is defined again)")));
            }
        }
    }
    if o.name != n.name {
        let s = |x: &Option<String>| x.as_deref().map_or("(none)".to_string(), |v| format!("`{v}`"));
        out.push((Class::Change, format!("`name` changed from {} to {}", s(&o.name), s(&n.name))));
    }
    if o.library != n.library {
        out.push((Class::Change, format!("`library` changed from `{}` to `{}`", o.library, n.library)));
    }
    let set = |m: &Manifest| -> BTreeSet<String> { m.load_after.iter().map(|x| x.value.clone()).collect() };
    let (ol, nl) = (set(o), set(n));
    for x in nl.difference(&ol) {
        out.push((Class::Change, format!("`load_after` adds `{x}`")));
    }
    for x in ol.difference(&nl) {
        out.push((Class::Change, format!("`load_after` drops `{x}`")));
    }
}

/// A dependency as written: `sewers >= 1.2`, `bestiary`.
fn shown(d: &Dependency) -> String {
    match &d.req_text {
        Some(r) => format!("{} {r}", d.id.value),
        None => d.id.value.clone(),
    }
}

/// An entry of `depends` for the same mod in both versions.
fn dependency_change(o: &Dependency, n: &Dependency, out: &mut Vec<(Class, String)>) {
    use DependencyKind::*;
    let id = &n.id.value;
    let kind = match (o.kind, n.kind) {
        (Optional, Required) => Some((Class::Breaking, format!("dependency `{}` is now required (was `? {}`)", shown(n), shown(o)))),
        (Incompatible, Required) => Some((Class::Breaking, format!("`{id}` was incompatible and is now a required dependency `{}`", shown(n)))),
        (Required | Optional, Incompatible) => Some((Class::Breaking, format!("dependency `{id}` is now an incompatibility `! {}`", shown(n)))),
        (Required, Optional) => Some((Class::Change, format!("dependency `{}` is now optional (was `{}`)", shown(n), shown(o)))),
        (Incompatible, Optional) => Some((Class::Change, format!("`{id}` was incompatible and is now an optional dependency `{}`", shown(n)))),
        _ => None,
    };
    if let Some(reason) = kind {
        out.push(reason);
        return;
    }
    let (a, b) = (o.req.as_ref().map(|r| &r.value), n.req.as_ref().map(|r| &r.value));
    let (narrowed, widened) = (lost(a, b), lost(b, a));
    let from_to = format!("from `{}` to `{}`", o.req_text.as_deref().unwrap_or("*"), n.req_text.as_deref().unwrap_or("*"));
    if n.kind == Incompatible {
        // An incompatibility that covers more versions refuses more setups.
        if widened {
            out.push((Class::Breaking, format!("incompatibility with `{id}` widened {from_to}")));
        } else if narrowed {
            out.push((Class::Change, format!("incompatibility with `{id}` narrowed {from_to}")));
        }
    } else if narrowed {
        out.push((Class::Breaking, format!("requirement on `{id}` narrowed {from_to}")));
    } else if widened {
        out.push((Class::Change, format!("requirement on `{id}` widened {from_to}")));
    }
}

/// Whether some version that requirement `a` allows is not allowed by `b` (`None`: any version).
/// Both requirements are sets of comparators whose bounds lie at the versions they name or the
/// next patch, minor or major release after them; between two such bounds a requirement allows
/// all releases or none, so trying each bound (and 0.0.0) is exact for releases.
fn lost(a: Option<&VersionReq>, b: Option<&VersionReq>) -> bool {
    let matches = |r: Option<&VersionReq>, v: &Version| r.is_none_or(|r| r.matches(v));
    let mut probes = vec![Version::new(0, 0, 0)];
    for c in a.into_iter().chain(b).flat_map(|r| r.comparators.iter()) {
        probes.extend(bounds(c));
    }
    probes.iter().any(|v| matches(a, v) && !matches(b, v))
}

fn bounds(c: &Comparator) -> Vec<Version> {
    let (ma, mi, pa) = (c.major, c.minor.unwrap_or(0), c.patch.unwrap_or(0));
    let mut out = vec![
        Version::new(ma, mi, pa),
        Version::new(ma, mi, pa.saturating_add(1)),
        Version::new(ma, mi.saturating_add(1), 0),
        Version::new(ma.saturating_add(1), 0, 0),
    ];
    if !c.pre.is_empty() && c.op != Op::Wildcard {
        out.push(Version { pre: c.pre.clone(), ..Version::new(ma, mi, pa) });
    }
    out
}

/// The one line that opens the human and markdown outputs.
pub fn line(list: &[SemverJson]) -> String {
    match list {
        [] => "semver: nothing to version (no mod is in both versions)".to_string(),
        [one] => format!("semver: {}", verdict(one)),
        many => {
            let changed = many.iter().filter(|s| s.class != Class::None).count();
            let short = many.iter().filter(|s| !s.ok).count();
            let tail = match short {
                0 => "every version is big enough".to_string(),
                1 => "1 needs a bigger version".to_string(),
                k => format!("{k} need a bigger version"),
            };
            format!("semver: {changed} of {} mods changed; {tail}", many.len())
        }
    }
}

/// "breaking — needs 2.0.0, the manifest says 1.3.0".
fn verdict(s: &SemverJson) -> String {
    let says = match &s.new {
        Some(v) => format!("the manifest says {v}"),
        None => "the manifest has no version".to_string(),
    };
    match (&s.required, &s.old) {
        (Some(r), _) => format!("{} — needs {r}, {says}", s.class.as_str()),
        (None, Some(old)) => format!("{} — needs a version after {old}, and none exists (its number is the largest there is); {says}", s.class.as_str()),
        (None, None) => format!("{} — the old manifest has no version, so any is a first release; {says}", s.class.as_str()),
    }
}

/// Whether every mod's version is big enough (`--check-semver`).
pub fn all_ok(list: &[SemverJson]) -> bool {
    list.iter().all(|s| s.ok)
}

/// The mods a report of several shows under its line: those that changed or whose version is
/// too small.
fn shown_mods(list: &[SemverJson]) -> impl Iterator<Item = &SemverJson> {
    list.iter().filter(|s| s.class != Class::None || !s.ok)
}

/// The opening of the human output: the line, and the reasons indented below it.
pub fn human(list: &[SemverJson]) -> String {
    let mut out = line(list);
    out.push('\n');
    let reasons = |out: &mut String, s: &SemverJson, indent: &str| {
        for r in &s.reasons {
            out.push_str(&format!("{indent}{}: {}\n", r.class.as_str(), r.text));
        }
    };
    match list {
        [one] => reasons(&mut out, one, "  "),
        many => {
            for s in shown_mods(many) {
                out.push_str(&format!("  {}: {}\n", s.mod_id, verdict(s)));
                reasons(&mut out, s, "    ");
            }
        }
    }
    out
}

/// The opening of the markdown comment: the line, then the reasons as a list (in a collapsed
/// section when there are more than ten).
pub fn markdown(list: &[SemverJson]) -> String {
    let mut out = line(list);
    out.push_str("\n\n");
    let items = |s: &SemverJson, indent: &str| -> Vec<String> {
        s.reasons.iter().map(|r| format!("{indent}- {}: {}", r.class.as_str(), r.text.replace('\n', " "))).collect()
    };
    let mut rows = Vec::new();
    match list {
        [one] => rows.extend(items(one, "")),
        many => {
            for s in shown_mods(many) {
                rows.push(format!("- `{}`: {}", s.mod_id, verdict(s)));
                rows.extend(items(s, "  "));
            }
        }
    }
    if rows.is_empty() {
        return out;
    }
    let count = list.iter().map(|s| s.reasons.len()).sum::<usize>();
    if count > 10 {
        let mut by_class: Vec<String> = Vec::new();
        for class in [Class::Breaking, Class::Addition, Class::Change] {
            let k = list.iter().flat_map(|s| &s.reasons).filter(|r| r.class == class).count();
            if k > 0 {
                by_class.push(format!("{k} {}", class.as_str()));
            }
        }
        out.push_str(&format!("<details><summary>{count} reasons: {}</summary>\n\n{}\n\n</details>\n\n", by_class.join(", "), rows.join("\n")));
    } else {
        out.push_str(&rows.join("\n"));
        out.push_str("\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(s: &str) -> VersionReq {
        VersionReq::parse(s).unwrap()
    }

    #[test]
    fn a_requirement_narrows_when_a_release_it_allowed_is_refused() {
        let narrowed = |a: &str, b: &str| lost(Some(&req(a)), Some(&req(b)));
        assert!(narrowed(">= 1.2", ">= 1.4"));
        assert!(narrowed("^1.2", "~1.2"));
        assert!(narrowed("*", "^1"));
        assert!(!narrowed(">= 1.4", ">= 1.2"));
        assert!(!narrowed("^1.2", ">= 1.2, < 2"), "the same set written otherwise");
        assert!(!narrowed(">= 1.2, < 2", "^1.2"));
        assert!(narrowed("^0.2", "^0.2.5"));
        assert!(narrowed("<= 1.2", "< 1.2"));
        assert!(!lost(Some(&req("^1")), None), "no requirement allows everything");
        assert!(lost(None, Some(&req(">= 0.1"))), "0.0.x is refused now");
    }

    #[test]
    fn the_required_version_follows_the_class() {
        let v = |s: &str| Version::parse(s).unwrap();
        let r = |old: &str, c: Class| required(&v(old), c).map_or("none".to_string(), |v| v.to_string());
        assert_eq!(r("1.3.0", Class::Breaking), "2.0.0");
        assert_eq!(r("1.3.0", Class::Addition), "1.4.0");
        assert_eq!(r("1.3.0", Class::Change), "1.3.1");
        assert_eq!(r("1.3.0", Class::None), "1.3.0");
        assert_eq!(r("0.3.2", Class::Breaking), "0.4.0");
        assert_eq!(r("0.3.2", Class::Addition), "0.3.3");
        assert_eq!(r("0.3.2", Class::Change), "0.3.3");
        assert_eq!(r("2.0.0-rc.1", Class::Breaking), "2.0.0");
        // No version follows the largest number: none is big enough.
        assert_eq!(r(&format!("{}.0.0", u64::MAX), Class::Breaking), "none");
        assert_eq!(r(&format!("1.{}.0", u64::MAX), Class::Addition), "none");
        assert_eq!(r(&format!("1.0.{}", u64::MAX), Class::Change), "none");
        assert_eq!(r(&format!("1.0.{}", u64::MAX), Class::Breaking), "2.0.0");
    }
}
