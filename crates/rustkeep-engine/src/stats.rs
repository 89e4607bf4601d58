//! Small statistics for the arena's report: the Wilson score interval of a win rate, percentiles
//! by the nearest-rank rule, means, and the rounding the report prints with.

/// The 97.5 % quantile of the standard normal distribution (a two-sided 95 % interval).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The share of `successes` out of `n`: 0 for no trials.
pub fn rate(successes: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        successes as f64 / n as f64
    }
}

/// The Wilson score interval of `successes` out of `n` at the given `z`; `(0, 0)` for no trials.
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At no success (or all) the bound is exactly 0 (or 1); the subtraction leaves a residue of
    // the order of 1e-19 that a chance written to its significant digits would show.
    let lo = if successes == 0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if successes as f64 == n { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// The `q`-th percentile (0 < q ≤ 1) of sorted values by the nearest-rank rule: the smallest value
/// with at least `q × n` values at or below it. `None` for no values.
pub fn percentile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for v in values {
        sum += v;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

/// Rounds to `places` decimals as every output writes numbers (`rustkeep_data::number`: in
/// decimal, a tie away from zero), for the reports' JSON, so that it agrees with their text.
pub fn round_to(v: f64, places: usize) -> f64 {
    rustkeep_data::number::fixed(v, places).parse().unwrap_or(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_intervals() {
        // 9312 of 10 000: the interval printed in the arena's example report.
        let (lo, hi) = wilson(9312, 10_000, Z_95);
        assert_eq!((round_to(lo, 4), round_to(hi, 4)), (0.9261, 0.936));
        // The written number rounds, not the double below it (2.675 is 2.67499… in binary).
        assert_eq!((round_to(2.675, 2), round_to(3.125, 2), round_to(-0.5, 0)), (2.68, 3.13, -1.0));
        // None and all: the bounds are exactly 0 and 1, not a residue next to them.
        assert_eq!(wilson(0, 1000, Z_95).0, 0.0);
        assert_eq!(wilson(1000, 1000, Z_95).1, 1.0);
        // 50 of 100: centred on one half, ±0.0963.
        let (lo, hi) = wilson(50, 100, Z_95);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
        // All or nothing stays inside [0, 1] and is not degenerate.
        let (lo, hi) = wilson(10, 10, Z_95);
        assert!((hi - 1.0).abs() < 1e-12 && lo > 0.69 && lo < 0.73, "{lo}");
        assert_eq!(wilson(0, 0, Z_95), (0.0, 0.0));
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&v, 0.5), Some(5));
        assert_eq!(percentile(&v, 0.9), Some(9));
        assert_eq!(percentile(&v, 0.1), Some(1));
        assert_eq!(percentile(&v, 1.0), Some(10));
        assert_eq!(percentile(&[7], 0.1), Some(7));
        assert_eq!(percentile::<u32>(&[], 0.5), None);
        assert_eq!(mean([1.0, 2.0, 6.0]), Some(3.0));
    }
}
