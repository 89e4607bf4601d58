//! Deterministic synthetic mod packs for benchmarks: N mods × M entries across every registry,
//! with cross-mod references, overrides, nested loot tables, triggers, and a sprinkling of
//! mistakes so that every rule has work to do. A tool, never part of the product: nothing else
//! depends on it, and its figures are measured, never asserted by a timed test.

#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub mod hostile;
pub mod lsp;

/// A pack size.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub name: &'static str,
    pub mods: usize,
    /// Units per mod; a unit is ten related entries.
    pub units: usize,
}

pub const SMALL: Size = Size { name: "small", mods: 10, units: 20 };
pub const MEDIUM: Size = Size { name: "medium", mods: 50, units: 40 };
pub const LARGE: Size = Size { name: "large", mods: 200, units: 50 };

impl Size {
    pub fn by_name(name: &str) -> Option<Size> {
        [SMALL, MEDIUM, LARGE].into_iter().find(|s| s.name == name)
    }
    /// Registry entries in the pack (units × 10 plus the per-mod extras).
    pub fn entries(self) -> usize {
        self.mods * (self.units * 10 + PER_MOD_EXTRA)
    }
}

/// Entries every mod has besides its units: statuses, a floor, three prefabs (a hall, a crypt and
/// the market where the mod's NPCs stand), an option, an override.
const PER_MOD_EXTRA: usize = 9;
const UNITS_PER_FILE: usize = 10;
const STATUSES: usize = 3;

/// Writes the pack below `dir` (a workspace with `rustkeep.toml`). Returns (files, bytes).
pub fn generate(dir: &Path, size: Size) -> std::io::Result<(usize, u64)> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("rustkeep.toml"), "[workspace]\nmods = [\"mods/*\"]\n")?;
    let mut files = 1;
    let mut bytes = 0u64;
    for k in 0..size.mods {
        let m = format!("m{k:03}");
        let mdir = dir.join("mods").join(&m);
        std::fs::create_dir_all(&mdir)?;
        let dep = if k == 0 { String::new() } else { format!(", \"m{:03}\"", k - 1) };
        let manifest = format!("[mod]\nid = \"{m}\"\nname = \"Synthetic mod {k}\"\nversion = \"1.0.{k}\"\ndepends = [\"core\"{dep}]\n");
        bytes += manifest.len() as u64;
        std::fs::write(mdir.join("mod.toml"), manifest)?;
        files += 1;
        let extra = world(k, size.units);
        bytes += extra.len() as u64;
        std::fs::write(mdir.join("world.toml"), extra)?;
        files += 1;
        for chunk in 0..size.units.div_ceil(UNITS_PER_FILE) {
            let mut text = String::with_capacity(UNITS_PER_FILE * 3000);
            for i in chunk * UNITS_PER_FILE..((chunk + 1) * UNITS_PER_FILE).min(size.units) {
                unit(&mut text, k, i);
            }
            bytes += text.len() as u64;
            std::fs::write(mdir.join(format!("content_{chunk:02}.toml")), text)?;
            files += 1;
        }
    }
    Ok((files, bytes))
}

/// Per-mod entries: statuses, a floor with prefabs, a character option, an override of the
/// previous mod's first NPC (conflicting now and then, as real packs do).
fn world(k: usize, units: usize) -> String {
    let m = format!("m{k:03}");
    let mut s = String::new();
    for st in 0..STATUSES {
        let _ = write!(
            s,
            "[[statuses]]\nid = \"{m}:status_{st}\"\nname = \"Status {st}\"\nturns = {}\nmodifiers = [ {{ attribute = \"speed\", multiply = 0.9 }} ]\n\n[[statuses.triggers]]\non = \"turn_started\"\nactions = [ {{ action = \"damage\", amount = 1, damage_type = \"poison\", target = \"self\" }} ]\n\n",
            st + 2
        );
    }
    let _ = write!(
        s,
        "[[prefabs]]\nid = \"{m}:hall\"\ngrid = \"\"\"\n#######\n#l.e.l#\n#..@..#\n###+###\n\"\"\"\nloot = \"{m}:table_0\"\n\n[[prefabs]]\nid = \"{m}:crypt\"\ngrid = \"\"\"\n#####\n#e.e#\n#.n.#\n#.@.#\n##+##\n\"\"\"\nnpcs = [\"{m}:npc_0\"]\ntriggers = [ {{ on = \"room_entered\", actions = [ {{ action = \"spawn\", creature = \"{m}:creature_0\", count = 2 }} ] }} ]\n\n"
    );
    // The market, where every NPC of the mod stands: one `n` each, named in order by `npcs`.
    let stalls = units.max(1);
    let npcs: Vec<String> = (0..units).map(|i| format!("\"{m}:npc_{i}\"")).collect();
    let _ = write!(
        s,
        "[[prefabs]]\nid = \"{m}:market\"\ngrid = \"\"\"\n{wall}\n#{stands}.#\n#{floor}@#\n#{walls}+#\n\"\"\"\nnpcs = [{}]\n\n",
        npcs.join(", "),
        wall = "#".repeat(stalls + 3),
        stands = "n".repeat(units),
        floor = ".".repeat(stalls),
        walls = "#".repeat(stalls),
    );
    // The floor's creatures: every creature of the mod, so that each can be met.
    let creatures: Vec<String> = (0..units).map(|i| format!("\"{m}:creature_{i}\"")).collect();
    let _ = write!(
        s,
        "[[floors]]\nid = \"{m}:floor\"\nname = \"Floor of mod {k}\"\ndepth = {}\nloot = \"{m}:table_{}\"\nprefabs = [\"{m}:hall\", \"{m}:crypt\", \"{m}:market\"]\ncreatures = [{}]\ntriggers = [ {{ on = \"floor_entered\", actions = [ {{ action = \"heal\", amount = 5, target = \"self\" }} ] }} ]\n\n",
        k % 50 + 1,
        units.saturating_sub(1),
        creatures.join(", ")
    );
    let _ = write!(
        s,
        "[[character_options]]\nid = \"{m}:class\"\nname = \"Class {k}\"\nmodifiers = [ {{ attribute = \"max_health\", add = 5 }} ]\non_create = [ {{ action = \"give_item\", item = \"{m}:potion_0\", count = 2, target = \"self\" }} ]\n\n"
    );
    if k > 0 {
        // Every tenth mod overrides the same NPC as the mod before it: an override conflict.
        let target = if k % 10 == 9 { format!("m{:03}:npc_0", k - 2) } else { format!("m{:03}:npc_0", k - 1) };
        let shop = format!("m{:03}:shop_0", k.saturating_sub(1));
        let _ = write!(s, "[[npcs]]\noverrides = \"{target}\"\nname = \"Replaced NPC\"\non_talk = [ {{ action = \"open_shop\", shop = \"{shop}\" }} ]\n\n");
    } else {
        let _ = write!(s, "[[npcs]]\nid = \"{m}:npc_extra\"\nname = \"Extra NPC\"\non_talk = [ {{ action = \"open_shop\", shop = \"{m}:shop_0\" }} ]\n\n");
    }
    s
}

/// Ten related entries: two items, an affix, an affix table, an item table nesting the previous
/// mod's table, a creature, a quest, an NPC, a shop and its stock table.
fn unit(s: &mut String, k: usize, i: usize) {
    let m = format!("m{k:03}");
    let prev_table = if k > 0 { format!("m{:03}:table_{i}", k - 1) } else { format!("core:floor_{}_table", i % 5 + 1) };
    // Mistakes, now and then, in the forms modders make them.
    let event = if (k * 131 + i) % 997 == 5 { "enemy_killed" } else { "creature_died" };
    let weight = if (k * 131 + i) % 991 == 7 { 0 } else { 3 };
    let reward = if (k * 131 + i) % 983 == 11 { format!("{m}:itme_{i}") } else { format!("{m}:item_{i}") };
    let _ = write!(
        s,
        r#"[[items]]
id = "{m}:item_{i}"
name = "Blade {k}-{i}"
tags = ["{m}:tag_{t}"]
price = {price}
slot = "weapon"
damage_type = "{dt}"
modifiers = [ {{ attribute = "damage", add = {add}, condition = [ {{ check = "has_tag", who = "target", value = "{m}:ctag_{t}" }} ] }} ]

[[items.triggers]]
on = "attack_hit"
chance = 0.2
actions = [ {{ action = "apply_status", status = "{m}:status_{st}", target = "target" }} ]

[[items]]
id = "{m}:potion_{i}"
name = "Potion {k}-{i}"
price = 5
stackable = true
use = [ {{ action = "heal", amount = 10, target = "self" }} ]

[[affixes]]
id = "{m}:affix_{i}"
name = "of mod {k} #{i}"
price_factor = 1.5
modifiers = [ {{ attribute = "fire_resistance", add = 0.1 }} ]

[[loot_tables]]
id = "{m}:affixes_{i}"
rolls = "0-1"
entries = [ {{ affix = "{m}:affix_{i}", weight = 2 }}, {{ nothing = true, weight = 5 }} ]

[[loot_tables]]
id = "{m}:table_{i}"
rolls = "1-3"
entries = [
  {{ item = "{m}:item_{i}", weight = {weight}, affixes = "{m}:affixes_{i}" }},
  {{ item = "{m}:potion_{i}", weight = 5, count = "0-2" }},
  {{ table = "{prev_table}", weight = 1 }},
  {{ nothing = true, weight = 10 }},
]

[[creatures]]
id = "{m}:creature_{i}"
name = "Creature {k}-{i}"
tags = ["{m}:ctag_{t}"]
attributes = {{ level = {lvl}, max_health = {hp}, damage = 4, armor = 1, fire_resistance = 0.2 }}
loot = "{m}:table_{i}"
ai = [ {{ condition = [ {{ check = "health_below", who = "self", value = 0.25 }} ], actions = [ {{ action = "heal", amount = 3, target = "self" }} ] }} ]
triggers = [ {{ on = "damage_taken", when = {{ damage_type = "fire" }}, actions = [ {{ action = "apply_status", status = "{m}:status_0", target = "target" }} ] }} ]

[[quests]]
id = "{m}:quest_{i}"
name = "Hunt {k}-{i}"
on = "{event}"
count = 3
condition = [ {{ check = "has_tag", who = "target", value = "{m}:ctag_{t}" }} ]
actions = [ {{ action = "give_item", item = "{reward}", target = "self" }} ]

[[npcs]]
id = "{m}:npc_{i}"
name = "Quest giver {k}-{i}"
on_talk = [ {{ action = "start_quest", quest = "{m}:quest_{i}" }}, {{ action = "open_shop", shop = "{m}:shop_{i}" }} ]

[[shops]]
id = "{m}:shop_{i}"
name = "Shop {k}-{i}"
stock = "{m}:stock_{i}"
price_factor = 1.1

[[loot_tables]]
id = "{m}:stock_{i}"
rolls = 4
entries = [ {{ item = "{m}:potion_{i}", weight = 3, count = "1-3" }}, {{ item = "{m}:item_{i}", weight = 1, affixes = "{m}:affixes_{i}" }} ]

"#,
        t = i % 10,
        price = 10 + i,
        dt = ["physical", "fire", "ice", "lightning", "poison"][i % 5],
        add = i % 7 + 1,
        st = i % STATUSES,
        lvl = i % 20 + 1,
        hp = 10 + i % 50,
    );
}

/// Every `*.toml` file below `dir` (the walk of `rustkeep_data::files`, every folder).
pub fn toml_paths(dir: &Path) -> Vec<PathBuf> {
    rustkeep_data::files::Walk::every_folder(dir, usize::MAX)
        .flatten()
        .filter(|e| !e.file_type().is_dir() && e.path().extension().is_some_and(|x| x == "toml"))
        .map(|e| e.into_path())
        .collect()
}

/// Reads and parses every `*.toml` below `dir` with `toml::de::DeTable::parse`, one thread.
/// Returns (files, bytes). This is the cost floor of any checker built on the `toml` crate.
pub fn parse_floor(dir: &Path) -> (usize, u64) {
    let paths = toml_paths(dir);
    let mut bytes = 0u64;
    for p in &paths {
        let Ok(text) = std::fs::read_to_string(p) else { continue };
        bytes += text.len() as u64;
        let parsed = toml::de::DeTable::parse(&text);
        std::hint::black_box(&parsed);
    }
    (paths.len(), bytes)
}

/// A figure measured by another component (language server, loot, engine).
pub struct ExtraFigure {
    pub figure: String,
    pub value: String,
    pub target: String,
    pub ok: Option<bool>,
    pub json: serde_json::Value,
}

pub mod careful;
pub mod doc_figures;
pub mod engine_figures;
pub mod play;
pub mod test_figures;

/// The figures of the language server (the `rustkeep` binary `exe`), the loot engine and the game
/// engine, on the packs in `root` (generated by the caller); `wanted` picks the groups.
pub fn extra_figures(root: &Path, exe: &Path, runs: usize, wanted: &dyn Fn(&str) -> bool) -> Vec<ExtraFigure> {
    let mut out = Vec::new();
    if wanted("lsp") {
        out.extend(lsp::lsp_figures(root, exe));
    }
    if wanted("loot") && root.join("large").is_dir() {
        out.extend(engine_figures::loot_figures(&root.join("large"), runs));
    }
    if wanted("engine") {
        out.extend(engine_figures::turn_at_cap(runs));
        out.extend(engine_figures::enemy_turn_figure(runs));
    }
    if wanted("floor") {
        out.extend(engine_figures::floor_figures(runs));
    }
    if wanted("arena") {
        out.extend(engine_figures::arena_figures(runs));
    }
    if wanted("careful") {
        out.extend(careful::careful_figures());
    }
    // The groups below time the `rustkeep` binary as a whole command.
    if !exe.is_file() {
        eprintln!("no `rustkeep` binary at {} (cargo build --release -p rustkeep-cli): play, test, doc and diff not measured", exe.display());
        return out;
    }
    if wanted("play") {
        out.extend(play::play_figures(exe));
    }
    if wanted("test") {
        out.extend(test_figures::test_figures(exe, runs));
    }
    if wanted("doc") {
        out.extend(doc_figures::doc_figures(exe, root, runs));
    }
    if wanted("diff") {
        out.extend(doc_figures::diff_figures(exe, root, runs));
    }
    out
}
