//! The keys of the screens that only show things: the scrolled views (help, messages, sheet,
//! quest log), look mode and the trace of every turn.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rustkeep_data::grid::Pos;

use super::app::{App, Input, Overlay};
use super::keys::{self, Action};

/// Rows a page key scrolls.
const PAGE: u16 = 10;

impl App {
    /// A key of a scrolled view: the new scroll, or `None` to close the view.
    pub(super) fn scroll_key(&mut self, k: KeyEvent, scroll: u16) -> Option<u16> {
        let max = self.view_max.get();
        let scroll = scroll.min(max);
        Some(match keys::SCROLL.action(k.code) {
            Some(Action::ScrollDown) => scroll.saturating_add(1).min(max),
            Some(Action::ScrollUp) => scroll.saturating_sub(1),
            Some(Action::PageDown) => scroll.saturating_add(PAGE).min(max),
            Some(Action::PageUp) => scroll.saturating_sub(PAGE),
            Some(Action::Top) => 0,
            Some(Action::Bottom) => max,
            Some(Action::Close) => return None,
            // The key that opened a view closes it too.
            _ if matches!(k.code, KeyCode::Char('?' | 'm' | 'C' | 'Q')) => return None,
            _ => scroll,
        })
    }

    /// A key in look mode: the cursor moves over the map (within it), Tab jumps to the next enemy
    /// in sight.
    pub(super) fn look_key(&mut self, k: KeyEvent, at: Pos) {
        let Some(s) = self.session() else { return };
        let Some(m) = s.g.map() else {
            self.overlay = Overlay::None;
            return;
        };
        match keys::LOOK.action(k.code) {
            Some(Action::Move(d)) => {
                let to = at.step(d);
                if m.tile(to).is_some() {
                    self.overlay = Overlay::Look { at: to };
                }
            }
            Some(Action::NextEnemy) => {
                let mut seen: Vec<Pos> = s.living().into_iter().filter_map(|(i, _, _)| m.enemies().get(&i).copied()).collect();
                seen.sort_by_key(|p| (p.y, p.x));
                let next = seen.iter().find(|p| (p.y, p.x) > (at.y, at.x)).or(seen.first()).copied();
                if let Some(p) = next {
                    self.overlay = Overlay::Look { at: p };
                }
            }
            Some(Action::Close) => self.overlay = Overlay::None,
            _ => {}
        }
    }

    /// A key in the trace of every turn.
    pub(super) fn history_key(&mut self, k: KeyEvent, at: usize, scroll: u16, input: Option<(Input, String)>) {
        let offered = std::mem::take(&mut self.input_offered);
        let Some(s) = self.session() else { return };
        let n = s.history.len();
        let last = n.saturating_sub(1);
        let at = at.min(last);
        if let Some((kind, mut text)) = input {
            let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
            match k.code {
                KeyCode::Esc => self.overlay = Overlay::History { at, scroll, input: None },
                // Backspace clears the offered name whole; Ctrl-U clears any line.
                KeyCode::Backspace if offered => self.overlay = Overlay::History { at, scroll, input: Some((kind, String::new())) },
                KeyCode::Char('u') if ctrl => self.overlay = Overlay::History { at, scroll, input: Some((kind, String::new())) },
                KeyCode::Backspace => {
                    text.pop();
                    self.overlay = Overlay::History { at, scroll, input: Some((kind, text)) };
                }
                KeyCode::Tab if kind == Input::Watch => {
                    let owners = self.owners();
                    let found: Vec<&String> = owners.iter().filter(|o| o.starts_with(&text)).collect();
                    if let Some(first) = found.first() {
                        let common: String = found
                            .iter()
                            .skip(1)
                            .fold((*first).clone(), |acc, c| acc.chars().zip(c.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect());
                        text = common;
                    }
                    self.overlay = Overlay::History { at, scroll, input: Some((kind, text)) };
                }
                KeyCode::Char(c) if !ctrl => {
                    if offered {
                        text.clear();
                    }
                    text.push(c);
                    self.overlay = Overlay::History { at, scroll, input: Some((kind, text)) };
                }
                KeyCode::Enter => {
                    let text = text.trim().to_string();
                    let mut to = at;
                    match kind {
                        Input::Search if text.is_empty() => self.search = None,
                        Input::Search => {
                            match s.history.find(&text, at, true).or_else(|| s.history.find(&text, at, false)) {
                                Some(i) => to = i,
                                None => self.note(format!("no turn kept mentions `{text}`")),
                            }
                            self.search = Some(text);
                        }
                        Input::Watch if text.is_empty() => self.watch = None,
                        Input::Watch if !self.owners().contains(&text) => {
                            // Refused, the prompt stays for a correction.
                            self.note(format!("no entry `{text}` in the loaded mods; Tab completes IDs"));
                            self.overlay = Overlay::History { at, scroll, input: Some((kind, text)) };
                            return;
                        }
                        Input::Watch => self.watch = Some(text),
                    }
                    self.overlay = Overlay::History { at: to, scroll: 0, input: None };
                }
                _ => self.overlay = Overlay::History { at, scroll, input: Some((kind, text)) },
            }
            return;
        }
        let max = self.view_max.get();
        let watched = self.watch.as_deref().map(|o| s.history.watched_turns(o)).unwrap_or_default();
        let mut scroll = scroll.min(max);
        let to = match keys::HISTORY.action(k.code) {
            Some(Action::Older) => at.checked_sub(1),
            Some(Action::Newer) => Some((at + 1).min(last)),
            Some(Action::Top) => Some(0),
            Some(Action::Bottom) => Some(last),
            Some(Action::ScrollDown) => {
                scroll = scroll.saturating_add(1).min(max);
                None
            }
            Some(Action::ScrollUp) => {
                scroll = scroll.saturating_sub(1);
                None
            }
            Some(Action::PageDown) => {
                scroll = scroll.saturating_add(PAGE).min(max);
                None
            }
            Some(Action::PageUp) => {
                scroll = scroll.saturating_sub(PAGE);
                None
            }
            Some(Action::NextMatch) => self.search.as_deref().and_then(|q| at.checked_sub(1).and_then(|from| s.history.find(q, from, true))),
            Some(Action::PreviousMatch) => self.search.as_deref().and_then(|q| s.history.find(q, at + 1, false)),
            Some(Action::PreviousWatched) => watched.iter().rev().find(|i| **i < at).copied(),
            Some(Action::NextWatched) => watched.iter().find(|i| **i > at).copied(),
            Some(Action::Search) => {
                self.overlay = Overlay::History { at, scroll, input: Some((Input::Search, String::new())) };
                return;
            }
            Some(Action::Watch) => {
                let text = self.watch.clone().unwrap_or_default();
                self.input_offered = !text.is_empty();
                self.overlay = Overlay::History { at, scroll, input: Some((Input::Watch, text)) };
                return;
            }
            Some(Action::Close) => {
                self.overlay = Overlay::None;
                return;
            }
            _ => None,
        };
        let (at, scroll) = match to {
            Some(t) if t != at => (t, 0),
            _ => (at, scroll),
        };
        self.overlay = Overlay::History { at, scroll, input: None };
    }

    /// Every ID that can own a trigger, sorted: what `w` in the trace history completes.
    pub fn owners(&self) -> Vec<String> {
        let Some(s) = self.session() else { return Vec::new() };
        let mut all: Vec<String> = rustkeep_data::vocab::Registry::ALL.iter().flat_map(|r| s.w.ids(*r)).collect();
        all.sort();
        all.dedup();
        all
    }
}
