//! (d) Generated loot tables: random nesting (cycles included), weights up to i64::MAX (the TOML
//! limit) whose sums pass u64, ranges up to u32::MAX, guaranteed entries, affix tables. Exact
//! analysis and seeded rolls of every table: a result or a clear refusal, never a panic or a hang.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rustkeep_fuzz::{check_loot, project_with};

#[derive(Arbitrary, Debug)]
enum Num {
    Small(u8),
    Big(u32),
    Max,
    Huge(u64),
}

impl Num {
    fn render(&self) -> String {
        match self {
            Num::Small(n) => n.to_string(),
            Num::Big(n) => n.to_string(),
            Num::Max => u32::MAX.to_string(),
            // Past u32: a range must refuse it; past i64 the TOML is invalid.
            Num::Huge(n) => n.to_string(),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum RangeV {
    Int(Num),
    Str(Num),
    Span(Num, Num),
    Bad(String),
}

impl RangeV {
    fn render(&self) -> String {
        match self {
            RangeV::Int(n) => n.render(),
            RangeV::Str(n) => format!("\"{}\"", n.render()),
            RangeV::Span(a, b) => format!("\"{}-{}\"", a.render(), b.render()),
            RangeV::Bad(s) => format!("{s:?}"),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Weight {
    None,
    Small(u8),
    Max,
    Any(i64),
    Float(f64),
}

#[derive(Arbitrary, Debug)]
enum What {
    Item(u8, Option<RangeV>, Option<u8>),
    Table(u8),
    Affix(u8),
    Nothing,
}

#[derive(Arbitrary, Debug)]
struct Entry {
    what: What,
    weight: Weight,
    guaranteed: bool,
}

#[derive(Arbitrary, Debug)]
struct Table {
    rolls: Option<RangeV>,
    entries: Vec<Entry>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    tables: Vec<Table>,
    luck: f64,
    luck_factor: Option<f64>,
    rolls: u8,
}

fn float(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:?}")
    }
}

fuzz_target!(|input: Input| {
    if input.tables.is_empty() || input.tables.len() > 40 {
        return;
    }
    let n = input.tables.len();
    let mut text = String::new();
    if let Some(f) = input.luck_factor {
        text.push_str(&format!("[balance]\nluck_factor = {}\n\n", float(f)));
    }
    for i in 0..8 {
        text.push_str(&format!("[[items]]\nid = \"fz:item{i}\"\nname = \"I{i}\"\n\n[[affixes]]\nid = \"fz:affix{i}\"\nname = \"A{i}\"\n\n"));
    }
    for (i, t) in input.tables.iter().enumerate() {
        text.push_str(&format!("[[loot_tables]]\nid = \"fz:t{i}\"\n"));
        if let Some(r) = &t.rolls {
            text.push_str(&format!("rolls = {}\n", r.render()));
        }
        text.push_str("entries = [\n");
        for e in t.entries.iter().take(24) {
            let mut fields = match &e.what {
                What::Item(k, count, affixes) => {
                    let mut s = format!("item = \"fz:item{}\"", k % 8);
                    if let Some(c) = count {
                        s.push_str(&format!(", count = {}", c.render()));
                    }
                    if let Some(a) = affixes {
                        s.push_str(&format!(", affixes = \"fz:t{}\"", *a as usize % n));
                    }
                    s
                }
                What::Table(k) => format!("table = \"fz:t{}\"", *k as usize % n),
                What::Affix(k) => format!("affix = \"fz:affix{}\"", k % 8),
                What::Nothing => "nothing = true".into(),
            };
            match e.weight {
                Weight::None => {}
                Weight::Small(w) => fields.push_str(&format!(", weight = {w}")),
                Weight::Max => fields.push_str(&format!(", weight = {}", i64::MAX)),
                Weight::Any(w) => fields.push_str(&format!(", weight = {w}")),
                Weight::Float(w) => fields.push_str(&format!(", weight = {}", float(w))),
            }
            if e.guaranteed {
                fields.push_str(", guaranteed = true");
            }
            text.push_str(&format!("  {{ {fields} }},\n"));
        }
        text.push_str("]\n\n");
    }
    let p = project_with(&[("loot.toml", text.as_bytes())]);
    let a = rustkeep_fuzz::analyze(&p);
    check_loot(&a, input.luck, u64::from(input.rolls % 4));
});
