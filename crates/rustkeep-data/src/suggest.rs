//! "Did you mean": the closest candidate by edit distance, plus known aliases, and whether a
//! suggestion is certain enough to be applied without asking ([`judge`]; docs/checking.md, "Fix
//! safety").

use crate::diag::Applicability;

/// Levenshtein distance over Unicode scalar values, bounded: returns `None` once it exceeds `max`.
/// IDs and names are ASCII, so that case runs on bytes with one reusable row and no allocation
/// per candidate (did-you-mean scans whole registries).
pub fn distance(a: &str, b: &str, max: usize) -> Option<usize> {
    if a.is_ascii() && b.is_ascii() {
        return bounded(a.as_bytes(), b.as_bytes(), max);
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    bounded(&a, &b, max)
}

fn bounded<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    // Two rows on the stack for short strings, on the heap otherwise.
    let mut small = [0usize; 2 * 64];
    let mut large = Vec::new();
    let rows: &mut [usize] = if b.len() < 64 {
        &mut small[..2 * (b.len() + 1)]
    } else {
        large.resize(2 * (b.len() + 1), 0);
        &mut large
    };
    let (prev, cur) = rows.split_at_mut(b.len() + 1);
    let (mut prev, mut cur) = (prev, cur);
    for (j, p) in prev.iter_mut().enumerate() {
        *p = j;
    }
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            row_min = row_min.min(cur[j]);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}

/// How close a candidate is to a word, ordered closest first: the word itself without
/// surrounding blanks, then the word in lower case, then by edit distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Closeness(u8, usize);

/// A word to find plausible typos of, prepared once for many candidates.
#[derive(Clone, Debug)]
pub struct Matcher {
    word: String,
    trimmed: String,
    lower: String,
    max: usize,
}

impl Matcher {
    pub fn new(word: &str) -> Matcher {
        let trimmed = word.trim();
        let max = (trimmed.chars().count() / 3).clamp(1, 4);
        Matcher { word: word.to_string(), trimmed: trimmed.to_string(), lower: trimmed.to_lowercase(), max }
    }

    /// How close `candidate` is, or `None` when it is the word itself or too far to be a typo.
    pub fn closeness(&self, candidate: &str) -> Option<Closeness> {
        if candidate == self.word {
            None
        } else if candidate == self.trimmed {
            Some(Closeness(0, 0))
        } else if candidate == self.lower {
            Some(Closeness(1, 0))
        } else {
            distance(&self.lower, candidate, self.max).map(|d| Closeness(2, d))
        }
    }
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo. Ties go to the
/// candidate that sorts first, so the answer never depends on the order of the candidates (the
/// language server updates suggestions as IDs come and go, and must agree with a fresh check).
pub fn closest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let m = Matcher::new(word);
    let mut best: Option<(Closeness, &'a str)> = None;
    for c in candidates {
        if let Some(k) = m.closeness(c) {
            if best.is_none_or(|b| (k, c) < b) {
                best = Some((k, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// For an ID: a word without a namespace means the ID of that name (`moth_loot` →
/// `lantern_guild:moth_loot`; the first by ID when several mods have one), or the ID whose name is
/// closest to it (ties to the first by ID); a word with a namespace, the [`closest`] ID.
pub fn closest_id<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    let w = word.trim();
    if w.contains(':') {
        return closest(word, candidates);
    }
    let m = Matcher::new(w);
    let mut best: Option<(Closeness, &'a str)> = None;
    for c in candidates {
        if let Some(k) = name_closeness(&m, w, c) {
            if best.is_none_or(|b| (k, c) < b) {
                best = Some((k, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// How close the name of the ID `candidate` (the part after its namespace) is to `name`, a word
/// without a namespace (`m` is its matcher): the same name ranks first.
pub fn name_closeness(m: &Matcher, name: &str, candidate: &str) -> Option<Closeness> {
    let of = candidate.split_once(':').map_or(candidate, |(_, n)| n);
    if of == name.trim() {
        Some(Closeness(0, 0))
    } else {
        m.closeness(of)
    }
}

/// Like [`closest`], but a known alias wins (`enemy_killed` → `creature_died`).
pub fn closest_with_aliases<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>, aliases: &'a [(&'a str, &'a str)]) -> Option<&'a str> {
    let lower = word.trim().to_lowercase();
    if let Some((_, to)) = aliases.iter().find(|(from, _)| *from == lower) {
        return Some(to);
    }
    closest(word, candidates)
}

/// The optimal-string-alignment distance of two short ASCII-or-not strings, bounded like
/// [`distance`]: Levenshtein plus the swap of two neighbouring characters as one edit
/// (`atack` → `attack` is one edit, and so is `tonsg` → `tongs`).
pub fn swap_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (i, row) in d.chunks_mut(w).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        let mut row_min = usize::MAX;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1).min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
            row_min = row_min.min(v);
        }
        if b.is_empty() {
            row_min = d[i * w];
        }
        if row_min > max {
            return None;
        }
    }
    let v = d[a.len() * w + b.len()];
    (v <= max).then_some(v)
}

/// Whether replacing `word` by `suggestion`, one of the names of a closed vocabulary
/// (`candidates`: registry names, field names, events, checks, actions, attributes, damage types,
/// the values of an enumeration), is certainly what was meant. It is when the two are the same
/// name but for case and surrounding spaces, or when they are one edit apart (one character
/// inserted, deleted, replaced, or two neighbours swapped) and no other candidate is within one
/// edit of `word`. Anything else is a guess, applied only on request.
///
/// IDs are not a closed vocabulary: a different ID is a different thing, so a fix that changes
/// an ID is judged by [`judge_id`], never by this.
pub fn judge<'a>(word: &str, suggestion: &str, candidates: impl IntoIterator<Item = &'a str>) -> Applicability {
    let w = word.trim().to_lowercase();
    if w == suggestion.to_lowercase() {
        return Applicability::Safe;
    }
    if swap_distance(&w, suggestion, 1).is_none() {
        return Applicability::Unsafe;
    }
    let close = candidates.into_iter().filter(|c| swap_distance(&w, &c.to_lowercase(), 1).is_some()).take(2).count();
    if close == 1 {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    }
}

/// Whether replacing the ID (or tag, or mod id) `from` by `to` keeps its meaning: only when they
/// differ in case alone. Any other change names a different thing, however close the spelling
/// (`core:rat` and `core:bat` are one letter apart).
pub fn judge_id(from: &str, to: &str) -> Applicability {
    if from.trim().eq_ignore_ascii_case(to) {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    }
}

/// [`closest`] together with its [`judge`]ment over the same candidates. For the names of a
/// closed vocabulary a word too far from every name by spelling may still name one plainly: as
/// one part of it (`health` → `max_health`) or as its abbreviation (`dmg` → `damage`), when only
/// one name fits.
pub fn closest_judged<'a, I>(word: &str, candidates: I) -> Option<(&'a str, Applicability)>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    let s = closest(word, candidates.clone()).or_else(|| part_or_abbreviation(word, candidates.clone()))?;
    Some((s, judge(word, s, candidates)))
}

/// The one candidate that has `word` as one of its `_`-separated parts, else the one whose letters
/// contain `word`'s in order, starting with the same letter.
fn part_or_abbreviation<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str> + Clone) -> Option<&'a str> {
    let w = word.trim().to_lowercase();
    if w.len() < 2 || !w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
        return None;
    }
    fn unique<'a>(mut it: impl Iterator<Item = &'a str>) -> Option<&'a str> {
        let first = it.next()?;
        it.next().is_none().then_some(first)
    }
    let by_part = unique(candidates.clone().into_iter().filter(|c| c.split('_').any(|p| p == w)));
    if by_part.is_some() {
        return by_part;
    }
    let abbreviation = |c: &str| {
        let mut rest = c.chars();
        c.starts_with(&w[..1]) && w.chars().all(|x| rest.any(|y| y == x))
    };
    unique(candidates.into_iter().filter(|c| abbreviation(c)))
}

/// [`closest_with_aliases`] with its judgement: an alias is a different word for the same thing
/// in another game's terms (`enemy_killed` → `creature_died`), never a typo, so it is not applied
/// without asking.
pub fn closest_judged_with_aliases<'a, I>(word: &str, candidates: I, aliases: &'a [(&'a str, &'a str)]) -> Option<(&'a str, Applicability)>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    let lower = word.trim().to_lowercase();
    if let Some((_, to)) = aliases.iter().find(|(from, _)| *from == lower) {
        return Some((to, Applicability::Unsafe));
    }
    closest_judged(word, candidates)
}

/// `invalid-id` for a reference written without its namespace (`loot = "moth_loot"`), with the ID
/// of that name among `ids` (the IDs of the registry it must name). Adding the namespace is safe
/// when exactly one ID has that name.
pub fn namespace_missing<'a>(
    loc: crate::diag::Loc,
    name: &str,
    what: &str,
    meant: Option<&str>,
    ids: impl IntoIterator<Item = &'a str>,
) -> crate::diag::Diagnostic {
    let named = ids.into_iter().filter(|c| c.split_once(':').is_some_and(|(_, n)| n == name)).take(2).count();
    let mut msg = format!("`{name}` is not a valid {what}: IDs are `namespace:name`, and this one has no namespace");
    match meant {
        Some(m) => msg.push_str(&format!("; did you mean `{m}`?")),
        None => msg.push_str(&format!(" (a {what} of this mod is `your_mod_id:{name}`)")),
    }
    let mut d = crate::diag::Diagnostic::new(crate::diag::Code::InvalidId, loc, msg);
    if let Some(m) = meant {
        let safety = if named == 1 { Applicability::Safe } else { Applicability::Unsafe };
        d = d.with_fix(format!("write `{m}`"), crate::diag::toml_string(m), safety);
    }
    d
}

/// A bounded list of names for messages: "`a`, `b`, `c`".
pub fn list(names: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    names.into_iter().map(|n| format!("`{}`", n.as_ref())).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_found() {
        assert_eq!(distance("kitten", "sitting", 5), Some(3));
        assert_eq!(distance("ab", "ba", 2), Some(2));
        assert_eq!(closest("quest", ["quests", "items"]), Some("quests"));
        assert_eq!(closest("tag", ["tags", "name"]), Some("tags"));
        assert_eq!(closest("self ", ["self", "target"]), Some("self"));
        assert_eq!(closest("xyzzy", ["quests", "items"]), None);
        assert_eq!(closest_with_aliases("enemy_killed", ["creature_died"], &[("enemy_killed", "creature_died")]), Some("creature_died"));
    }

    #[test]
    fn swaps_count_as_one_edit() {
        assert_eq!(swap_distance("tonsg", "tongs", 3), Some(1));
        assert_eq!(swap_distance("atack", "attack", 3), Some(1));
        assert_eq!(swap_distance("sword", "gold", 3), Some(3));
        assert_eq!(swap_distance("", "ab", 3), Some(2));
        assert_eq!(swap_distance("ab", "", 3), Some(2));
        assert_eq!(swap_distance("abcdef", "uvwxyz", 2), None);
    }

    #[test]
    fn only_unique_close_suggestions_are_safe() {
        use Applicability::{Safe, Unsafe};
        // Case and spaces only.
        assert_eq!(judge("Items", "items", ["items", "affixes"]), Safe);
        assert_eq!(judge("self ", "self", ["self", "target"]), Safe);
        // One edit, one candidate that close.
        assert_eq!(judge("prise", "price", ["price", "name", "tags"]), Safe);
        assert_eq!(judge("item", "items", ["items", "affixes", "quests"]), Safe);
        // One edit, but another name is just as close: a guess.
        assert_eq!(judge("cat", "bat", ["bat", "rat"]), Unsafe);
        // Two edits: a guess.
        assert_eq!(judge("dmg", "damage", ["damage", "armor"]), Unsafe);
        // An alias is another word, not a typo.
        assert_eq!(closest_judged_with_aliases("enemy_killed", ["creature_died"], &[("enemy_killed", "creature_died")]), Some(("creature_died", Unsafe)));
        // IDs: case only.
        assert_eq!(judge_id("core:Rat", "core:rat"), Safe);
        assert_eq!(judge_id("core:bat", "core:rat"), Unsafe);
        assert_eq!(judge_id("core:sword", "core:gold"), Unsafe);
    }

    #[test]
    fn a_part_or_an_abbreviation_names_a_vocabulary_word() {
        let attrs = ["level", "max_health", "strength", "dexterity", "damage", "crit_chance", "fire_resistance", "ice_resistance"];
        assert_eq!(closest_judged("health", attrs), Some(("max_health", Applicability::Unsafe)));
        assert_eq!(closest_judged("dmg", attrs), Some(("damage", Applicability::Unsafe)));
        assert_eq!(closest_judged("str", attrs), Some(("strength", Applicability::Unsafe)));
        // Several fit: no guess.
        assert_eq!(closest_judged("resistance", attrs), None);
        assert_eq!(closest_judged("zzz", attrs), None);
    }

    #[test]
    fn a_name_without_namespace_finds_its_id() {
        assert_eq!(closest_id("moth_loot", ["guild:moth_loot", "core:rat_loot"]), Some("guild:moth_loot"));
        assert_eq!(closest_id("moth_lot", ["guild:moth_loot", "core:rat_loot"]), Some("guild:moth_loot"));
        assert_eq!(closest_id("xyzzy", ["guild:moth_loot", "core:rat_loot"]), None);
        assert_eq!(closest_id("core:rat_lot", ["guild:moth_loot", "core:rat_loot"]), Some("core:rat_loot"));
    }

    #[test]
    fn the_answer_does_not_depend_on_the_order_of_the_candidates() {
        // Equally close: the first in sort order, whichever comes first.
        assert_eq!(closest("m:itex", ["m:itey", "m:item"]), Some("m:item"));
        assert_eq!(closest("m:itex", ["m:item", "m:itey"]), Some("m:item"));
        // The word without blanks beats the word in lower case, in either order.
        assert_eq!(closest(" Ab ", ["ab", "Ab"]), Some("Ab"));
        assert_eq!(closest(" Ab ", ["Ab", "ab"]), Some("Ab"));
    }
}
