//! The views of a session that change nothing: the character sheet (`status`), the inventory,
//! the quests, the trace's enemy names, the loaded mods and the floor's map as text.

use std::collections::BTreeMap;

use rustkeep_data::grid::Pos;
use rustkeep_data::vocab::{Registry, ATTRIBUTES, CURRENCY};
use rustkeep_engine::game::{buy_price, describe_items, sell_price, CreatureRef, SheetLine};

use super::Session;
use crate::look;
use crate::narrate::entry_name;

/// How a run stands ([`Session::ending`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending<'a> {
    /// The stairs of the deepest floor were taken.
    Won,
    /// Stopped at a limit, and why.
    Stopped(&'a str),
    /// The player died, and how.
    Died(&'a str),
    /// The run goes on.
    Playing,
}

impl Session {
    /// The character: each option's name with its ID ("Warrior (core:warrior)"), or "no character
    /// options" — the same words on the death screen, in the exit summary and in the dump.
    pub fn character_label(&self) -> String {
        let options: Vec<String> = self.g.player().options.iter().map(|o| format!("{} ({o})", entry_name(&self.w, Registry::CharacterOptions, o))).collect();
        if options.is_empty() {
            "no character options".to_string()
        } else {
            options.join(", ")
        }
    }

    /// How the run stands: won, stopped at a limit, lost (with the cause of death) or going on.
    pub fn ending(&self) -> Ending<'_> {
        if self.g.won() {
            Ending::Won
        } else if let Some(why) = self.g.stopped() {
            Ending::Stopped(why)
        } else if self.g.is_over() {
            Ending::Died(self.death.as_deref().unwrap_or("killed"))
        } else {
            Ending::Playing
        }
    }

    /// The floor the player is on, with its depth: `The Cellars (depth 1)`; `None` outside a
    /// dungeon.
    pub fn floor_label(&self) -> Option<String> {
        let d = self.g.dungeon()?;
        let floor = d.floors.get(d.floor)?;
        let name = entry_name(&self.w, Registry::Floors, floor);
        Some(match self.w.entry(Registry::Floors, floor).and_then(|e| e.int(rustkeep_data::vocab::field::DEPTH)) {
            Some(depth) => format!("{name} (depth {depth})"),
            None => name,
        })
    }

    /// The character sheet as the player knows it: every attribute without an opponent and,
    /// where a condition makes it differ, its value against each kind of enemy in view (the
    /// first one in view of each kind stands for it). The engine's sheet ([`Game::sheet`]) reads
    /// it against every enemy alive on the floor, which would name kinds the player never saw.
    ///
    /// [`Game::sheet`]: rustkeep_engine::game::Game::sheet
    pub fn sheet(&self) -> Vec<SheetLine> {
        let g = &self.g;
        let mut kinds: Vec<(String, CreatureRef)> = Vec::new();
        for (i, _, _) in self.living() {
            let r = CreatureRef::Enemy(i);
            if let Some(c) = g.creature(r).and_then(|c| c.creature.as_ref()) {
                if !kinds.iter().any(|(k, _)| k == c) {
                    kinds.push((c.clone(), r));
                }
            }
        }
        ATTRIBUTES
            .iter()
            .map(|(attribute, _)| {
                let value = g.attribute(&self.w, CreatureRef::Player, attribute, None);
                let against = kinds
                    .iter()
                    .map(|(c, r)| (c.clone(), g.attribute(&self.w, CreatureRef::Player, attribute, Some(*r))))
                    .filter(|(_, v)| (v - value).abs() > 1e-9)
                    .collect();
                SheetLine { attribute, value, against }
            })
            .collect()
    }

    /// The `status` view: health, the character sheet, statuses, where the player is, the enemies.
    pub fn status(&self) -> String {
        let g = &self.g;
        let w = &self.w;
        let mut s = format!("health {} / {}\n", g.player().health, g.max_health(w, CreatureRef::Player));
        for line in self.sheet() {
            if line.value != 0.0 || !line.against.is_empty() {
                s.push_str(&format!("  {line}\n"));
            }
        }
        for st in &g.player().statuses {
            s.push_str(&format!("  status {} ({})\n", st.status, crate::narrate::turns(st.turns)));
        }
        s.push_str(&format!(
            "floor {}, room {}, combat {}, turn {}, seed {}\n",
            g.floor().unwrap_or("-"),
            g.room().unwrap_or("-"),
            if g.in_combat() { "running" } else { "no" },
            g.step(),
            g.seed()
        ));
        if let Some(p) = g.position(CreatureRef::Player) {
            s.push_str(&format!("you stand at {p}\n"));
        }
        // Only the enemies in sight: the residents of rooms not seen yet stay unknown.
        let seen: Vec<usize> = self.living().into_iter().map(|(i, _, _)| i).collect();
        for e in g.enemies().iter().filter(|e| e.body.health > 0 && seen.contains(&e.index)) {
            let r = CreatureRef::Enemy(e.index);
            let at = g.position(r).map(|p| format!(" at {p}")).unwrap_or_default();
            s.push_str(&format!("  {r} {} health {} / {}{at}\n", e.body.creature.as_deref().unwrap_or("?"), e.body.health, g.max_health(w, r)));
        }
        if !g.floor_loot().is_empty() || !g.piles().is_empty() {
            s.push_str(&format!("on the floor: {}; {} unopened pile(s)\n", describe_items(g.floor_loot()), g.piles().len()));
        }
        if let Some(shop) = g.opened_shop() {
            s.push_str(&format!("shop open: {shop}\n"));
        }
        s
    }

    /// The `inventory` view: every entry, numbered as `drop` and `sell` take them.
    pub fn inventory_text(&self) -> String {
        if self.g.player().inventory.is_empty() {
            return "you carry nothing".into();
        }
        self.g
            .player()
            .inventory
            .iter()
            .enumerate()
            .map(|(n, i)| {
                let mut s = format!("{:>2}. {} × {}", n + 1, i.count, i.item);
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

    /// The `quests` view: every quest started, with its count and whether it is done.
    pub fn quests_text(&self) -> String {
        if self.g.quests().is_empty() {
            return "no quests started".into();
        }
        self.g
            .quests()
            .iter()
            .map(|q| format!("{} {}/{}{}", q.quest, q.count, self.w.quest_count(&q.quest), if q.done { " done" } else { "" }))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The open shop's stock and what the player could sell, priced.
    pub fn shop_text(&self) -> Option<String> {
        let shop = self.shop()?;
        let mut s = format!("{} (you have {} gold)\nfor sale:\n", entry_name(&self.w, Registry::Shops, shop), self.g.gold());
        let stock = self.g.shops().get(shop).map(Vec::as_slice).unwrap_or_default();
        if stock.is_empty() {
            s.push_str("  nothing\n");
        }
        for (n, i) in stock.iter().enumerate() {
            s.push_str(&format!("  {:>2}. {} — {} gold\n", n + 1, self.item_label(i), buy_price(&self.w, shop, i)));
        }
        s.push_str("you can sell:\n");
        for (n, i) in self.g.player().inventory.iter().enumerate().filter(|(_, i)| i.item != CURRENCY) {
            s.push_str(&format!("  {:>2}. {} — {} gold\n", n + 1, self.item_label(i), sell_price(&self.w, i)));
        }
        s.push_str("(buy N, sell N, leave)");
        Some(s)
    }

    /// A line of the trace with each `enemy:N` followed by the glyph and name that enemy has on
    /// the map and in the side panel — `enemy:3 (r Rat)` — so that a ref leads to what it is.
    pub fn with_enemy_names(&self, line: &str) -> String {
        let mut out = String::with_capacity(line.len() + 16);
        let mut rest = line;
        while let Some(at) = rest.find("enemy:") {
            let digits = rest[at + 6..].bytes().take_while(u8::is_ascii_digit).count();
            let end = at + 6 + digits;
            out.push_str(&rest[..end]);
            if let Some(i) = rest[at + 6..end].parse::<usize>().ok().filter(|i| digits > 0 && self.enemy_kinds.contains_key(i)) {
                let already = rest[end..].starts_with(" (");
                if !already {
                    out.push_str(&format!(" ({} {})", self.enemy_look(i).glyph, self.enemy_name(i)));
                }
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }

    /// The `mods` view: every loaded mod (the core first), with its version and where it came from.
    pub fn mods_text(&self) -> String {
        let mut s = String::new();
        for m in &self.w.project.mods {
            let version = m.manifest.version.clone().unwrap_or_else(|| if m.bundled { env!("CARGO_PKG_VERSION").to_string() } else { "-".into() });
            let from = match (&m.root, m.bundled) {
                (_, true) => "bundled with rustkeep".to_string(),
                (Some(root), _) => root.display().to_string(),
                (None, _) => "in memory".to_string(),
            };
            s.push_str(&format!("{} {version} — {from}\n", m.id));
        }
        s.trim_end().to_string()
    }

    /// The glyph of what lies or stands on a tile the player has seen, drawn also out of sight:
    /// an NPC, a loot pile, else the item dropped there last. NPCs and piles never move and were
    /// there when the tile was seen; enemies move, and are drawn only in sight.
    pub fn remembered_thing(&self, p: Pos) -> Option<char> {
        let m = self.g.map()?;
        if !m.remembered(p) {
            return None;
        }
        if let Some(n) = m.npc_at(p) {
            return Some(look::npc(&self.w, n).glyph);
        }
        if m.piles.iter().any(|x| x.pos == p) {
            return Some('*');
        }
        m.loot.iter().rev().find(|x| x.pos == p).map(|x| look::item(&self.w, &x.item.item).glyph)
    }

    /// The floor as text: what the player sees with everyone on it, the tiles it remembers, and
    /// a key; nothing of what it has not seen.
    pub fn map_text(&self) -> String {
        let Some(m) = self.g.map() else { return "there is no map here".into() };
        let sight = m.sight();
        let mut grid: Vec<Vec<char>> = m
            .rows
            .iter()
            .enumerate()
            .map(|(y, r)| r.chars().enumerate().map(|(x, c)| if m.remembered(Pos::new(x as i32, y as i32)) { c } else { ' ' }).collect())
            .collect();
        // What stays where it was seen; then everything in sight as it is now.
        for (y, row) in grid.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                if let Some(c) = self.remembered_thing(Pos::new(x as i32, y as i32)).filter(|_| *cell != ' ') {
                    *cell = c;
                }
            }
        }
        let mut put = |p: Pos, c: char| {
            if !sight.contains(p) {
                return;
            }
            if let Some(cell) = grid.get_mut(p.y as usize).and_then(|row| row.get_mut(p.x as usize)) {
                *cell = c;
            }
        };
        let letters: BTreeMap<usize, char> = self.living().into_iter().map(|(i, c, _)| (i, c)).collect();
        for (i, p) in m.enemies() {
            if let Some(c) = letters.get(i) {
                put(*p, *c);
            }
        }
        put(m.player, '@');
        // Only the rows and columns that show something.
        let used = |r: &Vec<char>| r.iter().any(|c| *c != ' ');
        let (top, bottom) = (grid.iter().position(used).unwrap_or(0), grid.iter().rposition(used).map_or(0, |b| b + 1));
        let left = grid.iter().filter_map(|r| r.iter().position(|c| *c != ' ')).min().unwrap_or(0);
        let mut s: String = grid[top..bottom.max(top)].iter().map(|r| r.iter().skip(left).collect::<String>().trim_end().to_string() + "\n").collect();
        s.push_str("@ you, * loot pile, % items on the ground, + door, > stairs down");
        for (i, c, name) in self.living() {
            s.push_str(&format!("\n{c} {name} (enemy:{i})"));
        }
        for n in m.npcs.iter().filter(|n| sight.contains(n.pos)) {
            s.push_str(&format!("\n{} {} (NPC {})", look::npc(&self.w, &n.npc).glyph, entry_name(&self.w, Registry::Npcs, &n.npc), n.npc));
        }
        s
    }
}

impl Session {
    /// How the player died, from the steps of the turn it died in: the last blow it took, who
    /// dealt it (or which trigger's action did), and where. `killed` when no blow is traced.
    pub(super) fn cause_of_death(&self, steps: &[rustkeep_engine::trace::StepTrace]) -> String {
        use rustkeep_engine::payload::Payload;
        use rustkeep_engine::trace::TraceEvent;
        let blow = steps.iter().rev().find_map(|st| {
            st.events.iter().rev().find(|e| e.event == rustkeep_data::vocab::EventKind::DamageTaken && e.source == CreatureRef::Player).map(|e| (st, e))
        });
        let Some((st, e)) = blow else { return "killed".into() };
        let (amount, kind) = match &e.payload {
            Payload::DamageTaken { amount, damage_type } => (*amount, damage_type.to_string()),
            _ => (0, String::new()),
        };
        let damage = if kind.is_empty() { format!("{amount} damage") } else { format!("{amount} {kind} damage") };
        // The trigger whose action dealt it: the fired trigger of the event that caused it.
        let by_trigger = |e: &TraceEvent| {
            let cause = st.events.get(e.cause?)?;
            let t = cause.triggers.iter().find(|t| t.fired)?;
            Some(owner_name(self, &t.owner))
        };
        let by = match e.target {
            Some(CreatureRef::Enemy(n)) => format!("killed by {} ({damage})", crate::narrate::the(&self.enemy_name(n))),
            Some(CreatureRef::Player) => format!("killed by your own hand ({damage})"),
            None => match by_trigger(e) {
                Some(owner) => format!("killed by {damage} from {owner}"),
                None => format!("killed by {damage}"),
            },
        };
        let place =
            self.g.dungeon().and_then(|d| d.floors.get(d.floor)).map(|f| format!(" in {}", entry_name(&self.w, Registry::Floors, f))).unwrap_or_default();
        // Turns as the title and the log count them: step N of the trace is turn N + 1.
        format!("{by} on turn {}{place}", st.step + 1)
    }
}

/// The name of a trigger's owner, whichever registry it is in.
fn owner_name(s: &Session, id: &str) -> String {
    Registry::ALL.iter().find(|r| s.w.exists(**r, id)).map_or_else(|| id.to_string(), |r| entry_name(&s.w, *r, id))
}
