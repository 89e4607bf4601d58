//! What each diagnostic code means, a failing example, the fix, and how to silence it. `rustkeep
//! explain CODE`, the SARIF rule help and `docs/diagnostics.md` are all rendered from this table
//! (a test fails when the committed docs are stale).

use rustkeep_data::diag::{Code, Severity};
use rustkeep_data::text::thousands;
use rustkeep_data::vocab::{
    ACTIONS, ATTRIBUTES, CHECKS, DAMAGE_TYPES, EVENTS, GRID_GLYPHS, MAX_ARENA_ENEMY_FIGHTS, MAX_LIVING_ENEMIES, MAX_RUN_EVENTS, MAX_SPAWN_COUNT, MAX_STEPS,
    REGISTRIES, WHEN_FIELDS,
};

/// The doc of one code. Its meaning and fix are templates: a closed list of the data language is
/// never spelled in them but named by a placeholder ([`fill`]), so that a new event or attribute
/// reaches `rustkeep explain` and `docs/diagnostics.md` from the vocabulary alone.
pub struct CodeDoc {
    pub code: Code,
    /// What the code means, in a sentence or two.
    meaning: &'static str,
    /// A small data file that raises it.
    pub example: &'static str,
    /// How to fix it.
    fix: &'static str,
}

impl CodeDoc {
    /// What the code means, with the vocabulary filled in.
    pub fn meaning(&self) -> String {
        fill(self.meaning)
    }

    /// How to fix it, with the vocabulary filled in.
    pub fn fix(&self) -> String {
        fill(self.fix)
    }
}

/// A count as the prose writes it ("the twelve events").
fn in_words(n: usize) -> String {
    const WORDS: [&str; 21] = [
        "no",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    WORDS.get(n).map_or_else(|| n.to_string(), |w| w.to_string())
}

/// The placeholders of the templates and what each stands for, read from `rustkeep_data::vocab`.
fn placeholders() -> [(&'static str, String); 17] {
    let list = |names: Vec<&str>| names.join(", ");
    [
        ("{events}", list(EVENTS.iter().map(|e| e.name).collect())),
        ("{event_count}", in_words(EVENTS.len())),
        ("{checks}", list(CHECKS.iter().map(|c| c.name).collect())),
        ("{check_count}", in_words(CHECKS.len())),
        ("{actions}", list(ACTIONS.iter().map(|a| a.name).collect())),
        ("{action_count}", in_words(ACTIONS.len())),
        ("{attributes}", list(ATTRIBUTES.iter().map(|a| a.0).collect())),
        ("{damage_types}", list(DAMAGE_TYPES.iter().map(|d| d.0).collect())),
        ("{when_fields}", list(WHEN_FIELDS.iter().map(|w| w.name).collect())),
        ("{registries}", list(REGISTRIES.iter().map(|r| r.key).collect())),
        ("{glyphs}", GRID_GLYPHS.iter().map(|(c, what)| format!("`{c}` {what}")).collect::<Vec<_>>().join(", ")),
        ("{glyph_count}", in_words(GRID_GLYPHS.len())),
        ("{max_spawn}", thousands(MAX_SPAWN_COUNT as u64)),
        ("{max_living}", thousands(MAX_LIVING_ENEMIES as u64)),
        ("{max_steps}", thousands(MAX_STEPS as u64)),
        ("{max_events}", thousands(MAX_RUN_EVENTS)),
        ("{max_arena}", thousands(MAX_ARENA_ENEMY_FIGHTS)),
    ]
}

/// A template with its placeholders replaced.
fn fill(template: &str) -> String {
    let mut out = template.to_string();
    if out.contains('{') {
        for (name, value) in placeholders() {
            out = out.replace(name, &value);
        }
    }
    out
}

macro_rules! docs {
    ($( $code:ident => { $meaning:literal, $example:literal, $fix:literal } )*) => {
        pub const DOCS: &[CodeDoc] = &[ $( CodeDoc { code: Code::$code, meaning: $meaning, example: $example, fix: $fix }, )* ];
    };
}

docs! {
    TomlSyntax => {
        "The file is not valid TOML (version 1.1), or not UTF-8. One mistake is one error, at its cause: an unclosed `[`, `{` or string is reported at its opening, with the place where reading gave up as a related span (`this array opened on line 4 is never closed` … `reading gave up here`). Reading resumes at the next table header: only the part from the broken entry's header to the next one shows nothing but this error, the rest of the file and the other files are checked as usual, and an `id` written in the unreadable part still counts as defined for references from elsewhere.",
        "[[creatures]]\nid = \"mymod:moth\"\nname = \"Moth\"\nai = [                     # never closed: the error is here\n  { condition = [ { check = \"health_below\", who = \"self\", value = 0.3 } ], actions = [ { action = \"flee\" } ] },\n\n[[creatures]]              # reading gives up here and resumes\nid = \"mymod:big_moth\"\nname = \"Big Moth\"",
        "Close the bracket, brace or quote at the opening the error names; quote strings (`damage_type = \"fire\"`) and keep each key once per table."
    }
    UnknownRegistry => {
        "A top-level key of a data file that is no registry. Data files hold only registry arrays (`[[items]]`, `[[quests]]`, …) and the table `[balance]`. The entries under it define nothing; a reference to one of their IDs elsewhere is `unknown-reference` with a note pointing at this key.",
        "[[quest]]                # the registry is `quests`\nid = \"mymod:rats\"",
        "Use one of the registry names: {registries}, or `[balance]`."
    }
    UnknownField => {
        "A key that the entry, trigger, condition, action, modifier, loot entry or manifest does not have. Unknown keys are errors so that typos never silently do nothing.",
        "[[items]]\nid = \"mymod:gear\"\nname = \"Gear\"\ntag = [\"mymod:clockwork\"]   # the field is `tags`",
        "Rename the key to the field it was meant to be (the message suggests the closest), or remove it."
    }
    MissingField => {
        "A required key is absent. The diagnostic sits on the table that lacks it: its `[[…]]` header or the inline table.",
        "[[items]]\nid = \"mymod:mainspring\"\nprice = 9               # items need a `name`",
        "Add the field. In the editor, the quick fix \"add missing field\" inserts it."
    }
    WrongType => {
        "A value of the wrong TOML type, or a plain field outside its range (`price` < 0, `chance` outside (0, 1], `price_factor` ≤ 0, `turns` < 1). Also a registry written as one table (`[items]`, `items = { … }`): its safe fix writes `[[items]]` (or the list). In a file whose other headers write `[[items]]`, TOML refuses the `[items]` header (a key defined twice, reported by the reader at whichever header comes second); that is still this one error, on the `[items]` header, with the same safe fix, and the entry under it is checked as the `[[items]]` entry it was meant to be.",
        "[[items]]\nid = \"mymod:key\"\nname = \"Key\"\nprice = -1",
        "Write a value of the documented type and range (`rustkeep schema` lists them)."
    }
    InvalidId => {
        "An ID or tag that does not match `namespace:name` in lower case letters, digits and `_` (sub-paths with `/` allowed).",
        "[[items]]\nid = \"mymod:Clockwork_Owl\"\nname = \"Clockwork Owl\"",
        "Write the ID in lower case: `mymod:clockwork_owl`. The fix does it for you."
    }
    NamespaceMismatch => {
        "A mod defines a new ID outside its own namespace. A mod may only create `its_id:…` entries; a foreign entry can only be replaced, with `overrides`.",
        "# in the mod `lanterns`\n[[items]]\nid = \"base:lamp_oil\"\nname = \"Lamp Oil\"",
        "Use your namespace (`lanterns:lamp_oil`), or add `overrides = \"base:lamp_oil\"` if you mean to replace an existing entry."
    }
    DuplicateId => {
        "The same ID is defined twice without `overrides`. The diagnostic sits on the later definition, with the first as related span.",
        "[[items]]\nid = \"mymod:torch\"\nname = \"Torch\"\n\n[[items]]\nid = \"mymod:torch\"\nname = \"Better Torch\"",
        "Rename one of them, or turn the later one into an override with `overrides = \"mymod:torch\"`."
    }
    UnknownEvent => {
        "`on` names no event. The {event_count} events are fixed: {events}.",
        "[[quests]]\nid = \"mymod:rats\"\nname = \"Rats\"\non = \"enemy_killed\"       # the event is `creature_died`",
        "Use one of the {event_count} events; the message names the closest (`enemy_killed` and `player_died` are `creature_died`)."
    }
    UnknownCheck => {
        "`check` names no check. The {check_count} checks are {checks}.",
        "condition = [ { check = \"has_tags\", who = \"target\", value = \"core:undead\" } ]",
        "Use one of the {check_count} checks (`has_tag`)."
    }
    MalformedCondition => {
        "A check whose keys are right but whose values do not fit: `who` other than `self`/`target`, an `attribute` check with neither `at_least` nor `below` (or `at_least` ≥ `below`), a `health_below` fraction outside (0, 1], a `has_item` count < 1.",
        "condition = [ { check = \"health_below\", who = \"self\", value = 0.0 } ]",
        "Give the check values it can use: `who = \"self\"` or `\"target\"`, a bound, a fraction such as 0.25."
    }
    UnknownAction => {
        "`action` names no action. The {action_count} actions are {actions}.",
        "actions = [ { action = \"deal_damage\", amount = 3, damage_type = \"fire\", target = \"target\" } ]",
        "Use one of the {action_count} actions (`damage`)."
    }
    MalformedAction => {
        "An action whose keys are right but whose values do not fit: a `target` other than `self`/`target`, an `amount` or `count` below 1.",
        "actions = [ { action = \"heal\", amount = 0, target = \"self\" } ]",
        "Use `target = \"self\"` or `\"target\"`, and amounts and counts of at least 1."
    }
    UnknownAttribute => {
        "Not one of the attributes: {attributes}. Health is state, not an attribute.",
        "modifiers = [ { attribute = \"health\", add = 5 } ]",
        "Use an attribute from the list (`max_health`)."
    }
    UnknownDamageType => {
        "Not one of the damage types: {damage_types}.",
        "actions = [ { action = \"damage\", amount = 3, damage_type = \"frost\", target = \"target\" } ]",
        "Use a damage type from the list (`ice`)."
    }
    UnknownWhenField => {
        "A `when` key that no event carries. The `when` fields are {when_fields}.",
        "[[items.triggers]]\non = \"attack_hit\"\nwhen = { critical = true }",
        "Remove the key, or use a `when` field of the event. Conditions on creatures go in `condition`."
    }
    WhenFieldNotCarried => {
        "A `when` key that exists, but not on this trigger's event: the filter could never match, so the trigger would never fire.",
        "[[quests]]\nid = \"mymod:burn\"\nname = \"Burn\"\non = \"creature_died\"\nwhen = { damage_type = \"fire\" }   # creature_died carries no damage type",
        "Filter on a field the event carries (see `rustkeep explain` of the event in the docs), or listen to the event that carries it (`damage_taken`)."
    }
    TargetNeverPresent => {
        "A check with `who = \"target\"` or an action with `target = \"target\"` where there is no target: an event without target, or `use`, `on_create`, `on_talk`. The check is always false; the action does nothing.",
        "[[npcs]]\nid = \"mymod:elder\"\nname = \"Elder\"\non_talk = [ { action = \"heal\", amount = 5, target = \"target\" } ]",
        "Use `self`, or move the trigger to an event that has a target (attack_hit, damage_taken, creature_died)."
    }
    UnknownReference => {
        "An ID that names nothing in the registry the field needs. The message suggests the closest existing ID of the right registry. When the ID is written under a top-level key that is no registry (`[[item]]`), a note points at that key: fixing the header defines it.",
        "actions = [ { action = \"give_item\", item = \"mymod:lamp_wicks\", target = \"self\" } ]",
        "Fix the typo (the quick fix picks the suggestion), or define the entry."
    }
    ReferenceKindMismatch => {
        "An ID of the wrong registry (an NPC where a shop is needed), or a loot table of the wrong kind: `affixes =` needs an affix table, `loot =`/`stock =` an item table, and a nested `table =` must be of its parent's kind.",
        "[[npcs]]\nid = \"mymod:keeper\"\nname = \"Keeper\"\non_talk = [ { action = \"open_shop\", shop = \"mymod:keeper\" } ]",
        "Name an entry of the registry and kind the field needs."
    }
    MalformedExpectation => {
        "A scenario's `[[expect]]` that cannot be checked. An expectation checks exactly one thing — `quest`, `has_item`, `health`, `event`, `fired`, `outcome`, `loot` or `arena` — with the keys that kind takes (`state` and `count` with `quest`, `item`, `chance` and `expected` with `loot`, `win_rate` with `arena`, …). It is reported when an expectation checks nothing or several things, carries a key of another kind, has a bound that no value meets (`{ at_least = 5, below = 3 }`: `below` is exclusive) or bounds nothing, names an `after_step` past the scenario's last step (steps count from 0), or fights an `arena` without `[[enemies]]`. A scenario with this error is not run by `rustkeep test` or `simulate`.",
        "[[expect]]\nquest = \"core:rattenplage\"\nchance = { at_least = 0.5 }   # `chance` belongs to a `loot` expectation\n\n[[expect]]\nhas_item = \"core:gold\"\ncount = { at_least = 100, below = 50 }   # no count meets it",
        "Split an expectation that checks several things into one `[[expect]]` each; move a key to the kind it belongs to; write a bound whose `at_least` is below its `below`; count `after_step` from 0 up to the number of steps minus one."
    }
    OptionGroupConflict => {
        "A scenario's `[player] options` names two character options of the same `group` (two classes, two backgrounds): a character takes at most one option of each group, as a new game in `rustkeep play` does. The error sits on the second option of the group; the first is a related location. Options without a `group` combine freely.",
        "seed = 1\n\n[player]\noptions = [\"core:warrior\", \"core:mage\"]   # both of the group `class`",
        "Keep one option of the group (a class and a background combine: `[\"core:warrior\", \"core:grave_digger\"]`)."
    }
    LootTableCycle => {
        "Loot tables nest into a cycle, so evaluating one would never end. Reported once, on the first table of the cycle in ID order, with the other tables as related spans.",
        "[[loot_tables]]\nid = \"mymod:a\"\nentries = [ { table = \"mymod:b\", weight = 1 } ]\n\n[[loot_tables]]\nid = \"mymod:b\"\nentries = [ { table = \"mymod:a\", weight = 1 } ]",
        "Break the cycle: one of the tables must list items instead of nesting back."
    }
    InvalidRange => {
        "A range that does not parse or has min > max. Ranges are an integer `2`, or a string `\"2\"` or `\"1-3\"`, both bounds ≥ 0.",
        "[[loot_tables]]\nid = \"mymod:stall\"\nrolls = \"2-\"\nentries = [ { item = \"core:gold\", weight = 1 } ]",
        "Write both bounds: `rolls = \"2-3\"`."
    }
    InvalidWeight => {
        "A weighted loot entry without an integer weight ≥ 1, or a guaranteed entry with a weight (guaranteed entries are always given and take part in no draw).",
        "entries = [ { item = \"core:gold\", weight = -3 } ]",
        "Give weighted entries `weight = 1` or more; remove `weight` from guaranteed entries."
    }
    AmbiguousEntry => {
        "A loot entry with none or several of `item`, `table`, `affix`, `nothing`: it must say exactly one thing it gives.",
        "entries = [ { item = \"core:gold\", nothing = true, weight = 2 } ]",
        "Keep exactly one of the four keys."
    }
    OverrideMissingTarget => {
        "`overrides` names an ID that does not exist in that registry at that point of the load order (overrides replace, they cannot create).",
        "[[items]]\noverrides = \"base:lantern_pole\"   # base has base:lantern_staff\nname = \"Pole\"",
        "Name an existing entry, make sure its mod loads first (`depends`), or define a new entry in your namespace instead."
    }
    OverrideIdMismatch => {
        "An override's `id` differs from its `overrides`. An override keeps the ID it replaces; `id` may be omitted.",
        "[[floors]]\nid = \"mymod:floor_3\"\noverrides = \"core:floor_3\"",
        "Set `id` to the overridden ID, or omit it."
    }
    OverrideConflict => {
        "Two mods override the same ID (or set the same `[balance]` key) and neither names the other in `depends` or `load_after`, so which one wins depends on their ids alone: the later in load order wins and the earlier override has no effect. Overriding a core entry once is normal, and so is a mod that declares its place after the other (layering).",
        "# mods/a/floors.toml and mods/b/floors.toml both:\n[[floors]]\noverrides = \"core:floor_3\"\nloot = \"a:floor_3\"",
        "If the later override is meant to replace the earlier one, say so: list the earlier mod in the later mod's `load_after` (or `depends`), and the warning goes. Otherwise decide which mod owns the entry, and make the other nest the first's table instead (tables in tables are the hook point)."
    }
    UnknownDependency => {
        "`depends` names a mod that is not loaded.",
        "[mod]\nid = \"mymod\"\ndepends = [\"core\", \"lantrens\"]",
        "Fix the mod id, or add the mod to the workspace."
    }
    DependencyCycle => {
        "Mods depend on each other in a cycle, so no load order exists. Reported once, on the first mod of the cycle in ID order.",
        "# a/mod.toml: depends = [\"b\"]\n# b/mod.toml: depends = [\"a\"]",
        "Remove one dependency, or turn it into `load_after` on one side only."
    }
    DependencyVersion => {
        "A `depends` entry sets a version requirement (`\"sewers >= 1.2\"`, as Cargo writes one) and the loaded mod's `version` does not meet it; for an optional entry (`? `) only when that mod is loaded. A mod without `version` meets only `*`. The related span is the other mod's `version`.",
        "# rat_catcher/mod.toml\n[mod]\nid = \"rat_catcher\"\ndepends = [\"sewers >= 1.2\"]\n\n# sewers/mod.toml\n[mod]\nid = \"sewers\"\nversion = \"1.1.0\"",
        "Update the other mod to a version the requirement allows, or, if this mod works with the loaded version, widen the requirement (`>= 1.1`)."
    }
    IncompatibleMod => {
        "A mod declares another incompatible (`\"! old_rats\"` in `depends`; with a requirement, only the versions it allows) and both are loaded. The related span is the other mod's `id`.",
        "[mod]\nid = \"rat_catcher\"\ndepends = [\"core\", \"! old_rats\"]",
        "Remove one of the two mods from the workspace (or from the scenario's `mods`)."
    }
    InvalidVersionReq => {
        "A `depends` entry whose version requirement does not parse. Requirements are written as Cargo writes them: `^1.2`, `~1.2.3`, `>= 1.2, < 2`, `=1.0.0`, `*`; a bare `1.2` means `^1.2`.",
        "[mod]\nid = \"rat_catcher\"\ndepends = [\"sewers >= one\"]",
        "Write the requirement with numbers and an operator, e.g. `\"sewers >= 1.2\"`."
    }
    RenamedReference => {
        "A reference names an old ID that its mod's `[renamed]` maps to a new one. It still resolves (to the new ID), so the data works, but the old name is kept only for mods and saves made before the rename.",
        "# sewers/mod.toml\n[renamed]\n\"sewers:cheese\" = \"sewers:cheese_wedge\"\n\n# rat_catcher/items.toml\n[[loot_tables]]\nid = \"rat_catcher:drops\"\nentries = [{ item = \"sewers:cheese\", weight = 1 }]",
        "Write the new ID; the fix does it and is safe, as both IDs name the same entry."
    }
    RenameCycle => {
        "`[renamed]` lines that lead back to where they start (`a → b → a`), or an ID renamed to itself: no ID is in force at the end, so references to them lead nowhere. Reported once, on the cycle's first old ID in ID order, with the other lines as related spans.",
        "[renamed]\n\"my_mod:cheese\" = \"my_mod:wedge\"\n\"my_mod:wedge\" = \"my_mod:cheese\"",
        "Keep the lines that lead from old IDs to the ID the mod defines now, and remove the one that leads back."
    }
    RenamedIdExists => {
        "`[renamed]` maps an old ID that is still defined: a defined ID always wins, so the rename never applies. The related span is the entry.",
        "# mod.toml\n[renamed]\n\"my_mod:cheese\" = \"my_mod:cheese_wedge\"\n\n# items.toml still has\n[[items]]\nid = \"my_mod:cheese\"",
        "Rename the entry itself (its `id`) to the new ID, or remove the `[renamed]` line if the old ID stays."
    }
    InvalidManifest => {
        "A `mod.toml` that is missing or malformed: a mod folder without manifest, an `id` that is `core` or not `[a-z][a-z0-9_]*`, a version that is not semver, two mods with one id, or a workspace glob that reaches outside the workspace.",
        "[mod]\nid = \"My Mod\"",
        "Give the mod a lower-case id such as `my_mod` and a `mod.toml` with `[mod]` id, name, version."
    }
    QuestNeverStarted => {
        "No `start_quest` action anywhere names this quest, so it can never run (quests count only after they are started).",
        "[[quests]]\nid = \"mymod:rats\"\nname = \"Rats\"\non = \"creature_died\"",
        "Start it from an NPC's `on_talk`, a character option's `on_create`, or another quest's reward."
    }
    UnknownTag => {
        "A `has_tag` check names a tag that no item or creature carries, so the check is always false.",
        "condition = [ { check = \"has_tag\", who = \"target\", value = \"core:undaed\" } ]",
        "Fix the typo, or give some creature or item the tag in `tags`."
    }
    UnusedLootTable => {
        "No creature, floor, prefab, shop, nested `table =` or `affixes =` references this loot table, so it never drops anything.",
        "[[loot_tables]]\nid = \"mymod:forgotten\"\nentries = [ { item = \"core:gold\", weight = 1 } ]",
        "Reference it (e.g. `loot = \"mymod:forgotten\"` on a creature), or delete it."
    }
    SelfFeedingTrigger => {
        "A trigger's actions raise the very event it listens to (`damage_taken` → `damage`, `item_picked_up` → `give_item`), so it can feed itself until the event cap of 100 events per turn stops it. Quests are exempt: they act once, on completion.",
        "[[items.triggers]]\non = \"damage_taken\"\nactions = [ { action = \"damage\", amount = 2, damage_type = \"physical\", target = \"target\" } ]",
        "Listen to a different event (thorns: react on `damage_taken` by applying a status), or narrow it with `when`."
    }
    InvalidPrefabGrid => {
        "A prefab grid with rows of different widths, a glyph that is not one of {glyphs}, or more than 512 tiles across or down (the largest grid a floor lays out). A row of another width is held against the width most rows have (the first row's, when no width is more common), so only the rows that differ are reported, with the row as a related span. Spaces (and tabs) at the end of a row are no glyph, and invisible on screen: they are one error of their own, on those spaces, with a safe fix that removes them, and the widths are compared without them.",
        "[[prefabs]]\nid = \"mymod:hall\"\ngrid = \"\"\"\n#####\n#.x.#\n####\n\"\"\"",
        "Use only the {glyph_count} glyphs, give every row the same width, and leave no spaces at the end of a row (`rustkeep check --fix` removes them)."
    }
    PrefabNpcMismatch => {
        "The grid of a prefab has a different number of `n` glyphs than entries in its `npcs` list. The i-th `n` in reading order (row by row, left to right) is the i-th NPC of the list: an `n` without an NPC stays an empty floor tile, and an NPC without an `n` never appears. The warning sits on `npcs` (on the grid when `npcs` is missing).",
        "[[prefabs]]\nid = \"mymod:hall\"\nnpcs = [\"mymod:elder\"]\ngrid = \"\"\"\n#######\n#n.@.n#\n###+###\n\"\"\"",
        "Name one NPC per `n` glyph, in reading order, or turn the extra glyphs into floor (`.`)."
    }
    UnreachablePrefabTile => {
        "A loot pile (`l`), enemy (`e`), NPC (`n`) or door (`+`) of a prefab cannot be reached from the entry point (`@`, else the first floor tile) by walking in the eight directions over tiles that are not walls: the player can never pick up that pile, meet that creature or NPC, or leave through that door. The warning sits on the grid; each unreachable glyph is a related location.",
        "[[prefabs]]\nid = \"mymod:vault\"\ngrid = \"\"\"\n#######\n#.@.#l#\n#####+#\n\"\"\"",
        "Open a way through the walls (diagonal gaps count), or move the glyph into the part the player can walk."
    }
    FloorWithoutExit => {
        "A prefab that a floor uses has no door (`+`) on its border (its first or last row, its first or last column). A border door is where the floor's corridors join the room; a `+` inside the room is an ordinary door between two parts of it (walkable, blocking sight), not an exit. So the room cannot be joined to the rest of the floor: a played run leaves it out. The warning sits on the floor's `prefabs` entry naming the prefab; the prefab's grid is a related location.",
        "[[floors]]\nid = \"mymod:cellar\"\ndepth = 1\nprefabs = [\"mymod:closet\"]\n\n[[prefabs]]\nid = \"mymod:closet\"\ngrid = \"\"\"\n#######\n#.@#..#\n#..+..#\n#######\n\"\"\"",
        "Put a `+` into the prefab's outer wall, or take the prefab out of the floor's `prefabs`."
    }
    FirstRoomNotInPrefabs => {
        "A floor's `first_rooms` names a prefab that its `prefabs` does not list. The player's first room on a floor is drawn from `first_rooms` among the rooms the floor is built from, so a prefab the floor does not lay out can never be it; a floor none of whose `first_rooms` it lays out starts in any of its rooms, as without the field. The error sits on the entry of `first_rooms`; the floor's `prefabs` is a related location. (A name that is no prefab at all is `unknown-reference` instead.)",
        "[[floors]]\nid = \"mymod:cellar\"\ndepth = 1\nprefabs = [\"core:corridor\", \"core:storeroom\"]\nfirst_rooms = [\"core:entrance_hall\"]   # not among the floor's prefabs",
        "Add the prefab to the floor's `prefabs`, or name one of them in `first_rooms`."
    }
    NpcNeverPlaced => {
        "No prefab names this NPC in its `npcs`. An NPC stands in the dungeon only on an `n` glyph of a prefab that lists it, so one that no prefab names can never be met: its `on_talk` (and the quests and shops it opens) never happens in a game. Every mod is asked, also one without prefabs of its own: its NPCs need a room as much as any. Only a content pack, a mod whose `mod.toml` says `library = true` under `[mod]`, is not asked about its own NPCs: the mods built on it place them. The warning sits on the NPC's `id`.",
        "[[npcs]]\nid = \"mymod:old_mags\"\nname = \"Old Mags\"\non_talk = [ { action = \"start_quest\", quest = \"mymod:rats\" } ]",
        "Name the NPC in the `npcs` of a prefab that a floor uses, and put an `n` into its grid where the NPC stands (a mod without rooms of its own writes one: a `[[prefabs]]` entry, and a floor whose `prefabs` names it); or, in a mod of entries for other mods to use, say `library = true` in its `mod.toml`; or delete the NPC."
    }
    AiRuleUnreachable => {
        "On each of its turns, a creature follows the first of its `ai` rules whose `condition` holds (and attacks or moves when none does). A rule without `condition` (or with an empty one) always holds, so the rules after it are never looked at: each of them gets this warning, on the rule, with the rule that always holds as a related location. A rule without `condition` belongs last, where it says what the creature does when no other rule applies. A rule with errors never runs, and so hides nothing.",
        "[[creatures]]\nid = \"mymod:berserker\"\nname = \"Berserker\"\nai = [\n  { actions = [ { action = \"heal\", amount = 1, target = \"self\" } ] },\n  { condition = [ { check = \"health_below\", who = \"self\", value = 0.25 } ], actions = [ { action = \"flee\" } ] },   # never runs\n]",
        "Move the rule without `condition` to the end of `ai`, or give it a `condition`; delete the rules that are not meant to run."
    }
    ConditionNeverHolds => {
        "Two checks of one `condition` list that can never hold at once: the list needs all of its checks, so it never holds, and the trigger, quest, modifier or `ai` rule it guards never happens. Only certain cases are reported, for two checks on the same `who`: a check and the same check with `not = true`, or a negated check that the plain one implies (at least 3 of an item and not at least 2; `health_below` 0.25 and not `health_below` 0.5); two `attribute` checks of one attribute whose ranges share no value (`at_least` counts itself, `below` does not: at least 5 and below 5 is nothing, at least 5 and below 6 is 5); a plain range inside a negated one. Two negated checks are not judged. The warning sits on the later of the two checks; the earlier one is a related location. A `health_below` of 0 or less, or one check with `at_least` not below its `below`, is `malformed-condition` instead.",
        "[[creatures]]\nid = \"mymod:wolf\"\nname = \"Wolf\"\nai = [\n  { condition = [\n    { check = \"attribute\", who = \"self\", attribute = \"level\", at_least = 5 },\n    { check = \"attribute\", who = \"self\", attribute = \"level\", below = 5 },   # at least 5 and below 5: no level is both\n  ], actions = [ { action = \"flee\" } ] },\n]",
        "Remove one of the two checks, or correct its values (a bound, a count, `who` or `not`). For an either-or, write two triggers or two `ai` rules."
    }
    ItemNeverObtainable => {
        "No loot table lists this item and no `give_item` action names it, so no player can ever hold it: it is never dropped, found, bought or given, and whatever it does never happens in a game. An item reaches the player in two ways only: through a loot table (a creature's `loot`, a floor's or a prefab's `l` piles, a shop's `stock`, and every table nested in those) or through a `give_item` action (a trigger, a quest's reward, a character option's `on_create`, an NPC's `on_talk`, an item's `use`). Every loot table counts, used or not (a table nothing rolls is `unused-loot-table`), and so does every `give_item` of an entry in force; a scenario's items do not, as a scenario tests the game and is no part of it. Every mod is asked; only a content pack, a mod whose `mod.toml` says `library = true` under `[mod]`, is not asked about its own items: the mods built on it hand them out. The warning sits on the item's `id`.",
        "[[items]]\nid = \"mymod:moonstone\"\nname = \"Moonstone\"\nprice = 40",
        "Put the item into the entries of a loot table where it fits (a creature's drops, a floor's or a room's loot, a shop's stock), or give it with a `give_item` action: a quest's reward, a character option's `on_create`, an NPC's `on_talk`; or, in a mod of entries for other mods to use, say `library = true` in its `mod.toml`; or delete the item."
    }
    WhenNeverMatches => {
        "A `when` filter names an entry that exists, but the loaded mods never raise the trigger's event with it, so the trigger (or the quest) never fires. Four cases are judged: `item_used` with an item without `use` actions (no `use`, or `use = []`: only an item with `use` actions can be used); `room_entered` with a prefab that no floor's `prefabs` names (the dungeon never holds that room); `npc_talked` with an NPC that no prefab's `npcs` places (nobody can talk to it); `quest_completed` with a quest that no `start_quest` action names (it never runs, so it never completes). What a scenario does does not count. Content packs are judged too: the filter is wrong in whichever mod it is written. A value that names nothing is `unknown-reference`, a field the event does not carry `when-field-not-carried`. The warning sits on the value.",
        "[[items]]\nid = \"mymod:lamp\"\nname = \"Lamp\"\n\n[[quests]]\nid = \"mymod:light\"\nname = \"Let There Be Light\"\non = \"item_used\"\nwhen = { item = \"mymod:lamp\" }   # the lamp has no `use`",
        "Make the named entry carry the event (give the item a `use`, name the prefab in a floor's `prefabs`, place the NPC in a prefab's `npcs`, start the quest with `start_quest`), or filter on an entry that does; for an item that is picked up rather than used, listen to `item_picked_up`."
    }
    PrefabNeverUsed => {
        "No floor names this prefab in its `prefabs`. A floor is laid out from the rooms its `prefabs` lists, and from nothing else, so a prefab that no floor in force names is a room the dungeon never holds: its loot piles, enemies, NPCs and triggers never happen in a game. Only floors in force count: a floor replaced by an override no longer builds anything. A floor's `first_rooms` only picks which of its rooms comes first; a prefab that only `first_rooms` names is `first-room-not-in-prefabs` there, not this warning. A scenario's `enter` step tests a room, it does not put it into the dungeon. Every mod is asked, also one without floors of its own; only a content pack, a mod whose `mod.toml` says `library = true` under `[mod]`, is not asked about its own prefabs: the mods built on it use them. The warning sits on the prefab's `id`.",
        "[[prefabs]]\nid = \"mymod:crypt\"\ngrid = \"\"\"\n#####\n#.l.#\n##+##\n\"\"\"",
        "Name the prefab in the `prefabs` of a floor where the room belongs (a mod without floors of its own writes one, or overrides a floor of the mod it builds on with the room added); or, in a mod of entries for other mods to use, say `library = true` in its `mod.toml`; or delete the prefab."
    }
    CreatureNeverMet => {
        "No floor names this creature in its `creatures`, and no `spawn` action calls it up. A creature enters a game in two ways only: the `e` glyphs of a floor's rooms draw from the floor's `creatures` (of the floors in force), and a `spawn` action (a trigger, an `ai` rule, a quest's reward, an NPC's `on_talk`, an item's `use`) brings it in. A creature that neither names is never met: its `ai`, its triggers and its `loot` never happen in a game. A scenario's `[[enemies]]` and the actions of its steps do not count: a scenario tests the game, it is not the game. Every mod is asked; only a content pack, a mod whose `mod.toml` says `library = true` under `[mod]`, is not asked about its own creatures: the mods built on it use them. The warning sits on the creature's `id`.",
        "[[creatures]]\nid = \"mymod:wyrm\"\nname = \"Wyrm\"\nattributes = { level = 9, max_health = 80 }",
        "Name the creature in the `creatures` of a floor whose rooms have `e` glyphs, or call it up with a `spawn` action (`{ action = \"spawn\", creature = \"mymod:wyrm\" }`) in a trigger, an `ai` rule or an NPC's `on_talk`; or, in a mod of entries for other mods to use, say `library = true` in its `mod.toml`; or delete the creature."
    }
    ShopNeverOpened => {
        "No `open_shop` action names this shop. A shop opens only when an `open_shop` action runs (usually in the `on_talk` of the NPC who keeps it), so one that no action names is never seen: its `stock` is never rolled and nothing is ever bought there. A scenario's steps do not count: a scenario tests the game, it is not the game. Every mod is asked; only a content pack, a mod whose `mod.toml` says `library = true` under `[mod]`, is not asked about its own shops: the mods built on it open them. The warning sits on the shop's `id`.",
        "[[shops]]\nid = \"mymod:curio_stall\"\nname = \"Curio Stall\"\nprice_factor = 1.2",
        "Open the shop with `{ action = \"open_shop\", shop = \"mymod:curio_stall\" }`, usually in the `on_talk` of an NPC that a prefab places; or, in a mod of entries for other mods to use, say `library = true` in its `mod.toml`; or delete the shop."
    }
    StatusNeverApplied => {
        "No `apply_status` action names this status. A creature gets a status only from an `apply_status` action (a trigger of an item, affix, creature, character option, status, floor or prefab, an `ai` rule, a quest's reward, an item's `use`, an NPC's `on_talk`); no other field applies one. A status that no action names never takes hold, so its modifiers and triggers never act in a game. A scenario's steps do not count: a scenario tests the game, it is not the game. Every mod is asked; only a content pack, a mod whose `mod.toml` says `library = true` under `[mod]`, is not asked about its own statuses: the mods built on it apply them. The warning sits on the status's `id`.",
        "[[statuses]]\nid = \"mymod:frostbite\"\nname = \"Frostbite\"\nturns = 3\nmodifiers = [ { attribute = \"evasion\", add = -2 } ]",
        "Apply the status where it belongs, e.g. an item's trigger `{ on = \"attack_hit\", actions = [ { action = \"apply_status\", status = \"mymod:frostbite\", target = \"target\" } ] }`, a creature's `ai` rule or an item's `use`; or, in a mod of entries for other mods to use, say `library = true` in its `mod.toml`; or delete the status."
    }
    TriggerNeverActive => {
        "Triggers that can never run. An item's triggers, and those of the affixes on it, act only while the item is equipped, so triggers on an item without `slot` never run; and an affix that no loot table puts on an item with a slot (through an item entry's `affixes =`, directly or through nested affix tables) never sits on an equipped item. The warning sits on the entry's `triggers`.",
        "[[items]]\nid = \"mymod:ember_stone\"\nname = \"Ember Stone\"\ntriggers = [\n  { on = \"attack_hit\", actions = [ { action = \"apply_status\", status = \"core:burning\", target = \"target\" } ] },\n]",
        "Give the item a `slot` (or, for an effect when it is used, make it a `use` action); put the affix into an affix table that an item entry with a slotted item names in `affixes =`."
    }
    OverrideDropsField => {
        "An override replaces the whole entry it names: a field that the replaced entry sets and the override leaves out is gone, not inherited. An override of `core:rat` without `loot` makes rats drop nothing; one without `ai` makes them stand still. The warning sits on the override's `id` (or `overrides`) and names every field left out; each of those fields in the replaced entry is a related location. `rustkeep show ID --override` prints a complete copy to start from.",
        "[[creatures]]\noverrides = \"core:rat\"\nname = \"Plague Rat\"\nattributes = { max_health = 8, damage = 2 }\n# `glyph`, `color`, `tags` and `loot` of core:rat are gone",
        "Write the fields again in the override, with the values you mean (the same as before, or changed); to remove a field on purpose, silence the warning with a reason."
    }
    UnknownLint => {
        "A `# rustkeep: allow(…)` comment names something that is not a diagnostic code, so it silences nothing — and the mistake it was meant to silence is reported after all. The warning sits on the name; the message suggests the closest code.",
        "# rustkeep: allow(quest-never-startd)\n[[quests]]\nid = \"mymod:rats\"\nname = \"Rats\"\non = \"creature_died\"",
        "Write the code as `rustkeep explain` lists it (`quest-never-started`); the fix does it when one code is certainly meant."
    }
    ValueOutOfRange => {
        "A value over one of the limits that keep every run of a mod bounded, whoever wrote it: a `spawn` action makes at most {max_spawn} creatures, at most {max_living} enemies live at once (a scenario's `[[enemies]]` together), a scenario has at most {max_steps} steps, and an `arena` expectation fights at most {max_arena} enemies in all (its `runs` times the scenario's enemies). A run that reaches a limit anyway (triggers that spawn again and again) stops with a message saying which; so does a scenario run that has handled {max_events} events.",
        "[[creatures]]\nid = \"mymod:broodmother\"\nname = \"Broodmother\"\nai = [ { actions = [ { action = \"spawn\", creature = \"mymod:spiderling\", count = 500 } ] } ]",
        "Spawn fewer at once (several `spawn` actions, or a trigger that fires more often), and keep scenarios to what a test needs."
    }
    UnusedSuppression => {
        "An allow comment (or one code in it) that silences nothing: no diagnostic of that code is reported on the line below it or in the entry or field it stands above — usually because the mistake was fixed, or the comment stands above the wrong entry. Left in place, it would silently hide the next mistake of that kind. Also reported for `toml-syntax`, in a comment or under `[lints]`: a file that does not parse is not checked at all, so its syntax errors cannot be silenced. Silence this warning only with a lint level (`[lints] unused-suppression = \"allow\"`).",
        "# rustkeep: allow(unused-loot-table)\n[[quests]]\nid = \"mymod:rats\"\nname = \"Rats\"\non = \"creature_died\"",
        "Remove the comment (or the code from its list); the fix does it, and `rustkeep check --fix` applies it. If the comment belongs to another entry, move it above that one."
    }
}

pub fn doc(code: Code) -> &'static CodeDoc {
    DOCS.iter().find(|d| d.code == code).expect("every code is documented")
}

fn severity(code: Code) -> &'static str {
    match code.default_severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn silence(code: Code) -> String {
    match code {
        Code::TomlSyntax => "It cannot be silenced: the part of the file that does not read is not checked at all, and the syntax error is the only sign of that.".to_string(),
        Code::UnknownLint | Code::UnusedSuppression => format!(
            "Set `{0} = \"allow\"` under `[lints]` in `rustkeep.toml` (\"warn\" and \"deny\" change its severity); allow comments do not cover it.",
            code.name()
        ),
        _ => format!(
            "Put `# rustkeep: allow({0}) -- reason` on the line above the entry or field, or set `{0} = \"allow\"` under `[lints]` in `rustkeep.toml` (\"warn\" and \"deny\" change its severity).",
            code.name()
        ),
    }
}

/// Plain text for `rustkeep explain CODE`.
pub fn text(code: Code) -> String {
    let p = Parts::of(code);
    let example = p.example.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n");
    format!("{} ({})\n\n{}\n\nExample:\n\n{example}\n\nFix: {}\n\nSilence: {}\n", p.name, p.severity, p.meaning, p.fix, p.silence)
}

/// Markdown for the SARIF help and the docs page.
pub fn markdown(code: Code) -> String {
    let p = Parts::of(code);
    format!("### `{}`\n\nSeverity: {}. {}\n\n```toml\n{}\n```\n\n**Fix:** {}\n\n**Silence:** {}\n", p.name, p.severity, p.meaning, p.example, p.fix, p.silence)
}

/// What the explanation of a code says, before a format writes it.
struct Parts {
    name: &'static str,
    severity: &'static str,
    meaning: String,
    example: &'static str,
    fix: String,
    silence: String,
}

impl Parts {
    fn of(code: Code) -> Parts {
        let d = doc(code);
        Parts { name: code.name(), severity: severity(code), meaning: d.meaning(), example: d.example, fix: d.fix(), silence: silence(code) }
    }
}

/// The whole `docs/diagnostics.md`.
pub fn catalog_markdown() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n<!-- Generated by `rustkeep explain --all --format markdown` from crates/rustkeep-check/src/explain.rs; a test fails when this file is stale. -->\n\n\
         Every diagnostic has a stable code. `rustkeep explain CODE` prints the entry below in the terminal.\n\n| code | severity | when |\n|---|---|---|\n",
    );
    for c in Code::ALL {
        out.push_str(&format!("| [`{0}`](#{0}) | {1} | {2} |\n", c.name(), severity(*c), c.summary()));
    }
    out.push('\n');
    for c in Code::ALL {
        out.push_str(&markdown(*c));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_one_doc() {
        for c in Code::ALL {
            assert_eq!(DOCS.iter().filter(|d| d.code == *c).count(), 1, "{}", c.name());
        }
    }

    /// A placeholder that is misspelt would reach the reader as written.
    #[test]
    fn every_placeholder_is_filled() {
        let names: Vec<&str> = placeholders().iter().map(|p| p.0).collect();
        for d in DOCS {
            for text in [d.meaning(), d.fix()] {
                for (at, _) in text.match_indices('{') {
                    let word: String = text[at + 1..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                    assert!(word.is_empty() || !text[at + 1 + word.len()..].starts_with('}'), "{}: `{{{word}}}` is no placeholder ({names:?})", d.code.name());
                }
            }
        }
        assert!(doc(Code::UnknownEvent).meaning().contains("turn_started, combat_started"), "{}", doc(Code::UnknownEvent).meaning());
    }
}
