//! `rustkeep schema`: the JSON Schemas of the files users write and of the JSON the commands print
//! (docs/json-schemas.md), all from one registry, [`TARGETS`].
//!
//! The schemas of data files and scenario files are assembled from the vocabulary's field tables
//! ([`rustkeep_data::schema::data_file_schema`], [`rustkeep_data::schema::scenario_schema`]), the
//! tables the validator walks; every other one is derived from the serde types
//! that read or write the file with `schemars`, so a changed type changes its schema. Each schema
//! gets an `$id` with its version; the repository keeps every one in `schemas/`, in both
//! dialects, current by `crates/rustkeep-cli/tests/schema.rs` (`cargo xtask update` rewrites them).

use clap::builder::{PossibleValue, PossibleValuesParser};
use rustkeep_data::manifest::{ModToml, RustkeepToml};
use rustkeep_data::schema::{data_file_schema, derived, scenario_schema, Draft, Kind};
use rustkeep_data::vocab::LANGUAGE_VERSION;
use rustkeep_engine::arena::ArenaJson;
use rustkeep_engine::graph::GraphReport;
use rustkeep_engine::save::SaveFile;
use rustkeep_engine::scenario::Report as SimulateReport;
use rustkeep_play::record::Line as RecordingLine;
use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::diff::DiffJson;
use crate::loot::LootJson;
use crate::render::json::CheckReport;
use crate::test::TestJson;

/// One schema that `rustkeep schema --for NAME` prints.
pub struct Target {
    /// The name `--for` takes.
    pub name: &'static str,
    /// What the schema describes, for `--list` and `--help`.
    pub about: &'static str,
    /// The committed files are `schemas/STEM.schema.json` and `schemas/STEM.draft-07.schema.json`.
    pub stem: &'static str,
    /// The version in the schema's `$id`: a change that makes valid input invalid, or output a
    /// consumer of the previous version cannot read, raises it (docs/json-schemas.md).
    pub version: u32,
    /// The schema, without its `$id`.
    build: fn(Draft) -> Value,
}

/// Every schema, the default first.
///
/// Adding one is one line here: `toml_file::<Type>(…)` for a TOML file users write (versioned
/// with the data language), `json_output::<Type>(…, 1, …)` for the JSON a command writes, where
/// `Type` derives `serde` and `schemars::JsonSchema` with doc comments. Then `cargo xtask update`
/// writes its files in `schemas/` (and, for a TOML file editors map, its copy and mapping in the
/// VS Code extension).
pub const TARGETS: &[Target] = &[
    Target { name: "data", about: "a data file of a mod (registry arrays and [balance])", stem: "rustkeep", version: LANGUAGE, build: data_file_schema },
    toml_file::<ModToml>("mod", "mod.toml, the manifest of a mod"),
    Target {
        name: "scenario",
        about: "a scenario file of `rustkeep simulate` and `rustkeep arena` (`*.scenario.toml`, `scenarios/*.toml`)",
        stem: "scenario",
        version: LANGUAGE,
        build: scenario_schema,
    },
    toml_file::<RustkeepToml>("workspace", "rustkeep.toml, the workspace file"),
    json_output::<CheckReport<'static>>("check-json", 1, "the output of `rustkeep check --format json`"),
    json_output::<LootJson<'static>>("loot-json", 1, "the output of `rustkeep loot --format json`"),
    json_output::<GraphReport<'static>>("graph-json", 1, "the output of `rustkeep graph --format json`"),
    json_output::<SimulateReport>("simulate-json", 1, "the output of `rustkeep simulate --format json`: the causal trace and the final state"),
    json_output::<ArenaJson>("arena-json", 1, "the output of `rustkeep arena --format json`, with or without `--matrix`"),
    json_output::<TestJson>("test-json", 1, "the output of `rustkeep test --format json`: every expectation of every scenario run"),
    json_output::<DiffJson>(
        "diff-json",
        1,
        "the output of `rustkeep diff --format json`: what a change does to entries, drop chances, the arena and the diagnostics",
    ),
    json_output::<SaveFile>("save", 2, "a save of `rustkeep play` (`S`, `save`, `--save`)"),
    json_output::<RecordingLine<'static>>(
        "recording",
        1,
        "one line of a recording (`rustkeep play --record`; JSON Lines: the header, then one input per line)",
    ),
];

/// The major version of the data language: the version of the schemas of files users write.
const LANGUAGE: u32 = major(LANGUAGE_VERSION);

/// The number before the first `.` of a version.
const fn major(version: &str) -> u32 {
    let bytes = version.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        n = n * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    n
}

/// A TOML file users write, described by the serde type `T` it deserializes into.
const fn toml_file<T: JsonSchema>(name: &'static str, about: &'static str) -> Target {
    Target { name, about, stem: name, version: LANGUAGE, build: derived_value::<T, true> }
}

/// The JSON output of a command, described by the serde type `T` it is serialized from.
const fn json_output<T: JsonSchema>(name: &'static str, version: u32, about: &'static str) -> Target {
    Target { name, about, stem: name, version, build: derived_value::<T, false> }
}

fn derived_value<T: JsonSchema, const TOML: bool>(d: Draft) -> Value {
    derived::<T>(d, if TOML { Kind::Toml } else { Kind::Json }).into()
}

impl Target {
    /// The target named `name`.
    pub fn named(name: &str) -> Option<&'static Target> {
        TARGETS.iter().find(|t| t.name == name)
    }

    /// The `$id`: where the schema would live, with its version, e.g.
    /// `https://rustkeep.invalid/schemas/v1/check-json.schema.json`. The `.invalid` host says
    /// that it names the schema and is not fetched.
    pub fn id(&self, d: Draft) -> String {
        format!("https://rustkeep.invalid/schemas/v{}/{}", self.version, d.file_name(self.stem))
    }

    /// The schema in dialect `d`, `$schema` and `$id` first.
    pub fn schema(&self, d: Draft) -> Value {
        let Value::Object(mut body) = (self.build)(d) else { unreachable!("a schema is an object") };
        let mut out = Map::new();
        if let Some(dialect) = body.shift_remove("$schema") {
            out.insert("$schema".into(), dialect);
        }
        out.insert("$id".into(), self.id(d).into());
        out.extend(body);
        Value::Object(out)
    }

    /// The schema as `rustkeep schema` prints it and `schemas/` keeps it.
    pub fn text(&self, d: Draft) -> String {
        let mut text = serde_json::to_string_pretty(&self.schema(d)).expect("a schema serializes");
        text.push('\n');
        text
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// Which schema; `--list` shows them all with their files.
    #[arg(long = "for", value_name = "NAME", default_value = TARGETS[0].name, value_parser = target_names())]
    pub target: String,
    /// `2020-12` (the default) or `07` (what Taplo and Tombi read).
    #[arg(long, default_value = "2020-12", value_parser = draft_names())]
    pub draft: String,
    /// List every schema: its name, its file in the repository's `schemas/`, what it describes.
    #[arg(long, conflicts_with_all = ["target", "draft"])]
    pub list: bool,
}

fn target_names() -> PossibleValuesParser {
    PossibleValuesParser::new(TARGETS.iter().map(|t| PossibleValue::new(t.name).help(t.about)))
}

fn draft_names() -> PossibleValuesParser {
    PossibleValuesParser::new(Draft::ALL.map(|d| match d {
        Draft::D07 => PossibleValue::new(d.name()).alias("draft-07"),
        Draft::D2020_12 => PossibleValue::new(d.name()),
    }))
}

pub fn run(args: Args) -> Result<u8, String> {
    let text = if args.list {
        let width = TARGETS.iter().map(|t| t.name.len()).max().unwrap_or(0);
        let file_width = TARGETS.iter().map(|t| Draft::D2020_12.file_name(t.stem).len()).max().unwrap_or(0);
        TARGETS.iter().map(|t| format!("{:<width$}  {:<file_width$}  {}\n", t.name, Draft::D2020_12.file_name(t.stem), t.about)).collect()
    } else {
        let target = Target::named(&args.target).ok_or_else(|| format!("unknown schema `{}`: `rustkeep schema --list` shows them", args.target))?;
        let draft = Draft::from_name(&args.draft).ok_or_else(|| format!("unknown draft `{}`: use 2020-12 or 07", args.draft))?;
        target.text(draft)
    };
    crate::out::print(&text, !args.list)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_version_is_read_as_its_major_number() {
        assert_eq!(major("1.1"), 1);
        assert_eq!(major("12.0"), 12);
        assert_eq!(LANGUAGE.to_string(), LANGUAGE_VERSION.split('.').next().unwrap());
    }

    #[test]
    fn names_and_files_are_unique_and_every_schema_has_its_id_and_dialect() {
        for (i, t) in TARGETS.iter().enumerate() {
            assert!(TARGETS[..i].iter().all(|u| u.name != t.name && u.stem != t.stem), "{} twice", t.name);
            for d in Draft::ALL {
                let s = t.schema(d);
                let keys: Vec<&String> = s.as_object().unwrap().keys().take(2).collect();
                assert_eq!(keys, ["$schema", "$id"], "{}", t.name);
                assert_eq!(s["$id"], t.id(d));
                assert!(t.id(d).contains(&format!("/v{}/", t.version)));
            }
        }
        assert_eq!(TARGETS[0].name, "data", "the default stays the data-file schema");
    }
}
