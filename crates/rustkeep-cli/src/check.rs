//! `rustkeep check`.

use std::io::Write;
use std::path::{Path, PathBuf};

use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use rustkeep_check::{analyze, baseline, fix};
use rustkeep_data::diag::Severity;
use rustkeep_data::project::{load, Overlay};

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
    /// Apply every safe suggested fix, keeping layout and comments.
    #[arg(long)]
    pub fix: bool,
    /// Report only diagnostics not recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record the current diagnostics as the baseline.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
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
    // A path that does not exist is an I/O failure (exit 2, docs/cli.md), not a finding in a mod.
    if let Some(missing) = paths.iter().find(|p| !cwd.join(p).exists()) {
        return Err(format!("{}: no such file or folder", missing.display()));
    }
    let overlay = Overlay::new();
    let mut project = load(&paths, &cwd, &overlay);
    let mut analysis = analyze(&project);

    if args.fix {
        let edits = fix::apply(&project, &analysis.diagnostics);
        let mut applied = 0;
        for (fid, text, n) in &edits {
            let path = project.file(*fid).disk_path.clone().expect("fixes apply to files on disk");
            let text = keep_formatted(&project, *fid, text);
            write_atomically(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            applied += n;
        }
        if applied > 0 {
            eprintln!(
                "rustkeep: applied {applied} fix{} in {} file{}",
                if applied == 1 { "" } else { "es" },
                edits.len(),
                if edits.len() == 1 { "" } else { "s" }
            );
            project = load(&paths, &cwd, &overlay);
            analysis = analyze(&project);
        }
    }

    if let Some(path) = &args.write_baseline {
        write_atomically(path, &baseline::write(&project, &analysis.diagnostics)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut diags = std::mem::take(&mut analysis.diagnostics);
    if let Some(path) = &args.baseline {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the baseline {}: {e}", path.display()))?;
        diags = baseline::filter(&project, diags, baseline::read(&text)?);
    }

    for (format, path) in &outputs {
        emit(*format, path.as_deref(), &project, &diags, &cwd, args.common.no_color)?;
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
    cwd: &Path,
    no_color: bool,
) -> Result<(), String> {
    let text = match format {
        Format::Json => render::json::render(project, diags),
        Format::JsonLines => render::json_lines::render(project, diags),
        Format::Sarif => render::sarif::render(project, diags, cwd),
        Format::Github => render::github::render(project, diags),
        Format::Gitlab => render::gitlab::render(project, diags, cwd),
        Format::Junit => render::junit::render(project, diags),
        Format::Rdjson => render::rdjson::render(project, diags),
        Format::Human => {
            if let Some(path) = path {
                let mut buf = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
                render::human::render(project, diags, &mut buf).map_err(|e| e.to_string())?;
                let text = String::from_utf8_lossy(&buf.into_inner()).into_owned();
                return write_atomically(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()));
            }
            let color = if no_color || std::env::var_os("NO_COLOR").is_some() || !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                ColorChoice::Never
            } else {
                ColorChoice::Auto
            };
            let mut out = StandardStream::stdout(color);
            return render::human::render(project, diags, &mut out).map_err(|e| e.to_string());
        }
    };
    match path {
        Some(p) => write_atomically(p, &text).map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => print(&text),
    }
}

fn print(s: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes()).and_then(|_| out.flush()).map_err(|e| e.to_string())
}

/// Writes through a temporary file in the same folder, then renames it over the target.
pub fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    // A report may go into a folder that does not exist yet (`--format sarif:reports/x.sarif`).
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::atomic::write(path, text.as_bytes())
}

/// The fixed text of a file, formatted if the file was formatted before the fix (so that `--fix`
/// never leaves a formatted file unformatted); else as the fixes left it.
fn keep_formatted(project: &rustkeep_data::project::Project, fid: rustkeep_data::source::FileId, fixed: &str) -> String {
    let f = project.file(fid);
    let options = rustkeep_fmt::FormatOptions::from_config(&project.config.format, f.kind.into());
    let was_formatted = rustkeep_fmt::format_for_comparison(&f.text, &options).is_ok_and(|t| t == *f.text);
    match rustkeep_fmt::format_document(fixed, &options) {
        Ok(t) if was_formatted => t,
        _ => fixed.to_string(),
    }
}
