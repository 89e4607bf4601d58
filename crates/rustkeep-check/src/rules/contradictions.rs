//! `condition-never-holds`: two checks of one `condition` list that cannot both hold, so the list
//! (which needs all of its checks) never does.
//!
//! Only what is certain is claimed, for checks on the same `who`:
//! - a check and the same check negated, or more generally a plain check and a negated one whose
//!   plain form it implies (`has_item` 3 keys and not `has_item` 2 keys; `health_below` 0.3 and
//!   not `health_below` 0.5);
//! - two plain `attribute` checks of one attribute whose ranges (`at_least` inclusive, `below`
//!   exclusive) do not meet, and a plain one whose range lies inside a negated one's.
//!
//! Two negated ranges, or ranges that overlap, are left alone. A `health_below` of 0 or less, or
//! one check's bounds the wrong way round, are `malformed-condition` and never reach the model.

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::model::{Condition, ConditionData, Entry, Who};
use rustkeep_data::number::plain;
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::TargetPresence;

use super::visit_entry;

/// The contradicting checks of every condition list of one entry.
pub fn run_entry(file: FileId, e: &Entry, out: &mut Vec<Diagnostic>) {
    let loc = |span: &std::ops::Range<usize>| Loc { file, span: span.clone() };
    visit_entry(e, |place, _, checks, _| {
        // Where there is no target, a check on `target` never holds anyway: that is
        // `target-never-present`, on its `who`.
        let no_target = place.target() == TargetPresence::Never;
        for (j, later) in checks.iter().enumerate() {
            if no_target && later.who == Who::Target {
                continue;
            }
            // One warning per check: on the later of the two, against the first that it clashes with.
            let Some(earlier) = checks[..j].iter().find(|c| excludes(c, later)) else { continue };
            let msg = format!(
                "this check asks that {}, and an earlier one of the same `condition` that {}: both can never hold, and a condition needs all of its checks, \
                 so it never holds and what it guards never happens; remove one of the two, or correct its values",
                describe(later),
                describe(earlier)
            );
            out.push(
                Diagnostic::new(Code::ConditionNeverHolds, loc(&later.span), msg).with_related(loc(&earlier.span), "the check it cannot hold together with"),
            );
        }
    });
}

/// Whether `a` and `b` can never both hold.
fn excludes(a: &Condition, b: &Condition) -> bool {
    if a.who != b.who || a.kind != b.kind {
        return false;
    }
    match (a.not, b.not) {
        (false, false) => disjoint(&a.data, &b.data),
        (false, true) => implies(&a.data, &b.data),
        (true, false) => implies(&b.data, &a.data),
        // Both negated: neither of the two ranges may cover what the other leaves; not claimed.
        (true, true) => false,
    }
}

/// Whether the plain checks `p` and `q` can never both hold: two `attribute` ranges of one
/// attribute that do not meet.
fn disjoint(p: &ConditionData, q: &ConditionData) -> bool {
    match (p, q) {
        (ConditionData::Attribute { attribute: a, at_least: l1, below: b1 }, ConditionData::Attribute { attribute: b, at_least: l2, below: b2 }) if a == b => {
            let low = match (l1, l2) {
                (Some(x), Some(y)) => Some(x.max(*y)),
                (x, y) => x.or(*y),
            };
            let high = match (b1, b2) {
                (Some(x), Some(y)) => Some(x.min(*y)),
                (x, y) => x.or(*y),
            };
            matches!((low, high), (Some(l), Some(h)) if l >= h)
        }
        _ => false,
    }
}

/// Whether plain `p` holding means that `q` holds too (so `p` and not `q` never both hold).
fn implies(p: &ConditionData, q: &ConditionData) -> bool {
    match (p, q) {
        (ConditionData::HasTag { tag: a }, ConditionData::HasTag { tag: b }) => a.value == b.value,
        (ConditionData::HasItem { item: a, count: m }, ConditionData::HasItem { item: b, count: n }) => a.value == b.value && m >= n,
        // Health below `x` of the maximum is below `y` too when `x ≤ y`.
        (ConditionData::HealthBelow { value: x }, ConditionData::HealthBelow { value: y }) => x <= y,
        // `p`'s range lies inside `q`'s.
        (ConditionData::Attribute { attribute: a, at_least: l1, below: b1 }, ConditionData::Attribute { attribute: b, at_least: l2, below: b2 }) => {
            a == b && l2.is_none_or(|l2| l1.is_some_and(|l1| l1 >= l2)) && b2.is_none_or(|b2| b1.is_some_and(|b1| b1 <= b2))
        }
        _ => false,
    }
}

/// A check in words: "`self` holds at least 2 of `core:key`".
fn describe(c: &Condition) -> String {
    let who = format!("`{}`", c.who.as_str());
    match &c.data {
        ConditionData::HasTag { tag } => {
            format!("{who} {} the tag `{}`", if c.not { "does not carry" } else { "carries" }, tag.value)
        }
        ConditionData::HasItem { item, count } => {
            format!("{who} holds {} {count} of `{}`", if c.not { "fewer than" } else { "at least" }, item.value)
        }
        ConditionData::HealthBelow { value } => {
            format!("{who}'s health is {} {} of its `max_health`", if c.not { "at least" } else { "below" }, plain(*value))
        }
        ConditionData::Attribute { attribute, at_least, below } => {
            let range = match (at_least, below, c.not) {
                (Some(l), Some(b), false) => format!("at least {} and below {}", plain(*l), plain(*b)),
                (Some(l), Some(b), true) => format!("below {} or at least {}", plain(*l), plain(*b)),
                (Some(l), None, false) | (None, Some(l), true) => format!("at least {}", plain(*l)),
                (None, Some(b), false) | (Some(b), None, true) => format!("below {}", plain(*b)),
                (None, None, _) => "anything".to_string(),
            };
            format!("{who}'s `{attribute}` is {range}")
        }
    }
}
