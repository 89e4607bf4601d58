//! `rustkeep diff OLD NEW` and `rustkeep diff REVISION`: what a change does to the mods' meaning
//! (docs/balance.md) — entries added, removed and changed field by field, exact drop chances that
//! moved, arena win rates that moved beyond their 95 % intervals, diagnostics introduced and
//! fixed — as text, JSON (with its schema) or markdown for a pull-request comment. Every output
//! opens with the semantic-versioning verdict of each mod in both versions ([`semver`]): the
//! largest class of its changes against the bump of its manifest's `version`, and what saves of
//! the old version lose.
//!
//! A revision is read with the git command line (`git archive`, unpacked by `tar` into a temporary
//! folder), so the working tree is never touched; the same discovery rule then loads both sides.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::number::{fixed, percent as pct};
use rustkeep_data::project::{discover, WhenNothing};
use rustkeep_data::vocab::Registry;
use rustkeep_engine::arena;
use rustkeep_engine::game::World;
use rustkeep_engine::stats::{wilson, Z_95};
use schemars::JsonSchema;
use serde::Serialize;

mod semver;

use self::semver::SemverJson;

#[derive(clap::Args)]
pub struct Args {
    /// The old version: a folder (then NEW is the new one), or a git revision such as
    /// `origin/main` (then the new version is the working tree of the current folder).
    pub old: String,
    /// The new version's folder.
    pub new: Option<PathBuf>,
    /// Output format: `human`, `json` or `markdown` (a pull-request comment).
    #[arg(long, value_enum, default_value = "human")]
    pub format: DiffFormat,
    /// The smallest move of a drop chance that is reported, in percentage points.
    #[arg(long, default_value_t = 0.5)]
    pub threshold: f64,
    /// Fights per character option and creature for the arena's moves (0: no arena).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub arena: u64,
    /// The seed of those fights (both versions fight the same seeded fights).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Exit with 1 (after the report) when a mod's new `version` is smaller than its changes
    /// need: a breaking change a major release, an addition a minor one, any other change a patch
    /// (one step less while the major version is 0).
    #[arg(long)]
    pub check_semver: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    Human,
    Json,
    Markdown,
}

/// The output of `rustkeep diff --format json` (docs/balance.md).
#[derive(Serialize, JsonSchema)]
#[schemars(title = "rustkeep diff --format json", deny_unknown_fields)]
pub struct DiffJson {
    /// The old version as given (a folder or a revision).
    pub old: String,
    /// The new version as given (a folder, or `working tree`).
    pub new: String,
    /// The semantic-versioning verdict of each mod present in both versions (by mod id, the core
    /// aside), in id order: one object for a single mod, none when no mod is in both.
    pub semver: Vec<SemverJson>,
    /// Entries in force added, removed and changed.
    pub entries: EntriesJson,
    /// What saves of the old version lose: the IDs of the old version (of every registry a save
    /// holds) that the new version neither defines nor leads to an ID in force through
    /// `[renamed]`.
    pub saves_lose: Vec<EntryJson>,
    /// Drop chances (of at least one per evaluation, luck 0) that moved by at least the threshold,
    /// the biggest moves first.
    pub chances: Vec<ChanceMove>,
    /// Win rates of a character option against a creature whose 95 % intervals no longer overlap,
    /// the biggest moves first. Empty with `--arena 0` or when either version has errors.
    pub arena: Vec<ArenaMove>,
    /// Diagnostics only the new version has, and only the old one had.
    pub diagnostics: DiagnosticsJson,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct EntriesJson {
    pub added: Vec<EntryJson>,
    pub removed: Vec<EntryJson>,
    pub changed: Vec<ChangedJson>,
}

#[derive(Serialize, JsonSchema, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[schemars(deny_unknown_fields)]
pub struct EntryJson {
    /// The registry's key (`items`, `loot_tables`, …).
    pub registry: String,
    pub id: String,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ChangedJson {
    pub registry: String,
    pub id: String,
    /// Each value whose written text differs (whitespace aside), down to the key or element
    /// that changed, by field.
    pub fields: Vec<FieldChange>,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FieldChange {
    /// The entry's field the change is in (`attributes`).
    pub field: String,
    /// Where in the field: `.key` for a key of a table, `[i]` for an element of an array
    /// (`attributes.max_health`, `entries[1].weight`); the field's name alone when the whole
    /// field is added, removed, or becomes a value of another kind.
    pub path: String,
    /// The value before, as written (whitespace collapsed); `null` where it was absent.
    pub old: Option<String>,
    /// The value now; `null` where it is gone.
    pub new: Option<String>,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ChanceMove {
    pub table: String,
    pub item: String,
    /// Exact, as `rustkeep loot --format json` prints it for each version; 0 where it cannot drop.
    pub old: f64,
    pub new: f64,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ArenaMove {
    pub option: String,
    pub creature: String,
    pub old: f64,
    pub new: f64,
    /// The Wilson 95 % intervals of the two rates.
    pub old_interval: [f64; 2],
    pub new_interval: [f64; 2],
    pub runs: u64,
}

#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DiagnosticsJson {
    pub introduced: Vec<DiagnosticJson>,
    pub fixed: Vec<DiagnosticJson>,
}

#[derive(Serialize, JsonSchema, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[schemars(deny_unknown_fields)]
pub struct DiagnosticJson {
    /// The file, relative to the version's folder (`<core>/…` for the bundled core).
    pub path: String,
    pub severity: String,
    pub code: String,
    pub message: String,
}

/// One version, loaded.
struct Side {
    world: World,
    diagnostics: Vec<Diagnostic>,
    errors: usize,
    /// The folder paths are shown relative to.
    root: PathBuf,
}

fn load(path: &Path) -> Result<Side, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let project = discover(&[path.to_path_buf()], &cwd, WhenNothing::CoreAlone)?;
    let analysis = rustkeep_check::analyze(&project);
    let errors = analysis.errors();
    let root = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    // Either version may have errors: diff compares what each says, next to their diagnostics.
    Ok(Side { world: World::best_effort(project, analysis.db), diagnostics: analysis.diagnostics, errors, root })
}

pub fn run(args: Args) -> Result<u8, String> {
    if !args.threshold.is_finite() || args.threshold < 0.0 {
        return Err(format!("--threshold must be a number of percentage points ≥ 0, not {}", args.threshold));
    }
    let (old, new, old_name, new_name, _temp) = match &args.new {
        // The two versions load side by side.
        Some(new) => {
            let (old, new_side) = rayon::join(|| load(Path::new(&args.old)), || load(new));
            (old?, new_side?, args.old.clone(), new.display().to_string(), None)
        }
        None => {
            let (dir, temp) = checkout(&args.old)?;
            let (old, new) = rayon::join(|| load(&dir), || load(Path::new(".")));
            (old?, new?, args.old.clone(), "working tree".to_string(), Some(temp))
        }
    };
    let report = compare(&old, &new, old_name, new_name, &args);
    let text = match args.format {
        DiffFormat::Json => serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n",
        DiffFormat::Human => human(&report),
        DiffFormat::Markdown => markdown(&report),
    };
    crate::out::print(&text, args.format == DiffFormat::Json)?;
    Ok(if args.check_semver && !semver::all_ok(&report.semver) { 1 } else { 0 })
}

/// The current folder as it is at `revision`, unpacked into a temporary folder: the folder to
/// load (the same place below the repository's root) and the temporary folder, removed when it
/// is dropped.
fn checkout(revision: &str) -> Result<(PathBuf, tempfile::TempDir), String> {
    let git = |args: &[&str]| -> Result<String, String> {
        let o = Command::new("git").args(args).output().map_err(|e| format!("cannot run git: {e}"))?;
        if !o.status.success() {
            return Err(format!("git {}: {}", args.join(" "), String::from_utf8_lossy(&o.stderr).trim()));
        }
        Ok(String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let top = git(&["rev-parse", "--show-toplevel"]).map_err(|e| format!("`rustkeep diff REVISION` compares with a git revision, in a repository: {e}"))?;
    let prefix = git(&["rev-parse", "--show-prefix"])?;
    git(&["rev-parse", "--verify", "--quiet", &format!("{revision}^{{commit}}")]).map_err(|_| format!("`{revision}` is not a revision of this repository"))?;
    let temp = tempfile::Builder::new().prefix("rustkeep-diff-").tempdir().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let mut archive = Command::new("git")
        .args(["-C", &top, "archive", "--format=tar", revision])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let stdout = archive.stdout.take().ok_or("git archive has no output")?;
    let tar = Command::new("tar").arg("-x").arg("-C").arg(temp.path()).stdin(stdout).output().map_err(|e| format!("cannot run tar: {e}"))?;
    let status = archive.wait().map_err(|e| e.to_string())?;
    if !status.success() || !tar.status.success() {
        return Err(format!("cannot unpack `{revision}`: {}", String::from_utf8_lossy(&tar.stderr).trim()));
    }
    Ok((temp.path().join(prefix), temp))
}

fn compare(old: &Side, new: &Side, old_name: String, new_name: String, args: &Args) -> DiffJson {
    let (ow, nw) = (&old.world, &new.world);
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let mut changed = Vec::new();
    let mut changed_ids: BTreeSet<(Registry, String)> = BTreeSet::new();
    for registry in Registry::ALL {
        let (a, b) = (ow.ids(registry), nw.ids(registry));
        let (sa, sb): (BTreeSet<&String>, BTreeSet<&String>) = (a.iter().collect(), b.iter().collect());
        for id in sb.difference(&sa) {
            added.push(EntryJson { registry: registry.key().into(), id: (*id).clone() });
        }
        for id in sa.difference(&sb) {
            removed.push(EntryJson { registry: registry.key().into(), id: (*id).clone() });
        }
        for id in sa.intersection(&sb) {
            let (Some(eo), Some(en)) = (ow.entry(registry, id), nw.entry(registry, id)) else { continue };
            let (mut changes, _) = rustkeep_data::copy::field_changes(&ow.project.file(eo.file).text, eo, &nw.project.file(en.file).text, en);
            changes.sort_by_key(|c| c.field);
            let fields: Vec<FieldChange> = changes.into_iter().map(|c| FieldChange { field: c.field.into(), path: c.path, old: c.old, new: c.new }).collect();
            if !fields.is_empty() {
                changed_ids.insert((registry, (*id).clone()));
                changed.push(ChangedJson { registry: registry.key().into(), id: (*id).clone(), fields });
            }
        }
    }
    let chances = chance_moves(ow, nw, args.threshold / 100.0);
    let arena = if args.arena > 0 && old.errors == 0 && new.errors == 0 { arena_moves(ow, nw, &changed_ids, &added, args) } else { Vec::new() };
    let key = |s: &Side| -> BTreeSet<DiagnosticJson> {
        s.diagnostics
            .iter()
            .map(|d| {
                let f = s.world.project.file(d.loc.file);
                let path = f
                    .disk_path
                    .as_ref()
                    // The folder resolved, not the file: a file that is a link names itself.
                    .and_then(|p| Some(std::fs::canonicalize(p.parent()?).ok()?.join(p.file_name()?)))
                    .and_then(|p| p.strip_prefix(&s.root).ok().map(|r| r.to_string_lossy().replace('\\', "/")))
                    .unwrap_or_else(|| f.path.clone());
                // A message that names its own file (`cannot read …`) names it as `path` does, so
                // that the same finding on both sides is the same, and a checkout's temporary
                // folder never shows.
                let message = if f.path != path { d.message.replace(f.path.as_str(), &path) } else { d.message.clone() };
                DiagnosticJson { path, severity: d.severity.as_str().into(), code: d.code.name().into(), message }
            })
            .collect()
    };
    let (ko, kn) = (key(old), key(new));
    let entries = EntriesJson { added, removed, changed };
    DiffJson {
        old: old_name,
        new: new_name,
        semver: semver::assess(ow, nw, &entries),
        saves_lose: semver::saves_lose(nw, &entries),
        entries,
        chances,
        arena,
        diagnostics: DiagnosticsJson { introduced: kn.difference(&ko).cloned().collect(), fixed: ko.difference(&kn).cloned().collect() },
    }
}

/// The exact chance of every (table, item) in both versions; the moves of at least `threshold`.
/// The old version's tables and items are named as the new version's `[renamed]` names them, so
/// that a renamed item whose chances stay is no move.
fn chance_moves(ow: &World, nw: &World, threshold: f64) -> Vec<ChanceMove> {
    let named = |id: &str| nw.db.resolved.canonical(id).to_string();
    let chances = |w: &World, name: &dyn Fn(&str) -> String| -> BTreeMap<String, BTreeMap<String, f64>> {
        w.loot.analyze_all(0.0).into_iter().filter_map(|(t, r)| Some((name(&t), r.ok()?.drops.iter().map(|d| (name(&d.id), d.p_any)).collect()))).collect()
    };
    let (a, b) = rayon::join(|| chances(ow, &named), || chances(nw, &|id| id.to_string()));
    let mut moves = Vec::new();
    for (table, old) in &a {
        let Some(new) = b.get(table) else { continue };
        let items: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for item in items {
            let (o, n) = (old.get(item).copied().unwrap_or(0.0), new.get(item).copied().unwrap_or(0.0));
            if (n - o).abs() >= threshold && n != o {
                moves.push(ChanceMove { table: table.clone(), item: item.clone(), old: o, new: n });
            }
        }
    }
    moves.sort_by(|x, y| (y.new - y.old).abs().total_cmp(&(x.new - x.old).abs()).then_with(|| (&x.table, &x.item).cmp(&(&y.table, &y.item))));
    moves
}

/// The creatures whose fights a change can move: those changed, or every creature when an item,
/// affix, status or character option changed (a kit, a trigger, a status a hit applies).
fn arena_moves(ow: &World, nw: &World, changed: &BTreeSet<(Registry, String)>, added: &[EntryJson], args: &Args) -> Vec<ArenaMove> {
    let broad = changed.iter().any(|(r, _)| matches!(r, Registry::Items | Registry::Affixes | Registry::Statuses | Registry::CharacterOptions))
        || added.iter().any(|e| e.registry != Registry::Creatures.key());
    let both: Vec<String> = ow.ids(Registry::Creatures).into_iter().filter(|c| nw.exists(Registry::Creatures, c)).collect();
    let creatures: Vec<String> = if broad { both } else { both.into_iter().filter(|c| changed.contains(&(Registry::Creatures, c.clone()))).collect() };
    if creatures.is_empty() {
        return Vec::new();
    }
    let (a, b) = rayon::join(
        || arena::matrix_of(ow, creatures.clone(), args.arena, args.seed, arena::DEFAULT_ROUNDS),
        || arena::matrix_of(nw, creatures.clone(), args.arena, args.seed, arena::DEFAULT_ROUNDS),
    );
    let interval = |wr: f64| {
        let (lo, hi) = wilson((wr * args.arena as f64).round() as u64, args.arena, Z_95);
        [lo, hi]
    };
    let mut moves = Vec::new();
    for (ci, c) in a.creatures.iter().enumerate() {
        for (oi, o) in a.options.iter().enumerate() {
            let Some(ni) = b.options.iter().position(|x| x == o) else { continue };
            let (old, new) = (a.cells[ci][oi].0, b.cells[ci][ni].0);
            let (oi_, ni_) = (interval(old), interval(new));
            if oi_[1] < ni_[0] || ni_[1] < oi_[0] {
                moves.push(ArenaMove { option: o.clone(), creature: c.clone(), old, new, old_interval: oi_, new_interval: ni_, runs: args.arena });
            }
        }
    }
    moves.sort_by(|x, y| (y.new - y.old).abs().total_cmp(&(x.new - x.old).abs()).then_with(|| (&x.creature, &x.option).cmp(&(&y.creature, &y.option))));
    moves
}

/// A move in percentage points, rounded as chances are ([`rustkeep_data::number`]).
fn signed_pp(d: f64) -> String {
    format!("{}{} pp", if d >= 0.0 { "+" } else { "−" }, fixed(d.abs() * 100.0, 2))
}

/// "3 entries changed (1 added, 1 removed, 1 changed) · 4 drop chances moved · …"
fn summary(r: &DiffJson) -> String {
    let e = &r.entries;
    let n = e.added.len() + e.removed.len() + e.changed.len();
    format!(
        "{n} {} ({} added, {} removed, {} changed) · {} drop {} moved · {} arena {} moved · diagnostics: {} introduced, {} fixed",
        if n == 1 { "entry" } else { "entries" },
        e.added.len(),
        e.removed.len(),
        e.changed.len(),
        r.chances.len(),
        if r.chances.len() == 1 { "chance" } else { "chances" },
        r.arena.len(),
        if r.arena.len() == 1 { "result" } else { "results" },
        r.diagnostics.introduced.len(),
        r.diagnostics.fixed.len()
    )
}

fn human(r: &DiffJson) -> String {
    let mut out = format!("{}\n{} → {}\n{}\n", semver::human(&r.semver), r.old, r.new, summary(r));
    let e = &r.entries;
    for x in &e.added {
        out.push_str(&format!("\n+ {} {}", x.registry, x.id));
    }
    for x in &e.removed {
        out.push_str(&format!("\n- {} {}", x.registry, x.id));
    }
    for x in &e.changed {
        out.push_str(&format!("\n~ {} {}", x.registry, x.id));
        for f in &x.fields {
            out.push_str(&format!("\n    {}: {} → {}", f.path, f.old.as_deref().unwrap_or("(absent)"), f.new.as_deref().unwrap_or("(absent)")));
        }
    }
    if !r.saves_lose.is_empty() {
        out.push_str("\n\nSaves of the old version lose (the new version neither loads nor renames them):");
        for x in &r.saves_lose {
            out.push_str(&format!("\n  {} {}", x.registry, x.id));
        }
    }
    if !r.chances.is_empty() {
        out.push_str("\n\nDrop chances (at least one per evaluation, luck 0):");
        for c in &r.chances {
            out.push_str(&format!("\n  {} from {}: {} → {} ({})", c.item, c.table, pct(c.old), pct(c.new), signed_pp(c.new - c.old)));
        }
    }
    if !r.arena.is_empty() {
        out.push_str("\n\nArena (win rate of the option, beyond the 95 % intervals):");
        for a in &r.arena {
            out.push_str(&format!("\n  {} against {}: {} → {} ({})", a.option, a.creature, pct(a.old), pct(a.new), signed_pp(a.new - a.old)));
        }
    }
    for (label, list) in [("introduced", &r.diagnostics.introduced), ("fixed", &r.diagnostics.fixed)] {
        if !list.is_empty() {
            out.push_str(&format!("\n\nDiagnostics {label}:"));
            for d in list {
                out.push_str(&format!("\n  {}: {} [{}] {}", d.path, d.severity, d.code, d.message));
            }
        }
    }
    out.push('\n');
    out
}

/// Text inside a markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn markdown(r: &DiffJson) -> String {
    let mut out = format!("{}### rustkeep diff: `{}` → `{}`\n\n**{}**\n", semver::markdown(&r.semver), cell(&r.old), cell(&r.new), summary(r));
    let details = |out: &mut String, title: String, head: &str, rows: Vec<String>| {
        if rows.is_empty() {
            return;
        }
        out.push_str(&format!("\n<details><summary>{title}</summary>\n\n{head}\n"));
        for row in rows {
            out.push_str(&row);
            out.push('\n');
        }
        out.push_str("\n</details>\n");
    };
    details(
        &mut out,
        format!("Drop chances ({}), the biggest moves first", r.chances.len()),
        "| item | table | before | after | change |\n|---|---|---:|---:|---:|",
        r.chances.iter().map(|c| format!("| `{}` | `{}` | {} | {} | {} |", c.item, c.table, pct(c.old), pct(c.new), signed_pp(c.new - c.old))).collect(),
    );
    details(
        &mut out,
        format!("Arena ({}), the biggest moves first", r.arena.len()),
        "| option | creature | before | after | change |\n|---|---|---:|---:|---:|",
        r.arena.iter().map(|a| format!("| `{}` | `{}` | {} | {} | {} |", a.option, a.creature, pct(a.old), pct(a.new), signed_pp(a.new - a.old))).collect(),
    );
    let e = &r.entries;
    let mut rows: Vec<String> = e.added.iter().map(|x| format!("| added | {} | `{}` | |", x.registry, x.id)).collect();
    rows.extend(e.removed.iter().map(|x| format!("| removed | {} | `{}` | |", x.registry, x.id)));
    for x in &e.changed {
        let fields: Vec<String> = x
            .fields
            .iter()
            .map(|f| format!("`{}`: `{}` → `{}`", cell(&f.path), cell(f.old.as_deref().unwrap_or("(absent)")), cell(f.new.as_deref().unwrap_or("(absent)"))))
            .collect();
        rows.push(format!("| changed | {} | `{}` | {} |", x.registry, x.id, fields.join("<br>")));
    }
    details(&mut out, format!("Entries ({})", rows.len()), "| | registry | ID | fields |\n|---|---|---|---|", rows);
    details(
        &mut out,
        format!("What saves of the old version lose ({})", r.saves_lose.len()),
        "| registry | ID |\n|---|---|",
        r.saves_lose.iter().map(|x| format!("| {} | `{}` |", x.registry, x.id)).collect(),
    );
    let mut rows: Vec<String> = r
        .diagnostics
        .introduced
        .iter()
        .map(|d| format!("| introduced | `{}` | {} | `{}` | {} |", cell(&d.path), d.severity, d.code, cell(&d.message)))
        .collect();
    rows.extend(r.diagnostics.fixed.iter().map(|d| format!("| fixed | `{}` | {} | `{}` | {} |", cell(&d.path), d.severity, d.code, cell(&d.message))));
    details(&mut out, format!("Diagnostics ({})", rows.len()), "| | file | severity | code | message |\n|---|---|---|---|---|", rows);
    out
}
