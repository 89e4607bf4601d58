//! (f) A real save of `rustkeep play` with its floor map edited by arbitrary choices (positions,
//! tiles, rooms, residents, remembered tiles, a version 2 save cut from it), then read as
//! `--load` reads it and played on. A clear refusal or a game that plays; never a panic.

#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rustkeep_fuzz::play::load_edited_map(data));
