//! "Did you mean": the closest candidate by edit distance, plus known aliases.

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

/// Like [`closest`], but a known alias wins (`enemy_killed` → `creature_died`).
pub fn closest_with_aliases<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>, aliases: &'a [(&'a str, &'a str)]) -> Option<&'a str> {
    let lower = word.trim().to_lowercase();
    if let Some((_, to)) = aliases.iter().find(|(from, _)| *from == lower) {
        return Some(to);
    }
    closest(word, candidates)
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
    fn the_answer_does_not_depend_on_the_order_of_the_candidates() {
        // Equally close: the first in sort order, whichever comes first.
        assert_eq!(closest("m:itex", ["m:itey", "m:item"]), Some("m:item"));
        assert_eq!(closest("m:itex", ["m:item", "m:itey"]), Some("m:item"));
        // The word without blanks beats the word in lower case, in either order.
        assert_eq!(closest(" Ab ", ["ab", "Ab"]), Some("Ab"));
        assert_eq!(closest(" Ab ", ["Ab", "ab"]), Some("Ab"));
    }
}
