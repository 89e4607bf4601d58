//! `rustkeep check`.

use std::io::Write;
use std::path::PathBuf;

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
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
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

pub fn run(args: Args) -> Result<u8, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let mut paths = args.paths.clone();
    paths.extend(args.common.mods.iter().cloned());
    if paths.is_empty() {
        paths.push(PathBuf::from("."));
    }
    // A path that does not exist is an I/O failure (exit 2, SPEC §6), not a finding in a mod.
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

    match args.format {
        Format::Json => print(&render::json::render(&project, &diags))?,
        Format::Sarif => print(&render::sarif::render(&project, &diags))?,
        Format::Github => print(&render::github::render(&project, &diags))?,
        Format::Human => {
            let color = if args.common.no_color || std::env::var_os("NO_COLOR").is_some() || !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                ColorChoice::Never
            } else {
                ColorChoice::Auto
            };
            let mut out = StandardStream::stdout(color);
            render::human::render(&project, &diags, &mut out).map_err(|e| e.to_string())?;
        }
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

fn print(s: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes()).and_then(|_| out.flush()).map_err(|e| e.to_string())
}

/// Writes through a temporary file in the same folder, then renames it over the target.
pub fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
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
