//! `rustkeep play`: a line-based play-test console on the loaded mods. Each command that acts
//! (attack, enter, talk, pickup, use, equip, spawn) is one step, run and traced exactly like a
//! scenario step of `rustkeep simulate`. Line editing, history and completion are left to the
//! terminal (or `rlwrap rustkeep play`).

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use rustkeep_data::model::{ActionData, Sp};
use rustkeep_data::suggest::closest;
use rustkeep_data::vocab::{Registry, ATTRIBUTES};
use rustkeep_engine::game::{describe_items, Act, CreatureRef, Game, World};
use rustkeep_engine::save;

use crate::Common;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// Seed of the game's generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A character option for the new character (repeatable), e.g. `core:warrior`.
    #[arg(long = "option", value_name = "ID")]
    pub options: Vec<String>,
    /// Start from a save instead of a new character.
    #[arg(long, value_name = "SAVE")]
    pub load: Option<PathBuf>,
}

const HELP: &str = "\
commands (one per line):
  status                 health, attributes, statuses, enemies, where you are
  inventory              what you carry (equipped items marked)
  quests                 quest progress
  equip ID               equip an item you carry            (takes a turn)
  spawn ID [N]           spawn N creatures (default 1)      (takes a turn)
  attack enemy:N         attack an enemy                     (takes a turn)
  enter ID               enter a prefab or a floor           (takes a turn)
  talk ID                talk to an NPC                      (takes a turn)
  pickup                 pick up everything on the floor     (takes a turn)
  use ID                 use an item you carry               (takes a turn)
  roll TABLE             preview a roll of a loot table (changes nothing)
  trace on|off           show the causal trace of each turn (default on)
  save FILE              save the game
  load FILE              load a game (a broken save changes nothing)
  help                   this text
  quit                   leave";

struct Console {
    w: World,
    g: Game,
    trace: bool,
    warnings_seen: usize,
}

pub fn run(args: Args) -> Result<u8, String> {
    let w = crate::world::load_mods(&args.common.mods)?;
    let mut out = std::io::stdout().lock();
    let mut c = match &args.load {
        Some(path) => {
            let (g, warnings) = save::read(path, &w)?;
            for x in &warnings {
                writeln!(out, "warning: {x}").map_err(|e| e.to_string())?;
            }
            let seen = g.warnings.len();
            Console { w, g, trace: true, warnings_seen: seen }
        }
        None => {
            for o in &args.options {
                if !w.exists(Registry::CharacterOptions, o) {
                    return Err(unknown(&w, &[Registry::CharacterOptions], o));
                }
            }
            let mut g = Game::new(args.seed, args.options.clone(), &Default::default());
            let setup = g.setup(&w, &[]);
            let mut c = Console { w, g, trace: true, warnings_seen: 0 };
            c.print_step(&mut out, &setup.human("setup"))?;
            c
        }
    };
    if std::io::stdin().is_terminal() {
        return interactive(c, &mut out);
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("cannot read stdin: {e}"))?;
        if !c.execute(&mut out, &line)? {
            break;
        }
    }
    Ok(0)
}

/// On a terminal: line editing, history (kept between sessions) and tab completion of commands
/// and IDs.
fn interactive(mut c: Console, out: &mut impl Write) -> Result<u8, String> {
    use crate::play_line::{history_file, PlayHelper};
    let ids: std::collections::HashMap<&'static str, Vec<String>> = crate::play_line::ARGUMENTS
        .iter()
        .map(|(cmd, regs)| {
            let mut v: Vec<String> = regs.iter().flat_map(|r| c.w.ids(*r)).collect();
            v.sort();
            (*cmd, v)
        })
        .collect();
    let ids = std::sync::Arc::new(ids);
    let config = rustyline::Config::builder().completion_type(rustyline::CompletionType::List).auto_add_history(false).build();
    let mut editor: rustyline::Editor<PlayHelper, rustyline::history::DefaultHistory> =
        rustyline::Editor::with_config(config).map_err(|e| format!("cannot start the line editor: {e}"))?;
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    loop {
        let enemies = c.g.enemies.iter().filter(|e| e.body.health > 0).map(|e| format!("enemy:{}", e.index)).collect();
        editor.set_helper(Some(PlayHelper { ids: ids.clone(), enemies }));
        match editor.readline("> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                if !c.execute(out, &line)? {
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
    Ok(0)
}

fn unknown(w: &World, regs: &[Registry], id: &str) -> String {
    let pool: Vec<String> = regs.iter().flat_map(|r| w.ids(*r)).collect();
    let sug = closest(id, pool.iter().map(String::as_str)).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
    format!("`{id}` is not {}{sug}", regs.iter().map(|r| format!("a known {}", r.noun())).collect::<Vec<_>>().join(" or "))
}

impl Console {
    fn print_step(&mut self, out: &mut impl Write, text: &str) -> Result<(), String> {
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        if !text.ends_with('\n') && !text.is_empty() {
            out.write_all(b"\n").map_err(|e| e.to_string())?;
        }
        for w in &self.g.warnings[self.warnings_seen.min(self.g.warnings.len())..] {
            writeln!(out, "warning: {w}").map_err(|e| e.to_string())?;
        }
        self.warnings_seen = self.g.warnings.len();
        Ok(())
    }

    fn need(&self, regs: &[Registry], id: &str) -> Result<(), String> {
        if regs.iter().any(|r| self.w.exists(*r, id)) {
            Ok(())
        } else {
            Err(unknown(&self.w, regs, id))
        }
    }

    fn turn(&mut self, act: Act<'_>, target: Option<CreatureRef>) -> String {
        let st = self.g.run_step(&self.w, act, CreatureRef::Player, target);
        if self.trace {
            st.human(&format!("step {}", st.step))
        } else {
            let mut s = String::new();
            for e in &st.effects {
                s.push_str(e.get("effect").and_then(|v| v.as_str()).unwrap_or(""));
                s.push('\n');
            }
            s
        }
    }

    /// Runs one input line; `false` when the console should end.
    fn execute(&mut self, out: &mut impl Write, line: &str) -> Result<bool, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() || words[0].starts_with('#') {
            return Ok(true);
        }
        if words[0] == "quit" || words[0] == "exit" {
            return Ok(false);
        }
        match self.command(&words) {
            Ok(text) => self.print_step(out, &text)?,
            Err(e) => writeln!(out, "error: {e}").map_err(|e| e.to_string())?,
        }
        Ok(true)
    }

    fn command(&mut self, words: &[&str]) -> Result<String, String> {
        let arg = |i: usize, what: &str| words.get(i).copied().ok_or_else(|| format!("usage: {} {what}", words[0]));
        if self.g.over && matches!(words[0], "equip" | "spawn" | "attack" | "enter" | "talk" | "pickup" | "use") {
            return Err("the player is dead; load a save or quit".into());
        }
        match words[0] {
            "help" => Ok(HELP.into()),
            "status" => Ok(self.status()),
            "inventory" => Ok(self.inventory()),
            "quests" => Ok(self.quests()),
            "trace" => match words.get(1) {
                Some(&"on") => {
                    self.trace = true;
                    Ok("trace on".into())
                }
                Some(&"off") => {
                    self.trace = false;
                    Ok("trace off".into())
                }
                _ => Err("usage: trace on|off".into()),
            },
            "equip" => {
                let id = arg(1, "ITEM")?;
                self.need(&[Registry::Items], id)?;
                Ok(self.turn(Act::Equip(id), None))
            }
            "use" => {
                let id = arg(1, "ITEM")?;
                self.need(&[Registry::Items], id)?;
                // Using an item spends it; one without `use` actions would vanish for nothing.
                if self.w.entry(Registry::Items, id).is_some_and(|e| e.actions(rustkeep_data::vocab::field::USE).is_empty()) {
                    let hint = if self.w.entry(Registry::Items, id).and_then(|e| e.str(rustkeep_data::vocab::field::SLOT)).is_some() {
                        format!("; equip it instead (`equip {id}`)")
                    } else {
                        String::new()
                    };
                    return Err(format!("`{id}` has no `use` actions: using it would only use it up{hint}"));
                }
                Ok(self.turn(Act::Use(id), None))
            }
            "talk" => {
                let id = arg(1, "NPC")?;
                self.need(&[Registry::Npcs], id)?;
                Ok(self.turn(Act::Talk(id), None))
            }
            "enter" => {
                let id = arg(1, "PREFAB|FLOOR")?;
                self.need(&[Registry::Prefabs, Registry::Floors], id)?;
                Ok(self.turn(Act::Enter(id), None))
            }
            "pickup" => Ok(self.turn(Act::Pickup, None)),
            "attack" => {
                let t = arg(1, "enemy:N")?;
                let r = CreatureRef::parse(t).filter(|r| *r != CreatureRef::Player).ok_or_else(|| format!("`{t}` is not `enemy:N`"))?;
                if self.g.creature(r).is_none() {
                    return Err(format!("there is no {r}"));
                }
                Ok(self.turn(Act::Attack, Some(r)))
            }
            "spawn" => {
                let id = arg(1, "CREATURE [N]")?;
                self.need(&[Registry::Creatures], id)?;
                let n: u32 = match words.get(2) {
                    Some(x) => x.parse().ok().filter(|n| (1..=100).contains(n)).ok_or_else(|| format!("`{x}` is not a count from 1 to 100"))?,
                    None => 1,
                };
                let a = ActionData::Spawn { creature: Sp::new(0..0, id.to_string()), count: n };
                Ok(self.turn(Act::Action(&a), None))
            }
            "roll" => {
                let id = arg(1, "TABLE")?;
                self.need(&[Registry::LootTables], id)?;
                // A preview on a copy of the generator: the game's stream is not advanced.
                let mut copy = self.g.clone();
                let drops = copy.roll(&self.w, id);
                Ok(format!("{id} would give: {}", describe_items(&drops)))
            }
            "save" => {
                let p = arg(1, "FILE")?;
                save::write(Path::new(p), &self.g)?;
                Ok(format!("saved to {p}"))
            }
            "load" => {
                let p = arg(1, "FILE")?;
                let (g, warnings) = save::read(Path::new(p), &self.w)?;
                self.g = g;
                self.warnings_seen = self.g.warnings.len();
                let mut s = format!("loaded {p}");
                for x in warnings {
                    s.push_str(&format!("\nwarning: {x}"));
                }
                Ok(s)
            }
            other => {
                let names = [
                    "status",
                    "inventory",
                    "quests",
                    "equip",
                    "spawn",
                    "attack",
                    "enter",
                    "talk",
                    "pickup",
                    "use",
                    "roll",
                    "trace",
                    "save",
                    "load",
                    "help",
                    "quit",
                ];
                let sug = closest(other, names.iter().copied()).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
                Err(format!("unknown command `{other}`{sug} (try `help`)"))
            }
        }
    }

    fn status(&self) -> String {
        let g = &self.g;
        let w = &self.w;
        let p = CreatureRef::Player;
        let mut s = format!("health {} / {}\n", g.player.health, g.max_health(w, p));
        let living: Vec<CreatureRef> = g.enemies.iter().filter(|e| e.body.health > 0).map(|e| CreatureRef::Enemy(e.index)).collect();
        for (a, _) in ATTRIBUTES {
            let v = g.attribute(w, p, a, None);
            let mut line = format!("  {a} {}", fmt_num(v));
            for r in &living {
                let vs = g.attribute(w, p, a, Some(*r));
                if vs != v {
                    line.push_str(&format!(" ({} vs {r})", fmt_num(vs)));
                }
            }
            if v != 0.0 || line.contains(" vs ") {
                s.push_str(&line);
                s.push('\n');
            }
        }
        for st in &g.player.statuses {
            s.push_str(&format!("  status {} ({} turns)\n", st.status, st.turns));
        }
        s.push_str(&format!(
            "floor {}, room {}, combat {}\n",
            g.floor.as_deref().unwrap_or("-"),
            g.room.as_deref().unwrap_or("-"),
            if g.combat { "running" } else { "no" }
        ));
        for e in g.enemies.iter().filter(|e| e.body.health > 0) {
            let r = CreatureRef::Enemy(e.index);
            s.push_str(&format!("  {r} {} health {} / {}\n", e.body.creature.as_deref().unwrap_or("?"), e.body.health, g.max_health(w, r)));
        }
        if !g.floor_loot.is_empty() || !g.piles.is_empty() {
            s.push_str(&format!("on the floor: {}; {} unopened pile(s)\n", describe_items(&g.floor_loot), g.piles.len()));
        }
        s
    }

    fn inventory(&self) -> String {
        if self.g.player.inventory.is_empty() {
            return "you carry nothing".into();
        }
        self.g
            .player
            .inventory
            .iter()
            .map(|i| {
                let mut s = format!("{} × {}", i.count, i.item);
                if !i.affixes.is_empty() {
                    s.push_str(&format!(" [{}]", i.affixes.join(", ")));
                }
                if i.equipped {
                    s.push_str(" (equipped)");
                }
                s
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn quests(&self) -> String {
        if self.g.quests.is_empty() {
            return "no quests started".into();
        }
        self.g
            .quests
            .iter()
            .map(|q| format!("{} {}/{}{}", q.quest, q.count, self.w.quest_count(&q.quest), if q.done { " done" } else { "" }))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}
