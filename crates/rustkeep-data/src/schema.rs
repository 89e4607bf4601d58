//! The JSON Schema of a data file (`rustkeep schema`, docs/cli.md), generated from the same field tables the loader
//! walks ([`crate::vocab`]), so the schema cannot drift from the validator. Editors with only a
//! generic TOML extension (Taplo / Even Better TOML, Tombi) get structure, enums and docs from it.
//!
//! Every other schema (`mod.toml`, `rustkeep.toml`, the JSON the commands print) is derived from
//! serde types with `schemars` through [`derived`]; `rustkeep schema --for …` lists them all.

use schemars::generate::SchemaSettings;
use schemars::transform::{RecursiveTransform, RestrictFormats};
use schemars::{JsonSchema, Schema};
use serde_json::{json, Map, Value};

use crate::vocab::*;

/// Which JSON Schema dialect to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draft {
    /// Draft 2020-12 (the default).
    D2020_12,
    /// Draft-07, which Taplo and Tombi read.
    D07,
}

impl Draft {
    /// Both dialects, the default first.
    pub const ALL: [Draft; 2] = [Draft::D2020_12, Draft::D07];

    /// The name `rustkeep schema --draft` takes.
    pub fn name(self) -> &'static str {
        match self {
            Draft::D2020_12 => "2020-12",
            Draft::D07 => "07",
        }
    }

    /// The dialect named `name` (`2020-12`, `07` or `draft-07`).
    pub fn from_name(name: &str) -> Option<Draft> {
        match name {
            "2020-12" => Some(Draft::D2020_12),
            "07" | "draft-07" => Some(Draft::D07),
            _ => None,
        }
    }

    /// What the committed file of a schema in this dialect is called: `STEM.schema.json` for
    /// 2020-12, `STEM.draft-07.schema.json` for draft-07.
    pub fn file_name(self, stem: &str) -> String {
        match self {
            Draft::D2020_12 => format!("{stem}.schema.json"),
            Draft::D07 => format!("{stem}.draft-07.schema.json"),
        }
    }

    fn settings(self) -> SchemaSettings {
        match self {
            Draft::D2020_12 => SchemaSettings::draft2020_12(),
            Draft::D07 => SchemaSettings::draft07(),
        }
    }

    fn uri(self) -> &'static str {
        match self {
            Draft::D2020_12 => "https://json-schema.org/draft/2020-12/schema",
            Draft::D07 => "http://json-schema.org/draft-07/schema#",
        }
    }
    fn defs_key(self) -> &'static str {
        match self {
            Draft::D2020_12 => "$defs",
            Draft::D07 => "definitions",
        }
    }
    fn r(self, name: &str) -> Value {
        json!({ "$ref": format!("#/{}/{}", self.defs_key(), name) })
    }
}

const RANGE_PATTERN: &str = "^[0-9]+(-[0-9]+)?$";

fn names<'a>(it: impl Iterator<Item = &'a str>) -> Value {
    Value::Array(it.map(|s| Value::String(s.to_string())).collect())
}

fn described(mut v: Value, doc: &str) -> Value {
    if !doc.is_empty() {
        if let Value::Object(m) = &mut v {
            m.insert("description".into(), Value::String(doc.to_string()));
        }
    }
    v
}

fn field_schema(d: Draft, ty: FieldType) -> Value {
    match ty {
        FieldType::Id | FieldType::Overrides | FieldType::Ref(_) => d.r("id"),
        FieldType::Str | FieldType::Tag => json!({ "type": "string" }),
        FieldType::Grid => json!({ "type": "string", "pattern": format!("^[\\s{}]*$", GRID_GLYPHS.iter().map(|g| g.0).collect::<String>()) }),
        FieldType::Bool => json!({ "type": "boolean" }),
        FieldType::True => json!({ "const": true }),
        FieldType::Int { min, max: i64::MAX } => json!({ "type": "integer", "minimum": min }),
        FieldType::Int { min, max } => json!({ "type": "integer", "minimum": min, "maximum": max }),
        FieldType::Float { min, exclusive: true } => json!({ "type": "number", "exclusiveMinimum": min }),
        FieldType::Float { min, exclusive: false } => json!({ "type": "number", "minimum": min }),
        FieldType::Chance | FieldType::Fraction => json!({ "type": "number", "exclusiveMinimum": 0, "maximum": 1 }),
        FieldType::Number => json!({ "type": "number" }),
        FieldType::Enum(v) => json!({ "type": "string", "enum": names(v.iter().copied()) }),
        FieldType::Glyph => d.r("glyph"),
        FieldType::Color => d.r("color"),
        FieldType::DamageType => d.r("damage_type"),
        FieldType::Attribute => d.r("attribute"),
        FieldType::Who => json!({ "type": "string", "enum": names(WHO.iter().map(|w| w.0)) }),
        FieldType::RefList(_) | FieldType::Tags => json!({ "type": "array", "items": d.r("id") }),
        FieldType::Range => d.r("range"),
        FieldType::AttributeTable => {
            let props: Map<String, Value> = ATTRIBUTES.iter().map(|(a, doc)| (a.to_string(), json!({ "type": "number", "description": doc }))).collect();
            json!({ "type": "object", "properties": props, "additionalProperties": false })
        }
        FieldType::Modifiers => json!({ "type": "array", "items": d.r("modifier") }),
        FieldType::Triggers => json!({ "type": "array", "items": d.r("trigger") }),
        FieldType::Actions => json!({ "type": "array", "items": d.r("action") }),
        FieldType::Ai => json!({ "type": "array", "items": d.r("ai_rule") }),
        FieldType::Conditions => json!({ "type": "array", "items": d.r("check") }),
        FieldType::Event => d.r("event"),
        FieldType::When => d.r("when"),
        FieldType::LootEntries => json!({ "type": "array", "items": d.r("loot_entry") }),
        FieldType::Paths => json!({ "type": "array", "items": { "type": "string" } }),
        FieldType::Table(fields) => object(d, fields, &[]),
        FieldType::TableList(fields) => json!({ "type": "array", "items": object(d, fields, &[]) }),
        FieldType::Actor => json!({ "type": "string", "pattern": ACTOR_PATTERN }),
        FieldType::Payload => object(d, PAYLOAD_FIELDS, &[]),
        FieldType::Action => d.r("action"),
        FieldType::StartAt => json!({ "anyOf": [ { "const": true }, d.r("id") ] }),
        FieldType::Bound { integer } => {
            let n = if integer { json!({ "type": "integer", "minimum": 0 }) } else { json!({ "type": "number" }) };
            json!({ "anyOf": [ n, { "type": "object", "properties": { "at_least": n, "below": n }, "additionalProperties": false, "minProperties": 1 } ] })
        }
    }
}

/// `player` or `enemy:N`.
const ACTOR_PATTERN: &str = "^(player|enemy:[0-9]+)$";

fn object(d: Draft, fields: &[FieldDef], extra_required: &[&str]) -> Value {
    let mut props = Map::new();
    let mut required: Vec<Value> = Vec::new();
    for f in fields {
        let mut doc = f.doc.to_string();
        if let Some(def) = f.default {
            doc.push_str(&format!(" Default: {def}."));
        }
        props.insert(f.name.to_string(), described(field_schema(d, f.ty), &doc));
        if f.required && f.name != field::ID {
            required.push(Value::String(f.name.to_string()));
        }
    }
    for r in extra_required {
        required.push(Value::String(r.to_string()));
    }
    let mut o = json!({ "type": "object", "properties": props, "additionalProperties": false });
    if !required.is_empty() {
        o["required"] = Value::Array(required);
    }
    o
}

fn tagged(d: Draft, tag: &str, name: &str, doc: &str, fields: &[FieldDef], with_not: bool) -> Value {
    let mut all: Vec<FieldDef> =
        vec![FieldDef { name: if tag == field::CHECK { field::CHECK } else { field::ACTION }, ty: FieldType::Tag, required: true, default: None, doc: "" }];
    all.extend_from_slice(fields);
    if with_not {
        all.push(NOT_FIELD);
    }
    let mut o = object(d, &all, &[]);
    o["properties"][tag] = json!({ "const": name });
    described(o, doc)
}

/// What a derived schema describes, which decides how serde types map to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A TOML file a user writes and `rustkeep` reads: the types as they deserialize; an
    /// optional key may be left out but is never `null`, since TOML has no null.
    Toml,
    /// JSON that `rustkeep` prints: the types as they serialize, `null` where they print it.
    Json,
}

/// The schema of the serde type `T` in dialect `d`. Doc comments are descriptions; formats that
/// only name a Rust type (`uint32`, `double`) are left out, since they are none of the standard's.
pub fn derived<T: JsonSchema>(d: Draft, kind: Kind) -> Schema {
    let mut settings = match kind {
        Kind::Toml => d.settings().for_deserialize(),
        Kind::Json => d.settings().for_serialize(),
    };
    if kind == Kind::Toml {
        // Before the dialect's own transforms: taking `null` out of `anyOf` can leave a `$ref`
        // beside a description, which draft-07 then wraps in `allOf`.
        settings.transforms.insert(0, Box::new(RecursiveTransform(toml_has_no_null)));
    }
    settings.with_transform(RestrictFormats::default()).into_generator().into_root_schema_for::<T>()
}

/// Takes `null` out of a schema: from a list of types, and as an alternative of `anyOf` /
/// `oneOf` (where `Option<T>` puts it). An absent key is how TOML says "none".
fn toml_has_no_null(schema: &mut Schema) {
    let Some(obj) = schema.as_object_mut() else { return };
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            obj.insert("type".into(), only);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(alternatives)) = obj.get_mut(key) else { continue };
        alternatives.retain(|a| a.get("type") != Some(&Value::from("null")));
        if let [only] = alternatives.as_slice() {
            // One alternative left: it is the schema, with the siblings (description, default).
            let only = only.clone();
            obj.remove(key);
            if let Value::Object(inner) = only {
                for (k, v) in inner {
                    obj.entry(k).or_insert(v);
                }
            }
        }
    }
}

/// The definitions both schemas refer to: IDs, ranges, the closed vocabularies, `when`, checks,
/// actions and the other nested tables.
fn shared_defs(d: Draft) -> Map<String, Value> {
    let mut defs = Map::new();
    defs.insert("id".into(), json!({ "type": "string", "pattern": ID_PATTERN, "description": "An ID `namespace:name`." }));
    defs.insert("range".into(), json!({ "description": "An integer, or a string \"min-max\".", "oneOf": [ { "type": "integer", "minimum": 0 }, { "type": "string", "pattern": RANGE_PATTERN } ] }));
    defs.insert("damage_type".into(), json!({ "type": "string", "enum": names(DAMAGE_TYPES.iter().map(|x| x.0)) }));
    let reserved: String = RESERVED_GLYPHS.iter().map(|g| g.0).collect();
    defs.insert(
        "glyph".into(),
        json!({ "type": "string", "minLength": 1, "maxLength": 1, "pattern": format!("^[^\\s{}]$", reserved.replace('.', "\\.").replace('+', "\\+").replace('*', "\\*")), "description": "One character drawn on the map; not white space and not one of the map's reserved glyphs." }),
    );
    defs.insert(
        "color".into(),
        json!({ "description": "One of the 16 terminal colour names or `#rrggbb`.", "anyOf": [ { "type": "string", "enum": names(COLORS.iter().map(|x| x.0)) }, { "type": "string", "pattern": HEX_COLOR_PATTERN } ] }),
    );
    defs.insert("attribute".into(), json!({ "type": "string", "enum": names(ATTRIBUTES.iter().map(|x| x.0)) }));
    defs.insert(
        "event".into(),
        json!({ "type": "string", "enum": names(EVENTS.iter().map(|e| e.name)), "description": EVENTS.iter().map(|e| format!("{}: {}", e.name, e.doc)).collect::<Vec<_>>().join("\n") }),
    );
    let when_props: Map<String, Value> = WHEN_FIELDS
        .iter()
        .map(|w| {
            let v = match w.value {
                WhenValue::DamageType => d.r("damage_type"),
                WhenValue::Outcome => json!({ "type": "string", "enum": names(OUTCOMES.iter().copied()) }),
                WhenValue::Id(_) => d.r("id"),
            };
            (w.name.to_string(), described(v, w.doc))
        })
        .collect();
    defs.insert(
        "when".into(),
        json!({ "type": "object", "properties": when_props, "additionalProperties": false, "description": "Event filter: every field given must match." }),
    );
    defs.insert("check".into(), json!({ "oneOf": CHECKS.iter().map(|c| tagged(d, field::CHECK, c.name, c.doc, c.fields, true)).collect::<Vec<_>>() }));
    defs.insert("action".into(), json!({ "oneOf": ACTIONS.iter().map(|a| tagged(d, field::ACTION, a.name, a.doc, a.fields, false)).collect::<Vec<_>>() }));
    let mut modifier = object(d, MODIFIER_FIELDS, &[]);
    modifier["oneOf"] = json!([ { "required": [field::ADD] }, { "required": [field::MULTIPLY] } ]);
    defs.insert("modifier".into(), modifier);
    defs.insert("trigger".into(), object(d, TRIGGER_FIELDS, &[]));
    defs.insert("ai_rule".into(), object(d, AI_FIELDS, &[]));
    let mut loot = object(d, LOOT_ENTRY_FIELDS, &[]);
    loot["oneOf"] = json!([ { "required": [field::ITEM] }, { "required": [field::TABLE] }, { "required": [field::AFFIX] }, { "required": [field::NOTHING] } ]);
    defs.insert("loot_entry".into(), loot);
    defs
}

/// The schema of one data file.
pub fn data_file_schema(d: Draft) -> Value {
    let mut defs = shared_defs(d);
    let mut props = Map::new();
    for r in REGISTRIES {
        let mut entry = object(d, r.fields, &[]);
        entry["anyOf"] = json!([ { "required": [field::ID] }, { "required": [field::OVERRIDES] } ]);
        defs.insert(r.key.to_string(), described(entry, r.doc));
        props.insert(r.key.to_string(), json!({ "type": "array", "items": d.r(r.key), "description": r.doc }));
    }
    props.insert(BALANCE_KEY.into(), described(object(d, BALANCE_FIELDS, &[]), "Balance settings; core's values are defaults a mod may set."));
    let mut root = json!({
        "$schema": d.uri(),
        "title": "rustkeep mod data file",
        "description": "A data file of a rustkeep mod: registry arrays ([[items]], [[quests]], …) and at most the table [balance].",
        "type": "object",
        "properties": props,
        "additionalProperties": false,
    });
    root[d.defs_key()] = Value::Object(defs);
    root
}

/// The schema of a scenario file (`rustkeep schema --for scenario`): its keys, `[player]`, the
/// enemy groups and the steps, each step with exactly one act.
pub fn scenario_schema(d: Draft) -> Value {
    let mut root = object(d, SCENARIO_FIELDS, &[]);
    let step = &mut root["properties"][field::STEPS]["items"];
    step["oneOf"] = Value::Array(STEP_ACTS.iter().map(|a| json!({ "required": [a] })).collect());
    root["$schema"] = json!(d.uri());
    root["title"] = json!("rustkeep scenario");
    root["description"] = json!("A scenario of `rustkeep simulate` and `rustkeep arena`: the player, the enemies and the steps.");
    root[d.defs_key()] = Value::Object(shared_defs(d));
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registry_and_vocabulary_list_is_in_the_schema() {
        for d in [Draft::D2020_12, Draft::D07] {
            let s = data_file_schema(d);
            for r in REGISTRIES {
                assert!(s["properties"][r.key].is_object(), "{}", r.key);
            }
            let defs = &s[d.defs_key()];
            assert_eq!(defs["event"]["enum"].as_array().unwrap().len(), EVENTS.len());
            assert_eq!(defs["check"]["oneOf"].as_array().unwrap().len(), CHECKS.len());
            assert_eq!(defs["action"]["oneOf"].as_array().unwrap().len(), ACTIONS.len());
            assert_eq!(defs["attribute"]["enum"].as_array().unwrap().len(), ATTRIBUTES.len());
            let sc = scenario_schema(d);
            for f in SCENARIO_FIELDS {
                assert!(sc["properties"][f.name].is_object(), "{}", f.name);
            }
            assert_eq!(sc["properties"][field::STEPS]["items"]["oneOf"].as_array().unwrap().len(), STEP_ACTS.len());
        }
    }
}
