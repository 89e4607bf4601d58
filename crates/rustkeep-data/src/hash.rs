//! The hasher of the ID maps: `rustc-hash`'s FxHash, as rustc uses. The keys are short IDs from
//! the modder's own files, so hash flooding is not a concern and SipHash's cost is. Re-exported
//! here so that every crate names the maps the same way.

use std::sync::Arc;

pub use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet, FxHasher};

/// Names numbered in the order they were first seen; a number never changes while the interner
/// lives, and each name is held once.
#[derive(Debug, Default)]
pub struct Interner {
    numbers: FxHashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Interner {
    /// The number of `name`, given now if it has none.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&n) = self.numbers.get(name) {
            return n;
        }
        let shared: Arc<str> = Arc::from(name);
        let n = self.names.len() as u32;
        self.names.push(shared.clone());
        self.numbers.insert(shared, n);
        n
    }

    /// The number of `name`, if it has one.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.numbers.get(name).copied()
    }

    /// The name of a number given by [`Interner::intern`].
    pub fn name(&self, n: u32) -> &str {
        &self.names[n as usize]
    }

    /// The name of a number, shared.
    pub fn shared(&self, n: u32) -> &Arc<str> {
        &self.names[n as usize]
    }

    /// Every name, by number.
    pub fn names(&self) -> &[Arc<str>] {
        &self.names
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;

    /// IDs that differ only in a few digits must spread over the buckets of a table about as
    /// well as random numbers: the bucket is the hash's low bits. (A hasher whose low bits mix
    /// only the last word put the 10,000 IDs `m000:table_0` … `m199:table_49` on 1,024 of 65,536
    /// buckets, and every lookup probed a long run.)
    #[test]
    fn ids_alike_but_for_digits_spread_over_the_buckets() {
        let ids: Vec<String> = (0..200).flat_map(|k| (0..50).map(move |i| format!("m{k:03}:table_{i}"))).collect();
        let mask = (1u64 << 16) - 1;
        let buckets: FxHashSet<u64> = ids.iter().map(|id| FxBuildHasher.hash_one(id.as_str()) & mask).collect();
        // 10,000 random numbers fill about 9,300 of 65,536 buckets.
        assert!(buckets.len() > 9_000, "{} buckets for {} IDs", buckets.len(), ids.len());
        let tags: FxHashSet<u64> = ids.iter().map(|id| FxBuildHasher.hash_one(id.as_str()) >> 57).collect();
        assert_eq!(tags.len(), 128, "the top seven bits (the tag of a bucket) take every value");
    }
}
