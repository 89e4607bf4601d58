//! Numbers as every output writes them: a chance as a percentage (`rustkeep loot`, `rustkeep
//! diff`, the documentation site, the language server's hovers, lenses and hints), and the value
//! an expectation got beside the numbers it wanted (`rustkeep test`, `rustkeep simulate`, the
//! language server's scenario runs). One module, so that a figure reads the same wherever it is
//! shown (docs/loot.md, "How chances are printed").
//!
//! Rounding is decimal, half up (a tie goes away from zero): a number is first written with 15
//! significant digits, as many as every double holds, and those digits are rounded. Rounding the
//! binary value instead went wrong at ties: a chance of 3.625 % times 100 is 3.6249999999999996,
//! an exact chance of 47.125 % may be summed to 0.47124999999999995, and an exact binary tie
//! (47.125) went to the even digit — each printed a digit too low.

/// The significant digits a number is read with: every decimal of at most 15 digits survives a
/// double unchanged, and the digits beyond are the rounding of the sums that made it.
const SIGNIFICANT: usize = 15;

/// The digits of `|x|` (finite, not zero) to [`SIGNIFICANT`] digits, trailing zeros dropped, and
/// the power of ten of the first: `0.04455` is (`[4, 4, 5, 5]`, -2).
fn digits(x: f64) -> (Vec<u8>, i32) {
    let text = format!("{:.*e}", SIGNIFICANT - 1, x.abs());
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, exp.parse().unwrap_or(0))
}

/// `x × 10^shift`, rounded half up to `places` decimals and written with exactly that many
/// (`0.125`, shift 2, places 1: `12.5`). Infinities and NaN are written as Rust writes them.
fn shifted(x: f64, shift: i32, places: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let mut kept: Vec<u8> = Vec::new();
    let negative = x < 0.0;
    if x != 0.0 {
        let (d, e) = digits(x);
        // Digit i weighs 10^(e + shift − i): those down to 10^−places are kept, the next rounds.
        let keep = e + shift + places as i32 + 1;
        if keep > 0 {
            let keep = keep as usize;
            kept = d.iter().copied().chain(std::iter::repeat(0)).take(keep).collect();
        }
        let next = usize::try_from(keep).ok().and_then(|k| d.get(k)).copied().unwrap_or(0);
        if keep >= 0 && next >= 5 {
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, 1);
                    break;
                }
                i -= 1;
                if kept[i] == 9 {
                    kept[i] = 0;
                } else {
                    kept[i] += 1;
                    break;
                }
            }
        }
    }
    // The kept digits are the rounded value in units of 10^−places.
    while kept.len() <= places {
        kept.insert(0, 0);
    }
    let first = kept.iter().position(|&d| d != 0).unwrap_or(kept.len()).min(kept.len() - places - 1);
    let kept = &kept[first..];
    let whole: String = kept[..kept.len() - places].iter().map(|d| char::from(b'0' + d)).collect();
    let fraction: String = kept[kept.len() - places..].iter().map(|d| char::from(b'0' + d)).collect();
    let sign = if negative && kept.iter().any(|&d| d != 0) { "-" } else { "" };
    if places == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// `x` rounded half up to `places` decimals, written with exactly that many (`fixed(0.88235, 4)`
/// is `0.8824`).
pub fn fixed(x: f64, places: usize) -> String {
    shifted(x, 0, places)
}

/// `x` rounded half up to at most `places` decimals, without trailing zeros (`0.5`, `12`).
pub fn trimmed(x: f64, places: usize) -> String {
    let text = fixed(x, places);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The decimals of `x` written with its digits (at most fifteen significant, as [`digits`] reads
/// them): 4 for `0.0738`, 0 for `50`.
pub fn places_of(x: f64) -> usize {
    if !x.is_finite() || x == 0.0 {
        return 0;
    }
    let (d, e) = digits(x);
    usize::try_from(d.len() as i32 - 1 - e).unwrap_or(0)
}

/// `x` as written: all its digits (at most fifteen significant), never in exponent form:
/// `0.0738`, `50`, `0.0000001`.
pub fn plain(x: f64) -> String {
    trimmed(x, places_of(x))
}

/// Whether two values are equal to the tolerance expectations are checked with (a billionth,
/// relative to the larger of `b` and 1): the sums that make an exact chance may differ from
/// the number a modder wrote in their last bits.
pub fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// A chance as a percentage: two decimals (`8.45 %`); three significant digits below 0.1 %
/// (`0.00123 %`), and as many decimals as it takes above 99.99 % not to read as a certainty
/// (`99.9996 %`); `0 %` and `100.00 %` only for a chance of exactly 0 and 1.
pub fn percent(p: f64) -> String {
    if p == 0.0 {
        return "0 %".into();
    }
    let mut places = 2;
    if p.is_finite() && p > 0.0 {
        let (_, e) = digits(p);
        // The percentage's first digit weighs 10^(e + 2): below 0.1 %, three of them are shown.
        if e + 2 < -1 {
            places = usize::try_from(-e).unwrap_or(2);
        }
    }
    let mut text = shifted(p, 2, places);
    // Below 1 to fifteen digits, so a finite number of decimals writes it below 100 %.
    let below_one = p < 1.0 && p.is_finite() && digits(p).1 < 0;
    while below_one && text.starts_with("100") {
        places += 1;
        text = shifted(p, 2, places);
    }
    format!("{text} %")
}

/// A value a run got, written beside the numbers it was held against: with the decimals
/// [`places_against`] gives, without trailing zeros (a count is `5`).
pub fn against(got: f64, wanted: &[f64], min_places: usize) -> String {
    trimmed(got, places_against(got, wanted, min_places))
}

/// The decimals a value got needs beside the numbers it was held against: at least
/// `min_places`, at least those of each wanted number as written, at least two significant
/// digits, and more until it no longer reads as a wanted number it differs from (a chance of
/// 0.07375 against `at_least = 0.0738` needs five, not the four that read `0.0738`).
pub fn places_against(got: f64, wanted: &[f64], min_places: usize) -> usize {
    if !got.is_finite() {
        return min_places;
    }
    let exact = places_of(got);
    let significant = if got == 0.0 { 0 } else { usize::try_from(1 - digits(got).1).unwrap_or(0) };
    let mut places = wanted.iter().map(|&w| places_of(w)).fold(min_places.max(significant), usize::max);
    while places < exact && wanted.iter().any(|&w| !same(got, w) && trimmed(got, places) == plain(w)) {
        places += 1;
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_decimal_and_half_up() {
        // The double nearest 0.04455 is 0.044549999…, and a sum may land a unit below it: both
        // read 4455 to fifteen digits, which round up.
        assert_eq!(percent(0.04455), "4.46 %");
        let below = |x: f64| f64::from_bits(x.to_bits() - 1);
        assert_eq!(percent(below(0.04455)), "4.46 %");
        assert_eq!(percent(891.0 / 20_000.0), "4.46 %");
        // 1/10 or 33/80, summed as a + b(1 − a): 47.125 % exactly, 0.47124999999999995 summed.
        assert_eq!(percent(0.1 + 33.0 / 80.0 * (1.0 - 0.1)), "47.13 %");
        // 29/800 = 3.625 %, whose product by 100 is 3.6249999999999996.
        assert_eq!(percent(29.0 / 800.0), "3.63 %");
        // A tie exactly representable in binary goes up too, not to the even digit.
        assert_eq!(percent(0.00125), "0.13 %");
        assert_eq!(fixed(0.125, 2), "0.13");
        assert_eq!(fixed(2.5, 0), "3");
        assert_eq!(fixed(-2.5, 0), "-3");
        assert_eq!(fixed(0.0449999, 2), "0.04");
        assert_eq!(fixed(9.995, 2), "10.00");
        assert_eq!(fixed(0.0004, 2), "0.00");
        assert_eq!(fixed(-0.0004, 2), "0.00");
        assert_eq!(fixed(0.005, 2), "0.01");
        assert_eq!(fixed(0.0049, 2), "0.00");
        assert_eq!(fixed(123.0, 0), "123");
        assert_eq!(fixed(1e21, 1), "1000000000000000000000.0");
        assert_eq!(fixed(0.0, 3), "0.000");
        assert_eq!(trimmed(0.5, 4), "0.5");
        assert_eq!(trimmed(12.0, 2), "12");
        assert_eq!(trimmed(0.88235, 4), "0.8824");
    }

    #[test]
    fn chances_read_as_loot_prints_them() {
        assert_eq!(percent(1.0), "100.00 %");
        assert_eq!(percent(0.0845), "8.45 %");
        assert_eq!(percent(0.4814), "48.14 %");
        assert_eq!(percent(0.4813759413800122), "48.14 %");
        assert_eq!(percent(0.098), "9.80 %");
        assert_eq!(percent(0.000_012_34), "0.00123 %");
        assert_eq!(percent(0.00022606860619269897), "0.0226 %");
        assert_eq!(percent(0.001), "0.10 %");
        assert_eq!(percent(0.0), "0 %");
        // Never a certainty that is not one.
        assert_eq!(percent(0.99996), "99.996 %");
        assert_eq!(percent(0.999_999_6), "99.99996 %");
        assert_eq!(percent(0.9999), "99.99 %");
        // 1 to the fifteen digits a double holds.
        assert_eq!(percent(1.0 - f64::EPSILON / 2.0), "100.00 %");
    }

    #[test]
    fn a_value_got_never_reads_as_the_different_number_it_was_held_against() {
        // Four decimals written, and a value that rounds to them: one more decimal.
        assert_eq!(against(0.07375, &[0.0738], 2), "0.07375");
        // A pass of an exact bound reads as the number wanted.
        assert_eq!(against(0.075, &[0.075], 2), "0.075");
        assert_eq!(against(0.07500000000000001, &[0.075], 2), "0.075");
        assert_eq!(against(0.0751234, &[0.075], 2), "0.0751");
        // The digits of the binary sums are not shown: decimal rounding of the shortest digits.
        assert_eq!(against(f64::from_bits(0.07375_f64.to_bits() - 1), &[0.0738], 2), "0.07375");
        assert_eq!(against(0.07375, &[0.07375000001], 2), "0.07375");
        assert_eq!(against(1.0 / 3.0, &[0.5], 2), "0.33");
        // Counts stay whole; a mean count short of a whole bound shows what it lacks.
        assert_eq!(against(5.0, &[5.0], 2), "5");
        assert_eq!(against(49.96, &[50.0], 0), "49.96");
        assert_eq!(against(49.999, &[50.0], 0), "49.999");
        // A small chance is never 0.
        assert_eq!(against(0.001234, &[0.5], 2), "0.0012");
        assert_eq!(against(0.0, &[0.5], 2), "0");
        assert_eq!(against(0.624, &[0.6], 4), "0.624");
        assert_eq!(places_against(0.98, &[0.975], 4), 4);
        assert_eq!(places_against(0.97505, &[0.9751], 4), 5);
    }

    #[test]
    fn numbers_as_written() {
        assert_eq!(plain(0.0738), "0.0738");
        assert_eq!(plain(50.0), "50");
        assert_eq!(plain(1e-7), "0.0000001");
        assert_eq!(plain(-2.5), "-2.5");
        assert_eq!(places_of(0.0738), 4);
        assert_eq!(places_of(50.0), 0);
        assert_eq!(places_of(1500.0), 0);
        assert!(same(0.1 + 0.2, 0.3));
        assert!(!same(0.07375, 0.0738));
    }
}
