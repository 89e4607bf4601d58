//! "Did you mean": the closest candidate by edit distance, plus known aliases, and whether a
//! suggestion is certain enough to be applied without asking ([`judge`]; docs/checking.md, "Safe
//! and unsafe fixes").

use crate::diag::Applicability;
use crate::vocab::IdText;

/// The optimal-string-alignment distance over Unicode scalar values, bounded: returns `None`
/// once it exceeds `max`. It is Levenshtein's distance (one character inserted, deleted or
/// replaced is one edit) plus the swap of two neighbouring characters as one edit, so `prcie` is
/// one edit from `price`, as `atack` is from `attack`. IDs and names are ASCII, so that case runs
/// on bytes with reusable rows and no allocation per candidate (did-you-mean scans whole
/// registries).
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
    // Three rows (the one before the previous is needed for swaps), on the stack for short
    // strings, on the heap otherwise.
    let w = b.len() + 1;
    let mut small = [0usize; 3 * 64];
    let mut large = Vec::new();
    let rows: &mut [usize] = if w <= 64 {
        &mut small[..3 * w]
    } else {
        large.resize(3 * w, 0);
        &mut large
    };
    let (older, rest) = rows.split_at_mut(w);
    let (prev, cur) = rest.split_at_mut(w);
    let (mut older, mut prev, mut cur) = (older, prev, cur);
    for (j, p) in prev.iter_mut().enumerate() {
        *p = j;
    }
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(older[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        // Row minima never decrease (a swap costs as much as the replacement it stands for at
        // worst), so a row over the bound ends the search.
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut older, &mut prev);
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

/// A did-you-mean kept while its candidates come and go, revised instead of looked for again:
/// `current`, the best candidate by `rank` (smaller is better; `None`: not a candidate; ties go
/// to the candidate whose name sorts first, as in [`closest`]), stays unless an `added` one ranks
/// better. `None` when `current` itself was `removed`: then only a look through every candidate
/// can tell. `name` gives a candidate's name.
pub fn revise<'n, T: Copy + PartialEq, R: Ord>(
    current: Option<T>,
    added: &[T],
    removed: &[T],
    name: impl Fn(T) -> &'n str,
    rank: impl Fn(&str) -> Option<R>,
) -> Option<Option<T>> {
    if current.is_some_and(|c| removed.contains(&c)) {
        return None;
    }
    let mut best = current.and_then(|c| rank(name(c)).map(|r| (r, name(c), c)));
    for &a in added {
        let n = name(a);
        if let Some(r) = rank(n) {
            if best.as_ref().is_none_or(|(br, bn, _)| (&r, n) < (br, *bn)) {
                best = Some((r, n, a));
            }
        }
    }
    Some(best.map(|(_, _, c)| c))
}

/// For an ID: a word without a namespace means the ID of that name (`moth_loot` →
/// `lantern_guild:moth_loot`; the first by ID when several mods have one), or the ID whose name is
/// closest to it (ties to the first by ID); a word with a namespace, the [`closest`] ID.
pub fn closest_id<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    let w = word.trim();
    if !IdText::of(w).is_bare() {
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
    let of = IdText::of(candidate).name();
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

/// How a suggestion differs from what was written when the difference is a slip of the hand
/// that cannot be a different word: the only differences a fix may repair without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slip {
    /// The same letters but for their case and the separators `-`, `_` and space (`Fire
    /// Resistance`, `fire-resistance` → `fire_resistance`).
    Spelling,
    /// Also two neighbouring letters swapped, once (`attack_hti` → `attack_hit`, `nmae` → `name`).
    Swap,
}

/// `s` as [`slip`] compares it: in lower case, without separators.
fn letters(s: &str) -> String {
    let mut out = String::new();
    letters_into(s, &mut out);
    out
}

/// [`letters`] into `out`, which is cleared first.
fn letters_into(s: &str, out: &mut String) {
    out.clear();
    if s.is_ascii() {
        out.extend(s.bytes().filter(|b| !matches!(b, b'-' | b'_' | b' ')).map(|b| char::from(b.to_ascii_lowercase())));
    } else {
        out.extend(s.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).flat_map(char::to_lowercase));
    }
}

/// Whether `a` and `b` are at most one edit apart by [`distance`] (a letter changed, added or
/// dropped, or two neighbours swapped), in one pass: what is left after their common start and
/// end must be one of those edits.
fn within_one(a: &[u8], b: &[u8]) -> bool {
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[start..], &b[start..]);
    let end = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[..a.len() - end], &b[..b.len() - end]);
    match (a.len(), b.len()) {
        (0, _) | (_, 0) => true,
        (1, 1) => true,
        (2, 2) => a[0] == b[1] && a[1] == b[0],
        _ => false,
    }
}

/// The [`Slip`] that turns `word` into `suggestion`, if any. Every other difference (a letter
/// changed, added or dropped: `deal` → `heal`, `item` → `items`) can turn one valid word into
/// another, so it is never a slip.
pub fn slip(word: &str, suggestion: &str) -> Option<Slip> {
    let (w, s) = (letters(word), letters(suggestion));
    if w == s {
        return Some(Slip::Spelling);
    }
    let (w, s): (Vec<char>, Vec<char>) = (w.chars().collect(), s.chars().collect());
    if w.len() != s.len() {
        return None;
    }
    let diff: Vec<usize> = (0..w.len()).filter(|&i| w[i] != s[i]).take(3).collect();
    match diff[..] {
        [i, j] if j == i + 1 && w[i] == s[j] && w[j] == s[i] => Some(Slip::Swap),
        _ => None,
    }
}

/// Whether replacing `word` by `suggestion`, one of `candidates`, keeps the meaning of what was
/// written: the one rule for every fix that replaces a name (an event, action, check, field,
/// `when` field, attribute, damage type, registry, enumeration value, diagnostic code) or an ID,
/// tag or mod id by a known one (docs/checking.md, "Safe and unsafe fixes"). It is
/// [`Safe`](Applicability::Safe) only when both hold:
///
/// - the two differ by a [`Slip`] alone: case, `-`/`_`/space, or one swap of two neighbouring
///   characters;
/// - no other candidate is as close to `word`: none has the same letters when the slip is one of
///   spelling, none is one edit away (any edit) when it is a swap.
///
/// Anything else is a guess ([`Unsafe`](Applicability::Unsafe)), applied only on request: a
/// letter changed can make another valid word (`deal` → `heal`), and so can a swap when another
/// name is one letter away. Actions and checks add a condition of their own, see
/// [`judge_with_fields`].
pub fn judge<'a>(word: &str, suggestion: &str, candidates: impl IntoIterator<Item = &'a str>) -> Applicability {
    let Some(kind) = slip(word, suggestion) else { return Applicability::Unsafe };
    let w = letters(word);
    let within = match kind {
        Slip::Spelling => 0,
        Slip::Swap => 1,
    };
    // Whole registries are scanned here (an ID's rivals are every ID): one buffer for the
    // candidates' letters, and a linear test instead of the distance's table.
    let mut buf = String::new();
    let rival = candidates.into_iter().any(|c| {
        if c == suggestion || c == word {
            return false;
        }
        // Both tests need the two lengths within `within` of each other: of an ASCII candidate
        // (every ID) that is known from a count of its bytes, before any copy.
        if c.is_ascii() && c.bytes().filter(|b| !matches!(b, b'-' | b'_' | b' ')).count().abs_diff(w.len()) > within {
            return false;
        }
        letters_into(c, &mut buf);
        match within {
            0 => buf == w,
            _ => within_one(w.as_bytes(), buf.as_bytes()),
        }
    });
    if rival {
        Applicability::Unsafe
    } else {
        Applicability::Safe
    }
}

/// The candidates of [`judge`] indexed by their letters (lower case, without separators), for
/// judging words against one large set that changes little: a registry's IDs. [`judge`] reads
/// every candidate (about 10 M instructions for a registry of 30,000 IDs); this looks up only the
/// spellings that could rival a suggestion — the word's letters, and for a swap every byte string
/// one edit away from them (one byte dropped, added from the index's alphabet, replaced by one of
/// it, or two neighbours swapped: what [`within_one`] accepts) — a few thousand hash lookups.
///
/// The letters are kept as 64-bit hashes, so that building the index allocates nothing per
/// candidate. Two spellings with one hash would make a suggestion look rivalled: its fix would be
/// unsafe, the direction a doubt must go, and at these sizes a collision is about as likely as
/// one in ten billion.
#[derive(Clone, Debug)]
pub struct Rivals {
    /// How many candidates have letters of this hash.
    by_letters: crate::hash::FxHashMap<u64, u32>,
    /// Every byte some candidate's letters hold: an edit to any other byte meets no candidate.
    alphabet: [bool; 256],
}

impl Default for Rivals {
    fn default() -> Rivals {
        Rivals { by_letters: Default::default(), alphabet: [false; 256] }
    }
}

/// The hash of a candidate's letters in a [`Rivals`] index: SipHash (the standard library's,
/// with its fixed keys), whose output looks random for every input. FxHash, fast for the ID maps,
/// will not do here: a byte changed at the top of one 8-byte word and another at the bottom of
/// the next can cancel out, and the index looks up exactly such near neighbours.
fn letters_hash(l: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    h.write(l);
    h.finish()
}

impl Rivals {
    pub fn new<'a>(candidates: impl IntoIterator<Item = &'a str>) -> Rivals {
        let mut r = Rivals::default();
        let mut buf = String::new();
        for c in candidates {
            r.count(c, &mut buf, true);
        }
        r
    }

    /// Takes in a candidate (one not yet in the index).
    pub fn add(&mut self, candidate: &str) {
        self.count(candidate, &mut String::new(), true);
    }

    /// Takes out a candidate that was taken in.
    pub fn remove(&mut self, candidate: &str) {
        self.count(candidate, &mut String::new(), false);
    }

    fn count(&mut self, candidate: &str, buf: &mut String, add: bool) {
        letters_into(candidate, buf);
        let key = letters_hash(buf.as_bytes());
        if add {
            for &b in buf.as_bytes() {
                self.alphabet[b as usize] = true;
            }
            *self.by_letters.entry(key).or_insert(0) += 1;
        } else if let Some(n) = self.by_letters.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.by_letters.remove(&key);
            }
        }
    }

    /// [`judge`] of `word` → `suggestion` against the candidates in the index, for a `word` that is
    /// not one of them and a `suggestion` that is (as for an unknown ID and its did-you-mean).
    pub fn judge(&self, word: &str, suggestion: &str) -> Applicability {
        let Some(kind) = slip(word, suggestion) else { return Applicability::Unsafe };
        let w = letters(word).into_bytes();
        let own = letters(suggestion).into_bytes();
        // Candidates with these letters other than the suggestion itself.
        let others = |l: &[u8]| self.by_letters.get(&letters_hash(l)).map_or(0, |&n| n - u32::from(l == own.as_slice())) > 0;
        let rival = match kind {
            Slip::Spelling => others(&w),
            Slip::Swap => others(&w) || self.one_edit_from(&w, others),
        };
        if rival {
            Applicability::Unsafe
        } else {
            Applicability::Safe
        }
    }

    /// Whether `found` holds for some byte string one edit away from `w` (see [`within_one`]).
    fn one_edit_from(&self, w: &[u8], found: impl Fn(&[u8]) -> bool) -> bool {
        let alphabet: Vec<u8> = (0..=255u8).filter(|&b| self.alphabet[b as usize]).collect();
        let mut buf: Vec<u8> = Vec::with_capacity(w.len() + 1);
        for i in 0..=w.len() {
            // Dropped at `i`.
            if i < w.len() {
                buf.clear();
                buf.extend_from_slice(&w[..i]);
                buf.extend_from_slice(&w[i + 1..]);
                if found(&buf) {
                    return true;
                }
            }
            // Swapped with the next.
            if i + 1 < w.len() && w[i] != w[i + 1] {
                buf.clear();
                buf.extend_from_slice(w);
                buf.swap(i, i + 1);
                if found(&buf) {
                    return true;
                }
            }
            for &b in &alphabet {
                // Added before `i`.
                buf.clear();
                buf.extend_from_slice(&w[..i]);
                buf.push(b);
                buf.extend_from_slice(&w[i..]);
                if found(&buf) {
                    return true;
                }
                // Replaced at `i`.
                if i < w.len() && w[i] != b {
                    buf.clear();
                    buf.extend_from_slice(w);
                    buf[i] = b;
                    if found(&buf) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Whether rewriting an ID or tag that breaks the grammar (`from`) as `to` keeps its meaning: only
/// when the case alone changes. Spaces and hyphens rewritten as `_` may name another entry than
/// the one meant (`my-mod` and `my_mod` can be two mods), and `to` need not exist, so there is no
/// list of candidates to judge it against.
pub fn judge_grammar(from: &str, to: &str) -> Applicability {
    if from.trim().to_lowercase() == to {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    }
}

/// [`judge`] for the name of an action or a check, whose fields come with the name: renaming
/// `attack` to another action would leave fields the other has not. Safe only when [`judge`]
/// says so and every field the table already has (`present`, the discriminator aside) is a field
/// of the suggestion (`fields`).
pub fn judge_with_fields<'a, 'b>(
    word: &str,
    suggestion: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    present: impl IntoIterator<Item = &'b str>,
    fields: &[&str],
) -> Applicability {
    match judge(word, suggestion, candidates) {
        Applicability::Safe if present.into_iter().all(|p| fields.contains(&p)) => Applicability::Safe,
        _ => Applicability::Unsafe,
    }
}

/// [`closest`] together with its [`judge`]ment over the same candidates.
pub fn closest_with_judgement<'a, I>(word: &str, candidates: I) -> Option<(&'a str, Applicability)>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    let s = closest(word, candidates.clone())?;
    Some((s, judge(word, s, candidates)))
}

/// [`closest_with_judgement`], for the names of a closed vocabulary: a word too far from every
/// name by spelling may still name one plainly, as one part of it (`health` → `max_health`) or as
/// its abbreviation (`dmg` → `damage`), when only one name fits.
pub fn closest_judged<'a, I>(word: &str, candidates: I) -> Option<(&'a str, Applicability)>
where
    I: IntoIterator<Item = &'a str> + Clone,
{
    closest_with_judgement(word, candidates.clone()).or_else(|| {
        let s = part_or_abbreviation(word, candidates.clone())?;
        Some((s, judge(word, s, candidates)))
    })
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
/// of that name among `ids` (the IDs of the registry it must name). Adding the namespace is an
/// unsafe fix: which mod's entry was meant is a guess, however few there are.
pub fn namespace_missing<'a>(
    loc: crate::diag::Loc,
    name: &str,
    what: &str,
    meant: Option<&str>,
    ids: impl IntoIterator<Item = &'a str>,
) -> crate::diag::Diagnostic {
    let mut msg = format!("`{name}` is not a valid {what}: IDs are `namespace:name`, and this one has no namespace");
    match meant {
        Some(m) => msg.push_str(&format!("; did you mean `{m}`?")),
        None => msg.push_str(&format!(" (a {what} of this mod is `your_mod_id:{name}`)")),
    }
    let mut d = crate::diag::Diagnostic::new(crate::diag::Code::InvalidId, loc, msg);
    if let Some(m) = meant {
        // Adding a namespace is no slip of the hand: another mod may define the same name.
        let safety = judge(name, m, ids);
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

    /// Every word of up to four characters of `alphabet`, the empty one included.
    fn words_over(alphabet: &[char]) -> Vec<String> {
        let mut words = vec![String::new()];
        for len in 1..=4 {
            let mut next = Vec::new();
            for w in words.iter().filter(|w| w.len() == len - 1) {
                for c in alphabet {
                    next.push(format!("{w}{c}"));
                }
            }
            words.extend(next);
        }
        words
    }

    /// A did-you-mean revised through candidates coming and going is the one [`closest`] finds
    /// among the candidates of the moment, whenever revising can tell (for every word of a small
    /// alphabet, over a sequence of additions and removals).
    #[test]
    fn a_revised_suggestion_is_the_closest_one() {
        let words = words_over(&['a', 'b', 'B']);
        let pool: Vec<&str> = words.iter().map(String::as_str).filter(|w| !w.is_empty()).collect();
        for word in words.iter().filter(|w| w.len() >= 2).step_by(3) {
            let m = Matcher::new(word);
            let rank = |c: &str| m.closeness(c);
            let mut present: Vec<&str> = Vec::new();
            let mut kept = closest(word, present.iter().copied());
            for step in 0..pool.len() {
                // Add one candidate, and every third step take out an earlier one.
                let added = vec![pool[(step * 7) % pool.len()]];
                let removed: Vec<&str> = if step % 3 == 2 { vec![present[(step * 5) % present.len()]] } else { Vec::new() };
                present.retain(|c| !removed.contains(c));
                for a in &added {
                    if !present.contains(a) {
                        present.push(a);
                    }
                }
                let fresh = closest(word, present.iter().copied());
                kept = revise(kept, &added, &removed, |c| c, rank).unwrap_or(fresh);
                assert_eq!(kept, fresh, "{word:?} among {present:?}");
            }
        }
    }

    /// The index judges as the scan does, for every word and suggestion over small alphabets
    /// (swaps, case and separator slips, rivals one edit away in every way), and after candidates
    /// are taken out and put back.
    #[test]
    fn rivals_judge_as_the_scan_does() {
        let words = words_over(&['a', 'b', 'B', '_']);
        let sets: Vec<Vec<&str>> = (0..40).map(|k| words.iter().map(String::as_str).skip(k * 7).step_by(5 + k % 4).take(12).collect()).collect();
        for set in &sets {
            let mut rivals = Rivals::new(set.iter().copied());
            for round in 0..2 {
                for sug in set {
                    for word in words.iter().filter(|w| !set.contains(&w.as_str())) {
                        assert_eq!(rivals.judge(word, sug), judge(word, sug, set.iter().copied()), "{word:?} → {sug:?} in {set:?}, round {round}");
                    }
                }
                for c in set {
                    rivals.remove(c);
                }
                for c in set {
                    rivals.add(c);
                }
            }
        }
    }

    /// IDs that differ only in their digits, as a modpack's do, and words one slip away from
    /// them: the index agrees with the scan.
    #[test]
    fn rivals_of_numbered_ids_are_judged_as_the_scan_does() {
        let ids: Vec<String> = (0..200).flat_map(|k| (0..30).flat_map(move |u| [format!("m{k:03}:item_{u}"), format!("m{k:03}:potion_{u}")])).collect();
        let rivals = Rivals::new(ids.iter().map(String::as_str));
        for (word, sug) in
            [("m000:itme_11", "m000:item_11"), ("m150:poiton_7", "m150:potion_7"), ("m199:item_92", "m199:item_29"), ("M042:Item_3", "m042:item_3")]
        {
            let scan = judge(word, sug, ids.iter().map(String::as_str));
            assert_eq!(rivals.judge(word, sug), scan, "{word} → {sug}");
        }
        assert_eq!(rivals.judge("m000:itme_11", "m000:item_11"), Applicability::Safe);
    }

    /// The one-pass test agrees with the distance on every pair of words of up to four letters
    /// of three.
    #[test]
    fn within_one_is_the_distance_at_most_one() {
        let words = words_over(&['a', 'b', 'c']);
        for a in &words {
            for b in &words {
                assert_eq!(within_one(a.as_bytes(), b.as_bytes()), distance(a, b, 1).is_some(), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn typos_are_found() {
        assert_eq!(distance("kitten", "sitting", 5), Some(3));
        assert_eq!(distance("ab", "ba", 2), Some(1));
        assert_eq!(closest("quest", ["quests", "items"]), Some("quests"));
        assert_eq!(closest("tag", ["tags", "name"]), Some("tags"));
        assert_eq!(closest("self ", ["self", "target"]), Some("self"));
        assert_eq!(closest("xyzzy", ["quests", "items"]), None);
        assert_eq!(closest_with_aliases("enemy_killed", ["creature_died"], &[("enemy_killed", "creature_died")]), Some("creature_died"));
    }

    #[test]
    fn swaps_count_as_one_edit() {
        assert_eq!(distance("tonsg", "tongs", 3), Some(1));
        assert_eq!(distance("atack", "attack", 3), Some(1));
        assert_eq!(distance("prcie", "price", 1), Some(1));
        assert_eq!(distance("sword", "gold", 3), Some(3));
        assert_eq!(distance("", "ab", 3), Some(2));
        assert_eq!(distance("ab", "", 3), Some(2));
        assert_eq!(distance("abcdef", "uvwxyz", 2), None);
        // Unicode and long words take the other paths.
        assert_eq!(distance("médaille", "médalile", 1), Some(1));
        let long: String = "ab".repeat(40);
        let swapped = format!("ba{}", &long[2..]);
        assert_eq!(distance(&long, &swapped, 1), Some(1));
        // Field names find their swaps as suggestions.
        assert_eq!(closest("nmae", ["name", "price", "tags"]), Some("name"));
        assert_eq!(closest("tlak", ["talk", "move", "wait"]), Some("talk"));
    }

    #[test]
    fn only_unique_slips_are_safe() {
        use Applicability::{Safe, Unsafe};
        // Case, separators and spaces only.
        assert_eq!(judge("Items", "items", ["items", "affixes"]), Safe);
        assert_eq!(judge("self ", "self", ["self", "target"]), Safe);
        assert_eq!(judge("fire-resistance", "fire_resistance", ["fire_resistance", "ice_resistance"]), Safe);
        assert_eq!(judge("Fire Resistance", "fire_resistance", ["fire_resistance", "ice_resistance"]), Safe);
        // One swap of neighbours, nothing else that close.
        assert_eq!(judge("attack_hti", "attack_hit", ["attack_hit", "attack_missed", "creature_died"]), Safe);
        assert_eq!(judge("prcie", "price", ["price", "name", "tags"]), Safe);
        assert_eq!(judge("Nmae", "name", ["price", "name", "tags"]), Safe);
        // A letter changed, added or dropped can be another word: never safe.
        assert_eq!(judge("deal", "heal", ["heal", "damage", "give_item"]), Unsafe);
        assert_eq!(judge("prise", "price", ["price", "name", "tags"]), Unsafe);
        assert_eq!(judge("item", "items", ["items", "affixes", "quests"]), Unsafe);
        assert_eq!(judge("dmg", "damage", ["damage", "armor"]), Unsafe);
        // A swap, but another name is one edit away too: a guess.
        assert_eq!(judge("abt", "bat", ["bat", "abs"]), Unsafe);
        // The same letters as two names: a guess.
        assert_eq!(judge("fire-ball", "fire_ball", ["fire_ball", "fireball"]), Unsafe);
        // Two swaps are two edits.
        assert_eq!(judge("rpcie", "price", ["price"]), Unsafe);
        // An alias is another word, not a typo.
        assert_eq!(closest_judged_with_aliases("enemy_killed", ["creature_died"], &[("enemy_killed", "creature_died")]), Some(("creature_died", Unsafe)));
        // IDs follow the same rule.
        assert_eq!(judge("core:Rat", "core:rat", ["core:rat", "core:bat"]), Safe);
        assert_eq!(judge("core:bat", "core:rat", ["core:rat"]), Unsafe);
        assert_eq!(judge("core:rta", "core:rat", ["core:rat", "core:bat"]), Safe);
        assert_eq!(judge("core:rta", "core:rat", ["core:rat", "core:rtb"]), Unsafe);
        assert_eq!(judge("core:sword", "core:gold", ["core:gold"]), Unsafe);
        // Actions and checks: the fields written must all be fields of the suggestion.
        assert_eq!(judge_with_fields("dmaage", "damage", ["damage", "heal"], ["amount", "target"], &["amount", "target", "damage_type"]), Safe);
        assert_eq!(judge_with_fields("dmaage", "damage", ["damage", "heal"], ["amount", "item"], &["amount", "target", "damage_type"]), Unsafe);
    }

    #[test]
    fn slips_are_case_separators_or_one_swap() {
        assert_eq!(slip("Self", "self"), Some(Slip::Spelling));
        assert_eq!(slip("attack hit", "attack_hit"), Some(Slip::Spelling));
        assert_eq!(slip("attackhit", "attack_hit"), Some(Slip::Spelling));
        assert_eq!(slip("tlak", "talk"), Some(Slip::Swap));
        assert_eq!(slip("Tlak", "talk"), Some(Slip::Swap));
        assert_eq!(slip("deal", "heal"), None);
        assert_eq!(slip("tak", "talk"), None);
        assert_eq!(slip("abc", "cba"), None);
        assert_eq!(slip("", "a"), None);
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
