//! Finding mods (docs/data-language.md): the bundled core, `rustkeep.toml` workspaces, `mod.toml`
//! folders, and the data files of each mod, as a set of sources.
//!
//! Reading goes through [`Overlay`] so that the language server can substitute open buffers for
//! disk contents; the CLI passes an empty overlay. An open buffer that is not on disk yet (a new,
//! unsaved file) below a loaded mod folder is one of that mod's data files, in its path order.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::diag::{Code, Diagnostic, Loc};
use crate::manifest::{read_manifest, Manifest, WorkspaceConfig};
use crate::model::Sp;
use crate::source::{FileId, FileKind, SourceFile};

mod discover;

pub use discover::{boundary, discover, enclosing_mod, load, load_scenario, nearest_workspace, WhenNothing};

/// The base game's data files, compiled into the binary.
pub mod bundled {
    include!(concat!(env!("OUT_DIR"), "/core_files.rs"));
}

pub mod core_files;

/// Display prefix of the bundled core's files.
pub const CORE_PREFIX: &str = "<core>";

use crate::files::{skipped_folder, Walk, MAX_DEPTH};

#[derive(Clone, Debug)]
pub struct ModInfo {
    /// The namespace: the manifest's `id` (or the folder name when the manifest has none).
    pub id: String,
    pub manifest: Manifest,
    pub root: Option<PathBuf>,
    pub manifest_file: Option<FileId>,
    /// Data files in load order (byte-wise by path relative to the mod folder).
    pub data_files: Vec<FileId>,
    pub is_core: bool,
    /// Whether the core comes from the binary (its diagnostics are the toolkit's, not the user's).
    pub bundled: bool,
}

impl ModInfo {
    /// The mod's version: its manifest's `version`; the core's is the toolkit's own.
    pub fn version(&self) -> Option<&str> {
        match &self.manifest.version {
            Some(v) => Some(v),
            None if self.is_core => Some(env!("CARGO_PKG_VERSION")),
            None => None,
        }
    }
}

/// Open buffers that shadow files on disk (keyed by absolute path).
pub type Overlay = HashMap<PathBuf, Arc<str>>;

#[derive(Clone, Debug, Default)]
pub struct Project {
    pub files: Vec<SourceFile>,
    /// The core first, then the mods in discovery order (load order is computed later).
    pub mods: Vec<ModInfo>,
    pub config: WorkspaceConfig,
    /// Problems found while finding mods and reading manifests.
    pub diagnostics: Vec<Diagnostic>,
    /// The workspace root, if one was found.
    pub root: Option<PathBuf>,
    /// The scenario files found or given, with the mods each loads.
    pub scenarios: Vec<ScenarioInfo>,
}

/// A scenario file of the project (docs/engine.md, "Scenario files") and the mods it runs on.
#[derive(Clone, Debug)]
pub struct ScenarioInfo {
    pub file: FileId,
    /// The mods (indices into [`Project::mods`]) its `mods` (and a command's `--mods`) lead to;
    /// the core is always visible besides these.
    pub mods: Vec<usize>,
}

impl Project {
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn file_by_disk_path(&self, path: &Path) -> Option<FileId> {
        self.files.iter().find(|f| f.disk_path.as_deref() == Some(path)).map(|f| f.id)
    }

    fn add(&mut self, path: String, disk_path: Option<PathBuf>, bytes: &[u8], kind: FileKind, bundled: bool) -> FileId {
        let id = FileId(self.files.len() as u32);
        let (text, bad) = SourceFile::decode(bytes);
        let mut f = SourceFile::new(id, path, text, kind);
        f.disk_path = disk_path;
        f.bundled = bundled;
        f.invalid_utf8_at = bad;
        self.files.push(f);
        id
    }

    /// Adds an in-memory mod (tests, fuzzing): `files` are `(relative path, text)`; a `mod.toml`
    /// among them is its manifest, and a scenario file ([`crate::vocab::is_scenario_path`]) is a
    /// scenario that loads this mod and every mod added before it.
    pub fn add_memory_mod(&mut self, folder: &str, files: &[(&str, &str)]) {
        let mut sorted: Vec<&(&str, &str)> = files.iter().collect();
        sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut info = ModInfo {
            id: folder.to_string(),
            manifest: Manifest::default(),
            root: None,
            manifest_file: None,
            data_files: Vec::new(),
            is_core: false,
            bundled: false,
        };
        for (rel, text) in sorted {
            let path = format!("{folder}/{rel}");
            if *rel == "mod.toml" {
                let fid = self.add(path, None, text.as_bytes(), FileKind::Manifest, false);
                self.read_manifest_into(&mut info, fid);
            } else if crate::vocab::is_scenario_path(Path::new(rel)) {
                let file = self.add(path, None, text.as_bytes(), FileKind::Scenario, false);
                self.scenarios.push(ScenarioInfo { file, mods: (0..=self.mods.len()).collect() });
            } else {
                let fid = self.add(path, None, text.as_bytes(), FileKind::Data, false);
                info.data_files.push(fid);
            }
        }
        self.mods.push(info);
    }

    fn read_manifest_into(&mut self, info: &mut ModInfo, fid: FileId) {
        let f = &self.files[fid.0 as usize];
        let (m, diags) = read_manifest(fid, &f.text, f.invalid_utf8_at);
        self.diagnostics.extend(diags);
        if let Some(id) = &m.id {
            info.id = id.value.clone();
        }
        info.manifest = m;
        info.manifest_file = Some(fid);
    }

    /// A project holding only the bundled core.
    pub fn with_bundled_core() -> Project {
        let mut p = Project::default();
        p.add_bundled_core();
        p
    }

    fn add_bundled_core(&mut self) {
        let mut info = core_info(true);
        for (name, text) in bundled::CORE_FILES {
            let fid = self.add(format!("{CORE_PREFIX}/{name}"), None, text.as_bytes(), FileKind::Data, true);
            info.data_files.push(fid);
        }
        self.mods.push(info);
    }
}

fn core_info(bundled: bool) -> ModInfo {
    ModInfo {
        id: crate::vocab::CORE_NAMESPACE.into(),
        manifest: Manifest::default(),
        root: None,
        manifest_file: None,
        data_files: Vec::new(),
        is_core: true,
        bundled,
    }
}

/// Shows `path` relative to `cwd` where it lies below it, with `/` separators; a file up to three
/// folders above `cwd` (a sibling mod of the workspace member the command runs in) as
/// `../other/file.toml`; anything else as the absolute path.
pub fn display_path(path: &Path, cwd: &Path) -> String {
    let shown = path.strip_prefix(cwd).unwrap_or(path);
    let s = shown.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
    if path.is_absolute() && !path.starts_with(cwd) {
        for (up, base) in cwd.ancestors().enumerate().skip(1).take(3) {
            if base.parent().is_some() && path.starts_with(base) {
                let rest = path.strip_prefix(base).unwrap_or(path);
                let mut parts = vec![".."; up];
                let tail: Vec<String> = rest.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                parts.extend(tail.iter().map(String::as_str));
                return parts.join("/");
            }
        }
        let s = path.to_string_lossy().replace('\\', "/");
        return s;
    }
    if s.is_empty() {
        ".".into()
    } else {
        s
    }
}

/// Removes `.` and `..` without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A file read, decoded and indexed: (text, first invalid UTF-8 byte, line index).
type Prepared = (Arc<str>, Option<usize>, Arc<crate::text::LineIndex>);

struct Loader<'a> {
    project: Project,
    cwd: PathBuf,
    overlay: &'a Overlay,
    /// Files read ahead in parallel: decoded text and line index per path.
    prefetched: HashMap<PathBuf, std::io::Result<Prepared>>,
    /// The data and scenario files of each mod folder, listed ahead in parallel.
    listed: HashMap<PathBuf, (Vec<PathBuf>, Vec<PathBuf>)>,
    /// Scenario files found so far (absolute), in the order found.
    scenario_paths: Vec<PathBuf>,
    /// The folders this load may read: the paths given and the workspaces and mods they lead to.
    boundary: crate::files::Boundary,
}

/// A file's bytes: the open buffer's, else the disk's when the boundary admits the file.
fn read_with(overlay: &Overlay, boundary: &crate::files::Boundary, path: &Path) -> std::io::Result<Vec<u8>> {
    if let Some(text) = overlay.get(path) {
        return Ok(text.as_bytes().to_vec());
    }
    boundary.read(path)
}

impl Loader<'_> {
    /// Reads, decodes and indexes every file of the given mod folders on all cores.
    fn prefetch(&mut self, dirs: &[PathBuf]) {
        let lists: Vec<_> = dirs.par_iter().map(|d| mod_files(d)).collect();
        let mut paths: Vec<PathBuf> = Vec::new();
        for (d, list) in dirs.iter().zip(lists) {
            paths.push(d.join("mod.toml"));
            paths.extend(list.0.iter().map(|rel| d.join(rel)));
            self.listed.insert(d.clone(), list);
        }
        let (overlay, boundary) = (self.overlay, &self.boundary);
        let read: Vec<_> = paths
            .par_iter()
            .map(|p| {
                read_with(overlay, boundary, p).map(|bytes| {
                    let (text, bad) = SourceFile::decode(&bytes);
                    let index = Arc::new(crate::text::LineIndex::new(&text));
                    (text, bad, index)
                })
            })
            .collect();
        self.prefetched = paths.into_iter().zip(read).collect();
    }

    fn add_disk(&mut self, path: &Path, kind: FileKind) -> Option<FileId> {
        let read = match self.prefetched.remove(path) {
            Some(r) => r,
            None => read_with(self.overlay, &self.boundary, path).map(|bytes| {
                let (text, bad) = SourceFile::decode(&bytes);
                let index = Arc::new(crate::text::LineIndex::new(&text));
                (text, bad, index)
            }),
        };
        match read {
            Ok((text, bad, index)) => {
                let shown = display_path(path, &self.cwd);
                let id = FileId(self.project.files.len() as u32);
                let mut f = SourceFile { id, path: shown, disk_path: Some(path.to_path_buf()), text, index, kind, bundled: false, invalid_utf8_at: bad };
                f.kind = kind;
                self.project.files.push(f);
                Some(id)
            }
            Err(e) => {
                // Reported against no file: the CLI prints it as an I/O problem.
                let fid = self.project.add(display_path(path, &self.cwd), Some(path.to_path_buf()), b"", kind, false);
                self.project.diagnostics.push(Diagnostic::new(
                    Code::InvalidManifest,
                    Loc { file: fid, span: 0..0 },
                    format!("cannot read {}: {e}", display_path(path, &self.cwd)),
                ));
                None
            }
        }
    }

    /// Loads the mod in `dir` (which holds a `mod.toml`).
    fn load_mod(&mut self, dir: &Path) {
        if self.project.mods.iter().any(|m| m.root.as_deref() == Some(dir)) {
            return;
        }
        let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut info = ModInfo {
            id: folder,
            manifest: Manifest::default(),
            root: Some(dir.to_path_buf()),
            manifest_file: None,
            data_files: Vec::new(),
            is_core: false,
            bundled: false,
        };
        if let Some(fid) = self.add_disk(&dir.join("mod.toml"), FileKind::Manifest) {
            self.project.read_manifest_into(&mut info, fid);
        }
        let (mut rels, scenarios) = self.listed.remove(dir).unwrap_or_else(|| mod_files(dir));
        let (unsaved, unsaved_scenarios): (Vec<PathBuf>, Vec<PathBuf>) =
            unsaved_data_files(dir, self.overlay).into_iter().partition(|rel| !crate::vocab::is_scenario_path(rel));
        if !unsaved.is_empty() {
            rels.extend(unsaved);
            rels.sort_by_key(|p| rel_key(p));
        }
        for rel in rels {
            if let Some(fid) = self.add_disk(&dir.join(&rel), FileKind::Data) {
                info.data_files.push(fid);
            }
        }
        self.project.mods.push(info);
        self.scenario_paths.extend(scenarios.into_iter().chain(unsaved_scenarios).map(|rel| dir.join(rel)));
    }

    /// Loads a core folder given by `core = "path"`.
    fn load_core_dir(&mut self, dir: &Path) {
        let mut info = core_info(false);
        info.root = Some(dir.to_path_buf());
        for rel in data_files(dir) {
            if let Some(fid) = self.add_disk(&dir.join(&rel), FileKind::Data) {
                info.data_files.push(fid);
            }
        }
        self.project.mods.push(info);
    }
}

/// Every data file below `dir`: each `*.toml` except its `mod.toml` and its scenarios, skipping
/// folders that are mods of their own, hidden folders and build output. The walk is
/// [`crate::files::Walk`], with its rule for links: links to folders are not followed (no loops),
/// links to files are listed and read only when they lead inside the workspace
/// ([`crate::files::Boundary`]). Sorted byte-wise by relative path.
pub fn data_files(dir: &Path) -> Vec<PathBuf> {
    mod_files(dir).0
}

/// The data files and the scenario files of the mod in `dir` (see [`data_files`] and
/// [`crate::vocab::is_scenario_path`]), both sorted byte-wise by relative path.
pub fn mod_files(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut out = Vec::new();
    let mut scenarios = Vec::new();
    let mut walk = Walk::new(dir);
    while let Some(e) = walk.next() {
        let Ok(e) = e else { continue };
        if e.depth() == 0 {
            continue;
        }
        let ft = e.file_type();
        if ft.is_dir() {
            // A folder with a `mod.toml` is a mod of its own.
            if e.path().join("mod.toml").exists() {
                walk.skip_current_dir();
            }
            continue;
        }
        // A link to a file is listed and read when it leads inside the workspace (the boundary
        // of the load judges it); a link to a folder is never entered.
        let name = e.file_name().to_string_lossy();
        if !(ft.is_file() || ft.is_symlink()) || !name.ends_with(".toml") {
            continue;
        }
        let rel = e.path().strip_prefix(dir).unwrap_or(e.path()).to_path_buf();
        if rel == Path::new("mod.toml") || (e.depth() == 1 && name == "rustkeep.toml") {
            continue;
        }
        if crate::vocab::is_scenario_path(&rel) {
            scenarios.push(rel);
        } else {
            out.push(rel);
        }
    }
    out.sort_by_key(|p| rel_key(p));
    scenarios.sort_by_key(|p| rel_key(p));
    (out, scenarios)
}

/// Open buffers below the mod folder `dir` that are not on disk yet (a new, unsaved file in the
/// editor): relative paths of those that [`data_files`] would list once saved — `*.toml`, not the
/// manifest, not in a hidden folder, build output, or a nested mod. Not yet sorted.
fn unsaved_data_files(dir: &Path, overlay: &Overlay) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in overlay.keys() {
        let Ok(rel) = path.strip_prefix(dir) else { continue };
        if !path.to_string_lossy().ends_with(".toml") || rel == Path::new("mod.toml") || rel == Path::new("rustkeep.toml") {
            continue;
        }
        if path.exists() {
            continue;
        }
        let folders: Vec<&std::ffi::OsStr> = rel.parent().map(|p| p.iter().collect()).unwrap_or_default();
        if folders.len() > MAX_DEPTH {
            continue;
        }
        let skipped = folders.iter().any(|c| {
            let name = c.to_string_lossy();
            skipped_folder(&name) || name == ".."
        });
        if skipped {
            continue;
        }
        // A folder between `dir` and the file that holds a `mod.toml` makes it another mod's file.
        let mut sub = dir.to_path_buf();
        let nested = folders.iter().any(|c| {
            sub.push(c);
            sub.join("mod.toml").is_file()
        });
        if !nested {
            out.push(rel.to_path_buf());
        }
    }
    out
}

fn rel_key(p: &Path) -> Vec<u8> {
    p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/").into_bytes()
}

/// Folders below `dir` holding a `mod.toml` (not descending into a mod once found), and the
/// scenario files below `dir` outside those mods (a mod's own scenarios are found with its files).
fn find_mods_and_scenarios(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut out = Vec::new();
    let mut scenarios = Vec::new();
    let mut walk = Walk::new(dir);
    while let Some(e) = walk.next() {
        let Ok(e) = e else { continue };
        let ft = e.file_type();
        // The root is a folder even when it is a link to one (the path the user gave); a folder
        // below the deepest one entered is not looked into.
        if e.depth() == 0 || ft.is_dir() {
            if e.depth() <= MAX_DEPTH && e.path().join("mod.toml").is_file() {
                out.push(e.into_path());
                walk.skip_current_dir();
            }
            continue;
        }
        if (ft.is_file() || ft.is_symlink()) && crate::vocab::is_scenario_path(e.path()) {
            scenarios.push(e.into_path());
        }
    }
    out.sort();
    scenarios.sort();
    (out, scenarios)
}

fn core_dir_is(p: &Project, dir: &Path) -> bool {
    p.mods.first().and_then(|m| m.root.as_deref()) == Some(dir)
}

/// `rel` joined to `root`, refused when it leaves the root.
fn resolve_inside(root: &Path, rel: &str) -> Option<PathBuf> {
    let p = normalize(&root.join(rel));
    let real_root = root.canonicalize().ok()?;
    let real = p.canonicalize().ok()?;
    real.starts_with(&real_root).then_some(p)
}

fn expand_glob(root: &Path, g: &Sp<String>, fid: FileId, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let loc = Loc { file: fid, span: g.span.clone() };
    let pattern = g.value.as_str();
    if Path::new(pattern).is_absolute() || Path::new(pattern).components().any(|c| c == Component::ParentDir) {
        diags.push(Diagnostic::new(
            Code::InvalidManifest,
            loc,
            format!("the glob `{pattern}` reaches outside the workspace root: globs are relative to the folder of `rustkeep.toml`"),
        ));
        return Vec::new();
    }
    let Ok(pat) = glob::Pattern::new(pattern) else {
        diags.push(Diagnostic::new(Code::InvalidManifest, loc, format!("`{pattern}` is not a valid glob")));
        return Vec::new();
    };
    let real_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut out = Vec::new();
    for p in glob_dirs(root, pattern, &pat) {
        let inside = p.canonicalize().map(|r| r.starts_with(&real_root)).unwrap_or(false);
        if !inside {
            diags.push(Diagnostic::new(
                Code::InvalidManifest,
                loc.clone(),
                format!("`{}` (matched by `{pattern}`) lies outside the workspace root and is not read", p.display()),
            ));
            continue;
        }
        if p.join("mod.toml").is_file() {
            out.push(normalize(&p));
        } else {
            diags.push(Diagnostic::new(
                Code::InvalidManifest,
                loc.clone(),
                format!("`{}` (matched by `{pattern}`) has no `mod.toml`", p.strip_prefix(root).unwrap_or(&p).display()),
            ));
        }
    }
    out
}

/// The folders below `root` whose relative path matches `pat`, sorted. The walk
/// ([`crate::files::Walk`], every folder, hidden ones too, as a glob may name them) never follows
/// a symbolic link (a matching link is returned for the caller to judge, but not entered), stops
/// at [`MAX_DEPTH`] — or at the pattern's own depth when it has no `**` — and starts below the
/// pattern's literal prefix. (The `glob` crate follows links while expanding `**`, so a link loop
/// made `mods/**/x` run for hours; found by the hostile-input tests.)
fn glob_dirs(root: &Path, pattern: &str, pat: &glob::Pattern) -> Vec<PathBuf> {
    const MAX_VISITED: usize = 100_000;
    const MAX_MATCHES: usize = 10_000;
    let opts = glob::MatchOptions { case_sensitive: true, require_literal_separator: true, require_literal_leading_dot: false };
    let parts: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
    let literal = parts.iter().take_while(|c| !c.contains(['*', '?', '['])).count();
    let max_depth = if parts.contains(&"**") { MAX_DEPTH } else { parts.len().min(MAX_DEPTH) };
    let start: PathBuf = parts[..literal].iter().collect();
    let base = root.join(&start);
    let start_depth = start.components().count();
    let mut out = Vec::new();
    // The literal prefix is walked only when it is a real folder (a link there is matched, not
    // entered) and lies above the deepest level the pattern reaches.
    let enter = start_depth < max_depth && std::fs::symlink_metadata(&base).is_ok_and(|m| m.is_dir());
    if !enter {
        // The root itself is never a match (`*` would match its empty relative path).
        if !start.as_os_str().is_empty() && pat.matches_path_with(&start, opts) && base.is_dir() {
            out.push(base);
        }
        return out;
    }
    for (visited, e) in Walk::every_folder(&base, max_depth - start_depth).enumerate() {
        if visited > MAX_VISITED {
            break;
        }
        let Ok(e) = e else { continue };
        let below = e.path().strip_prefix(&base).unwrap_or(e.path());
        let rel = if below.as_os_str().is_empty() { start.clone() } else { start.join(below) };
        if rel.as_os_str().is_empty() || !pat.matches_path_with(&rel, opts) {
            continue;
        }
        // A folder (the prefix, even as a link) or a link to one.
        let ft = e.file_type();
        if (e.depth() == 0 || ft.is_dir() || ft.is_symlink()) && e.path().is_dir() {
            out.push(e.into_path());
            if out.len() >= MAX_MATCHES {
                break;
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
