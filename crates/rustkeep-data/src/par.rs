//! A small parallel map over a slice with scoped threads and an atomic cursor (work stealing by
//! runs of indices that shrink as the work runs out), keeping the input order. Files differ in
//! size by orders of magnitude, so static chunking would leave one core idle.

use std::sync::atomic::{AtomicUsize, Ordering};

pub fn par_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let n = items.len();
    let threads = threads.max(1).min(n.max(1));
    if threads <= 1 || n < 2 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut parts: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut local = Vec::new();
                    while let Some(run) = claim(&next, n, threads) {
                        for i in run {
                            local.push((i, f(&items[i])));
                        }
                    }
                    local
                })
            })
            .collect();
        // A panicking worker propagates: the caller's own catch_unwind (LSP) sees it.
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut out: Vec<Option<R>> = (0..n).map(|_| None).collect();
    for part in parts.drain(..) {
        for (i, r) in part {
            out[i] = Some(r);
        }
    }
    out.into_iter().map(|r| r.expect("every index is mapped once")).collect()
}

/// Claims the next run of indices: a share of what is left (guided scheduling), so that many
/// small items do not make the workers fight over the cursor for each one, while the runs near
/// the end stay short enough to keep both cores busy to the last item.
fn claim(next: &AtomicUsize, n: usize, threads: usize) -> Option<std::ops::Range<usize>> {
    let mut start = next.load(Ordering::Relaxed);
    loop {
        if start >= n {
            return None;
        }
        let len = ((n - start) / (threads * 16)).max(1);
        match next.compare_exchange_weak(start, start + len, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(start..start + len),
            Err(now) => start = now,
        }
    }
}

/// Threads to use: `RUSTKEEP_THREADS` if set (benchmarks compare 1 with all), else every core.
pub fn default_threads() -> usize {
    if let Some(n) = std::env::var("RUSTKEEP_THREADS").ok().and_then(|v| v.parse::<usize>().ok()).filter(|n| *n > 0) {
        return n;
    }
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_mapped_once_and_in_order_at_any_size_and_thread_count() {
        for threads in [1, 2, 3, 8] {
            for n in [0, 1, 2, 3, 31, 32, 33, 100, 1_000, 30_037] {
                let items: Vec<usize> = (0..n).collect();
                let calls = AtomicUsize::new(0);
                let out = par_map(&items, threads, |&i| {
                    calls.fetch_add(1, Ordering::Relaxed);
                    i * 2
                });
                assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>(), "{n} items on {threads} threads");
                assert_eq!(calls.load(Ordering::Relaxed), n);
            }
        }
    }

    #[test]
    fn runs_shrink_as_the_work_runs_out_and_never_pass_the_end() {
        let next = AtomicUsize::new(0);
        let mut runs = Vec::new();
        while let Some(r) = claim(&next, 10_000, 2) {
            runs.push(r);
        }
        assert_eq!(runs.first(), Some(&(0..312)), "a first run of a 32nd of the work");
        assert!(runs.windows(2).all(|w| w[0].end == w[1].start && w[1].len() <= w[0].len()));
        assert_eq!(runs.last().map(|r| (r.end, r.len())), Some((10_000, 1)), "the last runs are single items");
        assert!(runs.len() < 400, "{} claims for 10,000 items", runs.len());
    }
}
