//! Following `[renamed]` through the model: every ID an entry names, rewritten to the ID it
//! stands for, so that whoever runs the data (the engine) meets only IDs in force.

use super::{Action, ActionData, AiRule, Condition, ConditionData, Entry, LootKind, Sp, Trigger, Value};

impl Entry {
    /// Calls `f` on every ID this entry names (references, `when` values, the IDs of checks,
    /// actions and loot entries), but not on tags, which are free vocabulary, nor on its own `id`
    /// and `overrides`.
    pub fn ids_mut(&mut self, f: &mut dyn FnMut(&mut Sp<String>)) {
        for field in &mut self.fields {
            match &mut field.value {
                Value::Ref(r) => f(r),
                Value::RefList(list) => list.iter_mut().for_each(&mut *f),
                Value::Modifiers(mods) => mods.iter_mut().for_each(|m| conditions(&mut m.condition, f)),
                Value::Triggers(ts) => ts.iter_mut().for_each(|t| trigger(t, f)),
                Value::Actions(a) => actions(a, f),
                Value::Ai(rules) => rules.iter_mut().for_each(|r: &mut AiRule| {
                    conditions(&mut r.condition, f);
                    actions(&mut r.actions, f);
                }),
                Value::Conditions(c) => conditions(c, f),
                Value::When(w) => w.iter_mut().for_each(|w| f(&mut w.value)),
                Value::LootEntries(entries) => {
                    for le in entries {
                        match &mut le.kind {
                            LootKind::Item(id) | LootKind::Table(id) | LootKind::Affix(id) => f(id),
                            LootKind::Nothing => {}
                        }
                        if let Some(a) = &mut le.affixes {
                            f(a);
                        }
                    }
                }
                Value::Str(_)
                | Value::Int(_)
                | Value::Float(_)
                | Value::Bool(_)
                | Value::Tags(_)
                | Value::Range(_)
                | Value::Attributes(_)
                | Value::Event(_)
                | Value::Grid(_)
                | Value::Strs(_)
                | Value::Bound(_) => {}
            }
        }
        if let Some(t) = &mut self.quest_trigger {
            trigger(t, f);
        }
    }
}

fn trigger(t: &mut Trigger, f: &mut dyn FnMut(&mut Sp<String>)) {
    t.when.iter_mut().for_each(|w| f(&mut w.value));
    conditions(&mut t.condition, f);
    actions(&mut t.actions, f);
}

fn conditions(list: &mut [Condition], f: &mut dyn FnMut(&mut Sp<String>)) {
    for c in list {
        if let ConditionData::HasItem { item, .. } = &mut c.data {
            f(item);
        }
    }
}

fn actions(list: &mut [Action], f: &mut dyn FnMut(&mut Sp<String>)) {
    for a in list {
        a.data.ids_mut(f);
    }
}

impl ActionData {
    /// Calls `f` on the ID the action names, if it names one.
    pub fn ids_mut(&mut self, f: &mut dyn FnMut(&mut Sp<String>)) {
        match self {
            ActionData::GiveItem { item, .. } | ActionData::TakeItem { item, .. } => f(item),
            ActionData::ApplyStatus { status, .. } => f(status),
            ActionData::Spawn { creature, .. } => f(creature),
            ActionData::StartQuest { quest } => f(quest),
            ActionData::OpenShop { shop } => f(shop),
            ActionData::Damage { .. } | ActionData::Heal { .. } | ActionData::Flee => {}
        }
    }
}
