//! What the balance figures of the open documents depend on ([`crate::balance`]): for every
//! creature and loot table defined in an open document, the entries its figures read — the entry
//! in force and, through every reference, what it names —
//! hashed by their text into a key. A figure is computed again only when its key changes: an
//! edit of a creature changes its own row only; an edit of an item changes the cells of the
//! options that carry it (and of the creatures that drop or use it); an edit elsewhere changes
//! nothing.
//!
//! This reads the analysis's outlines (every file's entries, spans and references), not the full
//! facts, so it costs a walk of the entries reached and no lowering: it runs on the state thread
//! after the typing stopped ([`crate::balance`]), never on the path of a keystroke.

use std::hash::{Hash, Hasher};

use rustkeep_data::hash::{FxHashMap as HashMap, FxHashSet as HashSet, FxHasher};
use rustkeep_data::resolve::EntryRef;
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{RefKind, Registry};

use super::State;
use crate::balance::{Job, Target, FIGHTS, OPTIONS_SHOWN, ROUNDS, SEED};

/// The closures of one plan, shared between its targets (a table many creatures drop is walked once).
struct Walker<'s> {
    state: &'s State,
    /// Per file: the start of every entry, in order (an entry's text runs to the next one's start).
    starts: HashMap<FileId, Vec<usize>>,
    /// Per file: its references' indices, by where they start.
    refs: HashMap<FileId, Vec<(usize, u32)>>,
    /// Per entry: the hash of its path and text.
    hashes: HashMap<EntryRef, u64>,
}

impl<'s> Walker<'s> {
    fn new(state: &'s State) -> Walker<'s> {
        Walker { state, starts: HashMap::default(), refs: HashMap::default(), hashes: HashMap::default() }
    }

    /// The byte range of an entry's text: its header or inline table up to the next entry.
    fn extent(&mut self, r: EntryRef) -> Option<(usize, usize)> {
        let facts = self.state.facts(r.file)?;
        let starts = self.starts.entry(r.file).or_insert_with(|| {
            let mut v: Vec<usize> = facts.entries.iter().map(|e| e.span.start).collect();
            v.sort_unstable();
            v
        });
        let e = facts.entries.get(r.index as usize)?;
        let text_len = self.state.project.file(r.file).text.len();
        let next = starts.partition_point(|s| *s <= e.span.start);
        let end = starts.get(next).copied().unwrap_or(text_len).max(e.span.end).min(text_len);
        let start = e.span.start.min(end);
        Some((start, trimmed_end(&self.state.project.file(r.file).text, start, end).max(e.span.end.min(end))))
    }

    /// Every entry that defines or overrides `(registry, id)`, the one in force first.
    fn defs(&self, registry: Registry, id: &str) -> Vec<EntryRef> {
        let Some(d) = self.state.db().resolved.get(registry, id) else { return Vec::new() };
        let mut v = vec![d.current];
        v.extend(d.defined.iter().copied().filter(|r| *r != d.current));
        v.extend(d.overrides.iter().map(|(r, _)| *r).filter(|r| *r != d.current));
        v
    }

    /// Every entry `roots` reach through references, the roots included.
    fn closure(&mut self, roots: Vec<EntryRef>, stale: &dyn Fn() -> bool) -> Option<Vec<EntryRef>> {
        let mut seen: HashSet<EntryRef> = HashSet::default();
        let mut stack = roots;
        let mut named: HashSet<(Option<Registry>, String)> = HashSet::default();
        while let Some(r) = stack.pop() {
            if !seen.insert(r) {
                continue;
            }
            if seen.len().is_multiple_of(256) && stale() {
                return None;
            }
            let Some((start, end)) = self.extent(r) else { continue };
            let Some(facts) = self.state.facts(r.file) else { continue };
            // References are listed in the order of the text; a file where they are not gets an
            // index by position (built once).
            let within: Vec<u32> = if facts.refs.is_sorted_by_key(|x| x.span.start) {
                let from = facts.refs.partition_point(|x| x.span.start < start);
                let to = facts.refs.partition_point(|x| x.span.start < end);
                (from as u32..to as u32).collect()
            } else {
                let by_start = self.refs.entry(r.file).or_insert_with(|| {
                    let mut v: Vec<(usize, u32)> = facts.refs.iter().enumerate().map(|(i, x)| (x.span.start, i as u32)).collect();
                    v.sort_unstable();
                    v
                });
                let from = by_start.partition_point(|(s, _)| *s < start);
                let to = by_start.partition_point(|(s, _)| *s < end);
                by_start[from..to].iter().map(|(_, i)| *i).collect()
            };
            for reference in within.iter().filter_map(|i| facts.refs.get(*i as usize)) {
                let registry = reference.kind.registry();
                if !named.insert((registry, reference.id.clone())) {
                    continue;
                }
                // A tag names no entry a fight reads: the engine asks whether a creature in the
                // fight (or an item it wears) carries it, and those entries are reached anyway.
                if let (false, Some(registry)) = (reference.kind == RefKind::Tag, registry) {
                    stack.extend(self.defs(registry, &reference.id));
                }
            }
        }
        let mut v: Vec<EntryRef> = seen.into_iter().collect();
        v.sort_unstable_by_key(|r| (r.file.0, r.index));
        Some(v)
    }

    /// The key of a set of entries: their files' paths and texts, in a fixed order.
    fn hash_into(&mut self, h: &mut FxHasher, entries: &[EntryRef]) {
        for r in entries {
            let own = match self.hashes.get(r) {
                Some(x) => *x,
                None => {
                    let Some((start, end)) = self.extent(*r) else { continue };
                    let f = self.state.project.file(r.file);
                    let mut eh = FxHasher::default();
                    f.path.hash(&mut eh);
                    f.text.get(start..end).unwrap_or("").hash(&mut eh);
                    let x = eh.finish();
                    self.hashes.insert(*r, x);
                    x
                }
            };
            own.hash(h);
        }
    }
}

impl State {
    /// The figures the open documents show and what each depends on (see the module docs), as a
    /// job for the balance worker; `None` when no open document defines a creature or a table,
    /// or when `stale` says (asked every 256 entries reached) that a newer edit arrived: the
    /// state thread is then wanted for it, and the job is made again once the typing stops.
    pub fn balance_job(&self, edits: u64, stale: &dyn Fn() -> bool) -> Option<Job> {
        let db = self.db();
        let mut open: Vec<FileId> = self.docs.keys().filter_map(|p| self.by_path.get(p).copied()).collect();
        open.sort_unstable();
        let mut wanted: Vec<(Registry, String)> = Vec::new();
        for fid in &open {
            let Some(facts) = self.facts(*fid) else { continue };
            for e in &facts.entries {
                let Some(key) = e.key() else { continue };
                if matches!(e.registry, Registry::Creatures | Registry::LootTables) && db.resolved.get(e.registry, &key.value).is_some() {
                    wanted.push((e.registry, key.value.clone()));
                }
            }
        }
        let mut seen = HashSet::default();
        wanted.retain(|w| seen.insert(w.clone()));
        if wanted.is_empty() {
            return None;
        }
        let mut walker = Walker::new(self);
        let mut common = FxHasher::default();
        format!("{:?}", db.resolved.balance).hash(&mut common);
        (FIGHTS, SEED, ROUNDS).hash(&mut common);
        // The `[balance]` settings are read from their files.
        let balance_files: Vec<FileId> =
            db.facts.iter().enumerate().filter(|(_, f)| f.as_ref().is_some_and(|f| !f.balance.is_empty())).map(|(i, _)| FileId(i as u32)).collect();
        let mut option_entries: HashMap<String, Vec<EntryRef>> = HashMap::default();
        let mut options: Vec<(String, u64, Option<usize>)> = Vec::new();
        let any_creature = wanted.iter().any(|(r, _)| *r == Registry::Creatures);
        if any_creature {
            let mut ids: Vec<&String> = db.resolved.defs[Registry::CharacterOptions.index()].keys().collect();
            ids.sort();
            for o in ids {
                let closure = walker.closure(walker.defs(Registry::CharacterOptions, o), stale)?;
                let mut h = common.clone();
                walker.hash_into(&mut h, &closure);
                option_entries.insert(o.clone(), closure);
                let mod_idx = db.resolved.get(Registry::CharacterOptions, o).map(|d| d.mod_idx);
                options.push((o.clone(), h.finish(), mod_idx));
            }
        }
        let mut targets = Vec::new();
        for (registry, id) in wanted {
            let roots = walker.defs(registry, &id);
            let closure = walker.closure(roots, stale)?;
            let mut h = common.clone();
            walker.hash_into(&mut h, &closure);
            let key = h.finish();
            match registry {
                Registry::Creatures => {
                    let mod_idx = db.resolved.get(registry, &id).map(|d| d.mod_idx);
                    let cells = shown_options(&options, mod_idx)
                        .into_iter()
                        .map(|(o, okey)| {
                            let mut h = FxHasher::default();
                            (key, okey).hash(&mut h);
                            (o, h.finish())
                        })
                        .collect();
                    targets.push(Target::Creature { id, cells, option_count: options.len(), entries: closure });
                }
                _ => targets.push(Target::Table { id, key, entries: closure }),
            }
        }
        Some(Job { revision: self.revision, edits, project: self.project.clone(), balance_files, options: option_entries, targets })
    }

    /// The creature or loot table defined at byte `offset` of file `fid`, if any.
    pub fn balance_target_at(&self, fid: FileId, offset: usize) -> Option<(Registry, String)> {
        let facts = self.facts(fid)?;
        let mut walker = Walker::new(self);
        facts.entries.iter().enumerate().find_map(|(i, e)| {
            let (start, end) = walker.extent(EntryRef { file: fid, index: i as u32 })?;
            let inside = offset >= start && (offset < end || end == start);
            let key = e.key()?;
            (inside && matches!(e.registry, Registry::Creatures | Registry::LootTables)).then(|| (e.registry, key.value.clone()))
        })
    }
}

/// Where an entry's text ends without the blank lines and whole-line comments before the next
/// entry: those belong to the next one (its heading comment), and whitespace there means nothing.
fn trimmed_end(text: &str, start: usize, end: usize) -> usize {
    let mut end = end;
    loop {
        let Some(body) = text.get(start..end) else { return end };
        let kept = body.trim_end().len();
        let last_line = body[..kept].rfind('\n').map_or(0, |i| i + 1);
        if body[last_line..kept].trim_start().starts_with('#') && last_line > 0 {
            end = start + last_line;
        } else {
            return start + kept;
        }
    }
}

/// The options a creature's lens shows: all of them when there are at most [`OPTIONS_SHOWN`];
/// otherwise those of the creature's own mod first, then the others in ID order, up to that many.
fn shown_options(options: &[(String, u64, Option<usize>)], mod_idx: Option<usize>) -> Vec<(String, u64)> {
    if options.len() <= OPTIONS_SHOWN {
        return options.iter().map(|(o, k, _)| (o.clone(), *k)).collect();
    }
    let own = options.iter().filter(|(_, _, m)| mod_idx.is_some() && *m == mod_idx);
    let other = options.iter().filter(|(_, _, m)| mod_idx.is_none() || *m != mod_idx);
    let mut v: Vec<(String, u64)> = own.chain(other).take(OPTIONS_SHOWN).map(|(o, k, _)| (o.clone(), *k)).collect();
    v.sort();
    v
}
