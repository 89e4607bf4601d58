//! Line editing, history and tab completion for the line console of `rustkeep play` on a
//! terminal (rustyline). Piped input (scripts, tests) bypasses this and is read line by line.

use std::borrow::Cow;
use std::sync::Arc;

use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use crate::command::COMMANDS;

/// Completes commands first, then the IDs each command takes (creatures after `spawn`, items
/// after `use`, …), the living enemies after `attack`, and `on`/`off` after `trace`.
pub struct PlayHelper {
    /// Sorted IDs per command (shared: built once per loaded mod set).
    pub ids: Arc<std::collections::HashMap<&'static str, Vec<String>>>,
    /// `enemy:N` of the living enemies, refreshed before each prompt.
    pub enemies: Vec<String>,
}

/// Which registries each command's argument names.
pub const ARGUMENTS: &[(&str, &[rustkeep_data::vocab::Registry])] = {
    use rustkeep_data::vocab::Registry::*;
    &[
        ("equip", &[Items]),
        ("use", &[Items]),
        ("drop", &[Items]),
        ("give", &[Items]),
        ("spawn", &[Creatures]),
        ("enter", &[Prefabs, Floors]),
        ("talk", &[Npcs]),
        ("roll", &[LootTables]),
    ]
};

impl PlayHelper {
    /// The IDs each command's argument takes in the loaded mods, sorted.
    pub fn ids_of(w: &rustkeep_engine::game::World) -> std::collections::HashMap<&'static str, Vec<String>> {
        ARGUMENTS
            .iter()
            .map(|(cmd, regs)| {
                let mut v: Vec<String> = regs.iter().flat_map(|r| w.ids(*r)).collect();
                v.sort();
                (*cmd, v)
            })
            .collect()
    }

    /// A helper for the game as it stands: the loaded IDs and the living enemies the player sees.
    pub fn for_session(s: &crate::session::Session) -> PlayHelper {
        let enemies = s.living().into_iter().map(|(i, _, _)| format!("enemy:{i}")).collect();
        PlayHelper { ids: Arc::new(PlayHelper::ids_of(&s.w)), enemies }
    }

    /// Candidates for the word `word` at position `index` of the line (0 = the command).
    pub fn candidates(&self, command: &str, index: usize, word: &str) -> Vec<String> {
        if index == 0 {
            return COMMANDS.iter().map(|(c, _, _)| *c).filter(|c| c.starts_with(word)).map(str::to_string).collect();
        }
        let pool: Box<dyn Iterator<Item = &str>> = match command {
            "attack" => Box::new(self.enemies.iter().map(String::as_str)),
            "trace" => Box::new(["on", "off"].into_iter()),
            "move" => Box::new(rustkeep_data::grid::Dir::ALL.into_iter().map(|d| d.name())),
            _ if index == 1 => match self.ids.get(command) {
                Some(ids) => Box::new(ids.iter().map(String::as_str)),
                None => Box::new(std::iter::empty()),
            },
            _ => Box::new(std::iter::empty()),
        };
        pool.filter(|c| c.starts_with(word)).take(200).map(str::to_string).collect()
    }
}

impl Completer for PlayHelper {
    type Candidate = String;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map(|i| i + 1).unwrap_or(0);
        let index = before[..start].split_whitespace().count();
        let command = before.split_whitespace().next().unwrap_or("");
        Ok((start, self.candidates(command, index, &before[start..])))
    }
}

impl Hinter for PlayHelper {
    type Hint = String;
}

impl Highlighter for PlayHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, _default: bool) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for PlayHelper {}

impl Helper for PlayHelper {}

/// Where the console keeps its history: `$XDG_STATE_HOME/rustkeep/play_history`, else
/// `~/.local/state/rustkeep/play_history`.
pub fn history_file() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/state")))?;
    Some(base.join("rustkeep").join("play_history"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> PlayHelper {
        let ids = [
            ("talk", vec!["core:elder".to_string()]),
            ("use", vec!["core:health_potion".to_string(), "core:healer_kit".to_string()]),
            ("spawn", vec!["core:rat".to_string()]),
        ];
        PlayHelper { ids: Arc::new(ids.into_iter().collect()), enemies: vec!["enemy:0".into(), "enemy:3".into()] }
    }

    #[test]
    fn completes_commands_then_ids() {
        let h = helper();
        assert_eq!(h.candidates("", 0, "eq"), ["equip"]);
        assert_eq!(h.candidates("move", 1, "n"), ["n", "ne", "nw"]);
        assert_eq!(h.candidates("talk", 1, "core:e"), ["core:elder"]);
        assert!(h.candidates("spawn", 1, "core:e").is_empty(), "spawn offers creatures only");
        assert_eq!(h.candidates("use", 1, "core:hea"), ["core:health_potion", "core:healer_kit"]);
        assert_eq!(h.candidates("attack", 1, "enemy:"), ["enemy:0", "enemy:3"]);
        assert_eq!(h.candidates("trace", 1, "o"), ["on", "off"]);
        assert!(h.candidates("save", 1, "").is_empty());
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        assert_eq!(h.complete("use core:healt", 14, &ctx).unwrap(), (4, vec!["core:health_potion".to_string()]));
        assert_eq!(h.complete("sp", 2, &ctx).unwrap(), (0, vec!["spawn".to_string()]));
    }
}
