//! `rustkeep new NAME`: a mod skeleton that `rustkeep check` finds clean, with a scenario that
//! `rustkeep simulate` runs (docs/getting-started.md).

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The mod's id (its namespace): lower case letters, digits and `_`, starting with a letter.
    pub name: String,
    /// The folder to create (default: NAME in the current folder).
    #[arg(long, value_name = "DIR")]
    pub path: Option<PathBuf>,
}

/// The files of a new mod `id`, by path relative to its folder.
pub fn skeleton(id: &str) -> Vec<(&'static str, String)> {
    let title = id.split('_').filter(|w| !w.is_empty()).map(|w| w[..1].to_uppercase() + &w[1..]).collect::<Vec<_>>().join(" ");
    vec![
        ("mod.toml", format!("[mod]\nid = \"{id}\"\nname = \"{title}\"\nversion = \"0.1.0\"\ndepends = [\"core\"]\n")),
        (
            "items.toml",
            format!(
                "# The mod's items. Every ID of this mod starts with `{id}:`; `rustkeep show core:iron_sword`\n\
                 # prints a core entry to start from.\n\n\
                 [[items]]\nid = \"{id}:lucky_coin\"\nname = \"Lucky Coin\"\nprice = 5\nslot = \"amulet\"\n\
                 modifiers = [ {{ attribute = \"luck\", add = 1 }} ]\n"
            ),
        ),
        (
            "npcs.toml",
            format!(
                "[[npcs]]\nid = \"{id}:stranger\"\nname = \"A Stranger\"\n\
                 on_talk = [ {{ action = \"give_item\", item = \"{id}:lucky_coin\", target = \"self\" }} ]\n\n\
                 # The room where the stranger stands (`n` in the grid): an NPC that no prefab names can\n\
                 # never be met.\n\
                 [[prefabs]]\nid = \"{id}:stranger_room\"\ngrid = \"\"\"\n#######\n#..n..#\n+..@..+\n#######\n\"\"\"\n\
                 npcs = [\"{id}:stranger\"]\n\n\
                 # The floor that lays the room out: a prefab that no floor names is never in the dungeon.\n\
                 # Floors are walked in order of `depth` (ties by ID): this one comes after the core's first.\n\
                 [[floors]]\nid = \"{id}:crossroads\"\nname = \"Crossroads\"\ndepth = 1\n\
                 prefabs = [\"core:corridor\", \"{id}:stranger_room\"]\n"
            ),
        ),
        (
            "scenarios/smoke.toml",
            format!(
                "# A first scenario: `rustkeep simulate scenarios/smoke.toml` runs it, `rustkeep check` checks it,\n\
                 # `rustkeep test` runs it and checks its expectations.\n\
                 seed = 1\nmods = [\"..\"]\n\n[player]\noptions = [\"core:warrior\"]\n\n[[enemies]]\ncreature = \"core:rat\"\n\n\
                 [[steps]]\ntalk = \"{id}:stranger\"\n\n[[steps]]\nequip = \"{id}:lucky_coin\"\n\n[[steps]]\nattack = \"enemy:0\"\n\n\
                 # What the run must do: `rustkeep test` checks it (docs/testing.md).\n\
                 [[expect]]\nevent = \"npc_talked\"\ncount = 1\n\n\
                 [[expect]]\nhas_item = \"{id}:lucky_coin\"\n\n\
                 [[expect]]\nhealth = {{ who = \"player\", at_least = 1 }}\n"
            ),
        ),
    ]
}

pub fn run(args: Args) -> Result<u8, String> {
    let id = args.name.trim();
    if !rustkeep_data::vocab::is_valid_namespace(id) {
        return Err(format!("`{id}` is not a valid mod id: lower case letters, digits and `_`, starting with a letter (`[a-z][a-z0-9_]*`)"));
    }
    if id == rustkeep_data::vocab::CORE_NAMESPACE {
        return Err("the mod id `core` is reserved for the base game".into());
    }
    let dir = args.path.unwrap_or_else(|| PathBuf::from(id));
    if dir.exists() && !rustkeep_data::files::is_empty_folder(&dir).unwrap_or(false) {
        return Err(format!("{} exists and is not empty; choose another folder with --path", dir.display()));
    }
    for (rel, text) in skeleton(id) {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        rustkeep_data::files::write_file(&path, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    say!("rustkeep: created the mod `{id}` in {}", dir.display());
    say!("  next: cd {} && rustkeep check && rustkeep test", dir.display());
    Ok(0)
}
