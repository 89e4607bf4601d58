//! `rustkeep show ID`: the entry in force for an ID as written, with its file — overrides replace
//! whole entries, so this is where a modder copies from (`--override` prints the copy ready to
//! paste); `rustkeep show --core-dir`: the folder the bundled core is served from; `rustkeep core
//! export DIR`: the bundled core as files (docs/getting-started.md, "Change a core entry").

use std::io::Write;
use std::path::{Path, PathBuf};

use rustkeep_data::db::Database;
use rustkeep_data::project::{bundled::CORE_FILES, discover, Project, WhenNothing, CORE_PREFIX};
use rustkeep_data::vocab::{IdText, Registry};

use crate::Common;

#[derive(clap::Args)]
pub struct Args {
    /// The ID, e.g. `core:flaming` (a name without namespace finds the ID of that name).
    #[arg(required_unless_present = "core_dir")]
    pub id: Option<String>,
    /// Print the entry as an override to paste into your mod: `overrides = "ID"` instead of
    /// `id = "ID"`.
    #[arg(long = "override")]
    pub as_override: bool,
    /// Print what the entry in force changes against the entry it overrides, field by field,
    /// instead of the entry.
    #[arg(long, conflicts_with = "as_override")]
    pub diff: bool,
    /// Print the folder the bundled core's files are served from (the language server's
    /// go-to-definition opens them there), writing them first if needed.
    #[arg(long, conflicts_with_all = ["id", "as_override", "diff"])]
    pub core_dir: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `rustkeep core …`.
#[derive(clap::Subcommand)]
pub enum CoreCommand {
    /// Write the bundled core's data files into DIR (the same files the language server serves;
    /// `<core>/affixes.toml` in traces and messages is DIR/affixes.toml).
    Export {
        /// The folder to write into (created if missing).
        dir: PathBuf,
        /// Overwrite files that exist with another content.
        #[arg(long)]
        force: bool,
    },
}

/// Where a file of the project is, for people: a mod's file by its path, a core file by its path
/// in the bundled core and the name `rustkeep core export` gives it.
pub fn where_is(project: &Project, file: rustkeep_data::source::FileId, line: usize) -> String {
    let f = project.file(file);
    match f.path.strip_prefix(CORE_PREFIX) {
        Some(name) if f.bundled => {
            let name = name.trim_start_matches('/');
            format!("{}:{line} (the bundled core's {name}; `rustkeep core export DIR` writes it as DIR/{name})", f.path)
        }
        _ => format!("{}:{line}", f.path),
    }
}

/// The ID a name without its namespace stands for (`floor_2_table`): the one ID of that name
/// among `ids`, `None` when none has it (or `word` has a namespace), and an error listing them
/// when several mods define it, as picking one would answer about an entry the user may not mean.
pub fn short_name<'a>(word: &str, ids: impl IntoIterator<Item = &'a str>, noun: &str) -> Result<Option<String>, String> {
    if !IdText::of(word).is_bare() {
        return Ok(None);
    }
    let mut named: Vec<&str> = ids.into_iter().filter(|c| IdText::of(c).qualified_name() == Some(word)).collect();
    named.sort_unstable();
    named.dedup();
    match named[..] {
        [] => Ok(None),
        [one] => Ok(Some(one.to_string())),
        _ => Err(format!("`{word}` fits more than one {noun}: {}; write the whole ID", rustkeep_data::suggest::list(&named))),
    }
}

pub fn run(args: Args) -> Result<u8, String> {
    if args.core_dir {
        let dir = rustkeep_data::project::core_files::materialize(&rustkeep_data::project::core_files::cache_dir())
            .map_err(|e| format!("cannot write the core files: {e}"))?;
        print(&format!("{}\n", dir.display()))?;
        return Ok(0);
    }
    let Some(id) = args.id else { return Err("usage: rustkeep show ID (or --core-dir)".into()) };
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let project = discover(&args.common.mods, &cwd, WhenNothing::CoreAlone)?;
    let db = Database::load(&project);
    let all: Vec<&str> = Registry::ALL.iter().flat_map(|r| db.resolved.defs[r.index()].keys().map(String::as_str)).collect();
    // A name without namespace stands for the ID of that name, if only one has it.
    let id = match db.resolved.registries_of(&id).is_empty() {
        true => short_name(&id, all.iter().copied(), "entry")?.unwrap_or(id),
        false => id,
    };
    let registries = db.resolved.registries_of(&id);
    if registries.is_empty() {
        let mut msg = format!("`{id}` names no entry of the loaded mods");
        if let Some(s) = rustkeep_data::suggest::closest_id(&id, all.iter().copied()) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        return Err(msg);
    }
    let mut out = String::new();
    for (n, r) in registries.into_iter().enumerate() {
        let def = db.resolved.get(r, &id).expect("listed by registries_of");
        let e = db.entry(def.current);
        let f = project.file(e.file);
        let line = f.index.line_of(e.span.start) + 1;
        let m = &project.mods[def.mod_idx];
        if n > 0 {
            out.push('\n');
        }
        let noun = r.noun();
        out.push_str(&format!("# {id}: {} {noun} of `{}`, {}\n", article(noun), m.id, where_is(&project, e.file, line)));
        if !def.overrides.is_empty() {
            let first = db.entry(def.defined.unwrap_or(def.overrides[0].0));
            let ff = project.file(first.file);
            out.push_str(&format!("# it overrides the entry of {}\n", where_is(&project, first.file, ff.index.line_of(first.span.start) + 1)));
        }
        if args.diff {
            // The entry it replaces: the override before it, else the definition.
            let before = match def.overrides.iter().position(|o| o.0 == def.current) {
                Some(0) => def.defined,
                Some(i) => Some(def.overrides[i - 1].0),
                None => None,
            };
            match before {
                Some(b) => out.push_str(&field_diff(&project, db.entry(b), e)),
                None => out.push_str("# it is the definition: it overrides nothing\n"),
            }
        } else if args.as_override {
            out.push_str("# An override replaces the whole entry: keep what you want to keep, change the rest.\n");
            out.push_str(&rustkeep_data::copy::override_text(&f.text, &f.index, e));
        } else {
            out.push_str(&rustkeep_data::copy::entry_text(&f.text, &f.index, e));
        }
    }
    print(&out)?;
    Ok(0)
}

/// What `new` changes against `old`, down to the key or element that changed
/// ([`rustkeep_data::copy::field_changes`]): `~ path: old → new`, `+ path: new`, `- path: old`
/// (a whole field left out: `(left out: its default applies)`), in the order of `old`'s fields,
/// then `new`'s own; and the count of the fields written as before.
fn field_diff(project: &Project, old: &rustkeep_data::model::Entry, new: &rustkeep_data::model::Entry) -> String {
    let (mut changes, same) = rustkeep_data::copy::field_changes(&project.file(old.file).text, old, &project.file(new.file).text, new);
    let at = |e: &rustkeep_data::model::Entry, name: &str| e.fields.iter().position(|f| f.def.name == name);
    changes.sort_by_key(|c| at(old, c.field).unwrap_or_else(|| old.fields.len() + at(new, c.field).unwrap_or(0)));
    let mut out = String::new();
    for c in &changes {
        let p = &c.path;
        match (&c.old, &c.new) {
            (Some(a), Some(b)) => out.push_str(&format!("~ {p}: {a} → {b}\n")),
            (None, Some(b)) => out.push_str(&format!("+ {p}: {b}\n")),
            // A key or an element of a field that stays.
            (Some(a), None) if *p != c.field => out.push_str(&format!("- {p}: {a}\n")),
            (Some(a), None) => {
                let default =
                    new.registry.field(c.field).and_then(|d| d.default).map(|d| format!("its default, {d}, applies")).unwrap_or_else(|| "it is gone".into());
                out.push_str(&format!("- {p}: {a} (left out: {default})\n"));
            }
            (None, None) => {}
        }
    }
    if out.is_empty() {
        out.push_str("# every field is written as before\n");
    } else if same > 0 {
        out.push_str(&format!("# {same} other field{} as before\n", if same == 1 { "" } else { "s" }));
    }
    out
}

fn article(noun: &str) -> &'static str {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) || noun.starts_with("NPC") {
        "an"
    } else {
        "a"
    }
}

pub fn core(cmd: CoreCommand) -> Result<u8, String> {
    match cmd {
        CoreCommand::Export { dir, force } => export(&dir, force),
    }
}

/// Writes the core's files; refuses to overwrite a file with other content unless `force`.
fn export(dir: &Path, force: bool) -> Result<u8, String> {
    if !force {
        let changed: Vec<String> = CORE_FILES
            .iter()
            .filter(|(name, text)| std::fs::read(dir.join(name)).is_ok_and(|old| old != text.as_bytes()))
            .map(|(name, _)| dir.join(name).display().to_string())
            .collect();
        if !changed.is_empty() {
            return Err(format!("{} exist(s) with other content; add --force to overwrite: {}", changed.len(), changed.join(", ")));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (name, text) in CORE_FILES {
        let path = dir.join(name);
        rustkeep_data::files::write_file(&path, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    say!("rustkeep: wrote the {} files of the bundled core to {}", CORE_FILES.len(), dir.display());
    Ok(0)
}

fn print(s: &str) -> Result<(), String> {
    let mut out = crate::out::stdout();
    out.write_all(s.as_bytes()).and_then(|_| out.flush()).map_err(|e| e.to_string())
}
