//! (f) Arbitrary bytes as a save of `rustkeep play` (`--load`, `load`): through the game's own
//! reading of saves (`rustkeep-play`), then played on. A clear refusal or a game that plays;
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rustkeep_fuzz::play::load_save(data));
