//! The state of the full-screen game and what each key does. Keys become
//! [`Command`]s run by the [`Session`] (so a played game and its replay are the same game);
//! overlays (inventory, shop, quests, help, the `:` line, prompts) only change what is shown.

use std::collections::BTreeSet;
use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rustkeep_data::grid::Dir;
use rustkeep_data::vocab::{field, Registry, CURRENCY};
use rustkeep_engine::game::World;

use crate::command::{Command, Pick};
use crate::narrate::entry_name;
use crate::session::{LogLine, Reply, Session};

/// Whether the game goes on after a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Which of the two lists of the trade screen has the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Buy,
    Sell,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Save,
    Load,
}

/// What lies over the map, taking the keys while it is open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help,
    Inventory {
        cursor: usize,
    },
    Quests,
    Shop {
        side: Side,
        cursor: usize,
    },
    /// The `:` command line being typed.
    CommandLine {
        text: String,
    },
    /// A file name being typed for `S` or `L`.
    Prompt {
        kind: PromptKind,
        text: String,
    },
    /// The text a `:` command printed.
    Output {
        title: String,
        text: String,
        scroll: u16,
    },
    ConfirmQuit,
}

/// The start screen: the character options of the loaded mods to choose from.
pub struct Start {
    pub w: World,
    pub seed: u64,
    pub floor: Option<String>,
    /// `(id, name, description)` of every option, sorted by ID.
    pub options: Vec<(String, String, String)>,
    pub cursor: usize,
    pub chosen: BTreeSet<usize>,
    pub error: Option<String>,
}

pub enum Phase {
    Start(Box<Start>),
    Play(Box<Session>),
    /// Between phases (never seen outside [`App::key`]).
    Moving,
}

pub struct App {
    pub phase: Phase,
    pub overlay: Overlay,
    pub colour: bool,
    /// Whether the trace pane is open, and how far it is scrolled.
    pub trace_open: bool,
    pub trace_scroll: u16,
    /// The furthest the trace pane and the help can be scrolled, as the last frame drew them (the
    /// rows of their wrapped text less the rows shown), so that scrolling stops at the end.
    pub trace_max: std::cell::Cell<u16>,
    pub help_scroll: u16,
    pub help_max: std::cell::Cell<u16>,
    /// The file `S` and `L` offer.
    pub save_path: String,
    record: Option<(PathBuf, Option<String>)>,
    /// Messages of the app itself (errors of a key, saved, loaded), shown with the game's.
    pub notes: Vec<String>,
    /// Why the last command failed, if it did (shown inside the trade screen, where the messages
    /// are covered).
    pub failed: Option<String>,
    /// The engine's warnings of the last command (a room without creatures to draw, the event
    /// cap): for the modder, so shown in the trace pane, not in the player's messages.
    pub warnings: Vec<String>,
    /// The step at which the notes were made (they fade into the log after it).
    pub notes_step: usize,
}

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

/// Picks `i` if it is not picked, else unpicks it.
fn toggle(picked: &mut BTreeSet<usize>, i: usize) {
    if !picked.remove(&i) {
        picked.insert(i);
    }
}

/// The direction a key moves in: arrows, `hjkl yubn`, the numpad (digits, and Home, End,
/// PageUp, PageDown for the diagonals).
pub fn direction(code: KeyCode) -> Option<Dir> {
    Some(match code {
        KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('8') => Dir::N,
        KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('2') => Dir::S,
        KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('4') => Dir::W,
        KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('6') => Dir::E,
        KeyCode::Char('y') | KeyCode::Char('7') | KeyCode::Home => Dir::NW,
        KeyCode::Char('u') | KeyCode::Char('9') | KeyCode::PageUp => Dir::NE,
        KeyCode::Char('b') | KeyCode::Char('1') | KeyCode::End => Dir::SW,
        KeyCode::Char('n') | KeyCode::Char('3') | KeyCode::PageDown => Dir::SE,
        _ => return None,
    })
}

/// Every key of the game with what it does, for the help overlay (and docs/play.md).
pub const KEYS: &[(&str, &str)] = &[
    ("arrows, h j k l, y u b n, numpad", "move (into an enemy: attack; into an NPC: talk; onto > : down the stairs)"),
    (". or 5", "wait a turn"),
    (">", "walk to the stairs you have seen and down them"),
    ("g", "pick up what lies here"),
    ("i", "inventory: u use, e equip, d drop, Enter use or equip"),
    ("Q", "quests"),
    ("t", "the causal trace of the last turn ([ and ] scroll it)"),
    (":", "command line: spawn, give, enter, roll, attack, status, map, … (help lists them)"),
    ("S / L", "save / load"),
    ("?", "this help"),
    ("Esc", "close what is open"),
    ("q or Ctrl-C", "quit (asks first)"),
];

/// The map's symbols, for the help overlay.
pub const LEGEND: &[(&str, &str)] = &[
    ("@", "you"),
    ("a–z", "an enemy: its glyph (else its initial), its colour (else its health's)"),
    ("A–Z", "an NPC: its glyph (else its initial)"),
    ("*", "a loot pile"),
    ("%", "items on the ground: the top one's glyph (else %)"),
    ("+", "a door"),
    (">", "the stairs down"),
    ("#", "a wall"),
    ("dim", "a tile you remember but do not see now"),
];

impl App {
    /// An app in `phase`, with nothing open yet.
    fn new(phase: Phase, colour: bool) -> App {
        App {
            phase,
            overlay: Overlay::None,
            colour,
            trace_open: false,
            trace_scroll: 0,
            trace_max: std::cell::Cell::new(u16::MAX),
            help_scroll: 0,
            help_max: std::cell::Cell::new(u16::MAX),
            save_path: "rustkeep-save.json".into(),
            record: None,
            notes: Vec::new(),
            notes_step: 0,
            warnings: Vec::new(),
            failed: None,
        }
    }

    pub fn playing(s: Session, colour: bool) -> App {
        App::new(Phase::Play(Box::new(s)), colour)
    }

    pub fn start_screen(w: World, seed: u64, floor: Option<String>, colour: bool) -> App {
        let options: Vec<(String, String, String)> = w
            .ids(Registry::CharacterOptions)
            .into_iter()
            .map(|id| {
                let name = entry_name(&w, Registry::CharacterOptions, &id);
                let d = describe_option(&w, &id);
                (id, name, d)
            })
            .collect();
        App::new(Phase::Start(Box::new(Start { w, seed, floor, options, cursor: 0, chosen: BTreeSet::new(), error: None })), colour)
    }

    /// Records the game to `path` (from its start: now, or when the start screen is left).
    pub fn record_to(&mut self, path: Option<PathBuf>, floor: Option<String>) -> Result<(), String> {
        let Some(path) = path else { return Ok(()) };
        if let Phase::Play(s) = &mut self.phase {
            s.recorder = Some(crate::start_recording(s, &path, floor)?);
        } else {
            self.record = Some((path, floor));
        }
        Ok(())
    }

    pub fn session(&self) -> Option<&Session> {
        match &self.phase {
            Phase::Play(s) => Some(s),
            _ => None,
        }
    }

    pub fn session_mut(&mut self) -> Option<&mut Session> {
        match &mut self.phase {
            Phase::Play(s) => Some(s),
            _ => None,
        }
    }

    /// A message of the app (shown with the game's messages until the next turn).
    pub fn note(&mut self, text: String) {
        let step = self.session().map_or(0, |s| s.g.step);
        if step != self.notes_step {
            self.notes.clear();
            self.notes_step = step;
        }
        self.notes.push(text);
    }

    /// What to print after the terminal is back: the run's summary. Flushes the recording.
    pub fn close(&mut self) -> Option<String> {
        let s = self.session_mut()?;
        let mut text = crate::summary(s);
        if let Some(r) = s.recorder.take() {
            if let Err(e) = r.finish() {
                text.push_str(&format!("warning: {e}\n"));
            }
        }
        Some(text)
    }

    /// Handles one key press.
    pub fn key(&mut self, k: KeyEvent) -> Flow {
        let ctrl_c = k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('C'));
        if ctrl_c && self.overlay != Overlay::ConfirmQuit {
            self.overlay = Overlay::ConfirmQuit;
            return Flow::Continue;
        }
        if matches!(self.phase, Phase::Start(_)) {
            return self.start_key(k);
        }
        match self.overlay.clone() {
            Overlay::None => self.game_key(k),
            Overlay::ConfirmQuit => match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => Flow::Quit,
                _ if ctrl_c => Flow::Quit,
                _ => {
                    self.overlay = Overlay::None;
                    Flow::Continue
                }
            },
            Overlay::Help => {
                let max = self.help_max.get();
                match k.code {
                    KeyCode::Down | KeyCode::Char('j') => self.help_scroll = self.help_scroll.saturating_add(1).min(max),
                    KeyCode::Up | KeyCode::Char('k') => self.help_scroll = self.help_scroll.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') | KeyCode::Char(']') => self.help_scroll = self.help_scroll.saturating_add(10).min(max),
                    KeyCode::PageUp | KeyCode::Char('[') => self.help_scroll = self.help_scroll.saturating_sub(10),
                    KeyCode::Home | KeyCode::Char('g') => self.help_scroll = 0,
                    KeyCode::End | KeyCode::Char('G') => self.help_scroll = max,
                    KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('?') | KeyCode::Enter => self.overlay = Overlay::None,
                    _ => {}
                }
                Flow::Continue
            }
            Overlay::Quests => {
                if matches!(k.code, KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('?') | KeyCode::Char('Q') | KeyCode::Enter) {
                    self.overlay = Overlay::None;
                }
                Flow::Continue
            }
            Overlay::Output { title, text, scroll } => {
                match k.code {
                    KeyCode::Down | KeyCode::Char('j') => self.overlay = Overlay::Output { title, text, scroll: scroll.saturating_add(1) },
                    KeyCode::Up | KeyCode::Char('k') => self.overlay = Overlay::Output { title, text, scroll: scroll.saturating_sub(1) },
                    _ => self.overlay = Overlay::None,
                }
                Flow::Continue
            }
            Overlay::Inventory { cursor } => {
                self.inventory_key(k, cursor);
                Flow::Continue
            }
            Overlay::Shop { side, cursor } => {
                self.shop_key(k, side, cursor);
                Flow::Continue
            }
            Overlay::CommandLine { text } => self.line_key(k, text),
            Overlay::Prompt { kind, text } => {
                self.prompt_key(k, kind, text);
                Flow::Continue
            }
        }
    }

    fn start_key(&mut self, k: KeyEvent) -> Flow {
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
            KeyCode::Char(' ') if n > 0 => toggle(&mut st.chosen, st.cursor),
            KeyCode::Char('q') | KeyCode::Esc => self.overlay = Overlay::ConfirmQuit,
            KeyCode::Enter => self.begin(),
            _ => {}
        }
        Flow::Continue
    }

    /// Leaves the start screen: a new game with the chosen options (the highlighted one when
    /// none is chosen).
    fn begin(&mut self) {
        let Phase::Start(st) = std::mem::replace(&mut self.phase, Phase::Moving) else { return };
        let mut picks: Vec<usize> = st.chosen.iter().copied().collect();
        if picks.is_empty() && !st.options.is_empty() {
            picks.push(st.cursor);
        }
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

    /// Runs a command of the game and shows its result.
    pub fn run(&mut self, cmd: Command) {
        let Some(s) = self.session_mut() else { return };
        let result = s.execute(&cmd);
        self.failed = result.as_ref().err().cloned();
        match result {
            Ok(Reply::Text(t)) if !t.is_empty() => self.overlay = Overlay::Output { title: cmd.line(), text: t, scroll: 0 },
            Ok(Reply::Quit) => self.overlay = Overlay::ConfirmQuit,
            Ok(_) => {
                self.trace_scroll = 0;
                let s = self.session_mut().expect("playing");
                let warnings = s.new_warnings();
                let shop_open = s.shop().is_some();
                self.warnings = warnings;
                if let Command::Load(_) = cmd {
                    self.overlay = Overlay::None;
                }
                // A shop that opened (or stays open after a trade) shows its trade screen.
                match (&self.overlay, shop_open) {
                    (Overlay::Shop { .. }, true) => {}
                    (_, true) => self.overlay = Overlay::Shop { side: Side::Buy, cursor: 0 },
                    (Overlay::Shop { .. }, false) => self.overlay = Overlay::None,
                    _ => {}
                }
            }
            Err(e) => self.note(e),
        }
    }

    fn game_key(&mut self, k: KeyEvent) -> Flow {
        let over = self.session().is_some_and(|s| s.g.over);
        if let Some(d) = direction(k.code).filter(|_| !over) {
            // PageUp and PageDown scroll an open trace pane instead.
            if !(self.trace_open && matches!(k.code, KeyCode::PageUp | KeyCode::PageDown)) {
                self.run(Command::Move(d));
                return Flow::Continue;
            }
        }
        match k.code {
            KeyCode::Char('.') | KeyCode::Char('5') if !over => self.run(Command::Wait),
            KeyCode::Char('>') if !over => self.run(Command::Descend),
            KeyCode::Char('g') if !over => self.run(Command::Pickup),
            KeyCode::Char('i') => self.overlay = Overlay::Inventory { cursor: 0 },
            KeyCode::Char('Q') => self.overlay = Overlay::Quests,
            KeyCode::Char('?') => {
                self.help_scroll = 0;
                self.overlay = Overlay::Help;
            }
            KeyCode::Char(':') => self.overlay = Overlay::CommandLine { text: String::new() },
            KeyCode::Char('S') => self.overlay = Overlay::Prompt { kind: PromptKind::Save, text: self.save_path.clone() },
            KeyCode::Char('L') => self.overlay = Overlay::Prompt { kind: PromptKind::Load, text: self.save_path.clone() },
            KeyCode::Char('t') => {
                self.trace_open = !self.trace_open;
                self.trace_scroll = 0;
            }
            KeyCode::Char(']') | KeyCode::PageDown => self.trace_scroll = self.trace_scroll.saturating_add(5).min(self.trace_max.get()),
            KeyCode::Char('[') | KeyCode::PageUp => self.trace_scroll = self.trace_scroll.saturating_sub(5),
            KeyCode::Char('q') => self.overlay = Overlay::ConfirmQuit,
            // Esc closes what is open (here, at most the trace pane) and asks nothing: a lone Esc
            // must not make the next key the answer to a question.
            KeyCode::Esc => self.trace_open = false,
            _ => {}
        }
        Flow::Continue
    }

    fn inventory_key(&mut self, k: KeyEvent, cursor: usize) {
        let Some(s) = self.session() else { return };
        let inv = &s.g.player.inventory;
        let n = inv.len();
        let cursor = cursor.min(n.saturating_sub(1));
        let selected = inv.get(cursor).map(|i| (i.item.clone(), i.equipped));
        let usable = selected.as_ref().is_some_and(|(id, _)| s.w.entry(Registry::Items, id).is_some_and(|e| !e.actions(field::USE).is_empty()));
        match k.code {
            KeyCode::Esc | KeyCode::Char('i') | KeyCode::Char('q') => self.overlay = Overlay::None,
            KeyCode::Up | KeyCode::Char('k') if n > 0 => self.overlay = Overlay::Inventory { cursor: (cursor + n - 1) % n },
            KeyCode::Down | KeyCode::Char('j') if n > 0 => self.overlay = Overlay::Inventory { cursor: (cursor + 1) % n },
            KeyCode::Char('u') => {
                if let Some((id, _)) = selected {
                    self.run(Command::Use(id));
                }
            }
            KeyCode::Char('e') => {
                if let Some((id, _)) = selected {
                    self.run(Command::Equip(id));
                }
            }
            KeyCode::Char('d') if n > 0 => self.run(Command::Drop(Pick::Number(cursor + 1))),
            KeyCode::Enter => match selected {
                Some((id, _)) if usable => self.run(Command::Use(id)),
                Some((id, false)) => self.run(Command::Equip(id)),
                Some((_, true)) => self.note("it is already equipped".into()),
                None => {}
            },
            _ => {}
        }
        // Keep the cursor on the list as it shrinks.
        if let (Overlay::Inventory { cursor }, Some(s)) = (&self.overlay, self.session()) {
            let n = s.g.player.inventory.len();
            if *cursor >= n && n > 0 {
                self.overlay = Overlay::Inventory { cursor: n - 1 };
            }
        }
    }

    /// The inventory entries a shop would buy (all but gold), as inventory indexes.
    pub fn sellable(s: &Session) -> Vec<usize> {
        s.g.player.inventory.iter().enumerate().filter(|(_, i)| i.item != CURRENCY).map(|(n, _)| n).collect()
    }

    fn shop_key(&mut self, k: KeyEvent, side: Side, cursor: usize) {
        let Some(s) = self.session() else { return };
        let Some(shop) = s.shop() else {
            self.overlay = Overlay::None;
            return;
        };
        let stock_len = s.g.shops.get(shop).map_or(0, Vec::len);
        let sellable = App::sellable(s);
        let n = if side == Side::Buy { stock_len } else { sellable.len() };
        match k.code {
            KeyCode::Esc | KeyCode::Char('q') => self.run(Command::Leave),
            KeyCode::Tab | KeyCode::Left | KeyCode::Right | KeyCode::Char('h') | KeyCode::Char('l') => {
                let other = if side == Side::Buy { Side::Sell } else { Side::Buy };
                self.overlay = Overlay::Shop { side: other, cursor: 0 };
            }
            KeyCode::Up | KeyCode::Char('k') if n > 0 => self.overlay = Overlay::Shop { side, cursor: (cursor + n - 1) % n },
            KeyCode::Down | KeyCode::Char('j') if n > 0 => self.overlay = Overlay::Shop { side, cursor: (cursor + 1) % n },
            KeyCode::Enter | KeyCode::Char('b') | KeyCode::Char('s') if n > 0 => {
                let cursor = cursor.min(n - 1);
                let cmd = match side {
                    Side::Buy => Command::Buy(Pick::Number(cursor + 1)),
                    Side::Sell => Command::Sell(Pick::Number(sellable[cursor] + 1)),
                };
                self.run(cmd);
                if let (Overlay::Shop { side, cursor }, Some(s)) = (&self.overlay, self.session()) {
                    let n = match side {
                        Side::Buy => s.shop().and_then(|sh| s.g.shops.get(sh)).map_or(0, Vec::len),
                        Side::Sell => App::sellable(s).len(),
                    };
                    if *cursor >= n {
                        self.overlay = Overlay::Shop { side: *side, cursor: n.saturating_sub(1) };
                    }
                }
            }
            _ => {}
        }
    }

    fn line_key(&mut self, k: KeyEvent, mut text: String) -> Flow {
        match k.code {
            KeyCode::Esc => self.overlay = Overlay::None,
            KeyCode::Backspace => {
                if text.pop().is_none() {
                    self.overlay = Overlay::None;
                } else {
                    self.overlay = Overlay::CommandLine { text };
                }
            }
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                text.push(c);
                self.overlay = Overlay::CommandLine { text };
            }
            KeyCode::Enter => {
                self.overlay = Overlay::None;
                match Command::parse(&text) {
                    Ok(Some(Command::Quit)) => self.overlay = Overlay::ConfirmQuit,
                    Ok(Some(Command::Trace(on))) => self.trace_open = on,
                    Ok(Some(cmd)) => {
                        if let Command::Save(p) | Command::Load(p) = &cmd {
                            self.save_path = p.display().to_string();
                        }
                        self.run(cmd);
                    }
                    Ok(None) => {}
                    Err(e) => self.note(format!("error: {e}")),
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    fn prompt_key(&mut self, k: KeyEvent, kind: PromptKind, mut text: String) {
        match k.code {
            KeyCode::Esc => self.overlay = Overlay::None,
            KeyCode::Backspace => {
                text.pop();
                self.overlay = Overlay::Prompt { kind, text };
            }
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                text.push(c);
                self.overlay = Overlay::Prompt { kind, text };
            }
            KeyCode::Enter if !text.trim().is_empty() => {
                self.overlay = Overlay::None;
                self.save_path = text.trim().to_string();
                let path = PathBuf::from(text.trim());
                let cmd = if kind == PromptKind::Save { Command::Save(path) } else { Command::Load(path) };
                let Some(s) = self.session_mut() else { return };
                match s.execute(&cmd) {
                    Ok(Reply::Text(t)) => {
                        for line in t.lines() {
                            self.note(line.to_string());
                        }
                    }
                    Ok(_) => {}
                    Err(e) => self.note(format!("error: {e}")),
                }
            }
            _ => {}
        }
    }

    /// The lines of the message log to show, newest last: the log, then the app's notes.
    pub fn log_lines(&self) -> Vec<LogLine> {
        let Some(s) = self.session() else { return Vec::new() };
        let mut out: Vec<LogLine> = s.log.iter().cloned().collect();
        out.extend(self.notes.iter().filter(|_| self.notes_step == s.g.step).map(|n| LogLine { step: s.g.step, text: n.clone() }));
        out
    }
}
