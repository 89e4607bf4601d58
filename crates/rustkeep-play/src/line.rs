//! The line console: one command per line, for scripts, tests and terminals without the
//! full-screen game (`--line`). Each command that takes a turn prints its causal trace (the
//! player's step, then every enemy's turn), exactly as `rustkeep simulate` prints a scenario's
//! steps; `trace off` prints what happened in plain words instead. On a terminal the line has
//! editing, history and completion.

use std::io::{BufRead, IsTerminal, Write};

use crate::command::Command;
use crate::line_edit::{history_file, PlayHelper};
use crate::session::{Reply, Session};

pub struct Console {
    pub s: Session,
    trace: bool,
    /// Where the character dump goes when the run ends; `None`: no dump.
    pub dump: Option<crate::session::DumpTo>,
}

fn io(e: std::io::Error) -> String {
    e.to_string()
}

impl Console {
    pub fn new(s: Session) -> Console {
        Console { s, trace: true, dump: None }
    }

    /// Prints what the session did so far (character creation and the way into the dungeon).
    pub fn start(&mut self, out: &mut impl Write) -> Result<(), String> {
        let text = self.turn_text();
        self.print(out, &text)
    }

    /// Reads commands from standard input until `quit` or its end.
    pub fn run(mut self, out: &mut impl Write) -> Result<u8, String> {
        if std::io::stdin().is_terminal() {
            return self.interactive(out);
        }
        for line in std::io::stdin().lock().split(b'\n') {
            let line = line.map_err(|e| format!("cannot read stdin: {e}"))?;
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            // A line that is not text is one mistake: said, and the game goes on.
            let Ok(line) = std::str::from_utf8(line) else {
                writeln!(out, "error: this line is not UTF-8 text").map_err(io)?;
                continue;
            };
            if !self.execute(out, line)? {
                break;
            }
        }
        self.close(out)
    }

    /// Ends the console with the run's summary (how it stands, the testing commands it used).
    fn close(self, out: &mut impl Write) -> Result<u8, String> {
        out.write_all(crate::summary(&self.s).as_bytes()).map_err(io)?;
        if let Some(r) = self.s.recorder {
            r.finish()?;
        }
        Ok(0)
    }

    fn print(&mut self, out: &mut impl Write, text: &str) -> Result<(), String> {
        out.write_all(text.as_bytes()).map_err(io)?;
        if !text.ends_with('\n') && !text.is_empty() {
            out.write_all(b"\n").map_err(io)?;
        }
        for w in self.s.new_warnings() {
            writeln!(out, "warning: {w}").map_err(io)?;
        }
        Ok(())
    }

    /// The last command's turns: traced, or in plain words.
    fn turn_text(&self) -> String {
        let mut s = String::new();
        if self.trace {
            for st in self.s.last.iter() {
                s.push_str(&rustkeep_present::report::trace(st, &crate::session::step_title(st)));
            }
            // Why a walk or a rest ended, which no trace tells.
            if let Some(end) = &self.s.walk_end {
                s.push_str(end);
                s.push('\n');
            }
        } else {
            for m in &self.s.messages {
                s.push_str(m);
                s.push('\n');
            }
        }
        s
    }

    /// Runs one input line; `false` when the console should end.
    pub fn execute(&mut self, out: &mut impl Write, line: &str) -> Result<bool, String> {
        let cmd = match Command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(true),
            Err(e) => {
                writeln!(out, "error: {e}").map_err(io)?;
                return Ok(true);
            }
        };
        if let Command::Trace(on) = cmd {
            self.trace = on;
            writeln!(out, "trace {}", if on { "on" } else { "off" }).map_err(io)?;
            return Ok(true);
        }
        let shop_before = self.s.shop().map(str::to_string);
        match self.s.execute(&cmd) {
            Ok(Reply::Quit) => return Ok(false),
            Ok(Reply::Text(t)) => self.print(out, &t)?,
            Ok(Reply::Said) => {
                let text = self.s.messages.join("\n");
                self.print(out, &text)?;
            }
            Ok(Reply::Turns | Reply::Trade) => {
                let mut text = self.turn_text();
                if let Command::Leave = cmd {
                    text = self.s.messages.join("\n");
                }
                if self.s.shop().is_some() && (shop_before.as_deref() != self.s.shop() || matches!(cmd, Command::Buy(_) | Command::Sell(_))) {
                    if let Some(shop) = self.s.shop_text() {
                        text.push_str(&shop);
                    }
                }
                self.print(out, &text)?;
                match self.dump.as_ref().and_then(|to| self.s.write_dump(to)) {
                    Some(Ok(path)) => writeln!(out, "character dump written to {}", path.display()).map_err(io)?,
                    Some(Err(e)) => writeln!(out, "error: {e}").map_err(io)?,
                    None => {}
                }
            }
            Err(e) => writeln!(out, "error: {e}").map_err(io)?,
        }
        Ok(true)
    }

    /// On a terminal: line editing, history (kept between sessions) and tab completion of
    /// commands and IDs.
    fn interactive(mut self, out: &mut impl Write) -> Result<u8, String> {
        let ids = std::sync::Arc::new(PlayHelper::ids_of(&self.s.w));
        let config = rustyline::Config::builder().completion_type(rustyline::CompletionType::List).auto_add_history(false).build();
        let mut editor: rustyline::Editor<PlayHelper, rustyline::history::DefaultHistory> =
            rustyline::Editor::with_config(config).map_err(|e| format!("cannot start the line editor: {e}"))?;
        let history = history_file();
        if let Some(h) = &history {
            let _ = editor.load_history(h);
        }
        loop {
            let enemies = self.s.g.enemies().iter().filter(|e| e.body.health > 0).map(|e| format!("enemy:{}", e.index)).collect();
            editor.set_helper(Some(PlayHelper { ids: ids.clone(), enemies }));
            match editor.readline("> ") {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    if !self.execute(out, &line)? {
                        break;
                    }
                }
                Err(rustyline::error::ReadlineError::Interrupted | rustyline::error::ReadlineError::Eof) => break,
                Err(e) => return Err(format!("cannot read the terminal: {e}")),
            }
        }
        if let Some(h) = &history {
            if let Some(dir) = h.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = editor.save_history(h);
        }
        self.close(out)
    }
}
