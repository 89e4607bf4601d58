//! Trigger rules that need the trigger's event: `when-field-not-carried`,
//! `target-never-present`, `self-feeding-trigger`.

use rustkeep_data::diag::{Applicability, Code, Diagnostic, Loc};
use rustkeep_data::model::Entry;
use rustkeep_data::model::Who;
use rustkeep_data::source::FileId;
use rustkeep_data::suggest;
use rustkeep_data::vocab::{field, Registry, TargetPresence, EVENT_CAP};

use super::{visit_entry, Place};

/// The trigger rules of one entry; they depend on nothing outside it.
pub fn run_entry(file: FileId, e: &Entry, out: &mut Vec<Diagnostic>) {
    {
        let loc = |span: &std::ops::Range<usize>| Loc { file, span: span.clone() };
        visit_entry(e, |place, trigger, checks, actions| {
            if let Some(t) = trigger {
                if let Some(on) = &t.on {
                    let def = on.value.def();
                    for w in &t.when {
                        if !on.value.carries(w.field) {
                            let carriers: Vec<&str> = rustkeep_data::vocab::EVENTS.iter().filter(|ev| ev.when.contains(&w.field)).map(|ev| ev.name).collect();
                            let msg = if def.when.is_empty() {
                                format!(
                                    "`{}` carries no `when` fields at all, so this filter could never match: remove `when`, or listen to an event that carries `{}` ({})",
                                    def.name,
                                    w.field.name(),
                                    suggest::list(carriers)
                                )
                            } else {
                                format!(
                                    "`{}` is not carried by `{}`, so this filter could never match: `{}` carries only {}. `{}` belongs to {}",
                                    w.field.name(),
                                    def.name,
                                    def.name,
                                    suggest::list(def.when.iter().map(|f| f.name())),
                                    w.field.name(),
                                    suggest::list(carriers)
                                )
                            };
                            out.push(Diagnostic::new(Code::WhenFieldNotCarried, loc(&w.key_span), msg).with_related(loc(&on.span), "the trigger's event"));
                        }
                    }
                    // An action that raises the event this very trigger listens to feeds itself
                    // (the event cap is what stops it at run time). Quests are exempt: a quest
                    // runs its actions once, when it completes.
                    if e.registry != Registry::Quests {
                        for a in &t.actions {
                            if a.kind.def().emits.contains(&on.value) {
                                let msg = format!(
                                    "this trigger listens to `{}`, and its `{}` action raises `{}` again: it can feed itself until the event cap ({EVENT_CAP} per turn) stops it",
                                    def.name,
                                    a.kind.def().name,
                                    def.name
                                );
                                out.push(Diagnostic::new(Code::SelfFeedingTrigger, loc(&a.span), msg).with_related(loc(&on.span), "the event it listens to"));
                            }
                        }
                    }
                }
            }
            if place.target() != TargetPresence::Never {
                return;
            }
            let why = match place {
                Place::Trigger(ev) | Place::WorldTrigger(ev) | Place::Quest(ev) => format!("`{}` has no target", ev.name()),
                Place::NoTarget(w) => format!(
                    "`{w}` actions run with no target (self is the {})",
                    match w {
                        field::USE => "user",
                        field::ON_CREATE => "new character",
                        _ => "player",
                    }
                ),
                Place::TargetMaybe => unreachable!("filtered above"),
            };
            for c in checks {
                if c.who == Who::Target {
                    let msg = format!("`who = \"target\"` can never hold here: {why}, so this check is always false");
                    let mut d = Diagnostic::new(Code::TargetNeverPresent, loc(&c.who_span), msg);
                    // `self` is someone else: the check then asks about the bearer, a change of
                    // behaviour that only the author can choose.
                    d = d.with_fix("use `self`", "\"self\"", Applicability::Unsafe);
                    out.push(d);
                }
            }
            for a in actions {
                if a.data.target() == Some(Who::Target) {
                    let span = a.target_span.clone().unwrap_or(a.span.clone());
                    let msg = format!("`target = \"target\"` names no one here: {why}, so this `{}` does nothing", a.kind.def().name);
                    out.push(Diagnostic::new(Code::TargetNeverPresent, loc(&span), msg).with_fix("use `self`", "\"self\"", Applicability::Unsafe));
                }
            }
        });
    }
}
