//! The one rule every command and the language server use to find what to load
//! (docs/data-language.md, "Which mods a path loads"), and the scenario files that come with it
//! (docs/engine.md, "Scenario files").

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::{core_dir_is, display_path, expand_glob, find_mods_and_scenarios, normalize, read_with, resolve_inside, Loader, Overlay, Project, ScenarioInfo};
use crate::diag::{Code, Diagnostic, Loc};
use crate::files::Boundary;
use crate::manifest::read_workspace;
use crate::model::Sp;
use crate::source::{FileKind, SourceFile};
use crate::vocab::is_scenario_path;

/// What a command does when no path was given and the current folder leads to no mod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenNothing {
    /// Load the bundled core alone (`loot`, `graph`, `play`: asking about the core needs no mod).
    CoreAlone,
    /// Report `invalid-manifest` ("no `mod.toml` in … or below it"), as for a path given (`check`).
    Report,
}

/// The one rule every command and the language server use to find what to load, from the given
/// paths or, without any, from the current folder. A path that does not exist is an error (the
/// commands exit with 2).
pub fn discover(paths: &[PathBuf], cwd: &Path, when_nothing: WhenNothing) -> Result<Project, String> {
    if let Some(missing) = paths.iter().find(|p| !cwd.join(p).exists()) {
        return Err(format!("{}: no such file or folder", missing.display()));
    }
    let overlay = Overlay::new();
    if !paths.is_empty() {
        return Ok(load(paths, cwd, &overlay));
    }
    Ok(load_from(&[cwd.to_path_buf()], cwd, &overlay, None, when_nothing == WhenNothing::Report))
}

/// Loads the core and every mod reachable from `paths` by the one rule
/// (docs/data-language.md, "Which mods a path loads"). A path is read from its folder (a file
/// stands for the folder it lies in):
///
/// 1. the nearest `rustkeep.toml` at or above it names the workspace that is loaded (its `mods`
///    globs, else every mod below it; its `core`, `[lints]` and `[format]`), together with the mod
///    the path is in when the workspace does not list it;
/// 2. else the mod the path is in (a `mod.toml` at or above it);
/// 3. else the mods found below it, skipping hidden folders, `target/` and `node_modules/`.
///
/// Scenario files come along: those of the loaded mods, those found where mods are searched, and
/// a file given that is one (by its name, or because it lies in no mod); the mods a scenario names
/// are loaded too. A path that does not exist, or leads to nothing at all, is `invalid-manifest`
/// here; the commands refuse a missing path before they get this far (see [`discover`]).
pub fn load(paths: &[PathBuf], cwd: &Path, overlay: &Overlay) -> Project {
    load_from(paths, cwd, overlay, None, true)
}

/// The project of one scenario run (`rustkeep simulate`, `rustkeep arena`): the scenario file,
/// the mods its `mods` lead to, and the mods `extra` leads to (`--mods`), all visible to it.
pub fn load_scenario(scenario: &Path, extra: &[PathBuf], cwd: &Path, overlay: &Overlay) -> Project {
    load_from(extra, cwd, overlay, Some(scenario), true)
}

/// The folders a command given `paths` may read (docs/reliability.md, "Files and folders"):
/// for a command that reads the files it is given rather than loading mods (`rustkeep fmt FILE`).
pub fn boundary(paths: &[PathBuf], cwd: &Path) -> Boundary {
    let overlay = Overlay::new();
    let mut l = Loader {
        project: Project::default(),
        cwd: cwd.to_path_buf(),
        overlay: &overlay,
        prefetched: HashMap::new(),
        listed: HashMap::new(),
        scenario_paths: Vec::new(),
        boundary: Boundary::default(),
    };
    for p in paths {
        l.admit_given(&absolute(p, cwd));
    }
    l.boundary
}

/// The folder of the nearest `rustkeep.toml` at or above `dir`.
pub fn nearest_workspace(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.join("rustkeep.toml").is_file()).map(Path::to_path_buf)
}

/// The folder of the nearest `mod.toml` at or above `dir`: the mod `dir` is in.
pub fn enclosing_mod(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.join("mod.toml").is_file()).map(Path::to_path_buf)
}

fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    normalize(&if p.is_absolute() { p.to_path_buf() } else { cwd.join(p) })
}

/// A scenario's `mods` path that leads nowhere, and why.
type PathProblem = (Sp<String>, String);

/// What the discovery of one load keeps track of.
#[derive(Default)]
struct Found {
    core_dir: Option<PathBuf>,
    /// Workspaces already read (several paths may lead to one).
    workspaces: Vec<PathBuf>,
}

fn load_from(paths: &[PathBuf], cwd: &Path, overlay: &Overlay, scenario: Option<&Path>, report_nothing: bool) -> Project {
    let mut l = Loader {
        project: Project::default(),
        cwd: cwd.to_path_buf(),
        overlay,
        prefetched: HashMap::new(),
        listed: HashMap::new(),
        scenario_paths: Vec::new(),
        boundary: Boundary::default(),
    };
    let mut found = Found::default();
    let mut mod_dirs: Vec<PathBuf> = Vec::new();
    let forced = scenario.map(|s| absolute(s, cwd));
    if let Some(s) = &forced {
        l.scenario_paths.push(s.clone());
        l.admit_given(s);
    }
    for root in paths.iter().map(|p| absolute(p, cwd)) {
        l.admit_given(&root);
        if !root.exists() {
            let fid = l.project.add(display_path(&root, cwd), Some(root.clone()), b"", FileKind::Manifest, false);
            l.project.diagnostics.push(Diagnostic::new(
                Code::InvalidManifest,
                Loc { file: fid, span: 0..0 },
                format!("{} does not exist", display_path(&root, cwd)),
            ));
            continue;
        }
        if root.is_file() && (is_scenario_path(&root) || root.parent().and_then(enclosing_mod).is_none()) {
            // A scenario given by path: it and the mods it names, not the folder around it.
            l.scenario_paths.push(root);
            continue;
        }
        let dir = if root.is_dir() { root.clone() } else { root.parent().map(Path::to_path_buf).unwrap_or_else(|| root.clone()) };
        mod_dirs.extend(l.resolve_dir(&dir, &mut found, report_nothing));
    }
    // The mods `--mods` adds for a scenario run are visible to it.
    let extra_dirs: Vec<PathBuf> = if forced.is_some() { mod_dirs.clone() } else { Vec::new() };

    let mut all_dirs = mod_dirs.clone();
    all_dirs.extend(found.core_dir.iter().cloned());
    l.prefetch(&all_dirs);
    match found.core_dir.clone() {
        Some(dir) => l.load_core_dir(&dir),
        None => l.project.add_bundled_core(),
    }
    // Mods, then the mods their scenarios name (which may bring scenarios of their own), until
    // nothing new comes up.
    let mut scenario_mods: Vec<(PathBuf, Vec<PathBuf>, Vec<PathProblem>)> = Vec::new();
    let mut loaded: HashSet<PathBuf> = HashSet::new();
    loop {
        for dir in std::mem::take(&mut mod_dirs) {
            if loaded.insert(dir.clone()) && !core_dir_is(&l.project, &dir) {
                l.load_mod(&dir);
            }
        }
        while scenario_mods.len() < l.scenario_paths.len() {
            let path = l.scenario_paths[scenario_mods.len()].clone();
            let (dirs, problems) = l.scenario_mod_dirs(&path, &mut found);
            mod_dirs.extend(dirs.iter().filter(|d| !loaded.contains(*d)).cloned());
            scenario_mods.push((path, dirs, problems));
        }
        if mod_dirs.is_empty() {
            break;
        }
    }
    let mut seen = HashSet::new();
    for (path, mut dirs, problems) in scenario_mods {
        if !seen.insert(path.clone()) {
            continue;
        }
        let Some(fid) = l.add_disk(&path, FileKind::Scenario) else { continue };
        if forced.as_ref() == Some(&path) {
            dirs.extend(extra_dirs.iter().cloned());
        }
        let mods = l.project.mods.iter().enumerate().filter(|(_, m)| m.root.as_ref().is_some_and(|r| dirs.contains(r))).map(|(i, _)| i).collect();
        for (at, msg) in problems {
            l.project.diagnostics.push(Diagnostic::new(Code::InvalidManifest, Loc { file: fid, span: at.span }, msg));
        }
        l.project.scenarios.push(ScenarioInfo { file: fid, mods });
    }
    l.project
}

impl Loader<'_> {
    /// Adds what a path given to the command lets it read (docs/reliability.md, "Files and
    /// folders"): the folder (a file stands for its folder), the workspace and the mod it lies
    /// in; for a scenario file in neither, the folder above its own, where the mods it is written
    /// beside lie (`examples/scenarios/x.toml` next to `examples/rat_catcher`).
    fn admit_given(&mut self, given: &Path) {
        let dir = if given.is_dir() { given.to_path_buf() } else { given.parent().map(Path::to_path_buf).unwrap_or_else(|| given.to_path_buf()) };
        let (ws, in_mod) = (nearest_workspace(&dir), enclosing_mod(&dir));
        if given.is_file() && is_scenario_path(given) && ws.is_none() && in_mod.is_none() {
            if let Some(up) = dir.parent() {
                self.boundary.add(up);
            }
        }
        self.boundary.add(&dir);
        for d in ws.iter().chain(in_mod.iter()) {
            self.boundary.add(d);
        }
    }

    /// The mods one folder leads to by the rule (see [`load`]); scenario files found on the way
    /// are noted.
    fn resolve_dir(&mut self, dir: &Path, found: &mut Found, report_nothing: bool) -> Vec<PathBuf> {
        let in_mod = enclosing_mod(dir);
        if let Some(ws) = nearest_workspace(dir) {
            let mut out = Vec::new();
            if !found.workspaces.contains(&ws) {
                found.workspaces.push(ws.clone());
                out.extend(self.read_workspace(&ws, &mut found.core_dir));
            }
            // The mod the path is in belongs to the load even when the workspace's globs leave
            // it out: it is what the user pointed at.
            out.extend(in_mod.filter(|m| m.starts_with(&ws)));
            return out;
        }
        if let Some(m) = in_mod {
            if self.project.root.is_none() {
                self.project.root = Some(m.clone());
            }
            return vec![m];
        }
        let (mods, scenarios) = find_mods_and_scenarios(dir);
        if mods.is_empty() && scenarios.is_empty() && report_nothing {
            let fid = self.project.add(display_path(&dir.join("mod.toml"), &self.cwd), Some(dir.join("mod.toml")), b"", FileKind::Manifest, false);
            self.project.diagnostics.push(Diagnostic::new(
                Code::InvalidManifest,
                Loc { file: fid, span: 0..0 },
                format!("no `mod.toml` in {} or below it: a mod is a folder with a `mod.toml`", display_path(dir, &self.cwd)),
            ));
        }
        if self.project.root.is_none() {
            self.project.root = Some(dir.to_path_buf());
        }
        self.scenario_paths.extend(scenarios);
        mods
    }

    /// Reads the workspace file of `root`: its configuration (the first workspace's wins), its
    /// `core`, its mods (the `mods` globs, else every mod below it) and the scenarios outside them.
    fn read_workspace(&mut self, root: &Path, core_dir: &mut Option<PathBuf>) -> Vec<PathBuf> {
        let (below, scenarios) = find_mods_and_scenarios(root);
        self.scenario_paths.extend(scenarios);
        let Some(fid) = self.add_disk(&root.join("rustkeep.toml"), FileKind::Workspace) else { return below };
        let (cfg, diags) = read_workspace(fid, &self.project.files[fid.0 as usize].text);
        self.project.diagnostics.extend(diags);
        if self.project.root.is_none() {
            self.project.root = Some(root.to_path_buf());
        }
        if let Some(core) = &cfg.core {
            match resolve_inside(root, &core.value) {
                Some(p) if p.is_dir() => *core_dir = Some(p),
                _ => self.project.diagnostics.push(Diagnostic::new(
                    Code::InvalidManifest,
                    Loc { file: fid, span: core.span.clone() },
                    format!("`core = \"{}\"` is not a folder inside the workspace", core.value),
                )),
            }
        }
        let mut mods = Vec::new();
        match &cfg.mods {
            Some(globs) => {
                for g in globs {
                    mods.extend(expand_glob(root, g, fid, &mut self.project.diagnostics));
                }
            }
            None => mods = below,
        }
        if self.project.config.file.is_none() {
            self.project.config = cfg;
        }
        mods
    }

    /// The mod folders a scenario's `mods` lead to (each path relative to the scenario, read by
    /// the rule), and the paths that lead nowhere.
    fn scenario_mod_dirs(&mut self, path: &Path, found: &mut Found) -> (Vec<PathBuf>, Vec<PathProblem>) {
        let Ok(bytes) = read_with(self.overlay, &self.boundary, path) else { return (Vec::new(), Vec::new()) };
        let (text, bad) = SourceFile::decode(&bytes);
        let facts = crate::lower::lower_scenario(crate::source::FileId(0), &text, bad);
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut dirs = Vec::new();
        let mut problems = Vec::new();
        // A scenario's workspace never replaces the core the command loads.
        let mut scratch = Found { core_dir: None, workspaces: found.workspaces.clone() };
        for m in facts.scenario.map(|s| s.mods).unwrap_or_default() {
            let p = normalize(&base.join(&m.value));
            if !p.exists() {
                let msg = format!("`{}` does not exist (a scenario's `mods` are relative to the scenario file: {})", m.value, display_path(&p, &self.cwd));
                problems.push((m, msg));
                continue;
            }
            if !self.boundary.contains(&p) {
                let msg = format!(
                    "`{}` leads outside the folders this command reads ({}): a scenario's `mods` stay inside its workspace, or the folder the command was given",
                    m.value,
                    display_path(&p, &self.cwd)
                );
                problems.push((m, msg));
                continue;
            }
            let dir = if p.is_dir() { p } else { p.parent().map(Path::to_path_buf).unwrap_or(p) };
            let before = scratch.workspaces.len();
            let mut got = self.resolve_dir(&dir, &mut scratch, false);
            if got.is_empty() && scratch.workspaces.len() == before && nearest_workspace(&dir).is_some() {
                // The workspace was read already: its mods are the ones loaded from it.
                got.extend(self.project.mods.iter().filter_map(|x| x.root.clone()).filter(|r| nearest_workspace(r) == nearest_workspace(&dir)));
            }
            if got.is_empty() {
                problems.push((m.clone(), format!("`{}` holds no mod (no `mod.toml` at, above or below it)", m.value)));
            }
            dirs.extend(got);
        }
        found.workspaces = scratch.workspaces;
        (dirs, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_mods_skips_hidden_and_build_folders() {
        let dir = rustkeep_testutil::TempDir::new("discover-unit");
        for m in ["a", ".hidden/b", "target/c", "node_modules/d", "deep/e"] {
            std::fs::create_dir_all(dir.join(m)).unwrap();
            std::fs::write(dir.join(m).join("mod.toml"), "").unwrap();
        }
        let found: Vec<String> = find_mods_and_scenarios(&dir).0.iter().map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/")).collect();
        assert_eq!(found, ["a", "deep/e"]);
    }
}
