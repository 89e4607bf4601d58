//! A generated multi-mod workspace and random edits of it, for the differential tests of
//! incremental checking (the checker's and the language server's): every cross-file rule has
//! something to do here — IDs referenced across mods, nested and affix loot tables in a chain
//! through all mods, tables that take their kind from the tables they nest, overrides (some in
//! conflict, some leaving out a field), quests started by the next mod, tags carried in one mod
//! and checked in the next, `[balance]` settings, floors built from the rooms of the mod before,
//! NPCs placed by the rooms, triggers on slotted items and on affixes that tables put on them,
//! items given by tables and quests, `when` filters on items used and rooms entered —
//! and the edits break and heal exactly these links.

/// A small deterministic generator (xorshift64*), so that a failing seed replays exactly.
#[derive(Clone, Debug)]
pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// A generator that starts from `state` itself (not 0), unscrambled.
    pub fn from_state(state: u64) -> Gen {
        Gen(state.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % (n.max(1) as u64)) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

/// The namespace of mod `k`.
pub fn mod_id(k: usize) -> String {
    format!("w{k:02}")
}

/// The files of a workspace of `mods` mods, as (path relative to the workspace root, text). Mod
/// `k` lives in the folder named by [`mod_id`] and depends on the mod before it.
pub fn workspace(mods: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for k in 0..mods {
        let m = mod_id(k);
        let prev = if k == 0 { "core".to_string() } else { mod_id(k - 1) };
        let depends = if k == 0 { String::new() } else { format!(", \"{prev}\"") };
        out.push((format!("{m}/mod.toml"), format!("[mod]\nid = \"{m}\"\nname = \"Mod {k}\"\nversion = \"1.0.{k}\"\ndepends = [\"core\"{depends}]\n")));
        let (prev_item, prev_affix, prev_drops, prev_tag, prev_quest) = if k == 0 {
            ("core:gold".to_string(), "core:sharp".to_string(), "core:floor_1_table".to_string(), "core:rat".to_string(), "core:rattenplage".to_string())
        } else {
            (format!("{prev}:potion"), format!("{prev}:keen"), format!("{prev}:drops"), format!("{prev}:vermin"), format!("{prev}:hunt"))
        };
        out.push((
            format!("{m}/items.toml"),
            format!(
                "# Items and affixes of mod {k}.\n\n[[items]]\nid = \"{m}:sword\"\nname = \"Sword {k}\"\ntags = [\"{m}:sharp\"]\nslot = \"weapon\"\nprice = {price}\n\
                 triggers = [ {{ on = \"attack_hit\", chance = 0.5, actions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ] }}, \
                 {{ on = \"item_used\", when = {{ item = \"{m}:potion\" }}, actions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ] }} ]\n\n\
                 [[items]]\nid = \"{m}:potion\"\nname = \"Potion {k}\"\nstackable = true\nuse = [ {{ action = \"heal\", amount = 5, target = \"self\" }} ]\n\n\
                 [[affixes]]\nid = \"{m}:keen\"\nname = \"keen {k}\"\nmodifiers = [ {{ attribute = \"damage\", add = 1 }} ]\n\
                 triggers = [ {{ on = \"attack_hit\", chance = 0.1, actions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ] }} ]\n",
                price = 10 + k
            ),
        ));
        out.push((
            format!("{m}/loot.toml"),
            format!(
                "[[loot_tables]]\nid = \"{m}:affix_table\"\nentries = [ {{ affix = \"{m}:keen\", weight = 1 }}, {{ affix = \"{prev_affix}\", weight = 1 }} ]\n\n\
                 [[loot_tables]]\nid = \"{m}:drops\"\nrolls = \"1-2\"\nentries = [\n  {{ item = \"{m}:sword\", weight = 2, affixes = \"{m}:affix_table\" }},\n  {{ item = \"{prev_item}\", weight = 1 }},\n  {{ table = \"{prev_drops}\", weight = 1 }},\n  {{ nothing = true, weight = 3 }},\n]\n\n\
                 [[loot_tables]]\nid = \"{m}:kindless\"\nentries = [ {{ table = \"{m}:drops\", weight = 1 }}, {{ nothing = true, weight = 1 }} ]\n"
            ),
        ));
        let mut world = format!(
            "[[creatures]]\nid = \"{m}:rat\"\nname = \"Rat {k}\"\ntags = [\"{m}:vermin\"]\nattributes = {{ level = 1, max_health = 5 }}\nloot = \"{m}:drops\"\n\
             triggers = [ {{ on = \"creature_died\", condition = [ {{ check = \"has_tag\", who = \"self\", value = \"{prev_tag}\" }} ], actions = [ {{ action = \"give_item\", item = \"{prev_item}\", target = \"self\" }} ] }} ]\n\n\
             [[quests]]\nid = \"{m}:hunt\"\nname = \"Hunt {k}\"\non = \"creature_died\"\ncount = 2\nactions = [ {{ action = \"give_item\", item = \"{m}:sword\", target = \"self\" }}, {{ action = \"give_item\", item = \"{m}:potion\", target = \"self\" }} ]\n\n\
             [[npcs]]\nid = \"{m}:elder\"\nname = \"Elder {k}\"\non_talk = [ {{ action = \"start_quest\", quest = \"{prev_quest}\" }}, {{ action = \"open_shop\", shop = \"{m}:shop\" }} ]\n\n\
             [[shops]]\nid = \"{m}:shop\"\nname = \"Shop {k}\"\nstock = \"{m}:kindless\"\n"
        );
        if k > 0 {
            // Every third mod overrides what the mod before it overrode too: a conflict.
            let target = if k % 3 == 2 { format!("{}:elder", mod_id(k - 2)) } else { format!("{prev}:elder") };
            // Most overrides write the replaced NPC's `on_talk` again; every fifth leaves it out
            // (`override-drops-field`).
            let talk = if k % 5 == 3 { String::new() } else { format!("on_talk = [ {{ action = \"open_shop\", shop = \"{m}:shop\" }} ]\n") };
            world.push_str(&format!("\n[[npcs]]\noverrides = \"{target}\"\nname = \"Elder, replaced by {k}\"\n{talk}"));
        }
        if k % 4 == 1 {
            world.push_str(&format!("\n[balance]\nluck_factor = 0.0{k}\n"));
        }
        out.push((format!("{m}/world.toml"), world));
        // A floor built from this mod's room and the mod before's (`floor-without-exit` follows
        // a floor's `prefabs` into the other mod's file); the room places the mod's elder (and
        // has a door inside, which is no exit).
        let prev_room = if k == 0 { "core:corridor".to_string() } else { format!("{prev}:hall") };
        out.push((
            format!("{m}/dungeon.toml"),
            format!(
                "[[prefabs]]\nid = \"{m}:hall\"\ngrid = \"\"\"\n###+###\n#n@+.l#\n#.....+\n#######\n\"\"\"\nnpcs = [\"{m}:elder\"]\n\
                 triggers = [ {{ on = \"room_entered\", when = {{ prefab = \"{m}:hall\" }}, actions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ] }} ]\n\n\
                 [[floors]]\nid = \"{m}:depths\"\nname = \"Depths {k}\"\ndepth = {depth}\nloot = \"{m}:drops\"\nprefabs = [\"{m}:hall\", \"{prev_room}\"]\ncreatures = [\"{m}:rat\"]\n",
                depth = k + 1
            ),
        ));
    }
    out
}

/// The IDs defined (`id = "…"`) in some text.
pub fn defined_ids(texts: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for t in texts {
        for (i, _) in t.match_indices("id = \"") {
            if let Some(id) = t[i + 6..].split('"').next() {
                if !id.is_empty() && !id.contains('\n') {
                    out.push(id.to_string());
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Text an edit may splice in anywhere: fragments of valid data, typos, and characters that make
/// positions hard.
const SPLICES: &[&str] = &["\"", "=", "[[", "]]", "\n", "ü", "🐀", "# rustkeep: allow(unknown-reference)\n", "x", ",", "{", "}"];

/// One random edit of a data file's `text` (`original` is how it started; `ids` the IDs defined in
/// the workspace): rename, delete or add a definition; point a reference elsewhere, at nothing,
/// or back; nest tables into a cycle or across kinds; carry, check, start and use other names;
/// set `[balance]`; take a room's doors away; take slots, placements and overridden fields away;
/// break the TOML; heal back to the original; or splice text anywhere.
pub fn edit_data(g: &mut Gen, text: &str, original: &str, ids: &[String]) -> String {
    let some_id = |g: &mut Gen| g.pick(ids).cloned().unwrap_or_else(|| "w00:sword".into());
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let with_line_at = |at: usize, line: &str| {
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        v.insert(at.min(v.len()), line.to_string());
        v.concat()
    };
    // The value of a random `key = "…"` in the text, and where it is.
    let values: Vec<(usize, usize)> = text
        .match_indices(" = \"")
        .filter_map(|(i, m)| {
            let start = i + m.len();
            let len = text[start..].find('"')?;
            (!text[start..start + len].contains('\n')).then_some((start, start + len))
        })
        .collect();
    match g.below(18) {
        0 | 1 => original.to_string(),
        // Rename a definition (its references now dangle), or a reference.
        2 | 3 => match g.pick(&values) {
            Some(&(s, e)) => format!("{}{}_{}{}", &text[..s], &text[s..e], ["r", "x", "2"][g.below(3)], &text[e..]),
            None => text.to_string(),
        },
        // Point a value at another ID of the workspace (a reference across mods, a duplicate
        // definition, a table nested into a cycle or across kinds).
        4 | 5 => match g.pick(&values) {
            Some(&(s, e)) => format!("{}{}{}", &text[..s], some_id(g), &text[e..]),
            None => text.to_string(),
        },
        // Delete a line (a definition's `id`, a reference, a field).
        6 if !lines.is_empty() => {
            let drop = g.below(lines.len());
            lines.iter().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| *l).collect()
        }
        // Add a definition: new, a duplicate, foreign, or an override of something.
        7 => {
            let id = some_id(g);
            let ns = id.split(':').next().unwrap_or("w00").to_string();
            let entry = match g.below(5) {
                0 => format!("\n[[items]]\nid = \"{id}_new\"\nname = \"New\"\n"),
                1 => format!("\n[[items]]\nid = \"{id}\"\nname = \"Again\"\n"),
                2 => format!("\n[[loot_tables]]\nid = \"{ns}:extra\"\nentries = [ {{ table = \"{id}\", weight = 1 }} ]\n"),
                3 => format!("\n[[npcs]]\noverrides = \"{id}\"\nname = \"Over\"\n"),
                _ => format!("\n[[creatures]]\nid = \"{ns}:beast\"\nname = \"Beast\"\ntags = [\"{id}\"]\nloot = \"{id}\"\n"),
            };
            let at = if g.chance(50) { lines.len() } else { g.below(lines.len() + 1) };
            with_line_at(at, &entry)
        }
        // Loot: nest a table, or give an affix or an item, where it may not belong.
        8 => text.replacen("{ nothing = true, weight = ", &format!("{{ {} = \"{}\", weight = ", ["table", "affix", "item"][g.below(3)], some_id(g)), 1),
        // Tags carried and checked, quests started.
        9 => match g.below(3) {
            0 => text.replacen("tags = [\"", &format!("tags = [\"{}\", \"", some_id(g)), 1),
            1 => text.replacen("value = \"", &format!("value = \"{}", ["w0", "x", ""][g.below(3)]), 1),
            _ => text.replacen("quest = \"", &format!("quest = \"{}", ["x", ""][g.below(2)]), 1),
        },
        10 => match g.below(3) {
            0 => with_line_at(lines.len(), &format!("\n[balance]\nluck_factor = 0.{}\n", g.below(9))),
            // A room loses its doors (the floors built from it have no way on), or an override
            // of some prefab without one.
            1 => text.replace('+', "#"),
            _ => with_line_at(lines.len(), &format!("\n[[prefabs]]\noverrides = \"{}\"\ngrid = \"\"\"\n###\n#@#\n###\n\"\"\"\n", some_id(g))),
        },
        // Broken TOML, or a registry header misspelt: its entries are defined nowhere (and
        // references to them say where they are written).
        // (Chosen by the text, not by a draw, so that the seeded sequences stay as they were.)
        11 => match text.len() % 3 {
            0 => text.replacen("[[items]]", "[[item]]", 1).replacen("[[loot_tables]]", "[[loot_table]]", 1),
            _ => with_line_at(g.below(lines.len() + 1), "[[items\n"),
        },
        // An item loses its slot (its triggers and its affixes' never run) and a potion its `use`
        // (the filters on using it never match), a room its NPCs, a
        // border door becomes a wall (only the inner one is left), or an override leaves a field
        // out.
        16 => match g.below(4) {
            0 => text.replacen("slot = \"weapon\"\n", "", 1).replacen("use = [", "# use = [", 1),
            1 => text.replacen("npcs = [", "# npcs = [", 1),
            2 => text.replacen("#.....+", "#......", 1).replacen("###+###", "#######", 1),
            _ => text.replacen("on_talk = [ { action = \"open_shop\"", "# on_talk = [ { action = \"open_shop\"", 1),
        },
        // A new entry for the rules about things that never happen: triggers on an item without
        // a slot, an affix no table gives, an NPC, an override that drops fields.
        17 => {
            let id = some_id(g);
            let ns = id.split(':').next().unwrap_or("w00").to_string();
            let trigger = "triggers = [ { on = \"turn_started\", actions = [ { action = \"heal\", amount = 1, target = \"self\" } ] } ]\n";
            let entry = match g.below(4) {
                0 => format!("\n[[items]]\nid = \"{ns}:charm\"\nname = \"Charm\"\n{trigger}"),
                1 => format!("\n[[affixes]]\nid = \"{ns}:idle\"\nname = \"idle\"\n{trigger}"),
                2 => format!("\n[[npcs]]\nid = \"{ns}:stranger\"\nname = \"Stranger\"\n"),
                _ => format!("\n[[creatures]]\noverrides = \"{id}\"\nname = \"Over\"\n"),
            };
            with_line_at(lines.len(), &entry)
        }
        12 => with_line_at(g.below(lines.len() + 1), "# rustkeep: allow(unknown-reference, reference-kind-mismatch, duplicate-id)\n"),
        // Delete a whole entry (from one `[[` header to the next).
        13 | 14 => {
            let heads: Vec<usize> = text.match_indices("[[").map(|(i, _)| i).filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n').collect();
            match g.pick(&heads) {
                Some(&start) => {
                    let end = heads.iter().copied().find(|&h| h > start).unwrap_or(text.len());
                    format!("{}{}", &text[..start], &text[end..])
                }
                None => text.to_string(),
            }
        }
        _ => {
            let mut at = g.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let s = SPLICES[g.below(SPLICES.len())];
            format!("{}{s}{}", &text[..at], &text[at..])
        }
    }
}

/// One random edit of a manifest: drop the dependency on the mod before (its references may now
/// load before their targets), put it back, or depend on a mod that is not there.
pub fn edit_manifest(g: &mut Gen, text: &str, original: &str) -> String {
    match g.below(3) {
        0 => original.to_string(),
        1 => match text.find(", \"w") {
            Some(i) => {
                let end = text[i + 2..].find('"').map_or(text.len(), |j| i + 2 + j + 1);
                format!("{}{}", &text[..i], &text[end..])
            }
            None => text.to_string(),
        },
        _ => text.replacen("depends = [\"core\"", "depends = [\"core\", \"nowhere\"", 1),
    }
}
