//! The key map: every key of every screen with what it does. The screens look their keys up
//! here, and the help overlay and docs/play.md are printed from here, so no key can work without
//! being listed, nor be listed without working.

use ratatui::crossterm::event::KeyCode;
use rustkeep_data::grid::Dir;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Move(Dir),
    Wait,
    Stairs,
    Explore,
    Rest,
    Pickup,
    Look,
    Inventory,
    Quests,
    Sheet,
    Messages,
    Trace,
    TraceHistory,
    ScrollDown,
    ScrollUp,
    PageDown,
    PageUp,
    Top,
    Bottom,
    CommandLine,
    Save,
    Load,
    Help,
    Close,
    Quit,
    // Lists (inventory, shop)
    Use,
    Equip,
    Drop,
    Choose,
    Switch,
    // Look mode
    NextEnemy,
    // A replay on screen
    Pause,
    Step,
    Faster,
    Slower,
    // The trace history
    Older,
    Newer,
    Search,
    NextMatch,
    PreviousMatch,
    Watch,
    PreviousWatched,
    NextWatched,
}

/// Keys bound to one action, with how the help shows them and what the action does.
#[derive(Clone, Copy)]
pub struct Binding {
    pub keys: &'static [KeyCode],
    pub shown: &'static str,
    pub action: Action,
    pub what: &'static str,
}

/// One screen's keys.
pub struct Screen {
    pub name: &'static str,
    pub bindings: &'static [Binding],
}

use Action as A;
use KeyCode as K;

const fn b(keys: &'static [KeyCode], shown: &'static str, action: Action, what: &'static str) -> Binding {
    Binding { keys, shown, action, what }
}

/// The eight directions: arrows, vi keys, the numpad's digits and Home, End, PageUp, PageDown.
macro_rules! moves {
    ($what:expr) => {
        [
            b(&[K::Up, K::Char('k'), K::Char('8')], "↑ k 8", A::Move(Dir::N), concat!($what, " north")),
            b(&[K::Down, K::Char('j'), K::Char('2')], "↓ j 2", A::Move(Dir::S), concat!($what, " south")),
            b(&[K::Left, K::Char('h'), K::Char('4')], "← h 4", A::Move(Dir::W), concat!($what, " west")),
            b(&[K::Right, K::Char('l'), K::Char('6')], "→ l 6", A::Move(Dir::E), concat!($what, " east")),
            b(&[K::Char('y'), K::Char('7'), K::Home], "y 7 Home", A::Move(Dir::NW), concat!($what, " north-west")),
            b(&[K::Char('u'), K::Char('9'), K::PageUp], "u 9 PgUp", A::Move(Dir::NE), concat!($what, " north-east")),
            b(&[K::Char('b'), K::Char('1'), K::End], "b 1 End", A::Move(Dir::SW), concat!($what, " south-west")),
            b(&[K::Char('n'), K::Char('3'), K::PageDown], "n 3 PgDn", A::Move(Dir::SE), concat!($what, " south-east")),
        ]
    };
}

const GAME_MOVES: [Binding; 8] = moves!("move");
const LOOK_MOVES: [Binding; 8] = moves!("move the cursor");

const GAME_REST: [Binding; 20] = [
    b(&[K::Char('.'), K::Char('5')], ". 5", A::Wait, "wait a turn"),
    b(&[K::Char('Z')], "Z", A::Rest, "rest until your health is full, an enemy comes into sight or 200 turns pass"),
    b(&[K::Char('o')], "o", A::Explore, "auto-explore: walk to the unseen, picking things up"),
    b(&[K::Char('>')], ">", A::Stairs, "travel to the stairs you have seen and take them"),
    b(&[K::Char('g'), K::Char(',')], "g ,", A::Pickup, "pick up what lies here"),
    b(&[K::Char('x')], "x", A::Look, "look: who or what is on a tile, its health, gear and ai"),
    b(&[K::Char('i')], "i", A::Inventory, "inventory: each item's slot, modifiers and triggers in words"),
    b(&[K::Char('C')], "C", A::Sheet, "character sheet: every attribute and where it comes from"),
    b(&[K::Char('Q')], "Q", A::Quests, "quest log with what each quest asks"),
    b(&[K::Char('m')], "m", A::Messages, "message history"),
    b(&[K::Char('t')], "t", A::Trace, "the causal trace of the last turn beside the map"),
    b(&[K::Char('T')], "T", A::TraceHistory, "the trace of every turn: step, search, watch an owner"),
    b(&[K::Char(']')], "]", A::PageDown, "scroll the trace down"),
    b(&[K::Char('[')], "[", A::PageUp, "scroll the trace up"),
    b(&[K::Char(':')], ":", A::CommandLine, "command line (Tab completes; :help lists the commands)"),
    b(&[K::Char('S')], "S", A::Save, "save the game"),
    b(&[K::Char('L')], "L", A::Load, "load a game"),
    b(&[K::Char('?'), K::F(1)], "? F1", A::Help, "this help, made from the key map"),
    b(&[K::Esc], "Esc", A::Close, "close what is open"),
    b(&[K::Char('q')], "q", A::Quit, "quit (asks first)"),
];

const fn join<const N: usize, const M: usize, const T: usize>(a: [Binding; N], c: [Binding; M]) -> [Binding; T] {
    // Built by hand: const code cannot collect. T must be N + M.
    let mut out: [Binding; T] = [b(&[], "", A::Close, ""); T];
    let mut i = 0;
    while i < N {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < M {
        out[N + j] = c[j];
        j += 1;
    }
    out
}

const GAME_ALL: [Binding; 28] = join(GAME_MOVES, GAME_REST);

const LOOK_REST: [Binding; 2] = [
    b(&[K::Tab, K::Char('+')], "Tab +", A::NextEnemy, "the next enemy in sight"),
    b(&[K::Esc, K::Char('x'), K::Char('q'), K::Enter], "Esc x", A::Close, "stop looking"),
];
const LOOK_ALL: [Binding; 10] = join(LOOK_MOVES, LOOK_REST);

pub const GAME: Screen = Screen { name: "The map", bindings: &GAME_ALL };

pub const LOOK: Screen = Screen { name: "Looking (x)", bindings: &LOOK_ALL };

pub const INVENTORY: Screen = Screen {
    name: "Inventory (i)",
    bindings: &[
        b(&[K::Up, K::Char('k')], "↑ k", A::ScrollUp, "the item above"),
        b(&[K::Down, K::Char('j')], "↓ j", A::ScrollDown, "the item below"),
        b(&[K::Char('u')], "u", A::Use, "use it"),
        b(&[K::Char('e')], "e", A::Equip, "equip it"),
        b(&[K::Char('d')], "d", A::Drop, "drop one of it"),
        b(&[K::Enter], "Enter", A::Choose, "use it, else equip it"),
        b(&[K::Esc, K::Char('i'), K::Char('q')], "Esc i", A::Close, "close"),
    ],
};

pub const SHOP: Screen = Screen {
    name: "A shop",
    bindings: &[
        b(&[K::Up, K::Char('k')], "↑ k", A::ScrollUp, "the entry above"),
        b(&[K::Down, K::Char('j')], "↓ j", A::ScrollDown, "the entry below"),
        b(&[K::Tab, K::Left, K::Right, K::Char('h'), K::Char('l')], "Tab ← →", A::Switch, "switch between buying and selling"),
        b(&[K::Enter, K::Char('b'), K::Char('s')], "Enter b s", A::Choose, "buy or sell one"),
        b(&[K::Esc, K::Char('q')], "Esc", A::Close, "leave the shop"),
    ],
};

pub const HISTORY: Screen = Screen {
    name: "The trace of every turn (T)",
    bindings: &[
        b(&[K::Left, K::Char('h'), K::Char(',')], "← h ,", A::Older, "the turn before"),
        b(&[K::Right, K::Char('l'), K::Char('.')], "→ l .", A::Newer, "the turn after"),
        b(&[K::Char('g')], "g", A::Top, "the first turn kept"),
        b(&[K::Char('G')], "G", A::Bottom, "the last turn"),
        b(&[K::Down, K::Char('j')], "↓ j", A::ScrollDown, "scroll down"),
        b(&[K::Up, K::Char('k')], "↑ k", A::ScrollUp, "scroll up"),
        b(&[K::PageDown, K::Char(' ')], "PgDn Space", A::PageDown, "scroll a page down"),
        b(&[K::PageUp], "PgUp", A::PageUp, "scroll a page up"),
        b(&[K::Char('/')], "/", A::Search, "search the turns (an ID, a word), newest first"),
        b(&[K::Char('n')], "n", A::NextMatch, "the next older match"),
        b(&[K::Char('N')], "N", A::PreviousMatch, "the next newer match"),
        b(&[K::Char('w')], "w", A::Watch, "watch an owner: mark every turn its triggers fired (★) or were skipped (·)"),
        b(&[K::Char('[')], "[", A::PreviousWatched, "the watched owner's turn before"),
        b(&[K::Char(']')], "]", A::NextWatched, "the watched owner's turn after"),
        b(&[K::Esc, K::Char('q'), K::Char('T')], "Esc q", A::Close, "close"),
    ],
};

pub const SCROLL: Screen = Screen {
    name: "Help, messages, the sheet, the quest log",
    bindings: &[
        b(&[K::Down, K::Char('j')], "↓ j", A::ScrollDown, "scroll down"),
        b(&[K::Up, K::Char('k')], "↑ k", A::ScrollUp, "scroll up"),
        b(&[K::PageDown, K::Char(' '), K::Char(']')], "PgDn Space", A::PageDown, "scroll a page down"),
        b(&[K::PageUp, K::Char('[')], "PgUp", A::PageUp, "scroll a page up"),
        b(&[K::Home, K::Char('g')], "Home g", A::Top, "the top"),
        b(&[K::End, K::Char('G')], "End G", A::Bottom, "the end"),
        b(&[K::Esc, K::Char('q'), K::Enter], "Esc q", A::Close, "close"),
    ],
};

pub const REPLAY: Screen = Screen {
    name: "Watching a replay (--replay FILE --watch)",
    bindings: &[
        b(&[K::Char(' ')], "Space", A::Pause, "pause or play on"),
        b(&[K::Char('.'), K::Char('n')], ". n", A::Step, "play the next input (and pause)"),
        b(&[K::Char('+'), K::Char('=')], "+", A::Faster, "faster"),
        b(&[K::Char('-')], "-", A::Slower, "slower"),
    ],
};

/// What a move does besides moving, said under the keys.
pub const MOVES_NOTE: &str = "A move into an enemy attacks it, into an NPC talks to them, onto > takes the stairs.";

/// Every screen, in the order the help lists them.
pub const SCREENS: &[&Screen] = &[&GAME, &LOOK, &INVENTORY, &SHOP, &HISTORY, &SCROLL, &REPLAY];

/// A screen's rows as the help and docs show them: `(keys, what they do)`, the eight moves in
/// one row.
pub fn rows(screen: &Screen) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let moves: Vec<&Binding> = screen.bindings.iter().filter(|b| matches!(b.action, Action::Move(_))).collect();
    for b in screen.bindings {
        if let Action::Move(_) = b.action {
            if std::ptr::eq(b, moves[0]) {
                let keys: Vec<&str> = moves.iter().map(|m| m.shown).collect();
                let verb = b.what.rsplit_once(' ').map_or(b.what, |(v, _)| v);
                let what = if screen.name == GAME.name { format!("{verb} one tile. {MOVES_NOTE}") } else { format!("{verb} one tile") };
                out.push((format!("{} (N S W E NW NE SW SE)", keys.join(" · ")), what));
            }
            continue;
        }
        out.push((b.shown.to_string(), b.what.to_string()));
    }
    out
}

impl Screen {
    /// What `code` does on this screen.
    pub fn action(&self, code: KeyCode) -> Option<Action> {
        self.bindings.iter().find(|b| b.keys.contains(&code)).map(|b| b.action)
    }
}

/// The key map as Markdown, for docs/play.md.
#[cfg(test)]
pub fn markdown() -> String {
    let mut s = String::new();
    for screen in SCREENS {
        s.push_str(&format!("**{}**\n\n| keys | what they do |\n|---|---|\n", screen.name));
        for (keys, what) in rows(screen) {
            s.push_str(&format!("| `{}` | {what} |\n", keys.replace('|', "\\|")));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_does_two_things_on_one_screen() {
        for screen in SCREENS {
            let mut seen: Vec<KeyCode> = Vec::new();
            for b in screen.bindings {
                for k in b.keys {
                    assert!(!seen.contains(k), "{}: {k:?} is bound twice", screen.name);
                    seen.push(*k);
                }
                assert!(!b.shown.is_empty() && !b.what.is_empty());
            }
        }
    }

    #[test]
    fn every_direction_moves_on_the_map_and_in_look_mode() {
        for d in Dir::ALL {
            assert!(GAME.bindings.iter().any(|b| b.action == Action::Move(d)));
            assert!(LOOK.bindings.iter().any(|b| b.action == Action::Move(d)));
        }
    }
}

#[cfg(test)]
mod docs {
    /// docs/play.md lists the key map in a generated block.
    #[test]
    fn docs_play_md_lists_every_key_of_the_key_map() {
        let path = rustkeep_testutil::repo_path("docs/play.md");
        rustkeep_testutil::ensure_block_contents(&path, "the key map", "keys", &super::markdown());
    }
}
