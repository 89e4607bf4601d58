//! (g) Arbitrary bytes as a recording of `rustkeep play` (`--replay`, with and without `--force`):
//! through the game's own reading and replaying of recordings (`rustkeep-play`), then played on.
//! A clear refusal or a game that plays; never a panic, and never more work per input than the
//! bound that keeps a replay linear in its length (`replay::MAX_EVENTS_PER_INPUT`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rustkeep_fuzz::play::replay_recording(data));
