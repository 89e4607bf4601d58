//! Scenario files, read by the same lowering as data files: unknown keys with "did you mean",
//! types and ranges, names of the closed vocabularies, actions as in triggers, and an injected
//! event's payload checked key by key against what the event carries.

use crate::tree::{Table, Val};
use serde_json::{Map, Value as Json};

use super::{int_of, num_of, Ctx, Lower, DV};
use crate::diag::{toml_string, Code};
use crate::grid::Dir;
use crate::model::{Sp, Value};
use crate::scenario::{Actor, EnemyGroup, ExpectKind, Scenario, StartItem, Step, StepAct};
use crate::suggest;
use crate::text::{thousands, Span};
use crate::vocab::*;

impl Lower<'_> {
    pub(super) fn scenario(&mut self, root: &Table<'_>) -> Scenario {
        let mut sc = Scenario::default();
        let before = self.errors;
        for (def, _, v) in self.known_fields(root, SCENARIO_FIELDS, Code::UnknownField, &"a scenario") {
            match def.name {
                field::SEED => {
                    if let Some(Value::Int(n)) = self.value(def, v, Ctx::Plain) {
                        sc.seed = n as u64;
                    }
                }
                field::ENEMIES_ACT => sc.enemies_act = matches!(self.value(def, v, Ctx::Plain), Some(Value::Bool(true))),
                field::REGEN => sc.regen = matches!(self.value(def, v, Ctx::Plain), Some(Value::Bool(true))),
                field::MODS => {
                    if let Some(Value::Strs(paths)) = self.value(def, v, Ctx::Plain) {
                        sc.mods = paths;
                    }
                }
                field::PLAYER => match v.get_ref() {
                    Val::Table(t) => self.player(t, v.span(), &mut sc),
                    _ => self.wrong_type(def.name, "a table: `[player]`", v),
                },
                field::ENEMIES => {
                    let mut living = 0u64;
                    for (t, span) in self.tables(def.name, v) {
                        let Some(group) = self.enemy_group(t, span.clone()) else { continue };
                        // The limit of living enemies holds for all groups together; the group
                        // that passes it carries the diagnostic.
                        let before = living;
                        living += u64::from(group.count);
                        if before <= MAX_LIVING_ENEMIES as u64 && living > MAX_LIVING_ENEMIES as u64 {
                            let msg = format!(
                                "with this group the scenario starts with {} enemies: at most {} live at once",
                                thousands(living),
                                thousands(MAX_LIVING_ENEMIES as u64)
                            );
                            self.diag(Code::ValueOutOfRange, span, msg);
                        }
                        sc.enemies.push(group);
                    }
                }
                field::STEPS => {
                    let tables = self.tables(def.name, v);
                    let total = tables.len();
                    for (k, (t, span)) in tables.into_iter().enumerate() {
                        if k == MAX_STEPS {
                            let msg = format!(
                                "a scenario has at most {} steps: this step and the {} after it are past the limit",
                                thousands(MAX_STEPS as u64),
                                thousands((total - k - 1) as u64)
                            );
                            self.diag(Code::ValueOutOfRange, span.clone(), msg);
                        }
                        sc.steps.extend(self.step(t, span));
                    }
                }
                field::EXPECT => {
                    for (t, span) in self.tables(def.name, v) {
                        sc.expects.extend(self.expect(t, span));
                    }
                }
                _ => {}
            }
        }
        // An arena expectation's fights are bounded by the enemies they fight.
        let enemies: u64 = sc.enemies.iter().map(|g| u64::from(g.count)).sum::<u64>().max(1);
        for e in &sc.expects {
            if let ExpectKind::Arena { runs, .. } = &e.kind {
                let fights = u64::from(*runs).saturating_mul(enemies);
                if fights > MAX_ARENA_ENEMY_FIGHTS {
                    let msg = format!(
                        "this arena fights {} times against {} {}: {} enemies in all, more than the {} an expectation fights; fewer `runs` tell the same",
                        thousands(u64::from(*runs)),
                        thousands(enemies),
                        if enemies == 1 { "enemy" } else { "enemies" },
                        thousands(fights),
                        thousands(MAX_ARENA_ENEMY_FIGHTS)
                    );
                    self.diag(Code::ValueOutOfRange, e.span.clone(), msg);
                }
            }
        }
        // `after_step` names a step of this scenario (the steps may be written after it).
        let steps = sc.steps.len();
        for e in &sc.expects {
            if let Some(a) = e.after_step.as_ref().filter(|a| a.value as usize >= steps) {
                let msg = match steps {
                    0 => format!("`after_step = {}`, but the scenario has no steps: leave `after_step` out", a.value),
                    n => format!("`after_step = {}` is past the last step: the steps are 0 to {} (0-based)", a.value, n - 1),
                };
                self.diag(Code::MalformedExpectation, a.span.clone(), msg);
            }
        }
        sc.broken = self.errors > before;
        sc
    }

    fn player(&mut self, t: &Table<'_>, _span: Span, sc: &mut Scenario) {
        for (def, _, v) in self.known_fields(t, SCENARIO_PLAYER_FIELDS, Code::UnknownField, &"`[player]`") {
            match def.name {
                field::ITEMS => {
                    for (it, span) in self.tables(def.name, v) {
                        sc.items.extend(self.start_item(it, span));
                    }
                }
                _ => match self.value(def, v, Ctx::Plain) {
                    Some(Value::RefList(ids)) if def.name == field::OPTIONS => sc.options = ids,
                    Some(Value::RefList(ids)) => sc.quests = ids,
                    Some(Value::Attributes(a)) => sc.attributes = a,
                    _ => {}
                },
            }
        }
    }

    fn start_item(&mut self, t: &Table<'_>, span: Span) -> Option<StartItem> {
        let present = self.known_fields(t, SCENARIO_ITEM_FIELDS, Code::UnknownField, &"an item of `[player] items`");
        self.require(&present, SCENARIO_ITEM_FIELDS, span.clone(), &"this item of `[player] items`", &[]);
        let mut item = None;
        let mut out = StartItem { span, item: Sp::new(0..0, String::new()), count: 1, affixes: Vec::new(), equipped: false };
        for (def, _, v) in present {
            match self.value(def, v, Ctx::Plain) {
                Some(Value::Ref(r)) => item = Some(r),
                Some(Value::Int(n)) => out.count = n.min(u32::MAX as i64) as u32,
                Some(Value::RefList(a)) => out.affixes = a,
                Some(Value::Bool(b)) => out.equipped = b,
                _ => {}
            }
        }
        out.item = item?;
        Some(out)
    }

    fn enemy_group(&mut self, t: &Table<'_>, span: Span) -> Option<EnemyGroup> {
        let present = self.known_fields(t, SCENARIO_ENEMY_FIELDS, Code::UnknownField, &"an enemy group (`[[enemies]]`)");
        self.require(&present, SCENARIO_ENEMY_FIELDS, span.clone(), &"this enemy group (`[[enemies]]`)", &[]);
        let mut creature = None;
        let mut count = 1;
        for (def, _, v) in present {
            match self.value(def, v, Ctx::Plain) {
                Some(Value::Ref(r)) => creature = Some(r),
                Some(Value::Int(n)) => count = n.min(u32::MAX as i64) as u32,
                _ => {}
            }
        }
        Some(EnemyGroup { span, creature: creature?, count })
    }

    fn step(&mut self, t: &Table<'_>, span: Span) -> Option<Step> {
        let present = self.known_fields(t, SCENARIO_STEP_FIELDS, Code::UnknownField, &"a step (`[[steps]]`)");
        let acts: Vec<(&'static FieldDef, Span)> = present.iter().filter(|(d, _, _)| STEP_ACTS.contains(&d.name)).map(|(d, k, _)| (*d, k.clone())).collect();
        let has = |name: &str| present.iter().find(|(d, _, _)| d.name == name).map(|p| p.1.clone());
        let mut ok = true;
        match acts.as_slice() {
            [] => {
                let msg = format!("this step does nothing: give it exactly one of {}", suggest::list(STEP_ACTS.iter()));
                self.diag(Code::MissingField, span.clone(), msg);
                return None;
            }
            [_] => {}
            [first, rest @ ..] => {
                let names = acts.iter().map(|(d, _)| format!("`{}`", d.name)).collect::<Vec<_>>().join(", ");
                let msg = format!("a step does exactly one thing, and this one does {} ({names}): split it into {} steps", acts.len(), acts.len());
                let mut d = crate::diag::Diagnostic::new(Code::MalformedAction, self.loc(first.1.clone()), msg);
                for (def, key) in rest {
                    d = d.with_related(self.loc(key.clone()), format!("`{}` here", def.name));
                }
                self.errors += 1;
                self.diags.push(d);
                ok = false;
            }
        }
        let act_name = acts[0].0.name;
        if let Some(key) = has(field::PAYLOAD).filter(|_| act_name != field::EVENT) {
            self.diag(Code::UnknownField, key, "`payload` belongs to an `event` step: it is the injected event's payload");
            ok = false;
        }
        if let Some(key) = has(field::TARGET).filter(|_| act_name != field::EVENT && act_name != field::ACTION) {
            let msg = format!("`target` belongs to an `event` or `action` step; an `{act_name}` step has none");
            self.diag(Code::UnknownField, key, msg);
            ok = false;
        }
        let mut source = None;
        let mut target = None;
        let mut act = None;
        for (def, _, v) in &present {
            match def.name {
                field::SOURCE => source = self.actor(def.name, v),
                field::TARGET => target = self.actor(def.name, v),
                field::PAYLOAD => {}
                field::ATTACK => act = self.actor(def.name, v).map(StepAct::Attack),
                field::EVENT => {
                    if let Some(Value::Event(e)) = self.value(def, v, Ctx::Plain) {
                        let payload = match present.iter().find(|(d, _, _)| d.name == field::PAYLOAD) {
                            Some((_, _, p)) => self.payload(e, p),
                            None => Some(Map::new()),
                        };
                        act = payload.map(|p| StepAct::Event(Sp::new(v.span(), e), p));
                    }
                }
                field::ACTION => match v.get_ref() {
                    Val::Table(a) => act = self.action(a, v.span()).map(StepAct::Action),
                    _ => {
                        let msg = format!("write `action` as a table: `action = {{ action = \"damage\", … }}`, not {}", super::type_name(v.get_ref()));
                        self.diag(Code::WrongType, v.span(), msg);
                    }
                },
                field::PICKUP => match v.get_ref() {
                    Val::Boolean(true) => act = Some(StepAct::Pickup),
                    Val::Boolean(false) => {
                        let d = self.diag(Code::WrongType, v.span(), "`pickup = false` does nothing; write `pickup = true`");
                        *d = d.clone().with_fix("write `true`", "true", crate::diag::Applicability::Unsafe);
                    }
                    _ => self.wrong_type(def.name, "`true`", v),
                },
                field::WAIT => match v.get_ref() {
                    Val::Boolean(true) => act = Some(StepAct::Wait),
                    Val::Boolean(false) => {
                        let d = self.diag(Code::WrongType, v.span(), "`wait = false` does nothing; write `wait = true`");
                        *d = d.clone().with_fix("write `true`", "true", crate::diag::Applicability::Unsafe);
                    }
                    _ => self.wrong_type(def.name, "`true`", v),
                },
                field::START => match self.value(def, v, Ctx::Plain) {
                    Some(Value::Bool(true)) => act = Some(StepAct::Start(None)),
                    Some(Value::Bool(false)) => {
                        let msg = "`start = false` does nothing; write `start = true` (the dungeon's first floor) or a floor's ID";
                        let d = self.diag(Code::WrongType, v.span(), msg);
                        *d = d.clone().with_fix("write `true`", "true", crate::diag::Applicability::Unsafe);
                    }
                    Some(Value::Ref(r)) => act = Some(StepAct::Start(Some(r))),
                    _ => {}
                },
                field::MOVE => {
                    if let Some(Value::Str(s)) = self.value(def, v, Ctx::Plain) {
                        act = Dir::from_name(&s).map(|d| StepAct::Move(Sp::new(v.span(), d)));
                    }
                }
                _ => {
                    if let Some(Value::Ref(r)) = self.value(def, v, Ctx::Plain) {
                        act = Some(match def.name {
                            field::TALK => StepAct::Talk(r),
                            field::ENTER => StepAct::Enter(r),
                            field::USE => StepAct::Use(r),
                            _ => StepAct::Equip(r),
                        });
                    }
                }
            }
        }
        if !ok {
            return None;
        }
        Some(Step { span, act: act?, source, target })
    }

    /// `player` or `enemy:N`.
    pub(super) fn actor(&mut self, what: &str, v: &DV<'_>) -> Option<Sp<Actor>> {
        let s = self.string(what, v)?;
        match Actor::parse(s) {
            Some(a) => Some(Sp::new(v.span(), a)),
            None => {
                let msg = format!("`{what} = {}`: {} is not `player` or `enemy:N` (N = 0 for the first enemy)", toml_string(s), toml_string(s));
                let d = self.diag(Code::WrongType, v.span(), msg);
                // `Player`, `enemy 1`, `Enemy:2`: the creature meant is plain.
                let norm = s.trim().to_lowercase().replace([' ', '_', '-'], ":");
                let fixed = if norm.starts_with("enemy") && !norm.starts_with("enemy:") { norm.replacen("enemy", "enemy:", 1) } else { norm };
                if let Some(a) = Actor::parse(&fixed) {
                    *d = d.clone().with_fix(format!("write `{a}`"), toml_string(&a.to_string()), crate::diag::Applicability::Safe);
                }
                None
            }
        }
    }

    /// An injected event's payload: only the keys the event carries, each checked as its type
    /// says. `None` when a key was refused.
    fn payload(&mut self, ev: EventKind, v: &DV<'_>) -> Option<Map<String, Json>> {
        let Val::Table(t) = v.get_ref() else {
            self.wrong_type(field::PAYLOAD, "a table of the event's payload keys", v);
            return None;
        };
        let def = ev.def();
        let before = self.errors;
        let mut out = Map::new();
        for (key, val) in t.iter() {
            let name = key.get_ref().as_ref();
            if !def.payload.contains(&name) {
                let judged = suggest::closest_judged(name, def.payload.iter().copied());
                let mut msg = if def.payload.is_empty() {
                    format!("`{}` does not carry `{name}`: it carries no payload at all", def.name)
                } else {
                    format!("`{}` does not carry `{name}`; its payload: {}", def.name, suggest::list(def.payload.iter()))
                };
                if let Some((s, _)) = judged {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                let carriers: Vec<&str> = EVENTS.iter().filter(|e| e.payload.contains(&name)).map(|e| e.name).collect();
                if !carriers.is_empty() {
                    msg.push_str(&format!(" (`{name}` is carried by {})", suggest::list(carriers)));
                }
                let d = self.diag(Code::UnknownField, key.span(), msg);
                if let Some((s, safety)) = judged {
                    *d = d.clone().with_fix(format!("rename to `{s}`"), s, safety);
                }
                continue;
            }
            let Some(fd) = PAYLOAD_FIELDS.iter().find(|f| f.name == name) else { continue };
            if self.value(fd, val, Ctx::Plain).is_some() {
                out.insert(name.to_string(), to_json(val.get_ref()));
            }
        }
        (self.errors == before).then_some(out)
    }
}

/// A TOML value as the engine's trace shows it (JSON).
fn to_json(v: &Val<'_>) -> Json {
    match v {
        Val::String(s) => Json::String(s.to_string()),
        Val::Integer(_) => match int_of(v) {
            Some(Ok(n)) => Json::from(n),
            _ => num_of(v).map(Json::from).unwrap_or(Json::Null),
        },
        Val::Float(_) => num_of(v).map(Json::from).unwrap_or(Json::Null),
        Val::Boolean(b) => Json::Bool(*b),
        Val::Datetime(d) => Json::String(d.to_string()),
        Val::Array(a) => Json::Array(a.iter().map(|x| to_json(x.get_ref())).collect()),
        Val::Table(t) => Json::Object(t.iter().map(|(k, x)| (k.get_ref().to_string(), to_json(x.get_ref()))).collect()),
    }
}
