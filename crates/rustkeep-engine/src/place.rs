//! Where a trigger or an `ai` rule is written: a file of the project and a line, typed. The trace
//! and the trigger graph carry it; its `Display` (`path:line`) is the one spelling every front end
//! shows, and the JSON trace writes that spelling as a string.

use std::fmt;
use std::sync::Arc;

use serde::{Serialize, Serializer};

/// A line of a file of the project.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The file as the project names it (`<core>/items.toml`, `mymod/data/items.toml`), shared by
    /// the places of one file.
    pub file: Arc<str>,
    /// The line, 1-based.
    pub line: u32,
}

impl Place {
    pub fn new(file: Arc<str>, line: u32) -> Place {
        Place { file, line }
    }
}

/// `path:line`.
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// As its `Display`, a string (the JSON Schemas say so with `#[schemars(with = "String")]`).
impl Serialize for Place {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_written_path_colon_line_in_text_and_json() {
        let p = Place::new(Arc::from("<core>/items.toml"), 12);
        assert_eq!(p.to_string(), "<core>/items.toml:12");
        assert_eq!(serde_json::to_value(&p).unwrap(), serde_json::json!("<core>/items.toml:12"));
    }
}
