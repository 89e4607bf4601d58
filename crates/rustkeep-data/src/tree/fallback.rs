//! The fallback reader: the `toml` crate's recoverable parser, which [`super::read`] falls back on
//! where the single-pass reader gives up, and which the manifest reader, the formatter's and the
//! fixer's syntax checks use directly.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::text::Span;

/// Recoverable TOML parsing with the `toml` crate (what [`super::read`] falls back on, and
/// the formatter's and the fixer's syntax check). The `toml` crate bounds its own nesting depth,
/// so hostile input cannot overflow the stack here.
pub fn parse_toml(text: &str) -> (Spanned<DeTable<'_>>, Vec<toml::de::Error>) {
    DeTable::parse_recoverable(text)
}

/// What the parser leaves for the deserializer to refuse: integers that are not 64-bit integers
/// in their radix, floats that do not parse, and a second byte-order mark at the start.
pub fn scalar_errors(text: &str, root: &Spanned<DeTable<'_>>) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    if text.starts_with('\u{feff}') {
        out.push((0..3, "a byte-order mark may only appear once, at the very start of the file".to_string()));
    }
    let mut stack: Vec<&Spanned<DeValue<'_>>> = root.get_ref().values().collect();
    while let Some(v) = stack.pop() {
        match v.get_ref() {
            DeValue::Integer(i) if i64::from_str_radix(i.as_str(), i.radix()).is_err() => {
                out.push((v.span(), format!("`{}` is not a valid 64-bit integer", &text[v.span()])));
            }
            DeValue::Float(f) if f.as_str().parse::<f64>().is_err() => {
                out.push((v.span(), format!("`{}` is not a valid float", &text[v.span()])));
            }
            DeValue::Array(a) => stack.extend(a.iter()),
            DeValue::Table(t) => stack.extend(t.values()),
            _ => {}
        }
    }
    out
}
