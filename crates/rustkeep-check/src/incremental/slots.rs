//! Where the cross-file diagnostics live between updates: every one sits in a slot of the file it
//! is reported in, named by what produced it and the entry or reference it is about. A rule that
//! runs again overwrites its slots; a file whose slots changed is finished again (lint levels,
//! allow comments, order) and only then compared with what it showed before.

use std::collections::BTreeMap;
use std::sync::Arc;

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::hash::FxHashMap;
use rustkeep_data::source::FileId;

/// What produced a slot's diagnostics. The order is the order in which a fresh check gathers
/// them, so that finished lists agree even where two diagnostics tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Slot {
    /// `override-conflict` of `[balance]` keys (index 0).
    Balance,
    /// Resolving an entry: namespaces, duplicates, overrides (by entry).
    Resolve,
    /// The finding of the [`crate::rules::PER_REF`] rule of this index (by reference).
    PerRef(u8),
    /// A nesting cycle, on its first table's entry in force (by entry).
    Cycle,
    /// The findings of the [`crate::rules::PER_ID`] rule of this index (by entry).
    PerId(u8),
    /// The findings in the file of the [`crate::rules::WHOLE`] rule of this index (index 0).
    Whole(u8),
}

impl Slot {
    /// Whether the diagnostics come from a rule (dropped for a file that does not parse) rather
    /// than from resolving (kept).
    pub fn is_rule(self) -> bool {
        !matches!(self, Slot::Balance | Slot::Resolve)
    }

    /// Whether the diagnostics claim an absence, and so are shown only while the data reads whole
    /// ([`crate::rules::Whole::absence`]).
    pub fn absence(self) -> bool {
        match self {
            Slot::PerId(i) => crate::rules::PER_ID[i as usize].absence,
            Slot::Whole(i) => crate::rules::WHOLE[i as usize].absence,
            _ => false,
        }
    }
}

/// One file's slots and its finished list.
#[derive(Debug, Default)]
pub(super) struct FileSlots {
    pub slots: BTreeMap<(Slot, u32), Vec<Diagnostic>>,
    /// The file's diagnostics after lint levels, allow comments, sorting and deduplication.
    pub finished: Arc<Vec<Diagnostic>>,
    pub dirty: bool,
}

#[derive(Debug, Default)]
pub(super) struct Slots {
    pub files: Vec<FileSlots>,
}

impl Slots {
    pub fn new(files: usize) -> Slots {
        Slots { files: (0..files).map(|_| FileSlots { dirty: true, ..FileSlots::default() }).collect() }
    }

    /// Replaces a slot's diagnostics; marks the file for finishing when they differ.
    pub fn set(&mut self, file: FileId, slot: Slot, index: u32, diags: Vec<Diagnostic>) {
        let Some(f) = self.files.get_mut(file.0 as usize) else { return };
        let key = (slot, index);
        if diags.is_empty() {
            if f.slots.remove(&key).is_some() {
                f.dirty = true;
            }
            return;
        }
        match f.slots.get_mut(&key) {
            Some(old) if *old == diags => {}
            Some(old) => {
                *old = diags;
                f.dirty = true;
            }
            None => {
                f.slots.insert(key, diags);
                f.dirty = true;
            }
        }
    }

    /// Replaces slot `slot` (index 0) of every file with `diags`, grouped by file, for the rule
    /// families that run again as a whole: the files in `holding` are cleared first, and `holding`
    /// becomes the files that hold some now or that a related place of one points into (places
    /// in them may move while what the rule reads there stays).
    pub fn set_all(&mut self, slot: Slot, holding: &mut Vec<FileId>, diags: Vec<Diagnostic>) {
        for f in std::mem::take(holding) {
            self.set(f, slot, 0, Vec::new());
        }
        let mut by_file: FxHashMap<FileId, Vec<Diagnostic>> = FxHashMap::default();
        for d in diags {
            holding.extend(d.related.iter().map(|r| r.loc.file));
            by_file.entry(d.loc.file).or_default().push(d);
        }
        for (f, list) in by_file {
            holding.push(f);
            self.set(f, slot, 0, list);
        }
        holding.sort_unstable();
        holding.dedup();
    }

    /// Replaces the diagnostic of one code in a slot (the others stay).
    pub fn replace(&mut self, file: FileId, slot: Slot, index: u32, d: Diagnostic) {
        let Some(f) = self.files.get_mut(file.0 as usize) else { return };
        let Some(list) = f.slots.get_mut(&(slot, index)) else { return };
        if let Some(old) = list.iter_mut().find(|x| x.code == d.code) {
            if *old != d {
                *old = d;
                f.dirty = true;
            }
        }
    }

    /// Marks for finishing every file holding a slot that `which` picks (what such a slot shows
    /// changed, not what it holds).
    pub fn touch(&mut self, which: impl Fn(Slot) -> bool) {
        for f in &mut self.files {
            f.dirty |= f.slots.keys().any(|(slot, _)| which(*slot));
        }
    }

    /// Empties every slot of a file but those of `keep` (its facts changed; every other producer
    /// runs again for it): `keep` holds the cross-file rules whose view of the file did not
    /// change, and so neither did where their diagnostics sit.
    pub fn clear_file_keeping(&mut self, file: FileId, keep: &[Slot]) {
        if let Some(f) = self.files.get_mut(file.0 as usize) {
            f.slots.retain(|(slot, _), _| keep.contains(slot));
            f.dirty = true;
        }
    }
}
