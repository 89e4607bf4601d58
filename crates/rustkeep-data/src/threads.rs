//! The one thread setting of every command (docs/performance.md, "Threads"). All parallel work
//! runs on rayon's global pool; a program sizes it once at start-up with [`configure`]:
//! `RUSTKEEP_THREADS=N` (a whole number ≥ 1) gives it `N` threads; unset (or not such a number),
//! rayon's own default applies, which is `RAYON_NUM_THREADS` when that is set, else one thread
//! per core. Results never depend on the number: parallel results are collected in input order.

/// The variable that sets the number of threads.
pub const VAR: &str = "RUSTKEEP_THREADS";

/// The number of threads `RUSTKEEP_THREADS` asks for, if it holds a whole number ≥ 1.
pub fn requested() -> Option<usize> {
    std::env::var(VAR).ok().and_then(|v| v.trim().parse::<usize>().ok()).filter(|n| *n > 0)
}

/// Sizes rayon's global pool by `RUSTKEEP_THREADS` (see the module documentation). Call it once,
/// first thing in `main`, before anything runs in parallel; without the variable it leaves the
/// pool to rayon's default. An error means the pool was already built (by an earlier call or an
/// earlier parallel job) and keeps its size.
pub fn configure() -> Result<(), rayon::ThreadPoolBuildError> {
    match requested() {
        Some(n) => rayon::ThreadPoolBuilder::new().num_threads(n).build_global(),
        None => Ok(()),
    }
}
