//! The start screen: the character options of the loaded mods, by group (one of each group,
//! as the engine requires: in core, a class and a background), and what each gives.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rustkeep_data::vocab::{field, Registry};
use rustkeep_engine::game::World;

use std::collections::BTreeSet;

use super::app::{App, Flow, Overlay, Phase, Start};
use crate::narrate::entry_name;
use crate::session::Session;

/// An option's modifiers and starting kit, in a line or two.
fn describe_option(w: &World, id: &str) -> String {
    let Some(e) = w.entry(Registry::CharacterOptions, id) else { return String::new() };
    let mut parts = Vec::new();
    for m in e.modifiers() {
        let how = match m.op {
            rustkeep_data::model::ModOp::Add(a) => format!("{}{}", if a >= 0.0 { "+" } else { "" }, rustkeep_engine::game::shown(a)),
            rustkeep_data::model::ModOp::Multiply(x) => format!("×{}", rustkeep_engine::game::shown(x)),
        };
        let when = if m.condition.is_empty() { "" } else { " (sometimes)" };
        parts.push(format!("{} {how}{when}", m.attribute));
    }
    let kit: Vec<String> = e
        .actions(field::ON_CREATE)
        .iter()
        .filter_map(|a| match &a.data {
            rustkeep_data::model::ActionData::GiveItem { item, count, .. } => {
                let name = entry_name(w, Registry::Items, &item.value);
                Some(if *count > 1 { format!("{count} × {name}") } else { name })
            }
            _ => None,
        })
        .collect();
    let mut s = parts.join(", ");
    if !kit.is_empty() {
        s.push_str(&format!("; starts with {}", kit.join(", ")));
    }
    s
}

impl Start {
    /// Space on option `i`: picked if it was not (and the other option of its group unpicked: a
    /// character takes one of each group), else unpicked.
    pub fn pick(&mut self, i: usize) {
        self.error = None;
        if self.chosen.remove(&i) {
            return;
        }
        if let Some(g) = &self.groups[i] {
            let groups = &self.groups;
            self.chosen.retain(|j| groups[*j].as_ref() != Some(g));
        }
        self.chosen.insert(i);
    }

    /// The groups none of whose options is picked, in the order they are listed.
    pub fn missing_groups(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for g in self.groups.iter().flatten() {
            if !out.contains(g) && !self.chosen.iter().any(|i| self.groups[*i].as_ref() == Some(g)) {
                out.push(g.clone());
            }
        }
        out
    }
}

impl App {
    pub fn start_screen(w: World, seed: u64, floor: Option<String>, colour: bool) -> App {
        let mut all: Vec<(Option<String>, String, String, String)> = w
            .ids(Registry::CharacterOptions)
            .into_iter()
            .map(|id| {
                let name = entry_name(&w, Registry::CharacterOptions, &id);
                let d = describe_option(&w, &id);
                (rustkeep_engine::game::option_group(&w, &id), id, name, d)
            })
            .collect();
        // Where each option is defined: the data's order (classes before backgrounds in core).
        let at = |id: &str| w.entry(Registry::CharacterOptions, id).map(|e| (e.file, e.span.start));
        all.sort_by_key(|o| at(&o.1));
        let mut order: Vec<String> = Vec::new();
        for g in all.iter().filter_map(|o| o.0.clone()) {
            if !order.contains(&g) {
                order.push(g);
            }
        }
        all.sort_by_key(|o| (o.0.as_ref().map_or(order.len(), |g| order.iter().position(|x| x == g).unwrap_or(0)), at(&o.1)));
        let groups = all.iter().map(|o| o.0.clone()).collect();
        let options = all.into_iter().map(|(_, id, name, d)| (id, name, d)).collect();
        App::new(Phase::Start(Box::new(Start { w, seed, floor, options, groups, cursor: 0, chosen: BTreeSet::new(), error: None })), colour)
    }

    pub(super) fn start_key(&mut self, k: KeyEvent) -> Flow {
        if self.overlay == Overlay::ConfirmQuit {
            return if matches!(k.code, KeyCode::Char('y') | KeyCode::Enter) || k.modifiers.contains(KeyModifiers::CONTROL) {
                Flow::Quit
            } else {
                self.overlay = Overlay::None;
                Flow::Continue
            };
        }
        let Phase::Start(st) = &mut self.phase else { return Flow::Continue };
        let n = st.options.len();
        match k.code {
            KeyCode::Up | KeyCode::Char('k') if n > 0 => st.cursor = (st.cursor + n - 1) % n,
            KeyCode::Down | KeyCode::Char('j') if n > 0 => st.cursor = (st.cursor + 1) % n,
            KeyCode::Char(' ') if n > 0 => st.pick(st.cursor),
            KeyCode::Char('q') | KeyCode::Esc => self.overlay = Overlay::ConfirmQuit,
            KeyCode::Enter => self.begin(),
            _ => {}
        }
        Flow::Continue
    }

    /// Enter on the start screen: the highlighted option is picked when its group has none yet
    /// (or, without groups, when nothing is picked); the game begins once every group has its
    /// option, else the screen says which groups still need one.
    fn begin(&mut self) {
        let Phase::Start(st) = &mut self.phase else { return };
        if !st.options.is_empty() {
            let group = st.groups[st.cursor].clone();
            let group_open = group.is_some() && !st.chosen.iter().any(|i| st.groups[*i] == group);
            if group_open || st.chosen.is_empty() {
                st.pick(st.cursor);
            }
        }
        let missing = st.missing_groups();
        if !missing.is_empty() {
            st.error = Some(format!("choose a {} too (Space picks the highlighted option, one of each group)", missing.join(" and a ")));
            return;
        }
        let Phase::Start(st) = std::mem::replace(&mut self.phase, Phase::Moving) else { return };
        let picks: Vec<usize> = st.chosen.iter().copied().collect();
        let options: Vec<String> = picks.iter().map(|i| st.options[*i].0.clone()).collect();
        let Start { w, seed, floor, .. } = *st;
        match Session::new_game(w, seed, options, floor.as_deref()) {
            Ok(s) => {
                self.phase = Phase::Play(Box::new(s));
                if let Some((path, floor)) = self.record.take() {
                    if let Err(e) = self.record_to(Some(path), floor) {
                        self.note(format!("error: {e}"));
                    }
                }
            }
            // `new_game` checks the options and the floor before it takes the world; both come
            // from the loaded data here, so this is not reached.
            Err(e) => self.note(format!("error: {e}")),
        }
    }
}
