//! (h) Arbitrary text read by the data files' single-pass reader and by the `toml` crate's: where
//! the fast one accepts a text, the `toml` reader accepts it too, with the same tree, every span
//! included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rustkeep_data::tree::{read_fast, read_with_toml};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(fast) = read_fast(text) {
        let slow = read_with_toml(text);
        assert!(slow.errors.is_empty(), "accepted a text the toml reader refuses: {:?}", slow.errors);
        assert_eq!(fast, slow.root);
    }
});
