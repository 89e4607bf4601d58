//! What the formatter must never change: whether a text is valid TOML (read exactly as
//! `rustkeep check` reads it) and the value it stands for.

use std::collections::HashMap;
use std::ops::Range;

use rustkeep_data::tree::{parse_toml, scalar_errors};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// A place where the text is not valid TOML, with the message `rustkeep check` gives for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Range<usize>,
    pub message: String,
    /// Where reading gave up on an unclosed bracket or string, and what is said there.
    pub related: Option<(Range<usize>, String)>,
}

/// Reads `text` (without a byte-order mark) as `rustkeep check` does; the errors are exactly its
/// `toml-syntax` diagnostics.
pub fn read(text: &str) -> Result<Spanned<DeTable<'_>>, Vec<SyntaxError>> {
    let (root, errors) = parse_toml(text);
    let mut out: Vec<SyntaxError> =
        errors.into_iter().map(|e| SyntaxError { span: e.span().unwrap_or(0..0), message: e.message().trim().to_string(), related: None }).collect();
    out.extend(scalar_errors(text, &root).into_iter().map(|(span, message)| SyntaxError { span, message, related: None }));
    if out.is_empty() {
        Ok(root)
    } else {
        // One error per mistake, at its cause, as `rustkeep check` reports it (its recovery only
        // runs here, on a text already refused).
        let recovered: Vec<SyntaxError> =
            rustkeep_data::tree::read(text).errors.into_iter().map(|e| SyntaxError { span: e.span, message: e.message, related: e.related }).collect();
        Err(if recovered.is_empty() { out } else { recovered })
    }
}

/// Whether two tables hold the same keys with the same values, arrays in the same order.
pub fn same_table(a: &DeTable<'_>, b: &DeTable<'_>) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let by_key: HashMap<&str, &DeValue<'_>> = b.iter().map(|(k, v)| (k.get_ref().as_ref(), v.get_ref())).collect();
    a.iter().all(|(k, v)| by_key.get(k.get_ref().as_ref()).is_some_and(|w| same_value(v.get_ref(), w)))
}

fn same_value(a: &DeValue<'_>, b: &DeValue<'_>) -> bool {
    match (a, b) {
        (DeValue::String(x), DeValue::String(y)) => x == y,
        (DeValue::Integer(x), DeValue::Integer(y)) => match (i64::from_str_radix(x.as_str(), x.radix()), i64::from_str_radix(y.as_str(), y.radix())) {
            (Ok(x), Ok(y)) => x == y,
            _ => x.as_str() == y.as_str() && x.radix() == y.radix(),
        },
        (DeValue::Float(x), DeValue::Float(y)) => match (x.as_str().parse::<f64>(), y.as_str().parse::<f64>()) {
            (Ok(x), Ok(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
            _ => x.as_str() == y.as_str(),
        },
        (DeValue::Boolean(x), DeValue::Boolean(y)) => x == y,
        (DeValue::Datetime(x), DeValue::Datetime(y)) => x == y,
        (DeValue::Array(x), DeValue::Array(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(x, y)| same_value(x.get_ref(), y.get_ref())),
        (DeValue::Table(x), DeValue::Table(y)) => same_table(x, y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        same_table(read(a).unwrap().get_ref(), read(b).unwrap().get_ref())
    }

    #[test]
    fn values_compare_by_meaning_not_spelling() {
        assert!(same("a = 0x10\nb = 1_000\n", "b = 1000\na = 16\n"));
        assert!(same("x = [1, 2]", "x = [\n  1,\n  2,\n]\n"));
        assert!(same("f = nan\ng = 1e3", "f = nan\ng = 1000.0"));
        assert!(!same("x = [1, 2]", "x = [2, 1]"));
        assert!(!same("a = 1", "a = 1.0"));
        assert!(!same("a.b = 1", "a = { b = 1, c = 2 }"));
        assert!(!same("f = 0.0", "f = -0.0"));
    }

    #[test]
    fn syntax_errors_are_reported_as_check_reports_them() {
        let errs = read("a = 1\na = 2\n").unwrap_err();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message.contains("duplicate"), "{errs:?}");
        assert!(read("n = 99999999999999999999\n").is_err());
        assert!(read("\u{feff}a = 1\n").is_err(), "a second byte-order mark");
    }
}
