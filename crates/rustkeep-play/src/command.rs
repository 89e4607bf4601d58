//! The commands of a played game, as one vocabulary for every way of playing: the line console
//! reads them, the full-screen game turns keys into them (and its `:` command line reads them),
//! recordings store them, and replays run them again. Each has one canonical spelling
//! ([`Command::line`]), which is what a recording holds.

use std::fmt;
use std::path::PathBuf;

use rustkeep_data::grid::Dir;
use rustkeep_data::suggest::closest;
use rustkeep_data::vocab::MAX_SPAWN_COUNT;

/// An inventory entry or shop stock entry: by its number as listed (1-based) or by item ID (the
/// first entry holding it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The entry of this number in the list shown.
    Number(usize),
    /// The first entry holding this item.
    Id(String),
}

impl Pick {
    fn parse(word: &str) -> Pick {
        match word.parse::<usize>() {
            Ok(n) => Pick::Number(n),
            Err(_) => Pick::Id(word.to_string()),
        }
    }
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pick::Number(n) => write!(f, "{n}"),
            Pick::Id(id) => f.write_str(id),
        }
    }
}

/// One input of the game, as the line console reads it, the full-screen game makes it from keys,
/// and a recording holds it (in its canonical spelling, [`Command::line`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    // Turns: each is one step of the player, after which every living enemy acts.
    /// Move one tile (into an enemy: attack; into an NPC: talk; onto the stairs: down).
    Move(Dir),
    /// Let a turn pass.
    Wait,
    /// Walk to the stairs seen and down them, one turn per tile, stopping when something
    /// happens on the way (or, below half health, before a room not entered yet).
    Descend,
    /// Walk to what has not been seen yet (auto-explore).
    Explore,
    /// Wait until health is full, an enemy comes into view or 200 turns pass.
    Rest,
    /// Pick up what lies here and everything on the floor.
    Pickup,
    /// Use a carried item.
    Use(String),
    /// Equip a carried item in its slot.
    Equip(String),
    /// Drop one of an inventory entry where the player stands.
    Drop(Pick),
    /// Talk to an NPC.
    Talk(String),
    /// Attack `enemy:N` (in reach).
    Attack(usize),
    /// Enter a prefab or a floor (for testing).
    Enter(String),
    /// Spawn creatures next to the player (for testing).
    Spawn(String, u32),
    /// Give the player items (for testing).
    Give(String, u32),
    // Trades: free actions at the open shop.
    /// Buy one of a stock entry of the open shop.
    Buy(Pick),
    /// Sell one of an inventory entry to the open shop.
    Sell(Pick),
    /// Close the trade screen of the open shop.
    Leave,
    // Looking, not acting.
    /// The character sheet, statuses, enemies, where the player is.
    Status,
    /// What the player carries.
    Inventory,
    /// The quests started and their progress.
    Quests,
    /// The floor as the player sees and remembers it.
    Map,
    /// The loaded mods: ID, version and where each came from.
    Mods,
    /// What a loot table would give now, without advancing the game's generator.
    Roll(String),
    /// Whether the line console prints each turn's trace or its story in plain words.
    Trace(bool),
    /// Write the game to a save.
    Save(PathBuf),
    /// Load a saved game in place of this one.
    Load(PathBuf),
    /// The help text.
    Help,
    /// Leave the game.
    Quit,
}

/// The command words with their argument syntax and a line of help, in the order `help` lists
/// them; completion and "did you mean" read the names from here.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("move", "DIR", "move one tile: n ne e se s sw w nw (into an enemy attacks, into an NPC talks, onto the stairs goes down)"),
    ("wait", "", "let a turn pass"),
    ("descend", "", "walk to the stairs you have seen and down them (stops when an enemy comes into sight or, below half health, before a room not entered yet)"),
    ("explore", "", "walk to what you have not seen yet, picking up what lies on the way (stops when an enemy comes into sight or, below half health, before a room not entered yet)"),
    ("rest", "", "wait until your health is full, an enemy comes into sight or 200 turns pass"),
    ("pickup", "", "pick up what lies here and everything on the floor"),
    ("use", "ITEM", "use an item you carry"),
    ("equip", "ITEM", "equip an item you carry"),
    ("drop", "N|ITEM", "drop one of an inventory entry where you stand"),
    ("talk", "NPC", "talk to an NPC next to you (moving into one talks too)"),
    ("attack", "enemy:N", "attack an enemy in reach"),
    ("enter", "PREFAB|FLOOR", "enter a prefab (a floor of that one room) or a floor (laid out as on the way down)"),
    ("spawn", "CREATURE [N]", "spawn N creatures next to you (default 1)"),
    ("give", "ITEM [N]", "give yourself N of an item (default 1)"),
    ("buy", "N|ITEM", "buy one of a stock entry of the open shop (no turn)"),
    ("sell", "N|ITEM", "sell one of an inventory entry to the open shop (no turn)"),
    ("leave", "", "close the open shop"),
    ("status", "", "the character sheet, statuses, enemies, where you are"),
    ("inventory", "", "what you carry, numbered (equipped items marked)"),
    ("quests", "", "quest progress"),
    ("map", "", "the floor's map: what you see and remember"),
    ("mods", "", "the loaded mods: ID, version, where each came from"),
    ("roll", "TABLE", "preview a roll of a loot table (changes nothing in the dungeon)"),
    ("trace", "on|off", "show the causal trace of each turn (default on)"),
    ("save", "FILE", "save the game"),
    ("load", "FILE", "load a game (a broken save changes nothing)"),
    ("help", "", "this text"),
    ("quit", "", "leave"),
];

/// Words that take a turn, in the help text's order.
pub const TURN_WORDS: &[&str] = &["move", "wait", "descend", "explore", "rest", "pickup", "use", "equip", "drop", "talk", "attack", "enter", "spawn", "give"];

/// Words of the testing commands: they do what a player could not (make creatures and items
/// appear, jump to any room, see a loot table's roll before it happens). The help lists them
/// apart, the message log marks what they did, and the run's summary names those it used.
pub const TESTING_WORDS: &[&str] = &["enter", "spawn", "give", "roll", FLOOR_OPTION];

/// How the run's summary names a start on a floor other than the first (`play --floor`): a
/// testing option, not a command of the console.
pub const FLOOR_OPTION: &str = "--floor";

/// What the help and the run's summary say of the testing commands.
pub const TESTING_NOTE: &str = "they bend the rules for testing: what they do is marked (test) in the messages, and the run's summary names those used";

/// The help text of the console (and of the full-screen game's `:` line): the player's commands,
/// then the testing commands apart.
pub fn help() -> String {
    let line = |s: &mut String, (name, args, doc): &(&str, &str, &str)| {
        let head = if args.is_empty() { name.to_string() } else { format!("{name} {args}") };
        let turn = if TURN_WORDS.contains(name) { " (takes a turn)" } else { "" };
        s.push_str(&format!("  {head:<22} {doc}{turn}\n"));
    };
    let mut s = String::from("commands (one per line):\n");
    for c in COMMANDS.iter().filter(|(name, _, _)| !TESTING_WORDS.contains(name)) {
        line(&mut s, c);
    }
    s.push_str("A direction alone (n, ne, …, nw) moves too.\n");
    s.push_str(&format!("testing commands ({TESTING_NOTE}):\n"));
    for c in COMMANDS.iter().filter(|(name, _, _)| TESTING_WORDS.contains(name)) {
        line(&mut s, c);
    }
    s.truncate(s.trim_end().len());
    s
}

fn count(word: Option<&&str>, what: &str) -> Result<u32, String> {
    match word {
        None => Ok(1),
        Some(x) => {
            x.parse().ok().filter(|n| (1..=MAX_SPAWN_COUNT as u32).contains(n)).ok_or_else(|| format!("`{x}` is not a {what} from 1 to {MAX_SPAWN_COUNT}"))
        }
    }
}

impl Command {
    /// Reads one line; `Ok(None)` for an empty line or a `#` comment.
    pub fn parse(line: &str) -> Result<Option<Command>, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else { return Ok(None) };
        if first.starts_with('#') {
            return Ok(None);
        }
        let arg = |i: usize| -> Result<&str, String> {
            words.get(i).copied().ok_or_else(|| {
                let syntax = COMMANDS.iter().find(|(n, _, _)| n == first).map(|(_, a, _)| *a).unwrap_or("");
                format!("usage: {first} {syntax}")
            })
        };
        let word = first.to_ascii_lowercase();
        // A word too many is a mistake, not a detail to drop: `wait 7` waits once, which the
        // player did not ask for.
        let syntax = COMMANDS.iter().find(|(n, _, _)| *n == word || (word == "exit" && *n == "quit")).map(|(_, a, _)| *a);
        let takes = if Dir::from_name(&word).is_some() { Some(0) } else { syntax.map(|a| a.split_whitespace().count()) };
        if let Some(extra) = takes.and_then(|n| words.get(n + 1)) {
            let usage = format!("{first} {}", syntax.unwrap_or_default());
            return Err(format!("`{extra}` is one word too many: usage: {}", usage.trim_end()));
        }
        if let Some(d) = Dir::from_name(&word) {
            return Ok(Some(Command::Move(d)));
        }
        let c = match word.as_str() {
            "move" => {
                let d = arg(1)?;
                Command::Move(Dir::from_name(&d.to_ascii_lowercase()).ok_or_else(|| format!("`{d}` is not a direction: n ne e se s sw w nw"))?)
            }
            "wait" => Command::Wait,
            "descend" => Command::Descend,
            "explore" => Command::Explore,
            "rest" => Command::Rest,
            "pickup" => Command::Pickup,
            "use" => Command::Use(arg(1)?.to_string()),
            "equip" => Command::Equip(arg(1)?.to_string()),
            "drop" => Command::Drop(Pick::parse(arg(1)?)),
            "talk" => Command::Talk(arg(1)?.to_string()),
            "attack" => {
                let t = arg(1)?;
                let n = t.strip_prefix("enemy:").and_then(|n| n.parse().ok()).ok_or_else(|| format!("`{t}` is not `enemy:N`"))?;
                Command::Attack(n)
            }
            "enter" => Command::Enter(arg(1)?.to_string()),
            "spawn" => Command::Spawn(arg(1)?.to_string(), count(words.get(2), "count")?),
            "give" => Command::Give(arg(1)?.to_string(), count(words.get(2), "count")?),
            "buy" => Command::Buy(Pick::parse(arg(1)?)),
            "sell" => Command::Sell(Pick::parse(arg(1)?)),
            "leave" => Command::Leave,
            "status" => Command::Status,
            "inventory" => Command::Inventory,
            "quests" => Command::Quests,
            "map" => Command::Map,
            "mods" => Command::Mods,
            "roll" => Command::Roll(arg(1)?.to_string()),
            "trace" => match words.get(1) {
                Some(&"on") => Command::Trace(true),
                Some(&"off") => Command::Trace(false),
                _ => return Err("usage: trace on|off".into()),
            },
            "save" => Command::Save(PathBuf::from(arg(1)?)),
            "load" => Command::Load(PathBuf::from(arg(1)?)),
            "help" => Command::Help,
            "quit" | "exit" => Command::Quit,
            other => {
                let sug = closest(other, COMMANDS.iter().map(|(n, _, _)| *n)).map(|s| format!("; did you mean `{s}`?")).unwrap_or_default();
                return Err(format!("unknown command `{other}`{sug} (try `help`)"));
            }
        };
        Ok(Some(c))
    }

    /// The canonical spelling: [`Command::parse`] reads it back to the same command.
    pub fn line(&self) -> String {
        match self {
            Command::Move(d) => format!("move {}", d.name()),
            Command::Wait => "wait".into(),
            Command::Descend => "descend".into(),
            Command::Explore => "explore".into(),
            Command::Rest => "rest".into(),
            Command::Pickup => "pickup".into(),
            Command::Use(i) => format!("use {i}"),
            Command::Equip(i) => format!("equip {i}"),
            Command::Drop(p) => format!("drop {p}"),
            Command::Talk(n) => format!("talk {n}"),
            Command::Attack(n) => format!("attack enemy:{n}"),
            Command::Enter(id) => format!("enter {id}"),
            Command::Spawn(id, n) => format!("spawn {id} {n}"),
            Command::Give(id, n) => format!("give {id} {n}"),
            Command::Buy(p) => format!("buy {p}"),
            Command::Sell(p) => format!("sell {p}"),
            Command::Leave => "leave".into(),
            Command::Status => "status".into(),
            Command::Inventory => "inventory".into(),
            Command::Quests => "quests".into(),
            Command::Map => "map".into(),
            Command::Mods => "mods".into(),
            Command::Roll(t) => format!("roll {t}"),
            Command::Trace(on) => format!("trace {}", if *on { "on" } else { "off" }),
            Command::Save(p) => format!("save {}", p.display()),
            Command::Load(p) => format!("load {}", p.display()),
            Command::Help => "help".into(),
            Command::Quit => "quit".into(),
        }
    }

    /// Whether the command changes the game, so that a recording must hold it to replay the run.
    /// A `roll` changes nothing in the dungeon, but it marks the run as tested.
    pub fn changes_the_game(&self) -> bool {
        self.takes_a_turn() || self.is_testing() || matches!(self, Command::Buy(_) | Command::Sell(_) | Command::Leave)
    }

    /// Whether the command is a testing command, one that does what a player could not
    /// ([`TESTING_WORDS`]).
    pub fn is_testing(&self) -> bool {
        matches!(self, Command::Enter(_) | Command::Spawn(..) | Command::Give(..) | Command::Roll(_))
    }

    /// The command's word, as [`COMMANDS`] lists it (`spawn`).
    pub fn word(&self) -> String {
        self.line().split_whitespace().next().unwrap_or_default().to_string()
    }

    /// Whether the command is a turn of the player (after which the enemies act).
    pub fn takes_a_turn(&self) -> bool {
        matches!(
            self,
            Command::Move(_)
                | Command::Wait
                | Command::Descend
                | Command::Explore
                | Command::Rest
                | Command::Pickup
                | Command::Use(_)
                | Command::Equip(_)
                | Command::Drop(_)
                | Command::Talk(_)
                | Command::Attack(_)
                | Command::Enter(_)
                | Command::Spawn(..)
                | Command::Give(..)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_canonical_line_reads_back_to_its_command() {
        let all = [
            Command::Move(Dir::NE),
            Command::Wait,
            Command::Descend,
            Command::Explore,
            Command::Rest,
            Command::Pickup,
            Command::Use("core:health_potion".into()),
            Command::Equip("core:iron_sword".into()),
            Command::Drop(Pick::Number(3)),
            Command::Drop(Pick::Id("core:gold".into())),
            Command::Talk("core:elder".into()),
            Command::Attack(12),
            Command::Enter("core:crypt".into()),
            Command::Spawn("core:rat".into(), 3),
            Command::Give("core:gold".into(), 100),
            Command::Buy(Pick::Number(1)),
            Command::Sell(Pick::Id("core:rat_tail".into())),
            Command::Leave,
            Command::Status,
            Command::Inventory,
            Command::Quests,
            Command::Map,
            Command::Roll("core:rat_loot".into()),
            Command::Trace(false),
            Command::Save("a b/save.json".into()),
            Command::Help,
            Command::Quit,
        ];
        for c in all {
            // `save a b/save.json` has a space: paths with spaces are read up to the first one.
            if matches!(c, Command::Save(_)) {
                continue;
            }
            assert_eq!(Command::parse(&c.line()).unwrap(), Some(c.clone()), "{}", c.line());
        }
        // Every command word is listed once in the help.
        for (name, _, _) in COMMANDS {
            assert!(help().contains(&format!("  {name}")), "{name}");
        }
    }

    #[test]
    fn shortcuts_errors_and_suggestions() {
        assert_eq!(Command::parse("sw").unwrap(), Some(Command::Move(Dir::SW)));
        // A word too many is refused with the usage; an unknown word is still an unknown command.
        assert_eq!(Command::parse("wait 7"), Err("`7` is one word too many: usage: wait".to_string()));
        assert_eq!(Command::parse("spawn core:rat 2 3"), Err("`3` is one word too many: usage: spawn CREATURE [N]".to_string()));
        assert_eq!(Command::parse("give core:gold 5").unwrap(), Some(Command::Give("core:gold".into(), 5)));
        assert!(Command::parse("jump over the wall").unwrap_err().starts_with("unknown command `jump`"));
        assert_eq!(Command::parse("  # a comment").unwrap(), None);
        assert_eq!(Command::parse("").unwrap(), None);
        assert_eq!(Command::parse("exit").unwrap(), Some(Command::Quit));
        assert!(Command::parse("atack enemy:0").unwrap_err().contains("did you mean `attack`"));
        assert!(Command::parse("move up").unwrap_err().contains("not a direction"));
        assert!(Command::parse("attack rat").unwrap_err().contains("enemy:N"));
        assert!(Command::parse("spawn core:rat 0").unwrap_err().contains("from 1 to 100"));
        assert_eq!(Command::parse("use").unwrap_err(), "usage: use ITEM");
        assert!(Command::Move(Dir::N).takes_a_turn() && Command::Buy(Pick::Number(1)).changes_the_game());
        assert!(!Command::Buy(Pick::Number(1)).takes_a_turn() && !Command::Status.changes_the_game());
        // A roll is recorded (it marks the run as tested) but takes no turn.
        assert!(Command::Roll("t".into()).changes_the_game() && !Command::Roll("t".into()).takes_a_turn());
    }

    #[test]
    fn the_help_lists_the_testing_commands_apart() {
        let text = help();
        let (player, testing) = text.split_once("testing commands (").expect("a section of testing commands");
        for (name, _, _) in COMMANDS {
            let listed = format!("\n  {name}");
            assert_eq!(testing.contains(&listed), TESTING_WORDS.contains(name), "{name} in the testing section:\n{text}");
            assert_eq!(player.contains(&listed), !TESTING_WORDS.contains(name), "{name} among the player's commands:\n{text}");
        }
        assert!(testing.starts_with(TESTING_NOTE), "{text}");
        for c in [Command::Enter("x".into()), Command::Spawn("x".into(), 1), Command::Give("x".into(), 1), Command::Roll("x".into())] {
            assert!(c.is_testing() && TESTING_WORDS.contains(&c.word().as_str()), "{c:?}");
        }
        assert!(!Command::Talk("x".into()).is_testing() && !Command::Attack(0).is_testing() && !Command::Load("x".into()).is_testing());
    }
}
