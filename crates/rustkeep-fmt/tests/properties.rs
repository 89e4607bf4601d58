//! Properties over many inputs: mod files made by a small seeded generator (every layout the
//! formatter meets in the wild: comments everywhere, blank lines, odd spacing, dotted keys, both
//! entry forms, sub-tables, long values, multi-line strings, trailing commas, CRLF, byte-order
//! marks) and every `.toml` file of the repository. For each: the value is kept (read by an
//! independent parser), formatting again changes nothing, no trailing whitespace, no line over the
//! width that could have been wrapped, one final newline, line ending and byte-order mark kept.

mod common;

use common::*;
use rustkeep_data::vocab::{FieldDef, FieldType, Registry, ACTIONS, CHECKS, TRIGGER_FIELDS, WHEN_FIELDS};
use rustkeep_fmt::{format_document, FileKind, FormatError, FormatOptions, TomlVersion};

/// SplitMix64: tiny, seeded, good enough to pick layouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A mod data file in a random layout.
struct Gen {
    rng: Rng,
    nl: &'static str,
    out: String,
}

const WORDS: &[&str] = &["rat", "ember", "frost", "bone", "ash", "gloom", "thorn", "silver", "Äther", "kobold", "crypt", "lantern"];

impl Gen {
    fn ws(&mut self) -> &'static str {
        let ws: &&'static str = self.rng.pick(&[" ", " ", " ", "", "  ", "\t"]);
        ws
    }

    fn comment(&mut self) -> String {
        let w = self.rng.pick(WORDS);
        let trailing_space = if self.rng.chance(10) { "  " } else { "" };
        format!("#{}{w} note{trailing_space}", if self.rng.chance(80) { " " } else { "" })
    }

    /// Blank lines and comment lines before something, each on its own line.
    fn lead(&mut self, indent: &str) {
        let n = if self.rng.chance(60) { 0 } else { self.rng.below(4) };
        for _ in 0..n {
            if self.rng.chance(50) {
                self.out.push_str(self.nl);
            } else {
                let c = self.comment();
                self.out.push_str(&format!("{indent}{c}{}", self.nl));
            }
        }
    }

    fn trailing(&mut self) -> String {
        if self.rng.chance(20) {
            format!(" {}", self.comment())
        } else {
            String::new()
        }
    }

    fn string(&mut self) -> String {
        let mut s = String::new();
        let words = if self.rng.chance(10) { 12 + self.rng.below(20) } else { 1 + self.rng.below(3) };
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            let w: &&str = self.rng.pick(WORDS);
            s.push_str(w);
        }
        if self.rng.chance(20) {
            format!("'{s}'")
        } else {
            format!("\"{s}\"")
        }
    }

    fn id(&mut self) -> String {
        format!("\"gen:{}_{}\"", self.rng.pick(WORDS).to_lowercase().replace('ä', "ae"), self.rng.below(50))
    }

    fn int(&mut self) -> String {
        match self.rng.below(5) {
            0 => "0x1F".into(),
            1 => "1_000".into(),
            _ => (1 + self.rng.below(40)).to_string(),
        }
    }

    /// An array in a random layout: one line, or one element per line with comments, with or
    /// without a trailing comma.
    fn array(&mut self, elems: Vec<String>, indent: &str) -> String {
        let mut s = String::from("[");
        if elems.is_empty() {
            s.push(']');
            return s;
        }
        let multiline = self.rng.chance(35);
        let inner = format!("{indent}  ");
        if multiline && self.rng.chance(20) {
            s.push_str(&format!(" {}", self.comment()));
        }
        for (i, e) in elems.iter().enumerate() {
            if multiline {
                s.push_str(self.nl);
                if self.rng.chance(20) {
                    let c = self.comment();
                    s.push_str(&format!("{inner}{c}{}", self.nl));
                }
                if i > 0 && self.rng.chance(10) {
                    s.push_str(self.nl);
                }
                s.push_str(&inner);
            } else if i > 0 || self.rng.chance(30) {
                s.push(' ');
            }
            s.push_str(e);
            if i + 1 < elems.len() || self.rng.chance(30) {
                s.push(',');
                if multiline && self.rng.chance(15) {
                    s.push_str(&format!(" {}", self.comment()));
                }
            }
        }
        if multiline {
            s.push_str(self.nl);
            if self.rng.chance(15) {
                let c = self.comment();
                s.push_str(&format!("{inner}{c}{}", self.nl));
            }
            s.push_str(indent);
        } else if self.rng.chance(30) {
            s.push(' ');
        }
        s.push(']');
        s
    }

    /// An inline table of `fields` in a shuffled order.
    fn inline(&mut self, mut fields: Vec<(String, String)>) -> String {
        for i in (1..fields.len()).rev() {
            let j = self.rng.below(i + 1);
            fields.swap(i, j);
        }
        let ws = self.ws();
        let body: Vec<String> = fields.iter().map(|(k, v)| format!("{k}{ws}={ws}{v}")).collect();
        if body.is_empty() {
            "{}".into()
        } else {
            format!("{{{ws}{}{ws}}}", body.join(&format!(",{ws}")))
        }
    }

    /// `head = "NAME"`, then every required field of `defs` and half of the others.
    fn named(&mut self, head: &str, name: &str, defs: &[FieldDef]) -> Vec<(String, String)> {
        let mut fields = vec![(head.to_string(), format!("\"{name}\""))];
        for f in defs {
            if f.required || self.rng.chance(50) {
                let v = self.scalar(f);
                fields.push((f.name.to_string(), v));
            }
        }
        fields
    }

    fn action(&mut self) -> String {
        let a = self.rng.pick(ACTIONS);
        let fields = self.named("action", a.name, a.fields);
        self.inline(fields)
    }

    fn check(&mut self) -> String {
        let c = self.rng.pick(CHECKS);
        let mut fields = self.named("check", c.name, c.fields);
        if self.rng.chance(20) {
            fields.push(("not".into(), "true".into()));
        }
        self.inline(fields)
    }

    fn scalar(&mut self, f: &FieldDef) -> String {
        match f.ty {
            FieldType::Who => "\"target\"".into(),
            FieldType::Int { .. } => self.int(),
            FieldType::Float { .. } | FieldType::Chance | FieldType::Fraction | FieldType::Number => format!("0.{}", 1 + self.rng.below(9)),
            FieldType::Bool | FieldType::True => "true".into(),
            FieldType::Ref(_) | FieldType::Id | FieldType::Overrides => self.id(),
            FieldType::Attribute => "\"damage\"".into(),
            FieldType::DamageType => "\"fire\"".into(),
            FieldType::Event => "\"attack_hit\"".into(),
            FieldType::Range => "\"1-3\"".into(),
            _ => self.string(),
        }
    }

    fn trigger(&mut self, indent: &str) -> String {
        let mut fields = Vec::new();
        for f in TRIGGER_FIELDS {
            if f.required || self.rng.chance(60) {
                let v = self.value(f, indent);
                fields.push((f.name.to_string(), v));
            }
        }
        self.inline(fields)
    }

    fn value(&mut self, f: &FieldDef, indent: &str) -> String {
        let inner = format!("{indent}  ");
        match f.ty {
            FieldType::Triggers => {
                let elems = (0..1 + self.rng.below(2)).map(|_| self.trigger(&inner)).collect();
                self.array(elems, indent)
            }
            FieldType::Actions => {
                let elems = (0..self.rng.below(4)).map(|_| self.action()).collect();
                self.array(elems, indent)
            }
            FieldType::Conditions => {
                let elems = (0..self.rng.below(3)).map(|_| self.check()).collect();
                self.array(elems, indent)
            }
            FieldType::Modifiers => {
                let elems = (0..self.rng.below(3))
                    .map(|_| {
                        let add = self.int();
                        let mut fields = vec![("attribute".to_string(), "\"armor\"".to_string()), ("add".to_string(), add)];
                        if self.rng.chance(30) {
                            let c = self.check();
                            fields.push(("condition".into(), format!("[{c}]")));
                        }
                        self.inline(fields)
                    })
                    .collect();
                self.array(elems, indent)
            }
            FieldType::LootEntries => {
                let elems = (0..1 + self.rng.below(4))
                    .map(|_| {
                        let id = self.id();
                        let w = self.int();
                        self.inline(vec![("weight".into(), w), ("item".into(), id), ("count".into(), "\"1-2\"".into())])
                    })
                    .collect();
                self.array(elems, indent)
            }
            FieldType::When => {
                let w = self.rng.pick(WHEN_FIELDS);
                let v = self.id();
                self.inline(vec![(w.name.to_string(), v)])
            }
            FieldType::Tags | FieldType::RefList(_) => {
                let elems = (0..self.rng.below(6)).map(|_| self.id()).collect();
                self.array(elems, indent)
            }
            FieldType::AttributeTable => {
                let elems = vec![("level".to_string(), self.int()), ("max_health".to_string(), self.int()), ("speed".to_string(), "1.5".to_string())];
                self.inline(elems)
            }
            FieldType::Grid => {
                let rows = ["#####", "#.@.#", "#e.l#", "##+##"];
                let mut s = String::from("\"\"\"");
                for r in rows {
                    s.push_str(self.nl);
                    s.push_str(r);
                    if self.rng.chance(10) {
                        s.push_str("  ");
                    }
                }
                s.push_str(self.nl);
                s.push_str("\"\"\"");
                s
            }
            _ => self.scalar(f),
        }
    }

    /// The key-value lines of one entry, in a shuffled order.
    /// Returns whether the entry got an inline `triggers` (then it takes no `[[….triggers]]`).
    fn body(&mut self, registry: Registry) -> bool {
        let mut fields: Vec<&FieldDef> = registry.def().fields.iter().filter(|f| f.required || self.rng.chance(50)).collect();
        for i in (1..fields.len()).rev() {
            let j = self.rng.below(i + 1);
            fields.swap(i, j);
        }
        let unknown = self.rng.chance(20);
        for (i, f) in fields.iter().enumerate() {
            self.lead("");
            let ws = self.ws();
            let indent = if self.rng.chance(10) { "  " } else { "" };
            if f.ty == FieldType::AttributeTable && self.rng.chance(50) {
                // Dotted keys instead of an inline table.
                let t = self.trailing();
                let (a, b) = (self.int(), self.int());
                self.out.push_str(&format!("{indent}attributes.level{ws}={ws}{a}{t}{}attributes . max_health = {b}{}", self.nl, self.nl));
            } else {
                let v = self.value(f, indent);
                let t = self.trailing();
                self.out.push_str(&format!("{indent}{}{ws}={ws}{v}{t}{}", f.name, self.nl));
            }
            if unknown && i == fields.len() / 2 {
                let v = self.string();
                self.out.push_str(&format!("flavour_text = {v}{}", self.nl));
            }
        }
        fields.iter().any(|f| f.name == "triggers")
    }

    fn file(seed: u64) -> String {
        let mut g = Gen { rng: Rng(seed), nl: "\n", out: String::new() };
        if g.rng.chance(20) {
            g.nl = "\r\n";
        }
        if g.rng.chance(10) {
            g.out.push('\u{feff}');
        }
        g.lead("");
        let registries =
            [Registry::Items, Registry::Creatures, Registry::Quests, Registry::LootTables, Registry::Prefabs, Registry::Statuses, Registry::Floors];
        // Some entries in the inline form first (top-level keys must come before any header, and
        // that registry then has no `[[…]]` blocks).
        let mut inline_registry = None;
        if g.rng.chance(30) {
            let r = *g.rng.pick(&registries);
            inline_registry = Some(r);
            let n = 1 + g.rng.below(3);
            let mut elems = Vec::new();
            for _ in 0..n {
                let mut fields: Vec<(String, String)> = Vec::new();
                for f in r.def().fields {
                    if f.required || g.rng.chance(40) {
                        let v = g.value(f, "  ");
                        fields.push((f.name.to_string(), v));
                    }
                }
                elems.push(g.inline(fields));
            }
            let arr = g.array(elems, "");
            let nl = g.nl;
            g.out.push_str(&format!("{} = {arr}{nl}", r.key()));
        }
        for _ in 0..1 + g.rng.below(6) {
            let r = *g.rng.pick(&registries);
            if Some(r) == inline_registry {
                continue;
            }
            g.lead("");
            let t = g.trailing();
            let nl = g.nl;
            g.out.push_str(&format!("[[{}]]{t}{nl}", r.key()));
            let has_triggers = g.body(r);
            if r == Registry::Items && !has_triggers && g.rng.chance(30) {
                g.lead("");
                g.out.push_str(&format!("[[ items . triggers ]]{nl}"));
                for f in TRIGGER_FIELDS {
                    if f.required || g.rng.chance(60) {
                        let v = g.value(f, "");
                        g.out.push_str(&format!("{} = {v}{nl}", f.name));
                    }
                }
            }
        }
        if g.rng.chance(30) {
            let nl = g.nl;
            g.out.push_str(&format!("{nl}[balance]{nl}luck_factor = 0.1{nl}"));
        }
        g.lead("");
        g.out
    }
}

#[test]
fn generated_mod_files_keep_their_meaning_and_stay_formatted() {
    let widths = [20, 40, 60, 100, 140];
    let mut changed = 0;
    for seed in 0..400u64 {
        let text = Gen::file(seed);
        if let Err(e) = read(&text) {
            panic!("seed {seed}: the generator wrote invalid TOML ({e}):\n{text}");
        }
        // One file in three in TOML 1.1, where inline tables open too.
        let toml_version = if seed % 3 == 0 { TomlVersion::V1_1 } else { TomlVersion::V1_0 };
        let options = FormatOptions { line_width: widths[seed as usize % widths.len()], reorder_keys: seed % 7 != 0, kind: FileKind::Data, toml_version };
        let out = check_invariants(&format!("generated #{seed}"), &text, &options);
        changed += usize::from(out != text);
    }
    assert!(changed > 300, "the generator should mostly write unformatted files ({changed} of 400 changed)");
}

#[test]
fn every_toml_file_of_the_repository_keeps_its_meaning_and_stays_formatted() {
    let root = repo_root();
    let mut formatted = 0;
    let mut refused = 0;
    for path in toml_files(&root) {
        let label = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        for width in [40, 100] {
            let options = FormatOptions { line_width: width, kind: FileKind::of_path(&path), ..FormatOptions::default() };
            match read(&text) {
                Ok(_) => {
                    check_invariants(&label, &text, &options);
                    formatted += 1;
                }
                // Fixtures with syntax errors on purpose: refused, never changed.
                Err(_) => {
                    assert!(matches!(format_document(&text, &options), Err(FormatError::Syntax(_))), "{label}");
                    refused += 1;
                }
            }
        }
    }
    assert!(formatted > 100 && refused > 0, "{formatted} formatted, {refused} refused");
}
