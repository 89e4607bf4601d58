//! The exact analysis against direct computation: closed forms against sums term by term.

use super::*;

#[test]
fn rolls_closed_form_matches_direct_sum() {
    for &(min, max) in &[(0u32, 0u32), (1, 1), (0, 1), (1, 3), (2, 7), (0, 5), (3, 70), (70, 70), (0, 63), (0, 64), (60, 64), (64, 64), (65, 65)] {
        for &d in &[0.0, 1e-12, 0.013, 0.5, 0.999, 1.0] {
            for &pe in &[0.0, 0.3, 0.9] {
                let mut direct = 0.0;
                for n in min..=max {
                    let x: f64 = 1.0 - d;
                    direct += x.powi(n as i32) * (1.0 - pe + pe * x);
                }
                direct /= f64::from(max - min + 1);
                let r = Range { min, max };
                let got = ln_none_from_rolls(d, r, pe).exp();
                assert!((got - direct).abs() < 1e-13, "{min}-{max} d={d} pe={pe}: {got} vs {direct}");
                let some = RollChance::new(r, pe).p_some(d);
                assert!((some - (1.0 - direct)).abs() < 1e-13, "{min}-{max} d={d} pe={pe}: {some} vs {}", 1.0 - direct);
            }
        }
    }
    // A huge range must neither loop nor lose precision: mean of x^n over 0..=m-1 ≈ 1/(m·d).
    let got = ln_none_from_rolls(1e-3, Range { min: 0, max: u32::MAX }, 0.0).exp();
    assert!((got - 1.0 / (f64::from(u32::MAX) + 1.0) / 1e-3).abs() < 1e-12, "{got}");
    let some = RollChance::new(Range { min: 0, max: u32::MAX }, 0.0).p_some(1e-3);
    assert!((some - (1.0 - got)).abs() < 1e-12, "{some}");
}

/// For a tiny `d` the chance of at least one is `d·E[n] − d²·E[n(n−1)/2] + …`: the closed
/// form must keep its relative precision there, where `1 − q` computed from `q` has none.
#[test]
fn rolls_closed_form_is_relatively_exact_for_tiny_chances() {
    for &(min, max) in &[(1u32, 3u32), (0, 1), (2, 7), (0, 5), (1, 1), (0, 0)] {
        for &pe in &[0.0, 0.3] {
            for &d in &[1e-9, 1e-14, 1e-200, 1e-300] {
                let m = f64::from(max - min + 1);
                // With n' = n + B, B a coin of chance `pe`: E[n'] = E[n] + pe and
                // E[n'(n'−1)/2] = E[n(n−1)/2] + pe·E[n].
                let mean: f64 = (min..=max).map(f64::from).sum::<f64>() / m;
                let pairs: f64 = (min..=max).map(|n| f64::from(n) * (f64::from(n) - 1.0) / 2.0).sum::<f64>() / m + pe * mean;
                let series = d * (mean + pe) - d * d * pairs;
                let got = RollChance::new(Range { min, max }, pe).p_some(d);
                if series == 0.0 {
                    assert_eq!(got, 0.0, "{min}-{max} d={d}");
                } else {
                    assert!(((got - series) / series).abs() < 1e-12, "{min}-{max} d={d} pe={pe}: {got} vs {series}");
                }
            }
        }
    }
}

#[test]
fn union_of_independent_chances() {
    assert_eq!(union(0.0, 0.25), 0.25);
    assert_eq!(union(0.5, 0.5), 0.75);
    assert_eq!(union(1.0, 0.3), 1.0);
    assert_eq!(union(1e-300, 1e-300), 2e-300);
}
