//! What a TOML text means, read by an independent reader (`toml_edit`, not the `toml` crate the
//! product reads with): the formatter's tests and its fuzz target compare a text's meaning before
//! and after formatting with it.

use std::collections::BTreeMap;

/// A TOML value as `toml_edit` reads it, comparable.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Str(String),
    Int(i64),
    /// Bits, so that `nan` equals `nan` and `-0.0` differs from `0.0`.
    Float(u64),
    Bool(bool),
    Datetime(String),
    Array(Vec<V>),
    Table(BTreeMap<String, V>),
}

/// The value of a TOML text (a leading byte-order mark skipped), or `toml_edit`'s error.
pub fn read(text: &str) -> Result<V, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc = toml_edit::Document::parse(text).map_err(|e| e.to_string())?;
    Ok(table(doc.as_table()))
}

fn value(v: &toml_edit::Value) -> V {
    use toml_edit::Value as T;
    match v {
        T::String(s) => V::Str(s.value().clone()),
        T::Integer(i) => V::Int(*i.value()),
        T::Float(f) => V::Float(if f.value().is_nan() { f64::NAN.to_bits() } else { f.value().to_bits() }),
        T::Boolean(b) => V::Bool(*b.value()),
        T::Datetime(d) => V::Datetime(d.value().to_string()),
        T::Array(a) => V::Array(a.iter().map(value).collect()),
        T::InlineTable(t) => V::Table(t.iter().map(|(k, v)| (k.to_string(), value(v))).collect()),
    }
}

fn item(i: &toml_edit::Item) -> Option<V> {
    match i {
        toml_edit::Item::None => None,
        toml_edit::Item::Value(v) => Some(value(v)),
        toml_edit::Item::Table(t) => Some(table(t)),
        toml_edit::Item::ArrayOfTables(a) => Some(V::Array(a.iter().map(table).collect())),
    }
}

fn table(t: &toml_edit::Table) -> V {
    V::Table(t.iter().filter_map(|(k, i)| Some((k.to_string(), item(i)?))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_means_its_values_whatever_the_layout() {
        let a = read("[t]\nx = 1\ny = [1.0, nan]\n").unwrap();
        let b = read("\u{feff}t = { y = [ 1.0, nan ], x = 0x1 }\n").unwrap();
        assert_eq!(a, b);
        assert_ne!(read("x = 0.0").unwrap(), read("x = -0.0").unwrap());
        assert!(read("x = ").is_err());
    }
}
