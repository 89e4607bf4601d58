//! What every file contributes to the cross-file rules, indexed by ID: the entries of each ID in
//! load order (its resolve chain), who names each ID, how many files carry each tag, start each
//! quest, use each loot table and give each item, and which loot tables nest each table. A file's contribution is
//! taken out and put back as a whole when the file changes; what that touches is noted in the
//! [`Work`](super::Work) of the update.

use rustkeep_data::hash::{FxHashMap, FxHashSet, Interner};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::resolve::{resolved_under, EntryRef, Resolved};
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::Registry;
use smallvec::SmallVec;

use super::Work;
use crate::rules::loot::kinds_read;
use crate::rules::usage::{counted, Count};

/// An interned ID, tag or other name (names are never forgotten while the analysis lives; a
/// reload starts a new one).
pub(super) type Sym = u32;

/// A short list kept without a heap allocation while it holds at most one item: most IDs have
/// one definition, are named from one file and nested by one table, and a workspace has a
/// hundred thousand of them.
pub(super) type Few<T> = SmallVec<[T; 1]>;

/// Adds or takes one from the count of `key` in a list of counted keys.
fn bump<K: Copy + PartialEq>(list: &mut Few<(K, u32)>, key: K, add: bool) {
    match list.as_slice().iter().position(|(k, _)| *k == key) {
        Some(i) if add => list.as_mut_slice()[i].1 += 1,
        Some(i) => {
            list.as_mut_slice()[i].1 -= 1;
            if list.as_slice()[i].1 == 0 {
                list.remove(i);
            }
        }
        None if add => list.push((key, 1)),
        None => {}
    }
}

/// [`bump`] in the list of `key` in a map of counted lists, dropping a list that empties.
pub(super) fn bump_under<K: Copy + PartialEq>(map: &mut FxHashMap<Sym, Few<(K, u32)>>, key: Sym, item: K, add: bool) {
    let list = map.entry(key).or_default();
    bump(list, item, add);
    if list.is_empty() {
        map.remove(&key);
    }
}

/// The counts and referrers of one name.
#[derive(Clone, Debug, Default)]
pub(super) struct SymInfo {
    /// Files whose references name it, with how many references each.
    pub referrers: Few<(FileId, u32)>,
    /// How many times files count it as a start of a quest, a use of a loot table and a gift of an
    /// item (by `rules::usage::Count`).
    pub counted: [u32; Count::KINDS],
    /// `tags = […]` values carrying it.
    pub carried: u32,
}

#[derive(Debug, Default)]
pub(super) struct Index {
    pub names: Interner,
    /// Per name (indexed by [`Sym`]).
    pub syms: Vec<SymInfo>,
    /// The entries resolved under each ID of each registry, in load order.
    pub chains: FxHashMap<(Registry, Sym), Few<EntryRef>>,
    /// Table → the loot tables (by the ID their entries are resolved under) whose entry checks read
    /// its kind (`rules::loot::kinds_read`: the tables they nest or name as `affixes`, an
    /// override's own `id`), with how many such entries.
    pub mentions: FxHashMap<Sym, Few<(Sym, u32)>>,
    /// Per file, the interned ID of each reference (parallel to `FileFacts::refs`).
    pub ref_syms: Vec<Vec<Sym>>,
    /// Load-order position of each data file that is resolved (mods outside the load order are
    /// not; see `rustkeep_data::resolve`).
    pub rank: Vec<Option<u32>>,
}

/// Load-order position of an entry, by the load-order position of each file ([`Index::rank`]).
fn position(rank: &[Option<u32>], r: EntryRef) -> (u32, u32) {
    (rank.get(r.file.0 as usize).copied().flatten().unwrap_or(u32::MAX), r.index)
}

/// Adds one to a count or takes one from it (`add`), noting when it crosses zero.
fn count(c: &mut u32, add: bool, s: Sym, crossed: &mut FxHashSet<Sym>) {
    if add {
        *c += 1;
        if *c == 1 {
            crossed.insert(s);
        }
    } else {
        *c = c.saturating_sub(1);
        if *c == 0 {
            crossed.insert(s);
        }
    }
}

impl Index {
    pub fn intern(&mut self, s: &str) -> Sym {
        let i = self.names.intern(s);
        if self.syms.len() < self.names.len() {
            self.syms.resize(self.names.len(), SymInfo::default());
        }
        i
    }

    pub fn sym(&self, s: &str) -> Option<Sym> {
        self.names.get(s)
    }

    /// Load-order position of an entry.
    pub fn pos(&self, r: EntryRef) -> (u32, u32) {
        position(&self.rank, r)
    }

    fn mention(&mut self, target: Sym, by: Sym, add: bool) {
        bump_under(&mut self.mentions, target, by, add);
    }

    /// The tables whose entries name `target` (see [`Index::mentions`]).
    pub fn mentioned_by(&self, target: Sym) -> impl Iterator<Item = Sym> + '_ {
        self.mentions.get(&target).map(Few::as_slice).unwrap_or(&[]).iter().map(|(p, _)| *p)
    }

    /// Adds (`add`) or takes out what one file contributes, noting in `w` what that touches; the
    /// counts are the batch check's ([`counted`]).
    pub fn file(&mut self, fid: FileId, ff: &FileFacts, add: bool, resolved: &Resolved, w: &mut Work) {
        let f = fid.0 as usize;
        if self.rank.get(f).copied().flatten().is_some() {
            for (idx, e) in ff.entries.iter().enumerate() {
                let Some(k) = resolved_under(e) else { continue };
                let s = self.intern(&k.value);
                let r = EntryRef { file: fid, index: idx as u32 };
                let pos = self.pos(r);
                let chain = self.chains.entry((e.registry, s)).or_default();
                let i = chain.as_slice().partition_point(|x| position(&self.rank, *x) < pos);
                if add {
                    chain.insert(i, r);
                } else {
                    if chain.as_slice().get(i) == Some(&r) {
                        chain.remove(i);
                    }
                    if chain.is_empty() {
                        self.chains.remove(&(e.registry, s));
                    }
                }
                w.chains.insert((e.registry, s));
                if e.registry == Registry::LootTables {
                    for t in kinds_read(e) {
                        let ts = self.intern(&t.value);
                        self.mention(ts, s, add);
                    }
                }
            }
        }
        if add {
            let syms: Vec<Sym> = ff.refs.iter().map(|r| self.intern(&r.id)).collect();
            if self.ref_syms.len() <= f {
                self.ref_syms.resize(f + 1, Vec::new());
            }
            self.ref_syms[f] = syms;
        }
        let syms = if add { self.ref_syms[f].clone() } else { std::mem::take(&mut self.ref_syms[f]) };
        for &s in &syms {
            bump(&mut self.syms[s as usize].referrers, fid, add);
        }
        for (what, id) in counted(resolved, ff) {
            let s = self.intern(id);
            count(&mut self.syms[s as usize].counted[what as usize], add, s, &mut w.crossed[what as usize]);
        }
        for t in &ff.tag_defs {
            let s = self.intern(&t.value);
            count(&mut self.syms[s as usize].carried, add, s, &mut w.tags_crossed);
        }
        if !ff.balance.is_empty() {
            w.balance = true;
        }
    }
}

/// The counts the [`crate::rules::PerId`] rules read, kept up to date file by file.
impl crate::rules::Counts for Index {
    fn named(&self, count: Count, id: &str) -> bool {
        self.sym(id).is_some_and(|s| self.syms[s as usize].counted[count as usize] > 0)
    }
}
