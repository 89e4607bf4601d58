//! Hooks that exist for tests only: the switches of the stdio differential test (environment
//! variables read at start, only in builds with the `test-hooks` feature), and in test builds the
//! word whose hover makes the handler panic, so that the panic guard is tested through the real
//! request path.

use std::time::Duration;

/// Switches for the stdio differential test (environment variables read at start; unset in
/// normal use).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TestHooks {
    /// `RUSTKEEP_LSP_TEST_JITTER_MS`: wait up to this long (pseudo-randomly) before handing an
    /// analysis to the publisher, so that races between analyses and edits become likely.
    jitter_ms: u64,
    /// `RUSTKEEP_LSP_TEST_UNGUARDED=1`: publish every analysis in the order it arrives, without
    /// the ordering guard (the test proves it then fails).
    pub(crate) unguarded: bool,
}

impl TestHooks {
    /// The switches as the environment sets them — only in builds with the `test-hooks` feature
    /// (the command line's tests).
    #[cfg(feature = "test-hooks")]
    pub(crate) fn from_env() -> TestHooks {
        TestHooks {
            jitter_ms: std::env::var("RUSTKEEP_LSP_TEST_JITTER_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(0),
            unguarded: std::env::var("RUSTKEEP_LSP_TEST_UNGUARDED").is_ok_and(|v| v == "1"),
        }
    }

    /// No switches: a build without the `test-hooks` feature (a release) ignores the variables.
    #[cfg(not(feature = "test-hooks"))]
    pub(crate) fn from_env() -> TestHooks {
        TestHooks::default()
    }

    pub(crate) fn jitter(&self) {
        if self.jitter_ms == 0 {
            return;
        }
        // Scheduling noise, not a statistic: the clock's low bits are random enough.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos() as u64).unwrap_or(0);
        std::thread::sleep(Duration::from_micros((nanos / 7) % (self.jitter_ms * 1000 + 1)));
    }
}

/// Hovering this word panics inside the handler (test builds only).
#[cfg(test)]
pub(crate) const PANIC_WORD: &str = "rustkeep_test_panic";
