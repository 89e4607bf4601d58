//! The character dump: a plain-text account of a run that ended, in the manner of DCSS's
//! morgue file — for the player to keep and for the modder's bug report. It names everything
//! needed to play the run again (the mods with their versions, the seed, the options) and what
//! the run came to: how it ended, the character with where each attribute comes from, what it
//! carried, its quests, the last messages and the trace of the last turns.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use rustkeep_data::vocab::Registry;
use rustkeep_engine::game::{shown, CreatureRef};

use super::{Ending, Session};
use crate::narrate::entry_name;

/// How many of the last messages a dump holds.
pub const DUMP_MESSAGES: usize = 30;

/// How many of the last turns' traces a dump holds.
pub const DUMP_TURNS: usize = 20;

/// The folder the dumps go to when no file is named, under the folder the game was started in
/// (where the game's save goes too).
pub const DUMP_FOLDER: &str = "rustkeep-play/dumps";

/// Where a dump is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DumpTo {
    /// This file (`--dump FILE`), replaced if it exists.
    File(PathBuf),
    /// A new file in this folder, named after the seed and the turn.
    Folder(PathBuf),
}

impl Session {
    /// The character dump of the run as it stands.
    pub fn dump(&self) -> String {
        let g = &self.g;
        let w = &self.w;
        let mut out = String::new();
        let _ = writeln!(out, "rustkeep {} character dump", env!("CARGO_PKG_VERSION"));
        out.push('\n');
        let how = match self.ending() {
            Ending::Won => "won the run".to_string(),
            Ending::Stopped(why) => format!("stopped: {why}"),
            Ending::Died(cause) => format!("died: {cause}"),
            Ending::Playing => "still playing".to_string(),
        };
        let _ = writeln!(out, "Character: {}", self.character_label());
        let _ = writeln!(out, "Outcome:   {how}");
        let _ = writeln!(out, "Turns:     {}", g.step());
        let _ = writeln!(out, "Where:     {}", self.whereabouts());
        let _ = writeln!(out, "Kills:     {}", g.kills());
        let _ = writeln!(out, "Seed:      {}", g.seed());
        if let Some(t) = self.testing_used() {
            let _ = writeln!(out, "Testing:   {t}");
        }
        out.push_str("\nMods\n");
        for line in self.mods_text().lines() {
            let _ = writeln!(out, "  {line}");
        }
        out.push_str("\nAttributes\n");
        let _ = writeln!(out, "  health {} of {}", g.player().health, g.max_health(w, CreatureRef::Player));
        for row in self.sheet_rows() {
            let _ = writeln!(out, "  {} {}: {}", row.attribute, shown(row.value), row.parts.join(", "));
        }
        if !g.player().statuses.is_empty() {
            out.push_str("\nStatuses\n");
            for st in &g.player().statuses {
                let _ = writeln!(out, "  {} ({})", entry_name(w, Registry::Statuses, &st.status), crate::narrate::turns(st.turns));
            }
        }
        out.push_str("\nEquipment\n");
        let equipped: Vec<_> = g.player().inventory.iter().filter(|i| i.equipped).collect();
        if equipped.is_empty() {
            out.push_str("  nothing\n");
        }
        for i in equipped {
            let _ = writeln!(out, "  {}: {}", self.slot_of(&i.item).unwrap_or("-"), self.item_label(i));
        }
        out.push_str("\nInventory\n");
        if g.player().inventory.is_empty() {
            out.push_str("  nothing\n");
        }
        for (n, i) in g.player().inventory.iter().enumerate() {
            let worn = if i.equipped { " (equipped)" } else { "" };
            let _ = writeln!(out, "  {:>2}. {}{worn}", n + 1, self.item_label(i));
        }
        out.push_str("\nQuests\n");
        let quests = self.quest_rows();
        if quests.is_empty() {
            out.push_str("  none started\n");
        }
        for q in quests {
            let _ = writeln!(out, "  {} {}/{}{} — {}", q.name, q.count, q.of, if q.done { " (done)" } else { "" }, q.about);
        }
        let _ = writeln!(out, "\nLast messages (up to {DUMP_MESSAGES})");
        for l in self.log.iter().skip(self.log.len().saturating_sub(DUMP_MESSAGES)) {
            let _ = writeln!(out, "  turn {:<5} {}", l.step, l.shown());
        }
        let _ = writeln!(out, "\nTrace of the last turns (up to {DUMP_TURNS})");
        for i in self.history.len().saturating_sub(DUMP_TURNS)..self.history.len() {
            let Some(t) = self.history.get(i) else { continue };
            let _ = writeln!(out, "  > {} (turn {})", t.command, t.step);
            for line in t.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        out
    }

    /// The floor with its depth and the room, in words.
    fn whereabouts(&self) -> String {
        let g = &self.g;
        let Some(d) = g.dungeon() else {
            return g.room().map_or_else(|| "-".to_string(), |r| entry_name(&self.w, Registry::Prefabs, r));
        };
        format!("{}, floor {} of {}", self.floor_label().unwrap_or_else(|| "-".into()), d.floor + 1, d.floors.len())
    }

    /// Writes the dump once the run is over (won, lost or stopped), once per run: the path
    /// written, `None` while the run goes on or when it was written already.
    pub fn write_dump(&mut self, to: &DumpTo) -> Option<Result<PathBuf, String>> {
        if !self.g.is_over() || self.dumped.is_some() {
            return None;
        }
        let text = self.dump();
        let written = match to {
            DumpTo::File(p) => std::fs::write(p, text).map(|()| p.clone()).map_err(|e| format!("cannot write the character dump {}: {e}", p.display())),
            DumpTo::Folder(dir) => write_new_in(dir, &format!("seed-{}-turn-{}", self.g.seed(), self.g.step()), &text),
        };
        Some(written.inspect(|path| self.dumped = Some(path.clone())))
    }
}

/// Writes `text` to a new file in `dir` (created if missing) named `stem.txt`, or `stem-2.txt`
/// and on when that is taken: a dump never replaces an earlier one (the file is created only if
/// it does not exist, so two games ending at once do not write over each other).
fn write_new_in(dir: &Path, stem: &str, text: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for n in 1..1000 {
        let path = if n == 1 { dir.join(format!("{stem}.txt")) } else { dir.join(format!("{stem}-{n}.txt")) };
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                return file.write_all(text.as_bytes()).map(|()| path.clone()).map_err(|e| format!("cannot write the character dump {}: {e}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot write the character dump {}: {e}", path.display())),
        }
    }
    Err(format!("{} holds too many dumps named {stem}", dir.display()))
}
