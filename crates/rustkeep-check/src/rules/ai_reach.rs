//! `ai-rule-unreachable`: a creature follows the first of its `ai` rules whose condition holds,
//! so the rules after one that always holds (no checks in its `condition`) are never looked at.

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::model::Entry;
use rustkeep_data::source::FileId;

/// The `ai` rules of one entry that come after a rule that always holds.
pub fn run_entry(file: FileId, e: &Entry, out: &mut Vec<Diagnostic>) {
    let rules = e.ai();
    // A rule with validation errors never runs (its checks may have been left out of the
    // model), so it shadows nothing.
    let Some(at) = rules.iter().position(|r| !r.broken && r.condition.is_empty()) else { return };
    let loc = |span: &std::ops::Range<usize>| Loc { file, span: span.clone() };
    let owner = e.key().map_or_else(|| "this creature".to_string(), |k| format!("`{}`", k.value));
    for (i, r) in rules.iter().enumerate().skip(at + 1) {
        let msg = format!(
            "rule {} of {owner}'s `ai` can never run: rule {} before it checks nothing, so it always holds and is followed on every turn before this one is looked at; \
             move this rule above it (the rule without `condition` belongs last), or give rule {} a `condition`",
            i + 1,
            at + 1,
            at + 1
        );
        out.push(
            Diagnostic::new(Code::AiRuleUnreachable, loc(&r.span), msg).with_related(loc(&rules[at].span), "always holds, so the rules after it never run"),
        );
    }
}
