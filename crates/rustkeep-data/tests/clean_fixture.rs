//! The clean fixture (`tests/fixtures/clean_everything`) uses the whole vocabulary: every field of
//! every registry, trigger, modifier, `ai` rule, loot entry, check and action, every `when` field,
//! every event, check and action. The validator's harness (`rustkeep-check/tests/fixtures.rs`)
//! proves the fixture is silent; this test proves it is complete, so a new row of the vocabulary
//! fails here until the fixture shows it in use (docs/ARCHITECTURE.md, "How to …").

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rustkeep_data::tree::parse_toml;
use rustkeep_data::vocab::{
    field, ActionKind, CheckKind, FieldDef, FieldType, ACTIONS, ACTION_FIELD, AI_FIELDS, BALANCE_FIELDS, BALANCE_KEY, CHECKS, CHECK_FIELD, EVENTS,
    LOOT_ENTRY_FIELDS, MODIFIER_FIELDS, NOT_FIELD, REGISTRIES, TRIGGER_FIELDS, WHEN_FIELDS,
};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/clean_everything")
}

/// What the fixture uses: `(context, key)` pairs and the names given to `on`, `check`, `action`.
#[derive(Default)]
struct Used {
    keys: BTreeSet<(String, String)>,
    events: BTreeSet<String>,
}

impl Used {
    /// The keys of one table whose fields are `defs`, in `context`; nested structure follows the
    /// field types, so the walk is driven by the vocabulary's rows like the lowering is.
    fn table(&mut self, context: &str, defs: &[FieldDef], t: &DeTable<'_>) {
        for (k, v) in t.iter() {
            let key = k.get_ref().as_ref();
            self.keys.insert((context.to_string(), key.to_string()));
            let Some(def) = defs.iter().find(|d| d.name == key) else { continue };
            match def.ty {
                FieldType::Event => {
                    if let DeValue::String(s) = v.get_ref() {
                        self.events.insert(s.to_string());
                    }
                }
                FieldType::When => {
                    if let DeValue::Table(w) = v.get_ref() {
                        for (wk, _) in w.iter() {
                            self.keys.insert(("when".into(), wk.get_ref().to_string()));
                        }
                    }
                }
                FieldType::Triggers => self.each("trigger", TRIGGER_FIELDS, v),
                FieldType::Modifiers => self.each("modifier", MODIFIER_FIELDS, v),
                FieldType::Ai => self.each("ai", AI_FIELDS, v),
                FieldType::LootEntries => self.each("loot entry", LOOT_ENTRY_FIELDS, v),
                FieldType::Conditions => self.tagged(v, field::CHECK, |name| CheckKind::from_name(name).map(|k| k.def().fields)),
                FieldType::Actions => self.tagged(v, field::ACTION, |name| ActionKind::from_name(name).map(|k| k.def().fields)),
                _ => {}
            }
        }
    }

    fn each(&mut self, context: &str, defs: &[FieldDef], v: &Spanned<DeValue<'_>>) {
        if let DeValue::Array(items) = v.get_ref() {
            for item in items.iter() {
                if let DeValue::Table(t) = item.get_ref() {
                    self.table(context, defs, t);
                }
            }
        }
    }

    /// A list of checks or actions: each table is in the context `check:has_tag`, `action:heal`, …
    fn tagged(&mut self, v: &Spanned<DeValue<'_>>, tag: &str, fields_of: impl Fn(&str) -> Option<&'static [FieldDef]>) {
        let DeValue::Array(items) = v.get_ref() else { return };
        for item in items.iter() {
            let DeValue::Table(t) = item.get_ref() else { continue };
            let Some(name) = t.iter().find(|(k, _)| k.get_ref().as_ref() == tag).and_then(|(_, v)| match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                _ => None,
            }) else {
                continue;
            };
            let Some(defs) = fields_of(&name) else { continue };
            self.table(&format!("{tag}:{name}"), defs, t);
        }
    }
}

fn used() -> Used {
    let mut used = Used::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture()).expect("the clean fixture").flatten().map(|e| e.path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "toml") && !p.ends_with("mod.toml")) {
        let text = std::fs::read_to_string(path).expect("readable fixture file");
        let (root, errors) = parse_toml(&text);
        assert!(errors.is_empty(), "{} parses", path.display());
        for (k, v) in root.get_ref().iter() {
            let key = k.get_ref().as_ref();
            if key == BALANCE_KEY {
                if let DeValue::Table(t) = v.get_ref() {
                    used.table(BALANCE_KEY, BALANCE_FIELDS, t);
                }
                continue;
            }
            let Some(r) = REGISTRIES.iter().find(|r| r.key == key) else { continue };
            used.each(&format!("[[{}]]", r.key), r.fields, v);
        }
    }
    used
}

/// Every `(context, key)` the vocabulary defines.
fn expected() -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for r in REGISTRIES {
        // Every entry has an `id` or `overrides`; whether one replaces a core entry is shown once
        // below, not once per registry.
        out.extend(r.fields.iter().filter(|f| f.name != field::ID && f.name != field::OVERRIDES).map(|f| (format!("[[{}]]", r.key), f.name)));
    }
    for (context, defs) in
        [(BALANCE_KEY, BALANCE_FIELDS), ("trigger", TRIGGER_FIELDS), ("modifier", MODIFIER_FIELDS), ("ai", AI_FIELDS), ("loot entry", LOOT_ENTRY_FIELDS)]
    {
        out.extend(defs.iter().map(|f| (context.to_string(), f.name)));
    }
    for c in CHECKS {
        out.push((format!("{}:{}", field::CHECK, c.name), CHECK_FIELD.name));
        out.extend(c.fields.iter().map(|f| (format!("{}:{}", field::CHECK, c.name), f.name)));
    }
    for a in ACTIONS {
        out.push((format!("{}:{}", field::ACTION, a.name), ACTION_FIELD.name));
        out.extend(a.fields.iter().map(|f| (format!("{}:{}", field::ACTION, a.name), f.name)));
    }
    out.extend(WHEN_FIELDS.iter().map(|w| ("when".to_string(), w.name)));
    out
}

#[test]
fn the_clean_fixture_uses_every_field_in_every_place() {
    let used = used();
    let missing: Vec<String> =
        expected().into_iter().filter(|(c, k)| !used.keys.contains(&(c.clone(), k.to_string()))).map(|(c, k)| format!("`{k}` in {c}")).collect();
    assert!(missing.is_empty(), "tests/fixtures/clean_everything never uses:\n{}", missing.join("\n"));
    // `not` negates any check; `overrides` replaces an entry of any registry.
    assert!(used.keys.iter().any(|(c, k)| c.starts_with("check:") && k == NOT_FIELD.name), "no check uses `not`");
    assert!(used.keys.iter().any(|(c, k)| c.starts_with("[[") && k == field::OVERRIDES), "no entry uses `overrides`");
}

#[test]
fn the_clean_fixture_listens_to_every_event() {
    let used = used();
    let missing: Vec<&str> = EVENTS.iter().map(|e| e.name).filter(|e| !used.events.contains(*e)).collect();
    assert!(missing.is_empty(), "no trigger or quest of tests/fixtures/clean_everything listens to {missing:?}");
}
