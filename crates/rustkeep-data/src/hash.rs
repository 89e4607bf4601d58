//! The hasher of the ID maps: `rustc-hash`'s FxHash, as rustc uses. The keys are short IDs from
//! the modder's own files, so hash flooding is not a concern and SipHash's cost is. Re-exported
//! here so that every crate names the maps the same way.

pub use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet, FxHasher};

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
