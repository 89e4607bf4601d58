//! A fast, deterministic hasher for the ID maps (FxHash, as rustc uses): the keys are short
//! IDs from the modder's own files, so hash flooding is not a concern and SipHash's cost is.

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    /// The product's high bits are mixed from every input bit, its low bits only from the low
    /// bits of the last word; hash tables pick the bucket from the low bits. Rotated so that the
    /// bucket comes from well-mixed bits: unrotated, the 10,000 IDs `m000:table_0` …
    /// `m199:table_49` fell on 1,024 of 65,536 buckets, and every lookup probed a long run.
    #[inline]
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;
pub type FxHashSet<K> = std::collections::HashSet<K, FxBuildHasher>;

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;

    /// IDs that differ only in a few digits must spread over the buckets of a table about as
    /// well as random numbers: the bucket is the hash's low bits.
    #[test]
    fn ids_alike_but_for_digits_spread_over_the_buckets() {
        let ids: Vec<String> = (0..200).flat_map(|k| (0..50).map(move |i| format!("m{k:03}:table_{i}"))).collect();
        let mask = (1u64 << 16) - 1;
        let buckets: FxHashSet<u64> = ids.iter().map(|id| FxBuildHasher::default().hash_one(id.as_str()) & mask).collect();
        // 10,000 random numbers fill about 9,300 of 65,536 buckets.
        assert!(buckets.len() > 9_000, "{} buckets for {} IDs", buckets.len(), ids.len());
        let tags: FxHashSet<u64> = ids.iter().map(|id| FxBuildHasher::default().hash_one(id.as_str()) >> 57).collect();
        assert_eq!(tags.len(), 128, "the top seven bits (the tag of a bucket) take every value");
    }
}
