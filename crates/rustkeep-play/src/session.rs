//! A played game, whatever plays it: the full-screen game, the line console and replays all run
//! [`Command`]s through [`Session::execute`], so the same inputs always make the same game.
//!
//! A command that takes a turn is one step of the player; then every living enemy takes its turn
//! (docs/engine.md, "Rounds"). Trades are free actions. A command that changes the game is
//! appended to the recording, if one is being made, once it has run.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use rustkeep_data::grid::Dir;
use rustkeep_data::model::{ActionData, Sp, Who};
use rustkeep_data::suggest::closest;
use rustkeep_data::text::thousands;
use rustkeep_data::vocab::{self, field, Registry, MAX_LIVING_ENEMIES};
use rustkeep_engine::game::{buy_price, describe_items, Act, CreatureRef, Game, ItemInstance, Trade, World};
use rustkeep_engine::save;
use rustkeep_engine::trace::StepTrace;

use crate::command::{help, Command, Pick};
use crate::look::{self, Look};
use crate::narrate::{entry_name, sentences, Names};
use crate::record::Recorder;

mod describe;
mod dump;
mod explore;
mod history;
mod views;

pub use describe::{QuestRow, SheetRow};
pub use dump::{DumpTo, DUMP_FOLDER, DUMP_MESSAGES, DUMP_TURNS};
pub use explore::{first_step, first_step_to_explore, first_step_to_stairs, WALK_LIMIT};
pub use history::{step_title, History, Turn, Watched, HISTORY_TURNS};
pub use views::Ending;

/// Why a game being recorded refuses to load a save.
pub const RECORDED_CANNOT_LOAD: &str =
    "a recorded game cannot load a save (the recording would no longer replay); quit and start `rustkeep play --load` instead";

/// How many lines of earlier turns the message log keeps.
const LOG_LINES: usize = 500;

/// What a command did, for whoever shows it.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// One or more turns were played (`Session::last` holds their traces).
    Turns,
    /// A trade at the open shop (no turn passed).
    Trade,
    /// Text to show; nothing changed.
    Text(String),
    /// Nothing changed and no turn passed; `Session::messages` says why (a wall in the way). The
    /// message is the game's: it goes to the message log, combined with its repeats.
    Said,
    /// The game is to end.
    Quit,
}

/// One line of the message log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// The step the line belongs to: the step of the turn that said it (the newest, when it was
    /// said several times in a row).
    pub step: usize,
    /// The message.
    pub text: String,
    /// How many times in a row it was said (at least 1).
    pub count: u32,
}

impl LogLine {
    /// A line said once, at `step`.
    pub fn new(step: usize, text: String) -> LogLine {
        LogLine { step, text, count: 1 }
    }

    /// The line as shown: `A wall blocks the way. ×13` when it was said 13 times in a row.
    pub fn shown(&self) -> String {
        if self.count > 1 {
            format!("{} ×{}", self.text, self.count)
        } else {
            self.text.clone()
        }
    }
}

/// Adds a line to the end of a log. A line that says what the last one says is combined with
/// it, as DCSS and Brogue combine repeats: the count grows and the line moves to the newer step.
pub fn push_line(log: &mut VecDeque<LogLine>, line: LogLine) {
    match log.back_mut() {
        Some(last) if last.text == line.text => {
            last.count = last.count.saturating_add(line.count);
            last.step = last.step.max(line.step);
        }
        _ => log.push_back(line),
    }
}

/// A game being played: the data it plays, its state, and what the last command did.
pub struct Session {
    /// The loaded (and validated) mods the game plays.
    pub w: World,
    /// The game's state, as the engine keeps it.
    pub g: Game,
    /// The traces of the last command: the player's step(s) and the enemies' turns after each.
    pub last: std::sync::Arc<[StepTrace]>,
    /// The last command's story in plain words.
    pub messages: Vec<String>,
    /// Earlier messages, oldest first.
    pub log: VecDeque<LogLine>,
    /// The creature ID of every enemy seen in the run, by its N (dead enemies leave the game but
    /// not the story of the turn they died in).
    pub enemy_kinds: BTreeMap<usize, String>,
    /// Where the game is being recorded, if it is.
    pub recorder: Option<Recorder>,
    /// Engine warnings already shown.
    warnings_seen: usize,
    /// Every command's traces (the last [`HISTORY_TURNS`]).
    pub history: History,
    /// The command being run, for the history.
    running: String,
    /// How the player died, once it has: the blow and who dealt it.
    pub death: Option<String>,
    /// Where the run's character dump was written, once it was.
    pub dumped: Option<std::path::PathBuf>,
    /// Why the last command's walk or rest ended, in words (no trace tells it).
    pub walk_end: Option<String>,
}

impl Session {
    /// A new game: the character created with `options`, then the dungeon entered at its first
    /// floor (or at `floor`).
    pub fn new_game(w: World, seed: u64, options: Vec<String>, floor: Option<&str>) -> Result<Session, String> {
        for o in &options {
            need(&w, &[Registry::CharacterOptions], o)?;
        }
        rustkeep_engine::game::check_options(&w, &options)?;
        if let Some(f) = floor {
            need(&w, &[Registry::Floors], f)?;
        }
        let mut g = Game::new(seed, options, &Default::default());
        // A played game regenerates out of combat (`[balance] regen_every`).
        g.set_regen(true);
        // Starting on a floor the run has not reached bends the rules, as `enter` does.
        if floor.is_some_and(|f| rustkeep_engine::game::floor_order(&w).first().map(String::as_str) != Some(f)) {
            g.note_testing(crate::command::FLOOR_OPTION);
        }
        let setup = g.create_character(&w, &[]);
        let start = g.run_step(&w, Act::StartRun(floor), CreatureRef::Player, None);
        let mut s = Session::around(w, g);
        s.finish_turns(vec![setup, start]);
        Ok(s)
    }

    /// A game loaded from a save, with the save's warnings (what of it the loaded data no longer
    /// knows).
    pub fn from_save(w: World, path: &Path) -> Result<(Session, Vec<String>), String> {
        let (g, warnings) = save::read(path, &w)?;
        Ok((Session::loaded(w, g), warnings))
    }

    /// A game read from a save ([`save::from_json`]), ready to play on.
    pub fn loaded(w: World, mut g: Game) -> Session {
        // A played game regenerates, a loaded one too (a save of a scenario's state included).
        g.set_regen(true);
        let mut s = Session::around(w, g);
        s.g.keep_testing(crate::command::TESTING_WORDS);
        s.warnings_seen = s.g.warnings().len();
        s.learn_enemies();
        s.tell_loaded();
        s
    }

    /// Starts the story of a loaded game in the message log: where the run stands.
    fn tell_loaded(&mut self) {
        let at = match self.g.floor() {
            Some(f) => format!(" on {}", entry_name(&self.w, Registry::Floors, f)),
            None => String::new(),
        };
        let text = format!("You go on with the run of seed {} at turn {}{at}.", self.g.seed(), self.g.step());
        self.messages = vec![text.clone()];
        self.push_log_line(LogLine::new(self.g.step(), text));
    }

    fn around(w: World, g: Game) -> Session {
        Session {
            w,
            g,
            last: std::sync::Arc::new([]),
            messages: Vec::new(),
            log: VecDeque::new(),
            enemy_kinds: BTreeMap::new(),
            recorder: None,
            warnings_seen: 0,
            history: History::default(),
            running: "setup".into(),
            death: None,
            dumped: None,
            walk_end: None,
        }
    }

    fn learn_enemies(&mut self) {
        for e in self.g.enemies() {
            if let Some(c) = &e.body.creature {
                self.enemy_kinds.entry(e.index).or_insert_with(|| c.clone());
            }
        }
    }

    /// Engine warnings raised since the last call.
    pub fn new_warnings(&mut self) -> Vec<String> {
        let from = self.warnings_seen.min(self.g.warnings().len());
        self.warnings_seen = self.g.warnings().len();
        self.g.warnings()[from..].to_vec()
    }

    /// The name of an enemy (`Rat`), else its ref.
    pub fn enemy_name(&self, index: usize) -> String {
        match self.enemy_kinds.get(&index) {
            Some(c) => entry_name(&self.w, Registry::Creatures, c),
            None => format!("enemy:{index}"),
        }
    }

    /// The shop whose trade screen is open.
    pub fn shop(&self) -> Option<&str> {
        self.g.opened_shop()
    }

    /// Runs one command. An error changes nothing and takes no turn.
    pub fn execute(&mut self, cmd: &Command) -> Result<Reply, String> {
        // A roll previews a table and may still be asked for after the run ended.
        if self.g.is_over() && cmd.changes_the_game() && !matches!(cmd, Command::Roll(_)) {
            return Err(match self.g.stopped() {
                _ if self.g.won() => "the run is won; load a save or quit".into(),
                Some(why) => format!("{why}; load a save or quit"),
                None => "the player is dead; load a save or quit".into(),
            });
        }
        // The trade is a screen of its own, as in the full-screen game: no turn passes while it is
        // open, so nobody buys from a merchant left behind.
        if let Some(shop) = self.shop().filter(|_| cmd.takes_a_turn()) {
            return Err(format!("you are trading at {}: `leave` first", entry_name(&self.w, Registry::Shops, shop)));
        }
        self.running = cmd.line();
        let reply = match cmd {
            Command::Descend => self.descend()?,
            Command::Explore => self.explore()?,
            Command::Rest => self.rest()?,
            // A bump costs no turn (a typo is not a decision) and changes nothing to record.
            Command::Move(d) if self.g.map().is_some() && self.g.move_target(*d).is_none() => {
                self.messages = vec![crate::narrate::BUMPED.into()];
                self.push_log();
                return Ok(Reply::Said);
            }
            c if c.takes_a_turn() => {
                let act = self.act_of(c)?;
                let step = self.g.step();
                let mut steps = vec![self.g.run_step(&self.w, act.act(), CreatureRef::Player, act.target)];
                if !self.g.is_over() {
                    steps.extend(self.g.enemy_turns(&self.w, step));
                }
                self.mark_testing(c);
                self.finish(steps, c.is_testing());
                Reply::Turns
            }
            Command::Buy(p) | Command::Sell(p) => {
                let shop = self.shop().ok_or("no shop is open: talk to a merchant first")?.to_string();
                let t = match cmd {
                    Command::Buy(_) => Trade::Buy(self.stock_index(&shop, p)?),
                    _ => Trade::Sell(self.inventory_index(p, true)?),
                };
                if let Trade::Buy(i) = t {
                    let price = buy_price(&self.w, &shop, &self.g.shops()[&shop][i]);
                    if self.g.gold() < price {
                        return Err(format!("it costs {price} gold; you have {}", self.g.gold()));
                    }
                }
                let trace = self.g.trade(&self.w, &shop, t);
                self.finish_turns(vec![trace]);
                Reply::Trade
            }
            Command::Leave => {
                let shop = self.g.leave_shop().ok_or("no shop is open")?;
                self.messages = vec![format!("You leave {}.", entry_name(&self.w, Registry::Shops, &shop))];
                self.push_log();
                Reply::Trade
            }
            Command::Status => Reply::Text(self.status()),
            Command::Inventory => Reply::Text(self.inventory_text()),
            Command::Quests => Reply::Text(self.quests_text()),
            Command::Map => Reply::Text(self.map_text()),
            Command::Mods => Reply::Text(self.mods_text()),
            Command::Roll(t) => {
                need(&self.w, &[Registry::LootTables], t)?;
                // A preview on a copy of the generator: the game's stream is not advanced.
                let mut copy = self.g.clone();
                let drops = copy.roll(&self.w, t);
                let text = format!("{t} would give: {}", describe_items(&drops));
                self.mark_testing(cmd);
                self.messages = vec![format!("(test) {text}")];
                self.push_log();
                Reply::Text(text)
            }
            Command::Help => Reply::Text(help()),
            Command::Quit => Reply::Quit,
            Command::Trace(_) => Reply::Text(String::new()),
            Command::Save(p) => {
                save::write(p, &self.g)?;
                Reply::Text(format!("saved to {}", p.display()))
            }
            Command::Load(p) => {
                if self.recorder.is_some() {
                    return Err(RECORDED_CANNOT_LOAD.into());
                }
                let (g, warnings) = save::read(p, &self.w)?;
                self.g = g;
                self.g.set_regen(true);
                self.g.keep_testing(crate::command::TESTING_WORDS);
                self.warnings_seen = self.g.warnings().len();
                self.enemy_kinds.clear();
                self.learn_enemies();
                self.last = std::sync::Arc::new([]);
                self.history.clear();
                self.death = None;
                self.dumped = None;
                self.tell_loaded();
                let mut s = format!("loaded {}", p.display());
                for x in warnings {
                    s.push_str(&format!("\nwarning: {x}"));
                }
                Reply::Text(s)
            }
            _ => unreachable!("every command that takes a turn is handled above"),
        };
        if cmd.changes_the_game() {
            if let Some(r) = &mut self.recorder {
                if let Err(e) = r.push(&cmd.line()) {
                    self.recorder = None;
                    self.messages.push(format!("The recording stopped: {e}"));
                }
            }
        }
        Ok(reply)
    }

    /// Notes in the game's state that the run used a testing command (each word once), so that
    /// its summary says so, also after a save and a load.
    fn mark_testing(&mut self, cmd: &Command) {
        let word = cmd.word();
        if cmd.is_testing() {
            self.g.note_testing(&word);
        }
    }

    /// The testing commands the run used, as its summary tells them; `None` for a run that kept
    /// the rules.
    pub fn testing_used(&self) -> Option<String> {
        (!self.g.testing().is_empty()).then(|| format!("testing commands used: {}", self.g.testing().join(", ")))
    }

    /// [`Session::finish`] of a command that keeps the rules.
    fn finish_turns(&mut self, steps: Vec<StepTrace>) {
        self.finish(steps, false);
    }

    /// After the steps of a command: the names of new enemies, a shop's stock rolled when it
    /// opened (at the same point in every replay), the story in plain words. The story of a
    /// testing command's own step is marked `(test)`, so that the log tells what the rules did
    /// not make happen; the enemies' turns after it are played by the rules and told as usual.
    fn finish(&mut self, steps: Vec<StepTrace>, test: bool) {
        self.walk_end = None;
        if let Some(shop) = self.g.opened_shop().map(str::to_string) {
            self.g.open_stock(&self.w, &shop);
        }
        self.learn_enemies();
        if self.g.is_over() && !self.g.won() && self.g.stopped().is_none() && self.death.is_none() {
            self.death = Some(self.cause_of_death(&steps));
        }
        let steps = self.in_sight(steps);
        let names = Names { w: &self.w, enemies: &self.enemy_kinds };
        // Each step's story, filed under the turn it happened: a walk's turns are told turn by
        // turn. The log counts turns as the game does after them (the command's last step is
        // the game's step now), whether or not the command took a turn (a trade takes none).
        let last_step = steps.iter().map(|st| st.step).max().unwrap_or(0);
        let mut said_all: Vec<LogLine> = Vec::new();
        for (i, st) in steps.iter().enumerate() {
            let said = sentences(&names, std::slice::from_ref(st));
            let turn = self.g.step().saturating_sub(last_step - st.step);
            if test && i == 0 {
                let mut own: Vec<String> = said.into_iter().map(|m| format!("(test) {m}")).collect();
                if own.is_empty() {
                    own.push(format!("(test) {}", self.running));
                }
                said_all.extend(own.into_iter().map(|m| LogLine::new(turn, m)));
            } else {
                said_all.extend(said.into_iter().map(|m| LogLine::new(turn, m)));
            }
        }
        if test && steps.is_empty() {
            said_all.push(LogLine::new(self.g.step(), format!("(test) {}", self.running)));
        }
        let end = match self.ending() {
            Ending::Won => Some("You won the run!".to_string()),
            Ending::Stopped(why) => Some(format!("The run stops: {why}.")),
            Ending::Died(cause) => Some(format!("You died: {cause}. The run is over.")),
            Ending::Playing => None,
        };
        said_all.extend(end.map(|end| LogLine::new(self.g.step(), end)));
        // Repeats combined already in the command's own story, so that the line console and the
        // screen say the same.
        let mut told = VecDeque::new();
        for line in said_all {
            push_line(&mut told, line);
        }
        let warnings = self.g.warnings()[self.warnings_seen.min(self.g.warnings().len())..].to_vec();
        let number = self.history.get(self.history.len().wrapping_sub(1)).map_or(1, |t| t.number + 1);
        // Kept as copies: a copy's lists hold only their elements, while the engine's, grown
        // event by event, hold up to twice the room (twice the history's memory).
        let steps: std::sync::Arc<[StepTrace]> = steps.iter().cloned().collect();
        self.history.push(Turn { number, step: self.g.step(), command: std::mem::take(&mut self.running), steps: steps.clone(), warnings });
        self.last = steps;
        self.messages = told.iter().map(LogLine::shown).collect();
        for line in told {
            self.push_log_line(line);
        }
    }

    /// The turns the player could follow: every turn of its own, and each enemy's turn that the
    /// player sees the enemy in (where it stands after the turns) or that touched the player
    /// (an event aimed at it). What happens out of sight is neither told nor traced.
    fn in_sight(&self, steps: Vec<StepTrace>) -> Vec<StepTrace> {
        let Some(m) = self.g.map() else { return steps };
        let sight = m.sight();
        steps
            .into_iter()
            .filter(|st| {
                let Some(CreatureRef::Enemy(i)) = st.source.as_deref().and_then(CreatureRef::parse) else { return true };
                let seen = m.enemies().get(&i).is_none_or(|p| sight.contains(*p));
                seen || st.events.iter().any(|e| e.target == Some(CreatureRef::Player))
            })
            .collect()
    }

    /// Files the last command's messages under the game's step (a command that took no turn).
    fn push_log(&mut self) {
        for m in self.messages.clone() {
            self.push_log_line(LogLine::new(self.g.step(), m));
        }
    }

    /// Adds a line to the message log, combining repeats and letting the oldest go past
    /// [`LOG_LINES`].
    fn push_log_line(&mut self, line: LogLine) {
        push_line(&mut self.log, line);
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }

    /// How many enemies in combat (not residents) the player sees.
    pub fn foes_in_sight(&self) -> usize {
        let Some(m) = self.g.map() else { return self.g.fighting_enemies() };
        let sight = m.sight();
        self.g.enemies().iter().filter(|e| e.body.health > 0 && !e.resident && m.enemies().get(&e.index).is_some_and(|p| sight.contains(*p))).count()
    }

    /// The act of a command that takes a turn, checked first so that a mistake costs no turn.
    fn act_of(&self, c: &Command) -> Result<OwnedAct, String> {
        let w = &self.w;
        let plain = |kind: ActKind| Ok(OwnedAct { kind, target: None });
        match c {
            Command::Move(d) => {
                if self.g.map().is_none() {
                    return Err("there is no map here (a save from a dry run): use `enter`, `spawn` and `attack`".into());
                }
                plain(ActKind::Move(*d))
            }
            Command::Wait => plain(ActKind::Wait),
            Command::Pickup => {
                // Nothing to pick up costs no turn: a pile or items on the player's tile, or (in a
                // game without a map) on the floor.
                let here = match self.g.map() {
                    Some(m) => m.piles.iter().any(|p| p.pos == m.player) || m.loot.iter().any(|l| l.pos == m.player),
                    None => false,
                };
                if !here && self.g.floor_loot().is_empty() && self.g.piles().is_empty() {
                    return Err("there is nothing here to pick up".into());
                }
                plain(ActKind::Pickup)
            }
            Command::Use(i) => {
                need(w, &[Registry::Items], i)?;
                if !self.g.player().inventory.iter().any(|x| &x.item == i) {
                    return Err(format!("you carry no {}", entry_name(w, Registry::Items, i)));
                }
                // Using an item spends it; one without `use` actions would vanish for nothing.
                if let Some(e) = w.entry(Registry::Items, i).filter(|e| e.actions(field::USE).is_empty()) {
                    let hint = if e.str(field::SLOT).is_some() { format!("; equip it instead (`equip {i}`)") } else { String::new() };
                    return Err(format!(
                        "{} cannot be used: `{i}` has no `use` actions, so using it would only use it up{hint}",
                        entry_name(w, Registry::Items, i)
                    ));
                }
                plain(ActKind::Use(i.clone()))
            }
            Command::Equip(i) => {
                need(w, &[Registry::Items], i)?;
                if w.entry(Registry::Items, i).and_then(|e| e.str(field::SLOT)).is_none() {
                    return Err(format!("{} cannot be equipped", entry_name(w, Registry::Items, i)));
                }
                if !self.g.player().inventory.iter().any(|x| &x.item == i && !x.equipped) {
                    return Err(format!("you carry no unequipped {}", entry_name(w, Registry::Items, i)));
                }
                plain(ActKind::Equip(i.clone()))
            }
            Command::Drop(p) => plain(ActKind::Drop(self.inventory_index(p, false)?)),
            Command::Talk(n) => {
                need(w, &[Registry::Npcs], n)?;
                self.next_to_you(n)?;
                plain(ActKind::Talk(n.clone()))
            }
            Command::Attack(n) => {
                let r = CreatureRef::Enemy(*n);
                if !self.g.alive(r) {
                    return Err(format!("there is no enemy:{n}"));
                }
                if !self.g.in_reach(CreatureRef::Player, r) {
                    return Err(format!("{} (enemy:{n}) is not in reach", self.enemy_name(*n)));
                }
                Ok(OwnedAct { kind: ActKind::Attack, target: Some(r) })
            }
            Command::Enter(id) => {
                need(w, &[Registry::Prefabs, Registry::Floors], id)?;
                plain(ActKind::Enter(id.clone()))
            }
            Command::Spawn(id, n) => {
                need(w, &[Registry::Creatures], id)?;
                // The engine would stop the run at the limit; a tester's spawn is refused instead.
                let living = self.g.enemies().len();
                if living + *n as usize > MAX_LIVING_ENEMIES {
                    let (most, room) = (thousands(MAX_LIVING_ENEMIES as u64), MAX_LIVING_ENEMIES - living.min(MAX_LIVING_ENEMIES));
                    return Err(format!("at most {most} enemies live at once, and {living} do: spawn at most {room}"));
                }
                plain(ActKind::Action(ActionData::Spawn { creature: Sp::new(0..0, id.clone()), count: *n }))
            }
            Command::Give(id, n) => {
                need(w, &[Registry::Items], id)?;
                plain(ActKind::Action(ActionData::GiveItem { item: Sp::new(0..0, id.clone()), count: *n, target: Who::SelfBearer }))
            }
            other => Err(format!("`{}` does not take a turn", other.line())),
        }
    }

    /// Whether the NPC `npc` stands next to the player, where a move into it would talk to it:
    /// `talk` is that move without the direction, and reaches no one farther away (not one across
    /// the room, nor one on another floor).
    fn next_to_you(&self, npc: &str) -> Result<(), String> {
        let name = entry_name(&self.w, Registry::Npcs, npc);
        let Some(m) = self.g.map() else { return Err(format!("{name} is not next to you: there is no map here (a save from a dry run)")) };
        if m.npcs.iter().any(|s| s.npc == npc && Dir::ALL.iter().any(|d| m.player.step(*d) == s.pos)) {
            Ok(())
        } else {
            Err(format!("{name} is not next to you: walk up to them (moving into an NPC talks to them)"))
        }
    }

    /// The inventory entry a pick names (numbers as listed, from 1). For selling, an ID picks an
    /// unequipped entry first.
    fn inventory_index(&self, p: &Pick, selling: bool) -> Result<usize, String> {
        let inv = &self.g.player().inventory;
        match p {
            Pick::Number(n) if (1..=inv.len()).contains(n) => Ok(n - 1),
            Pick::Number(n) => Err(format!("there is no inventory entry {n} (you carry {} entries)", inv.len())),
            Pick::Id(id) => {
                let unequipped = inv.iter().position(|i| &i.item == id && !(selling && i.equipped));
                unequipped
                    .or_else(|| inv.iter().position(|i| &i.item == id))
                    .ok_or_else(|| format!("you carry no {}", entry_name(&self.w, Registry::Items, id)))
            }
        }
    }

    fn stock_index(&self, shop: &str, p: &Pick) -> Result<usize, String> {
        let stock = self.g.shops().get(shop).map(Vec::as_slice).unwrap_or_default();
        match p {
            Pick::Number(n) if (1..=stock.len()).contains(n) => Ok(n - 1),
            Pick::Number(n) => Err(format!("there is no stock entry {n} ({} has {} entries)", entry_name(&self.w, Registry::Shops, shop), stock.len())),
            Pick::Id(id) => {
                stock.iter().position(|i| &i.item == id).ok_or_else(|| format!("{} has no {id} in stock", entry_name(&self.w, Registry::Shops, shop)))
            }
        }
    }

    // -------------------------------------------------------------------------------------------
    // Views shared by the console and the full-screen game
    // -------------------------------------------------------------------------------------------

    /// An item instance as a player reads it: `2 × Health Potion`, `Iron Sword (Flaming)`.
    pub fn item_label(&self, i: &ItemInstance) -> String {
        let mut s = entry_name(&self.w, Registry::Items, &i.item);
        if !i.affixes.is_empty() {
            let names: Vec<String> = i.affixes.iter().map(|a| entry_name(&self.w, Registry::Affixes, a)).collect();
            s.push_str(&format!(" ({})", names.join(", ")));
        }
        if i.count > 1 {
            s = format!("{} × {s}", i.count);
        }
        s
    }

    /// The living enemies the player sees (every one without a map), with their glyph on the
    /// map and their name.
    pub fn living(&self) -> Vec<(usize, char, String)> {
        let sight = self.g.map().map(|m| (m, m.sight()));
        let seen = |i: usize| sight.as_ref().is_none_or(|(m, s)| m.enemies().get(&i).is_some_and(|p| s.contains(*p)));
        self.g
            .enemies()
            .iter()
            .filter(|e| e.body.health > 0 && seen(e.index))
            .map(|e| (e.index, self.enemy_look(e.index).glyph, self.enemy_name(e.index)))
            .collect()
    }

    /// How an enemy looks on the map (its creature's `glyph` and `color`).
    pub fn enemy_look(&self, index: usize) -> Look {
        match self.enemy_kinds.get(&index) {
            Some(c) => look::creature(&self.w, c),
            None => Look { glyph: vocab::default_creature_glyph(&self.enemy_name(index)), color: None },
        }
    }
}

/// An act with its owned arguments ([`Act`] borrows them).
struct OwnedAct {
    kind: ActKind,
    target: Option<CreatureRef>,
}

enum ActKind {
    Move(Dir),
    Wait,
    Pickup,
    Use(String),
    Equip(String),
    Drop(usize),
    Talk(String),
    Attack,
    Enter(String),
    Action(ActionData),
}

impl OwnedAct {
    fn act(&self) -> Act<'_> {
        match &self.kind {
            ActKind::Move(d) => Act::Move(*d),
            ActKind::Wait => Act::Wait,
            ActKind::Pickup => Act::Pickup,
            ActKind::Use(i) => Act::Use(i),
            ActKind::Equip(i) => Act::Equip(i),
            ActKind::Drop(i) => Act::Drop(*i),
            ActKind::Talk(n) => Act::Talk(n),
            ActKind::Attack => Act::Attack,
            ActKind::Enter(id) => Act::Enter(id),
            ActKind::Action(a) => Act::Action(a),
        }
    }
}

/// An unknown ID as an error with a "did you mean".
pub fn unknown(w: &World, regs: &[Registry], id: &str) -> String {
    let pool: Vec<String> = regs.iter().flat_map(|r| w.ids(*r)).collect();
    let sug = closest(id, pool.iter().map(String::as_str)).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
    format!("`{id}` is not {}{sug}", regs.iter().map(|r| format!("a known {}", r.noun())).collect::<Vec<_>>().join(" or "))
}

fn need(w: &World, regs: &[Registry], id: &str) -> Result<(), String> {
    if regs.iter().any(|r| w.exists(*r, id)) {
        Ok(())
    } else {
        Err(unknown(w, regs, id))
    }
}
