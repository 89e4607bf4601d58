//! `rustkeep check`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use rustkeep_check::{analyze, baseline, fix, Analysis};
use rustkeep_data::diag::Severity;
use rustkeep_data::project::{discover, load, Overlay, Project, WhenNothing};

use crate::{render, Common, Format};

#[derive(clap::Args)]
pub struct Args {
    /// Mod folders or workspaces (default: the current folder).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub common: Common,
    /// Output format, optionally with a file to write it to: `--format sarif:rustkeep.sarif`.
    /// Repeatable, to print one format and write others in the same run. Formats: human, json,
    /// json-lines, sarif, github, gitlab, junit, rdjson.
    #[arg(long = "format", value_name = "FORMAT[:PATH]", default_value = "human", value_parser = parse_output)]
    pub format: Vec<Output>,
    /// Write the output of every `--format` that names no file of its own to this file instead of
    /// standard output.
    #[arg(long, value_name = "PATH")]
    pub output_file: Option<PathBuf>,
    /// Exit with 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Apply every safe suggested fix (docs/checking.md, "Safe and unsafe fixes"), keeping layout and
    /// comments, pass after pass until nothing is left to fix; lists every change.
    #[arg(long)]
    pub fix: bool,
    /// With `--fix` or `--diff`: also apply the unsafe fixes (another ID, a guess among several
    /// close names, a change of behaviour).
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Change nothing: print the unified diff of what `--fix` would change, and exit with 1 if it
    /// would change anything.
    #[arg(long)]
    pub diff: bool,
    /// Report only diagnostics not recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record the current diagnostics as the baseline.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Check again on every saved change of a `.toml` file the check reads, clearing the screen
    /// between runs, until Ctrl-C (docs/testing.md, "Watching").
    #[arg(long, conflicts_with_all = ["fix", "diff", "write_baseline"])]
    pub watch: bool,
}

/// One requested output: a format and the file it goes to (`None`: standard output or
/// `--output-file`).
#[derive(Clone, Debug)]
pub struct Output {
    pub format: Format,
    pub path: Option<PathBuf>,
}

fn parse_output(s: &str) -> Result<Output, String> {
    use clap::ValueEnum;
    let (name, path) = match s.split_once(':') {
        Some((n, p)) if Format::from_str(n, true).is_ok() => (n, Some(p)),
        _ => (s, None),
    };
    let format = Format::from_str(name, true).map_err(|_| {
        let names: Vec<String> = Format::value_variants().iter().filter_map(|v| v.to_possible_value()).map(|v| v.get_name().to_string()).collect();
        format!("unknown format `{name}`; the formats are {}", names.join(", "))
    })?;
    if path.is_some_and(str::is_empty) {
        return Err(format!("`{s}`: the file after `:` is missing"));
    }
    Ok(Output { format, path: path.map(PathBuf::from) })
}

/// Where each output goes, checked before anything is done: at most one output on standard output.
fn destinations(args: &Args) -> Result<Vec<(Format, Option<PathBuf>)>, String> {
    let out: Vec<(Format, Option<PathBuf>)> = args.format.iter().map(|o| (o.format, o.path.clone().or_else(|| args.output_file.clone()))).collect();
    if out.iter().filter(|(_, p)| p.is_none()).count() > 1 {
        return Err("several formats would print to standard output; give all but one a file (`--format sarif:report.sarif`)".into());
    }
    Ok(out)
}

pub fn run(args: Args) -> Result<u8, String> {
    let outputs = destinations(&args)?;
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let mut paths = args.paths.clone();
    paths.extend(args.common.mods.iter().cloned());
    if paths.is_empty() {
        paths.push(PathBuf::from("."));
    }
    if args.unsafe_fixes && !args.fix && !args.diff {
        return Err("`--unsafe-fixes` goes with `--fix` or `--diff`".into());
    }
    // A path that does not exist is an I/O failure (exit 2, docs/cli.md), not a finding in a mod.
    let mut project = discover(&paths, &cwd, WhenNothing::Report)?;
    let mut analysis = analyze(&project);

    if args.fix || args.diff {
        let which = if args.unsafe_fixes { fix::Which::All } else { fix::Which::Safe };
        let run = fix_to_fixed_point(&paths, &cwd, which, &mut project, &mut analysis);
        if args.diff {
            return show_diff(&run);
        }
        run.write()?;
        run.report(&analysis.diagnostics, which);
    }
    let recorded = analysis.diagnostics.len();
    if let Some(path) = &args.write_baseline {
        write_report(path, &baseline::write(&project, &analysis.diagnostics), true).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut diags = std::mem::take(&mut analysis.diagnostics);
    let mut hidden = None;
    if let Some(path) = &args.baseline {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the baseline {}: {e}", path.display()))?;
        let before = diags.len();
        diags = baseline::filter(&project, diags, baseline::read(&text)?);
        hidden = Some(before - diags.len());
    }

    for (format, path) in &outputs {
        emit(*format, path.as_deref(), &project, &diags, hidden, &cwd, args.common.no_color)?;
    }
    if let Some(path) = &args.write_baseline {
        // Recording is the point of this run: it succeeded, whatever it recorded.
        let n = recorded;
        say!("rustkeep: recorded {n} {} in the baseline {}", plural(n, "finding", "findings"), path.display());
        std::mem::forget(diags);
        std::mem::forget(analysis);
        std::mem::forget(project);
        return Ok(0);
    }
    if let Some(n) = hidden.filter(|n| *n > 0) {
        say!("rustkeep: the baseline hid {n} known {}", plural(n, "finding", "findings"));
    }
    let errors = diags.iter().any(|d| d.severity == Severity::Error);
    let warnings = diags.iter().any(|d| d.severity == Severity::Warning);
    // The process ends right after this: freeing a large pack's data structure by structure
    // would only cost time (about 4 % of a check), so it is left to the operating system.
    std::mem::forget(diags);
    std::mem::forget(analysis);
    std::mem::forget(project);
    Ok(if errors || (args.deny_warnings && warnings) { 1 } else { 0 })
}

/// Renders one format and prints it or writes it to its file.
fn emit(
    format: Format,
    path: Option<&Path>,
    project: &rustkeep_data::project::Project,
    diags: &[rustkeep_data::diag::Diagnostic],
    hidden: Option<usize>,
    cwd: &Path,
    no_color: bool,
) -> Result<(), String> {
    let text = match format {
        Format::Json => render::json::render(project, diags, hidden),
        Format::JsonLines => render::json_lines::render(project, diags),
        Format::Sarif => render::sarif::render(project, diags, cwd),
        Format::Github => render::github::render(project, diags),
        Format::Gitlab => render::gitlab::render(project, diags, cwd),
        Format::Junit => render::junit::render(project, diags),
        Format::Rdjson => render::rdjson::render(project, diags),
        Format::Human => {
            if let Some(path) = path {
                let mut buf = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
                render::human::render(project, diags, hidden, &mut buf).map_err(|e| e.to_string())?;
                let text = String::from_utf8_lossy(&buf.into_inner()).into_owned();
                return write_report(path, &text, false).map_err(|e| format!("cannot write {}: {e}", path.display()));
            }
            let color = if no_color || std::env::var_os("NO_COLOR").is_some() || !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                ColorChoice::Never
            } else {
                ColorChoice::Auto
            };
            let mut out = crate::out::Out::new(StandardStream::stdout(color));
            return render::human::render(project, diags, hidden, &mut out).map_err(|e| e.to_string());
        }
    };
    // The JSON formats escape control characters as JSON does; JUnit and GitHub's lines as text.
    let json = !matches!(format, Format::Github | Format::Junit);
    match path {
        Some(p) => write_report(p, &text, json).map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => crate::out::print(&text, json),
    }
}

/// Writes a report or a baseline to the file `path` (`crate::out::report_file`: replaced whole,
/// never through a link, control characters escaped).
pub fn write_report(path: &std::path::Path, text: &str, json: bool) -> std::io::Result<()> {
    // A report may go into a folder that does not exist yet (`--format sarif:reports/x.sarif`).
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::out::report_file(path, text, json)
}

/// What the passes of `--fix` did: the files changed (original and fixed text) and every change
/// in the order applied.
struct FixRun {
    /// By path on disk: (the path shown, the text before any fix, the text after the last pass).
    files: BTreeMap<PathBuf, (String, Arc<str>, String)>,
    /// (the path shown, the change).
    changes: Vec<(String, fix::Change)>,
    /// Whether the last pass found nothing more to fix (false: stopped after `MAX_PASSES`).
    settled: bool,
}

/// Runs fix passes until one changes nothing: each pass applies the fixes of the current
/// analysis to the texts in memory, then loads and analyses again. `project` and `analysis` end
/// as the fixed texts' (nothing is written here).
fn fix_to_fixed_point(paths: &[PathBuf], cwd: &Path, which: fix::Which, project: &mut Project, analysis: &mut Analysis) -> FixRun {
    let mut overlay = Overlay::new();
    let mut run = FixRun { files: BTreeMap::new(), changes: Vec::new(), settled: false };
    // Whether each file was formatted before the first fix: `--fix` never leaves a formatted file
    // unformatted.
    let mut formatted: BTreeMap<PathBuf, bool> = BTreeMap::new();
    for _ in 0..fix::MAX_PASSES {
        let fixes = fix::apply(project, &analysis.diagnostics, which);
        if fixes.is_empty() {
            run.settled = true;
            return run;
        }
        for ff in fixes {
            let f = project.file(ff.file);
            let Some(path) = f.disk_path.clone() else { continue };
            let options = rustkeep_fmt::FormatOptions::from_config(&project.config.format, f.kind.into());
            let was_formatted =
                *formatted.entry(path.clone()).or_insert_with(|| rustkeep_fmt::format_for_comparison(&f.text, &options).is_ok_and(|t| t == *f.text));
            let text = match rustkeep_fmt::format_document(&ff.text, &options) {
                Ok(t) if was_formatted => t,
                _ => ff.text,
            };
            run.files.entry(path.clone()).or_insert_with(|| (f.path.clone(), f.text.clone(), String::new())).2 = text.clone();
            run.changes.extend(ff.changes.into_iter().map(|c| (f.path.clone(), c)));
            overlay.insert(path, Arc::from(text));
        }
        *project = load(paths, cwd, &overlay);
        *analysis = analyze(project);
    }
    run
}

impl FixRun {
    fn changed(&self) -> impl Iterator<Item = (&PathBuf, &(String, Arc<str>, String))> {
        self.files.iter().filter(|(_, (_, old, new))| **old != **new)
    }

    fn write(&self) -> Result<(), String> {
        for (path, (_, _, text)) in self.changed() {
            rustkeep_data::files::write_file(path, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }

    /// Lists every change on standard error (standard output holds the report, which may be
    /// JSON), then the count, and what is left for `--unsafe-fixes`.
    fn report(&self, remaining: &[rustkeep_data::diag::Diagnostic], which: fix::Which) {
        let mut err = std::io::stderr().lock();
        for (shown, c) in &self.changes {
            let _ = writeln!(err, "{}", change_line(shown, c));
        }
        let n = self.changes.len();
        let files = self.changed().count();
        if n > 0 {
            let _ = writeln!(err, "rustkeep: applied {n} {} in {files} {}", plural(n, "fix", "fixes"), plural(files, "file", "files"));
        }
        if !self.settled {
            let _ = writeln!(err, "rustkeep: stopped after {} passes of fixes; run `rustkeep check --fix` again", fix::MAX_PASSES);
        }
        let left = fix::unsafe_available(remaining);
        if which == fix::Which::Safe && left > 0 {
            let _ = writeln!(
                err,
                "rustkeep: {left} more {} {} available with `--fix --unsafe-fixes` (they change an ID or guess among names; review them first)",
                plural(left, "fix", "fixes"),
                if left == 1 { "is" } else { "are" }
            );
        }
    }
}

/// `path:line: before → after (message)`, one line, the texts quoted.
fn change_line(shown: &str, c: &fix::Change) -> String {
    let quote = |t: &str| {
        let t = t.trim_end_matches('\n');
        if t.is_empty() {
            "nothing".to_string()
        } else {
            format!("`{}`", t.replace('\n', "\\n"))
        }
    };
    let unsafe_note = if c.applicability == rustkeep_data::diag::Applicability::Unsafe { ", unsafe" } else { "" };
    format!("{shown}:{}: {} → {} ({}{unsafe_note})", c.line + 1, quote(&c.before), quote(&c.after), c.message)
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `--diff`: the unified diff of every file the fixes would change, the changes listed on
/// standard error; exit 1 when anything would change.
fn show_diff(run: &FixRun) -> Result<u8, String> {
    let mut text = String::new();
    for (_, (shown, old, new)) in run.changed() {
        text.push_str(&rustkeep_fmt::diff::unified(shown, old, new));
    }
    crate::out::print(&text, false)?;
    let mut err = std::io::stderr().lock();
    for (shown, c) in &run.changes {
        let _ = writeln!(err, "{}", change_line(shown, c));
    }
    let n = run.changes.len();
    let files = run.changed().count();
    let _ = writeln!(err, "rustkeep: {n} {} would change {files} {}", plural(n, "fix", "fixes"), plural(files, "file", "files"));
    Ok(u8::from(files > 0))
}
