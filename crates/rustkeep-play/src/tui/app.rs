//! The state of the full-screen game and what each key does. Keys become
//! [`Command`]s run by the [`Session`] (so a played game and its replay are the same game);
//! overlays (inventory, shop, quests, help, the `:` line, prompts) only change what is shown.

use std::collections::BTreeSet;
use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use rustkeep_data::grid::Pos;
use rustkeep_data::vocab::{field, Registry, CURRENCY};
use rustkeep_engine::game::World;

use super::keys::{self, Action};
use crate::command::{Command, Pick};
use crate::session::{push_line, LogLine, Reply, Session};

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
    /// A scrolled view: the help, the message history, the character sheet, the quest log.
    View {
        view: View,
        scroll: u16,
    },
    Inventory {
        cursor: usize,
    },
    /// Look mode: a cursor on the map and what is under it.
    Look {
        at: Pos,
    },
    /// The trace of every turn, at the turn `at` (an index into the session's history).
    History {
        at: usize,
        scroll: u16,
        /// A search or a watched owner being typed.
        input: Option<(Input, String)>,
    },
    Shop {
        side: Side,
        cursor: usize,
    },
    /// The `:` command line being typed.
    CommandLine {
        text: String,
        /// The completions Tab offered last.
        choices: Vec<String>,
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

/// The scrolled views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Help,
    Messages,
    Sheet,
    Quests,
}

/// What is being typed in the trace history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Search,
    Watch,
}

/// The start screen: the character options of the loaded mods to choose from.
pub struct Start {
    pub w: World,
    pub seed: u64,
    pub floor: Option<String>,
    /// `(id, name, description)` of every option, by group (in the order the data defines their
    /// first options; options without a group last), then in the order the data defines them.
    pub options: Vec<(String, String, String)>,
    /// The `group` of each option of `options`.
    pub groups: Vec<Option<String>>,
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
    /// How many colours the terminal shows (24-bit until the terminal says otherwise).
    pub depth: super::colour::Depth,
    /// Whether the trace pane is open, and how far it is scrolled.
    pub trace_open: bool,
    pub trace_scroll: u16,
    /// The furthest the trace pane and the help can be scrolled, as the last frame drew them (the
    /// rows of their wrapped text less the rows shown), so that scrolling stops at the end.
    pub trace_max: std::cell::Cell<u16>,
    /// The furthest the open view (help, messages, sheet, quests, trace history) can be scrolled,
    /// as the last frame drew it.
    pub view_max: std::cell::Cell<u16>,
    /// The owner whose triggers the trace marks, and the last search of the trace history.
    pub watch: Option<String>,
    pub search: Option<String>,
    /// Whether the text of the trace history's input is the owner watched until now, offered
    /// whole: the first character typed replaces it, Backspace clears it.
    pub input_offered: bool,
    /// The file `S` and `L` offer.
    pub save_path: String,
    pub(super) record: Option<(PathBuf, Option<String>)>,
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
    /// The recording being played on screen (`--replay FILE --watch`).
    pub replay: Option<super::playback::Replay>,
    /// Where the character dump goes when the run ends; `None`: no dump (a replay, a test).
    pub dump: Option<crate::session::DumpTo>,
}

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
    pub(super) fn new(phase: Phase, colour: bool) -> App {
        App {
            phase,
            overlay: Overlay::None,
            colour,
            depth: super::colour::Depth::TrueColor,
            trace_open: false,
            trace_scroll: 0,
            trace_max: std::cell::Cell::new(u16::MAX),
            view_max: std::cell::Cell::new(u16::MAX),
            watch: None,
            input_offered: false,
            search: None,
            save_path: "rustkeep-save.json".into(),
            record: None,
            notes: Vec::new(),
            notes_step: 0,
            warnings: Vec::new(),
            failed: None,
            replay: None,
            dump: None,
        }
    }

    pub fn playing(s: Session, colour: bool) -> App {
        App::new(Phase::Play(Box::new(s)), colour)
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
        let step = self.session().map_or(0, |s| s.g.step());
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
        // Watching a replay, its own keys come first wherever the game's keys would go.
        if matches!(self.overlay, Overlay::None | Overlay::Shop { .. }) && !k.modifiers.contains(KeyModifiers::CONTROL) && self.replay_key(k.code) {
            return Flow::Continue;
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
            Overlay::View { view, scroll } => {
                let scroll = self.scroll_key(k, scroll);
                self.overlay = match scroll {
                    Some(scroll) => Overlay::View { view, scroll },
                    None => Overlay::None,
                };
                Flow::Continue
            }
            Overlay::Look { at } => {
                self.look_key(k, at);
                Flow::Continue
            }
            Overlay::History { at, scroll, input } => {
                self.history_key(k, at, scroll, input);
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
            Overlay::CommandLine { text, choices } => self.line_key(k, text, choices),
            Overlay::Prompt { kind, text } => {
                self.prompt_key(k, kind, text);
                Flow::Continue
            }
        }
    }

    /// Runs a command of the game and shows its result.
    pub fn run(&mut self, cmd: Command) {
        if self.replay.is_some() && cmd.changes_the_game() {
            self.note("this is a replay: it plays the recording's inputs (Space pauses, . steps one)".into());
            return;
        }
        let Some(s) = self.session_mut() else { return };
        let result = s.execute(&cmd);
        self.failed = result.as_ref().err().cloned();
        match result {
            Ok(Reply::Text(t)) if !t.is_empty() => self.overlay = Overlay::Output { title: cmd.line(), text: t, scroll: 0 },
            Ok(Reply::Quit) => self.overlay = Overlay::ConfirmQuit,
            Ok(_) => self.after_command(&cmd),
            Err(e) => self.note(e),
        }
    }

    /// After a command changed the game: the trace from its top, the engine's warnings, the
    /// trade screen of a shop that opened (or closed).
    pub(super) fn after_command(&mut self, cmd: &Command) {
        self.trace_scroll = 0;
        let dumped = match (&self.dump, &mut self.phase) {
            (Some(to), Phase::Play(s)) => s.write_dump(to),
            _ => None,
        };
        let Some(s) = self.session_mut() else { return };
        let warnings = s.new_warnings();
        let shop_open = s.shop().is_some();
        self.warnings = warnings;
        match dumped {
            Some(Ok(path)) => self.note(format!("Character dump written to {}.", path.display())),
            Some(Err(e)) => self.note(format!("error: {e}")),
            None => {}
        }
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

    fn game_key(&mut self, k: KeyEvent) -> Flow {
        let over = self.session().is_some_and(|s| s.g.is_over());
        if k.modifiers.contains(KeyModifiers::CONTROL) {
            // Ctrl-P: the message history, as in NetHack and DCSS.
            if matches!(k.code, KeyCode::Char('p') | KeyCode::Char('P')) {
                self.open_view(View::Messages);
            }
            return Flow::Continue;
        }
        let Some(action) = keys::GAME.action(k.code) else { return Flow::Continue };
        let turn = |a: Action| matches!(a, Action::Move(_) | Action::Wait | Action::Rest | Action::Stairs | Action::Explore | Action::Pickup);
        if over && turn(action) {
            return Flow::Continue;
        }
        match action {
            Action::Move(d) => self.run(Command::Move(d)),
            Action::Wait => self.run(Command::Wait),
            Action::Stairs => self.run(Command::Descend),
            Action::Explore => self.run(Command::Explore),
            Action::Rest => self.run(Command::Rest),
            Action::Pickup => self.run(Command::Pickup),
            Action::Look => {
                if let Some(at) = self.session().and_then(|s| s.g.map()).map(|m| m.player) {
                    self.overlay = Overlay::Look { at };
                } else {
                    self.note("there is no map to look at".into());
                }
            }
            Action::Inventory => self.overlay = Overlay::Inventory { cursor: 0 },
            Action::Quests => self.open_view(View::Quests),
            Action::Sheet => self.open_view(View::Sheet),
            Action::Messages => self.open_view(View::Messages),
            Action::Help => self.open_view(View::Help),
            Action::CommandLine => self.overlay = Overlay::CommandLine { text: String::new(), choices: Vec::new() },
            Action::Save => self.overlay = Overlay::Prompt { kind: PromptKind::Save, text: self.save_path.clone() },
            // A recorded game cannot load: said at once, not after the file was asked for.
            Action::Load if self.session().is_some_and(|s| s.recorder.is_some()) => self.note(crate::session::RECORDED_CANNOT_LOAD.into()),
            Action::Load => self.overlay = Overlay::Prompt { kind: PromptKind::Load, text: self.save_path.clone() },
            Action::Trace => {
                self.trace_open = !self.trace_open;
                self.trace_scroll = 0;
            }
            Action::TraceHistory => {
                let n = self.session().map_or(0, |s| s.history.len());
                self.view_max.set(u16::MAX);
                self.overlay = Overlay::History { at: n.saturating_sub(1), scroll: 0, input: None };
            }
            Action::PageDown => self.trace_scroll = self.trace_scroll.saturating_add(5).min(self.trace_max.get()),
            Action::PageUp => self.trace_scroll = self.trace_scroll.saturating_sub(5),
            Action::Quit => self.overlay = Overlay::ConfirmQuit,
            // Esc closes what is open (here, at most the trace pane) and asks nothing: a lone Esc
            // must not make the next key the answer to a question.
            Action::Close => self.trace_open = false,
            _ => {}
        }
        Flow::Continue
    }

    /// Opens a scrolled view at its top (the message history at its end).
    fn open_view(&mut self, view: View) {
        self.view_max.set(u16::MAX);
        let scroll = if view == View::Messages { u16::MAX } else { 0 };
        self.overlay = Overlay::View { view, scroll };
    }

    fn inventory_key(&mut self, k: KeyEvent, cursor: usize) {
        let Some(s) = self.session() else { return };
        let inv = &s.g.player().inventory;
        let n = inv.len();
        let cursor = cursor.min(n.saturating_sub(1));
        let selected = inv.get(cursor).map(|i| (i.item.clone(), i.equipped));
        let usable = selected.as_ref().is_some_and(|(id, _)| s.w.entry(Registry::Items, id).is_some_and(|e| !e.actions(field::USE).is_empty()));
        match keys::INVENTORY.action(k.code) {
            Some(Action::Close) => self.overlay = Overlay::None,
            Some(Action::ScrollUp) if n > 0 => self.overlay = Overlay::Inventory { cursor: (cursor + n - 1) % n },
            Some(Action::ScrollDown) if n > 0 => self.overlay = Overlay::Inventory { cursor: (cursor + 1) % n },
            Some(Action::Use) => {
                if let Some((id, _)) = selected {
                    self.run(Command::Use(id));
                }
            }
            Some(Action::Equip) => {
                if let Some((id, _)) = selected {
                    self.run(Command::Equip(id));
                }
            }
            Some(Action::Drop) if n > 0 => self.run(Command::Drop(Pick::Number(cursor + 1))),
            Some(Action::Choose) => match selected {
                Some((id, _)) if usable => self.run(Command::Use(id)),
                Some((id, false)) => self.run(Command::Equip(id)),
                Some((_, true)) => self.note("it is already equipped".into()),
                None => {}
            },
            _ => {}
        }
        // Keep the cursor on the list as it shrinks.
        if let (Overlay::Inventory { cursor }, Some(s)) = (&self.overlay, self.session()) {
            let n = s.g.player().inventory.len();
            if *cursor >= n && n > 0 {
                self.overlay = Overlay::Inventory { cursor: n - 1 };
            }
        }
    }

    /// The inventory entries a shop would buy (all but gold), as inventory indexes.
    pub fn sellable(s: &Session) -> Vec<usize> {
        s.g.player().inventory.iter().enumerate().filter(|(_, i)| i.item != CURRENCY).map(|(n, _)| n).collect()
    }

    fn shop_key(&mut self, k: KeyEvent, side: Side, cursor: usize) {
        let Some(s) = self.session() else { return };
        let Some(shop) = s.shop() else {
            self.overlay = Overlay::None;
            return;
        };
        let stock_len = s.g.shops().get(shop).map_or(0, Vec::len);
        let sellable = App::sellable(s);
        let n = if side == Side::Buy { stock_len } else { sellable.len() };
        match keys::SHOP.action(k.code) {
            Some(Action::Close) => self.run(Command::Leave),
            Some(Action::Switch) => {
                let other = if side == Side::Buy { Side::Sell } else { Side::Buy };
                self.overlay = Overlay::Shop { side: other, cursor: 0 };
            }
            Some(Action::ScrollUp) if n > 0 => self.overlay = Overlay::Shop { side, cursor: (cursor + n - 1) % n },
            Some(Action::ScrollDown) if n > 0 => self.overlay = Overlay::Shop { side, cursor: (cursor + 1) % n },
            Some(Action::Choose) if n > 0 => {
                let cursor = cursor.min(n - 1);
                let cmd = match side {
                    Side::Buy => Command::Buy(Pick::Number(cursor + 1)),
                    Side::Sell => Command::Sell(Pick::Number(sellable[cursor] + 1)),
                };
                self.run(cmd);
                if let (Overlay::Shop { side, cursor }, Some(s)) = (&self.overlay, self.session()) {
                    let n = match side {
                        Side::Buy => s.shop().and_then(|sh| s.g.shops().get(sh)).map_or(0, Vec::len),
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

    fn line_key(&mut self, k: KeyEvent, mut text: String, choices: Vec<String>) -> Flow {
        match k.code {
            KeyCode::Esc => self.overlay = Overlay::None,
            KeyCode::Backspace => {
                if text.pop().is_none() {
                    self.overlay = Overlay::None;
                } else {
                    self.overlay = Overlay::CommandLine { text, choices: Vec::new() };
                }
            }
            KeyCode::Tab => {
                let (text, choices) = self.complete(&text);
                self.overlay = Overlay::CommandLine { text, choices };
            }
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                text.push(c);
                self.overlay = Overlay::CommandLine { text, choices: Vec::new() };
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
            _ => self.overlay = Overlay::CommandLine { text, choices },
        }
        Flow::Continue
    }

    /// Tab in the command line: the line completed as far as every candidate agrees, and the
    /// candidates when more than one is left.
    pub fn complete(&self, text: &str) -> (String, Vec<String>) {
        let Some(s) = self.session() else { return (text.to_string(), Vec::new()) };
        let start = text.rfind(char::is_whitespace).map(|i| i + 1).unwrap_or(0);
        let index = text[..start].split_whitespace().count();
        let command = text.split_whitespace().next().unwrap_or("");
        let helper = crate::line_edit::PlayHelper::for_session(s);
        let found = helper.candidates(command, index, &text[start..]);
        match found.as_slice() {
            [] => (text.to_string(), Vec::new()),
            [one] => (format!("{}{one} ", &text[..start]), Vec::new()),
            many => {
                let common =
                    many.iter().skip(1).fold(many[0].clone(), |acc, c| acc.chars().zip(c.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect());
                (format!("{}{common}", &text[..start]), many.to_vec())
            }
        }
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
        let mut out = s.log.clone();
        for n in self.notes.iter().filter(|_| self.notes_step == s.g.step()) {
            push_line(&mut out, LogLine::new(s.g.step(), n.clone()));
        }
        out.into()
    }
}
