//! Names and numbers in English: an entry's name or its ID in words, articles, plurals, lists,
//! counts, turns and percentages, attributes and their values as a player reads them.

use rustkeep_data::vocab::{attr, IdText, Registry, RESISTANCES};

use rustkeep_engine::game::{shown, World};

/// An entry's `name`, else its ID in words (`core:rat_den` is "Rat Den"): entries of registries
/// without names (prefabs, loot tables) and unknown IDs are called so.
pub fn entry_name(w: &World, registry: Registry, id: &str) -> String {
    match w.entry(registry, id).and_then(|e| e.name()) {
        Some(n) if !n.trim().is_empty() => n.to_string(),
        _ => id_in_words(id),
    }
}

/// An ID in words: the part after the namespace, each `_`- or `/`-separated word capitalised.
pub fn id_in_words(id: &str) -> String {
    let local = IdText::of(id).name();
    let words: Vec<String> = local.split(['_', '/']).filter(|p| !p.is_empty()).map(capitalized).collect();
    if words.is_empty() {
        if id.is_empty() {
            "(no ID)".into()
        } else {
            id.to_string()
        }
    } else {
        words.join(" ")
    }
}

pub(super) fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn and_list<S: AsRef<str>>(parts: &[S]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => format!("{} and {}", init.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(", "), last.as_ref()),
    }
}

/// A name that takes no article: "The Rat King", "Morvath the Undying" (but not "Torc of the
/// Rat King", which is one of a kind of thing).
pub fn is_proper(name: &str) -> bool {
    name.starts_with("The ") || (name.contains(" the ") && !name.contains(" of the "))
}

/// One of a thing: "a Health Potion", "an Iron Key", "The Rat King".
pub(super) fn a(name: &str) -> String {
    if is_proper(name) {
        return name.to_string();
    }
    let vowel = name.chars().next().is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// The plural of a name: its head noun (the last word before " of ") takes the ending.
pub(super) fn plural(name: &str) -> String {
    let (head, tail) = match name.find(" of ") {
        Some(i) => (&name[..i], &name[i..]),
        None => (name, ""),
    };
    let (pre, last) = match head.rfind(' ') {
        Some(i) => (&head[..=i], &head[i + 1..]),
        None => ("", head),
    };
    format!("{pre}{}{tail}", plural_word(last))
}

fn plural_word(word: &str) -> String {
    let lower = word.to_lowercase();
    let stem = |n: usize| &word[..word.len() - n];
    if ["s", "x", "z", "ch", "sh"].iter().any(|e| lower.ends_with(e)) {
        format!("{word}es")
    } else if lower.len() > 1 && lower.ends_with('y') && !["ay", "ey", "oy", "uy"].iter().any(|e| lower.ends_with(e)) {
        format!("{}ies", stem(1))
    } else if lower.ends_with("lf") {
        format!("{}ves", stem(1))
    } else if lower.ends_with("fe") {
        format!("{}ves", stem(2))
    } else if word.is_empty() {
        String::new()
    } else {
        format!("{word}s")
    }
}

/// `n` of an entry, in words: "a Health Potion", "2 Health Potions", "2 × The Rat King".
pub(super) fn counted(w: &World, registry: Registry, id: &str, n: u32) -> String {
    let name = entry_name(w, registry, id);
    if n == 1 {
        a(&name)
    } else if is_proper(&name) {
        format!("{n} × {name}")
    } else {
        format!("{n} {}", plural(&name))
    }
}

/// `n` of an entry with the number written: "1 Gold Coin", "30 Gold Coins".
pub(super) fn numbered(w: &World, registry: Registry, id: &str, n: i64) -> String {
    let name = entry_name(w, registry, id);
    if n == 1 || is_proper(&name) {
        format!("{n} {name}")
    } else {
        format!("{n} {}", plural(&name))
    }
}

/// `1 turn`, `3 turns`.
pub(super) fn turns(n: u32) -> String {
    format!("{n} turn{}", if n == 1 { "" } else { "s" })
}

/// " twice", " 5 times", nothing for once.
pub(super) fn times(n: u32) -> String {
    match n {
        0 | 1 => String::new(),
        2 => " twice".into(),
        n => format!(" {n} times"),
    }
}

/// A fraction as a percentage: `0.15` is "15 %".
pub(super) fn percent(f: f64) -> String {
    format!("{} %", shown(f * 100.0))
}

/// An attribute's name in words: `max_health` is "max health".
pub(super) fn attribute_words(attribute: &str) -> String {
    attribute.replace('_', " ")
}

/// Attributes that are fractions, shown as percentages: the critical hit chance and the
/// resistances.
fn is_fraction(attribute: &str) -> bool {
    attribute == attr::CRIT_CHANCE || RESISTANCES.iter().any(|(_, a)| *a == attribute)
}

/// A value of an attribute as a player reads it: "0.3" of a resistance is "30 %".
pub(super) fn attribute_value(attribute: &str, v: f64) -> String {
    if is_fraction(attribute) {
        percent(v)
    } else {
        shown(v)
    }
}
