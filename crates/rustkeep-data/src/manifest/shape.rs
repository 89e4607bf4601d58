//! The shape of `mod.toml` and `rustkeep.toml` as serde types: what their JSON Schemas
//! (`rustkeep schema --for mod|workspace`) are derived from, and what a tool may deserialize these
//! files into.
//!
//! The reader of the toolkit itself ([`super::read_manifest`], [`super::read_workspace`]) stays
//! hand-written: it reports every problem at its place and keeps whatever is usable, which serde
//! cannot. The keys, their docs and defaults are the vocabulary's ([`vocab::MANIFEST_TABLES`],
//! [`vocab::WORKSPACE_TABLES`]), which the formatter and the reference read as well: the schemas
//! take their descriptions and defaults from there ([`vocab_keys`]), and the tests below fail when
//! a type and its table name different keys.

use std::collections::BTreeMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

use super::Level;
use crate::diag::Code;
use crate::vocab::{self, ConfigKey};

/// A `mod.toml`: the manifest that makes a folder a mod (docs/data-language.md#mods).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "rustkeep mod manifest (mod.toml)", transform = vocab_keys(vocab::MANIFEST_TABLES))]
pub struct ModToml {
    #[serde(rename = "mod")]
    pub mod_: ModSection,
    #[serde(default)]
    #[schemars(extend("propertyNames" = { "pattern": vocab::ID_PATTERN }), inner(regex(pattern = vocab::ID_PATTERN)))]
    pub renamed: BTreeMap<String, String>,
}

/// The `[mod]` table of `mod.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = vocab_keys(vocab::MOD_KEYS))]
pub struct ModSection {
    #[schemars(regex(pattern = vocab::NAMESPACE_PATTERN), extend("not" = { "const": vocab::CORE_NAMESPACE }))]
    pub id: String,
    pub name: Option<String>,
    #[schemars(regex(pattern = vocab::SEMVER_PATTERN))]
    pub version: Option<String>,
    #[serde(default)]
    #[schemars(inner(regex(pattern = vocab::DEPENDENCY_PATTERN)))]
    pub depends: Vec<String>,
    #[serde(default)]
    #[schemars(inner(regex(pattern = vocab::NAMESPACE_PATTERN)))]
    pub load_after: Vec<String>,
    #[serde(default)]
    pub library: bool,
}

/// A `rustkeep.toml`: the workspace file (docs/data-language.md#workspaces).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "rustkeep workspace (rustkeep.toml)", transform = vocab_keys(vocab::WORKSPACE_TABLES))]
pub struct RustkeepToml {
    pub workspace: Option<WorkspaceSection>,
    pub lints: Option<LintLevels>,
    pub format: Option<FormatSection>,
}

/// The `[workspace]` table of `rustkeep.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = vocab_keys(vocab::WORKSPACE_KEYS))]
pub struct WorkspaceSection {
    pub mods: Option<Vec<String>>,
    pub core: Option<String>,
}

/// The `[lints]` table of `rustkeep.toml`: a level per diagnostic code. Its keys are the codes of
/// [`Code::ALL`] but `toml-syntax`, each documented by its summary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct LintLevels(pub BTreeMap<Code, Level>);

impl JsonSchema for LintLevels {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "LintLevels".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let level = generator.subschema_for::<Level>();
        // `toml-syntax` takes no level: a file that does not parse is not checked at all, so the
        // reader reports a level for it (`unused-suppression`), and the schema refuses the key.
        let properties: serde_json::Map<String, Value> = Code::ALL
            .iter()
            .filter(|c| **c != Code::TomlSyntax)
            .map(|c| {
                let mut p = level.clone();
                let default = match c.default_severity() {
                    crate::diag::Severity::Error => "an error",
                    crate::diag::Severity::Warning => "a warning",
                };
                p.insert("description".into(), format!("`{}`: {} (by default {default}).", c.name(), c.summary()).into());
                (c.name().to_string(), p.into())
            })
            .collect();
        json_schema!({
            "description": "A level per diagnostic code: `allow` drops it, `warn` reports it as a warning, `deny` as an error.",
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
        })
    }
}

/// The `[format]` table of `rustkeep.toml`: options of `rustkeep fmt` (docs/formatting.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = vocab_keys(vocab::FORMAT_KEYS))]
pub struct FormatSection {
    #[schemars(range(min = *vocab::LINE_WIDTH_RANGE.start(), max = *vocab::LINE_WIDTH_RANGE.end()))]
    pub line_width: Option<i64>,
    pub reorder_keys: Option<bool>,
    pub toml_version: Option<TomlVersionName>,
}

/// `[format] toml_version`: the TOML version `rustkeep fmt` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
pub enum TomlVersionName {
    #[serde(rename = "1.0")]
    V1_0,
    #[serde(rename = "1.1")]
    V1_1,
}

/// A schema transform that documents the properties of a table from its rows in the vocabulary:
/// the description is the row's doc, and a default the row states becomes the JSON `default`
/// (the rows write defaults as TOML values, such as `"bundled"` or `[]`).
fn vocab_keys(keys: &'static [ConfigKey]) -> impl FnMut(&mut Schema) {
    move |schema: &mut Schema| {
        let Some(Value::Object(properties)) = schema.get_mut("properties") else { return };
        for key in keys {
            let Some(Value::Object(p)) = properties.get_mut(key.name) else { continue };
            p.insert("description".into(), key.doc.into());
            match key.default.and_then(toml_value) {
                Some(default) => p.insert("default".into(), default),
                None => p.remove("default"),
            };
        }
    }
}

/// A TOML value written as text (`100`, `"bundled"`, `[]`) as JSON.
fn toml_value(text: &str) -> Option<Value> {
    let doc: toml::Table = toml::from_str(&format!("v = {text}")).ok()?;
    serde_json::to_value(doc.get("v")?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{read_manifest, read_workspace};
    use crate::source::FileId;

    /// The schema of `T` as it is written for TOML files (draft 2020-12).
    fn schema_of<T: JsonSchema>() -> Value {
        crate::schema::derived::<T>(crate::schema::Draft::D2020_12, crate::schema::Kind::Toml).into()
    }

    /// The definition a property refers to (`$ref`), or the property itself.
    fn resolve<'a>(root: &'a Value, p: &'a Value) -> &'a Value {
        match p.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
            Some(name) => &root["$defs"][name],
            None => p,
        }
    }

    /// Walks a table's schema along its vocabulary rows: the same keys, the same required ones,
    /// the row's doc as description; then the tables below, row by row.
    fn agree(root: &Value, table: &Value, keys: &[ConfigKey], path: &str) {
        let props = table["properties"].as_object().unwrap_or_else(|| panic!("{path}: no properties"));
        let names: Vec<&str> = props.keys().map(String::as_str).collect();
        assert_eq!(names, vocab::config_key_names(keys), "{path}: the type's keys are not the vocabulary's");
        let required: Vec<&str> = table.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        let vocab_required: Vec<&str> = keys.iter().filter(|k| k.required).map(|k| k.name).collect();
        assert_eq!(required, vocab_required, "{path}: required keys");
        assert_eq!(table["additionalProperties"], false, "{path}: unknown keys must be refused, as the reader does");
        for k in keys {
            let p = &props[k.name];
            assert_eq!(p["description"], k.doc, "{path}.{}", k.name);
            if let Some(d) = k.default {
                assert_eq!(p.get("default"), toml_value(d).as_ref(), "{path}.{}: the default {d} is no TOML value", k.name);
            }
            if !k.keys.is_empty() {
                agree(root, resolve(root, p), k.keys, &format!("{path}.{}", k.name));
            }
        }
    }

    #[test]
    fn the_manifest_schema_has_the_keys_of_the_vocabulary() {
        let s = schema_of::<ModToml>();
        agree(&s, &s, vocab::MANIFEST_TABLES, "mod.toml");
    }

    #[test]
    fn the_workspace_schema_has_the_keys_of_the_vocabulary() {
        let s = schema_of::<RustkeepToml>();
        agree(&s, &s, vocab::WORKSPACE_TABLES, "rustkeep.toml");
        // `[lints]` has no rows of its own: its keys are the diagnostic codes, but `toml-syntax`.
        let lints = resolve(&s, &s["properties"]["lints"]);
        let codes: Vec<&str> = lints["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(codes, Code::ALL.iter().filter(|c| **c != Code::TomlSyntax).map(|c| c.name()).collect::<Vec<_>>());
    }

    #[test]
    fn the_format_bounds_are_the_vocabulary_bounds() {
        let s = schema_of::<RustkeepToml>();
        let width = &resolve(&s, &s["properties"]["format"])["properties"]["line_width"];
        assert_eq!(width["minimum"], *vocab::LINE_WIDTH_RANGE.start());
        assert_eq!(width["maximum"], *vocab::LINE_WIDTH_RANGE.end());
    }

    /// The serde types accept what the reader accepts without a word, and refuse the mistakes
    /// the reader reports about the file's shape.
    #[test]
    fn the_types_and_the_reader_agree() {
        let file = FileId(0);
        let good_manifests = [
            "[mod]\nid = \"a\"\n",
            "[mod]\nid = \"rat_catcher\"\nname = \"The Rat-Catcher\"\nversion = \"1.2.3-beta+7\"\ndepends = [\"core\"]\nload_after = [\"b\"]\n",
            "[mod]\nid = \"bestiary\"\nlibrary = true\n",
            "[mod]\nid = \"rat_catcher\"\nversion = \"1.3.0\"\ndepends = [\"core\", \"sewers >= 1.2\", \"? bestiary ^2\", \"! old_rats\"]\n\n[renamed]\n\"rat_catcher:cheese\" = \"rat_catcher:cheese_wedge\"\n",
        ];
        for text in good_manifests {
            assert!(read_manifest(file, text, None).1.is_empty(), "{text}");
            let m: ModToml = toml::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(!m.mod_.id.is_empty());
        }
        let bad_manifests = [
            "[mod]\nname = \"no id\"\n",
            "[mod]\nid = \"a\"\nnmae = \"x\"\n",
            "[mods]\nid = \"a\"\n",
            "[mod]\nid = \"a\"\ndepends = \"b\"\n",
            "[mod]\nid = \"a\"\nlibrary = \"yes\"\n",
        ];
        for text in bad_manifests {
            assert!(!read_manifest(file, text, None).1.is_empty(), "{text}");
            assert!(toml::from_str::<ModToml>(text).is_err(), "{text}");
        }
        let good_workspaces =
            ["", "[workspace]\nmods = [\"mods/*\"]\ncore = \"bundled\"\n[lints]\nunknown-tag = \"deny\"\n[format]\nline_width = 80\nreorder_keys = false\ntoml_version = \"1.1\"\n"];
        for text in good_workspaces {
            assert!(read_workspace(file, text).1.is_empty(), "{text}");
            toml::from_str::<RustkeepToml>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        let bad_workspaces = [
            "[lints]\nunknown-tags = \"deny\"\n",
            "[lints]\nunknown-tag = \"loud\"\n",
            "[format]\nwidth = 80\n",
            "[format]\ntoml_version = \"1.2\"\n",
            "[format]\ntoml_version = 1.1\n",
            "[workspace]\nmods = \"x\"\n",
            "[lint]\n",
        ];
        for text in bad_workspaces {
            assert!(!read_workspace(file, text).1.is_empty(), "{text}");
            assert!(toml::from_str::<RustkeepToml>(text).is_err(), "{text}");
        }
        let lints: RustkeepToml = toml::from_str("[lints]\nunknown-tag = \"deny\"\nquest-never-started = \"allow\"\n").unwrap();
        let levels = lints.lints.unwrap().0;
        assert_eq!(levels.get(&Code::UnknownTag), Some(&Level::Deny));
        assert_eq!(levels.get(&Code::QuestNeverStarted), Some(&Level::Allow));
    }
}
