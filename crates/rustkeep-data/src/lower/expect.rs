//! A scenario's expectations (`[[expect]]`): exactly one kind each, only the keys that kind
//! takes, bounds that some value meets, and `after_step` within the steps.

use crate::tree::{Table, Val};

use super::{Ctx, Lower};
use crate::diag::Code;
use crate::model::{Bound, Sp, Value};
use crate::scenario::{Actor, Expect, ExpectKind, QuestState};
use crate::suggest;
use crate::text::Span;
use crate::vocab::*;

impl Lower<'_> {
    pub(super) fn expect(&mut self, t: &Table<'_>, span: Span) -> Option<Expect> {
        let before = self.errors;
        let present = self.known_fields(t, SCENARIO_EXPECT_FIELDS, Code::UnknownField, &"an expectation (`[[expect]]`)");
        let kinds: Vec<(&'static str, Span)> = present.iter().filter(|(d, _, _)| EXPECT_KINDS.contains(&d.name)).map(|(d, k, _)| (d.name, k.clone())).collect();
        let kind = match kinds.as_slice() {
            // A kind written wrong (`outcom = …`) is its `unknown-field`: one mistake.
            [] if self.errors > before => return None,
            [] => {
                let msg = format!("this expectation checks nothing: give it exactly one of {}", suggest::list(EXPECT_KINDS.iter()));
                self.diag(Code::MalformedExpectation, span, msg);
                return None;
            }
            [(k, _)] => *k,
            [(_, first), rest @ ..] => {
                let names = kinds.iter().map(|(k, _)| format!("`{k}`")).collect::<Vec<_>>().join(", ");
                let msg = format!(
                    "an expectation checks one thing, and this one checks {} ({names}): split it into {} `[[expect]]` tables",
                    kinds.len(),
                    kinds.len()
                );
                let mut d = crate::diag::Diagnostic::new(Code::MalformedExpectation, self.loc(first.clone()), msg);
                for (k, key) in rest {
                    d = d.with_related(self.loc(key.clone()), format!("`{k}` here"));
                }
                self.errors += 1;
                self.diags.push(d);
                return None;
            }
        };
        let takes = EXPECT_WITH.iter().find(|(k, _)| *k == kind).map_or(&[][..], |(_, w)| *w);
        let mut ok = true;
        for (def, key, _) in &present {
            let name = def.name;
            if name == kind || name == field::AFTER_STEP || takes.contains(&name) {
                continue;
            }
            let owner = EXPECT_WITH.iter().filter(|(_, w)| w.contains(&name)).map(|(k, _)| format!("`{k}`")).collect::<Vec<_>>();
            let msg = format!(
                "`{name}` belongs to {} expectation, not to a `{kind}` one",
                if owner.is_empty() { "another".into() } else { format!("a {}", owner.join(" or ")) }
            );
            self.diag(Code::MalformedExpectation, key.clone(), msg);
            ok = false;
        }
        let mut after_step = None;
        let (mut quest, mut state, mut count, mut item, mut who, mut never) = (None, None, None, None, Actor::Player, false);
        let (mut chance, mut expected, mut win_rate, mut kind_value, mut event) = (None, None, None, None, None);
        for (def, _, v) in &present {
            match def.name {
                field::AFTER_STEP => {
                    if let Some(Value::Int(n)) = self.value(def, v, Ctx::Plain) {
                        after_step = Some(Sp::new(v.span(), n.min(i64::from(u32::MAX)) as u32));
                    }
                }
                field::HEALTH | field::ARENA => kind_value = Some(*v),
                field::WHO => who = self.actor(def.name, v).map_or(Actor::Player, |a| a.value),
                field::STATE => {
                    state = match self.value(def, v, Ctx::Plain) {
                        Some(Value::Str(s)) if s == "done" => Some(QuestState::Done),
                        Some(Value::Str(s)) if s == "started" => Some(QuestState::Started),
                        Some(Value::Str(_)) => Some(QuestState::NotStarted),
                        _ => None,
                    }
                }
                field::NEVER => never = matches!(self.value(def, v, Ctx::Plain), Some(Value::Bool(true))),
                _ => match self.value(def, v, Ctx::Plain) {
                    Some(Value::Bound(b)) => match def.name {
                        field::COUNT => count = Some(b),
                        field::CHANCE => chance = Some(b),
                        field::EXPECTED => expected = Some(b),
                        _ => win_rate = Some(b),
                    },
                    Some(Value::Ref(r)) if def.name == field::ITEM => item = Some(r),
                    Some(Value::Ref(r)) => quest = Some(r),
                    Some(Value::Str(s)) => quest = Some(Sp::new(v.span(), s)),
                    Some(Value::Event(e)) => event = Some(Sp::new(v.span(), e)),
                    None => ok = false,
                    _ => {}
                },
            }
        }
        if !ok {
            return None;
        }
        // A quest that was never started has counted nothing.
        if let (Some(QuestState::NotStarted), Some(c)) = (state, &count) {
            if !c.holds(0.0) {
                self.diag(Code::MalformedExpectation, c.span.clone(), "a quest that is `not_started` has a count of 0, so this `count` can never hold");
                return None;
            }
        }
        let kind = match kind {
            field::QUEST => ExpectKind::Quest { quest: quest?, state: state.or(if count.is_none() { Some(QuestState::Done) } else { None }), count },
            field::HAS_ITEM => ExpectKind::HasItem { item: quest?, who, count },
            field::EVENT => ExpectKind::Event { event: event?, count },
            field::FIRED => {
                let owner = quest?;
                if never && count.as_ref().is_some_and(|c| c.exact != Some(0.0)) {
                    self.diag(Code::MalformedExpectation, span, "`never = true` and a `count` other than 0 contradict each other");
                    return None;
                }
                ExpectKind::Fired { owner, count, never }
            }
            field::OUTCOME => ExpectKind::Outcome { outcome: quest? },
            field::LOOT => {
                let table = quest?;
                let Some(item) = item else {
                    self.diag(Code::MissingField, span, "a `loot` expectation names the `item` whose chance it bounds");
                    return None;
                };
                if chance.is_none() && expected.is_none() {
                    self.diag(Code::MissingField, span, "a `loot` expectation bounds the item's `chance` or its `expected` count (or both)");
                    return None;
                }
                ExpectKind::Loot { table, item, chance, expected }
            }
            field::HEALTH => {
                let v = kind_value?;
                let Val::Table(t) = v.get_ref() else {
                    self.wrong_type(field::HEALTH, "a table: `health = { who = \"player\", at_least = 10 }`", v);
                    return None;
                };
                let fields = self.known_fields(t, EXPECT_HEALTH_FIELDS, Code::UnknownField, &"`health`");
                let mut bound = Bound { span: v.span(), exact: None, at_least: None, below: None };
                let mut who = Actor::Player;
                for (def, _, x) in fields {
                    // `who` is read (and judged) once, as the actor it names.
                    if def.name == field::WHO {
                        who = self.actor(def.name, x).map_or(Actor::Player, |a| a.value);
                        continue;
                    }
                    match (def.name, self.value(def, x, Ctx::Plain)) {
                        (field::AT_LEAST, Some(Value::Float(f))) => bound.at_least = Some(f),
                        (_, Some(Value::Float(f))) => bound.below = Some(f),
                        _ => return None,
                    }
                }
                match (bound.at_least, bound.below) {
                    (None, None) => {
                        self.diag(Code::MalformedExpectation, v.span(), "`health` bounds nothing: give `at_least`, `below` or both");
                        return None;
                    }
                    (Some(a), Some(b)) if a >= b => {
                        self.diag(Code::MalformedExpectation, v.span(), format!("`health` can never hold: `at_least = {a}` is not below `below = {b}`"));
                        return None;
                    }
                    _ => {}
                }
                ExpectKind::Health { who, bound }
            }
            _ => {
                let v = kind_value?;
                let Val::Table(t) = v.get_ref() else {
                    self.wrong_type(field::ARENA, "a table: `arena = { option = \"core:warrior\", runs = 2000 }`", v);
                    return None;
                };
                let fields = self.known_fields(t, EXPECT_ARENA_FIELDS, Code::UnknownField, &"`arena`");
                let (mut option, mut runs) = (None, 1000u32);
                for (def, _, x) in fields {
                    match self.value(def, x, Ctx::Plain) {
                        Some(Value::Ref(r)) => option = Some(r),
                        Some(Value::Int(n)) => runs = n.min(i64::from(u32::MAX)) as u32,
                        _ => return None,
                    }
                }
                let Some(win_rate) = win_rate else {
                    self.diag(Code::MissingField, span, "an `arena` expectation bounds the `win_rate` of its fights");
                    return None;
                };
                ExpectKind::Arena { option, runs, win_rate }
            }
        };
        Some(Expect { span, after_step, kind })
    }
}
