//! Loot tables: sampled rolls and exact drop chances (SPEC §4).
