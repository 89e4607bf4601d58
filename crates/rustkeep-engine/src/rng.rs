//! Seeded randomness (ChaCha8) with the engine's own integer sampling.
