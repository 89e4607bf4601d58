//! `rustkeep fmt`: formats the data files, scenarios, `mod.toml` and `rustkeep.toml` of the mods
//! found from the given paths (as `rustkeep check` finds them), in place; `--check` and `--diff` change
//! nothing; `-` formats standard input to standard output.
//!
//! Exit codes: 0 done (or nothing to change); 1 `--check` / `--diff` found files that would
//! change; 2 a file is not valid TOML (reported like `rustkeep check` reports `toml-syntax`, the
//! file untouched), a file could not be read or written (the original untouched), the formatter
//! refused a file (its result would change the meaning or lose a comment; the file untouched), or
//! a usage error.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::ColorChoice, termcolor::StandardStream};
use rayon::prelude::*;
use rustkeep_data::manifest::{read_workspace, FormatConfig};
use rustkeep_data::project::{display_path, load, Overlay};
use rustkeep_data::source::{FileId, SourceFile};
use rustkeep_fmt::{FileKind, FormatError, FormatOptions, SyntaxError, Toml11Syntax, Toml11Use, TomlVersion};

use crate::Common;

#[derive(clap::Args)]
pub struct Args {
    /// Mod folders, workspaces or single files to format (default: the current folder); `-`
    /// formats standard input to standard output.
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub common: Common,
    /// Change nothing; list the files that would change and exit with 1 if there are any.
    #[arg(long)]
    pub check: bool,
    /// Change nothing; print a unified diff of what would change and exit with 1 if anything would.
    #[arg(long)]
    pub diff: bool,
    /// With `-`: the path the text on standard input belongs to (which key orders apply, and the
    /// `[format]` options of its workspace).
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
}

/// One file to format.
struct Target {
    path: PathBuf,
    shown: String,
    options: FormatOptions,
    /// The text discovery already read (without a byte-order mark), for `--check`, which only
    /// compares; writing and `--diff` read the file again, byte-order mark and all.
    read: Option<(std::sync::Arc<str>, Option<usize>)>,
}

/// What happened to one file.
enum Outcome {
    /// The file is in the layout; where it uses TOML 1.1-only syntax, if it does.
    Unchanged(Option<Toml11Note>),
    /// The file is not in the layout; its old and new texts, unless only the verdict is wanted
    /// (`--check`: holding both texts of every file of a large pack cost a tenth of the run); and
    /// where the input uses TOML 1.1-only syntax, if it does.
    Changed(Option<(String, String)>, Option<Toml11Note>),
    Invalid {
        text: String,
        errors: Vec<SyntaxError>,
    },
    Failed(String),
}

/// Where a text uses TOML 1.1-only syntax: 1-based line and column (in characters), and what.
#[derive(Clone, Copy)]
struct Toml11Note {
    line: usize,
    column: usize,
    syntax: Toml11Syntax,
}

impl Toml11Note {
    /// The note for the first TOML 1.1-only syntax of `text`, if it has any. Only formatting for
    /// TOML 1.0 (the default) says so: `toml_version = "1.1"` chose that syntax.
    fn of(text: &str, found: Option<Toml11Use>, options: &FormatOptions) -> Option<Toml11Note> {
        let u = found.filter(|_| options.toml_version == TomlVersion::V1_0)?;
        let body_start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let before = text.get(body_start..u.offset)?;
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some(Toml11Note { line, column, syntax: u.syntax })
    }

    /// Says, once for the file, that it needs a TOML 1.1 reader.
    fn say(&self, shown: &str) {
        say!(
            "rustkeep: note: {shown}:{}:{}: {} needs a TOML 1.1 reader; TOML 1.0 readers (Taplo, Even Better TOML, Python's tomllib) refuse this file",
            self.line,
            self.column,
            self.syntax.describe()
        );
    }
}

fn color(no_color: bool) -> ColorChoice {
    if no_color || std::env::var_os("NO_COLOR").is_some() || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}

/// Reports syntax errors the way `rustkeep check` shows `toml-syntax`.
fn report_syntax(shown: &str, text: &str, errors: &[SyntaxError], no_color: bool) {
    // Positions are shown as `rustkeep check` shows them: in the text after the byte-order mark.
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let text = &text[bom..];
    let file = SimpleFile::new(shown, text);
    let mut err = crate::out::Out::new(StandardStream::stderr(color(no_color)));
    let config = term::Config::default();
    // A span of the text after the byte-order mark, on character boundaries.
    let span = |span: &std::ops::Range<usize>| {
        let mut s = span.start.saturating_sub(bom).min(text.len());
        while s > 0 && !text.is_char_boundary(s) {
            s -= 1;
        }
        let mut end = span.end.saturating_sub(bom).clamp(s, text.len());
        while end > s && !text.is_char_boundary(end) {
            end -= 1;
        }
        s..end
    };
    for e in errors {
        let mut labels = vec![Label::primary((), span(&e.span))];
        if let Some((r, message)) = &e.related {
            labels.push(Label::secondary((), span(r)).with_message(message.clone()));
        }
        let d = CsDiagnostic::error()
            .with_code("toml-syntax")
            .with_message(format!("{}; the file was not formatted", e.message))
            .with_labels(labels)
            .with_notes(vec!["see `rustkeep explain toml-syntax`".into()]);
        if term::emit_to_write_style(&mut err, &config, &file, &d).is_err() {
            say!("{shown}: error[toml-syntax]: {}", e.message);
        }
    }
}

/// The `[format]` options of the workspace whose `rustkeep.toml` is nearest at or above `dir`.
fn config_above(dir: &Path) -> FormatConfig {
    for d in dir.ancestors() {
        let ws = d.join("rustkeep.toml");
        if ws.is_file() {
            let Ok(text) = std::fs::read_to_string(&ws) else { return FormatConfig::default() };
            return read_workspace(FileId(0), &text).0.format;
        }
    }
    FormatConfig::default()
}

fn decode(bytes: &[u8]) -> Result<&str, usize> {
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
}

fn invalid_utf8(text: String, at: usize) -> Outcome {
    Outcome::Invalid { text, errors: vec![SyntaxError { span: at..at + 1, message: "invalid UTF-8: TOML files must be UTF-8 encoded".into(), related: None }] }
}

/// Formats one file's bytes.
fn format_bytes(bytes: &[u8], options: &FormatOptions, compare_only: bool) -> Outcome {
    match decode(bytes) {
        Ok(text) => format_text(text, options, compare_only),
        Err(at) => invalid_utf8(String::from_utf8_lossy(bytes).into_owned(), at),
    }
}

fn format_text(text: &str, options: &FormatOptions, compare_only: bool) -> Outcome {
    match rustkeep_fmt::format_file(text, options, compare_only) {
        Ok(f) if f.text == text => Outcome::Unchanged(Toml11Note::of(text, f.toml_1_1, options)),
        Ok(f) if compare_only => Outcome::Changed(None, Toml11Note::of(text, f.toml_1_1, options)),
        Ok(f) => Outcome::Changed(Some((text.to_string(), f.text)), Toml11Note::of(text, f.toml_1_1, options)),
        Err(FormatError::Syntax(errors)) => Outcome::Invalid { text: text.to_string(), errors },
        // The formatter's refusals to hand back a text that means less than the file: one line
        // for the file, which is left as it is, and exit code 2.
        Err(e @ (FormatError::Meaning | FormatError::Comment { .. })) => Outcome::Failed(e.to_string()),
    }
}

fn run_stdin(args: &Args, cwd: &Path) -> Result<u8, String> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
    let name = args.stdin_filename.clone();
    let kind = name.as_deref().map_or(FileKind::Data, FileKind::of_path);
    let dir = name.as_deref().and_then(Path::parent).map_or_else(|| cwd.to_path_buf(), |p| cwd.join(p));
    let options = FormatOptions::from_config(&config_above(&dir), kind);
    let shown = name.as_deref().map_or_else(|| "<stdin>".to_string(), |p| p.to_string_lossy().replace('\\', "/"));
    // The formatted file itself, byte for byte (an editor writes it back): not an echo to escape.
    let mut out = std::io::stdout().lock();
    let write =
        |out: &mut std::io::StdoutLock<'_>, s: &[u8]| out.write_all(s).and_then(|_| out.flush()).map_err(|e| format!("cannot write to standard output: {e}"));
    match format_bytes(&bytes, &options, args.check && !args.diff) {
        Outcome::Unchanged(note) => {
            if let Some(n) = note {
                n.say(&shown);
            }
            if args.check || args.diff {
                Ok(0)
            } else {
                write(&mut out, &bytes).map(|_| 0)
            }
        }
        Outcome::Changed(texts, note) => {
            // What is written is the formatted text; `--check` and `--diff` describe the input.
            match (&texts, note) {
                (Some((_, new)), Some(_)) if !args.check && !args.diff => {
                    if let Some(n) = Toml11Note::of(new, rustkeep_fmt::toml_1_1_use(new), &options) {
                        n.say(&shown);
                    }
                }
                (_, Some(n)) => n.say(&shown),
                _ => {}
            }
            match texts {
                Some((old, new)) if args.diff => write(&mut out, rustkeep_fmt::diff::unified(&shown, &old, &new).as_bytes()).map(|_| 1),
                Some((_, new)) if !args.check => write(&mut out, new.as_bytes()).map(|_| 0),
                // `--check`: only the verdict was kept.
                _ => write(&mut out, format!("{shown}\n").as_bytes()).map(|_| 1),
            }
        }
        Outcome::Invalid { text, errors } => {
            report_syntax(&shown, &text, &errors, args.common.no_color);
            Ok(2)
        }
        Outcome::Failed(msg) => Err(format!("{shown}: {msg}")),
    }
}

/// The files to format: single files as given, and the files of the mods found below folders.
fn targets(paths: &[PathBuf], cwd: &Path, problems: &mut Vec<String>) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    let mut dirs = Vec::new();
    let boundary = rustkeep_data::project::boundary(paths, cwd);
    for p in paths {
        let abs = rustkeep_data::project::normalize(&cwd.join(p));
        if abs.is_file() {
            if let Err(why) = boundary.admits(&abs) {
                problems.push(format!("cannot read {}: {why}", display_path(&abs, cwd)));
                continue;
            }
            let dir = abs.parent().unwrap_or(cwd).to_path_buf();
            let options = FormatOptions::from_config(&config_above(&dir), FileKind::of_path(&abs));
            out.push(Target { shown: display_path(&abs, cwd), path: abs, options, read: None });
        } else {
            dirs.push(p.clone());
        }
    }
    if !dirs.is_empty() {
        let project = load(&dirs, cwd, &Overlay::new());
        let mut config = project.config.format;
        if project.config.file.is_none() {
            if let Some(root) = &project.root {
                config = config_above(root);
            }
        }
        let mut wanted: Vec<FileId> = project.config.file.into_iter().collect();
        for m in &project.mods {
            wanted.extend(m.manifest_file);
            wanted.extend(m.data_files.iter().copied());
        }
        // A mod's scenarios are part of it for `check`, `test` and `new`, so they are formatted
        // with it (layout only: `FileKind::of_path` and the conversion below make them plain).
        wanted.extend(project.scenarios.iter().map(|s| s.file));
        let known: HashSet<FileId> = wanted.iter().copied().collect();
        let mut seen: HashSet<PathBuf> = out.iter().map(|t| t.path.clone()).collect();
        let files: &[SourceFile] = &project.files;
        // Files discovery could not read carry the reason as a diagnostic and belong to no mod.
        for f in files.iter().filter(|f| f.disk_path.is_some() && !f.bundled && !known.contains(&f.id)) {
            for d in project.diagnostics.iter().filter(|d| d.loc.file == f.id) {
                problems.push(d.message.clone());
            }
        }
        for fid in wanted {
            let f = project.file(fid);
            let Some(path) = f.disk_path.clone() else { continue };
            if f.bundled || !seen.insert(path.clone()) {
                continue;
            }
            out.push(Target {
                shown: f.path.clone(),
                path,
                options: FormatOptions::from_config(&config, f.kind.into()),
                read: Some((f.text.clone(), f.invalid_utf8_at)),
            });
        }
    }
    out
}

pub fn run(args: Args) -> Result<u8, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let mut paths = args.paths.clone();
    paths.extend(args.common.mods.iter().cloned());
    if paths.iter().any(|p| p.as_os_str() == "-") {
        if paths.len() > 1 {
            return Err("`-` (standard input) cannot be combined with other paths".into());
        }
        return run_stdin(&args, &cwd);
    }
    if args.stdin_filename.is_some() {
        return Err("--stdin-filename goes with `-` (standard input)".into());
    }
    if paths.is_empty() {
        paths.push(PathBuf::from("."));
    }
    if let Some(missing) = paths.iter().find(|p| !cwd.join(p).exists()) {
        return Err(format!("{}: no such file or folder", missing.display()));
    }
    let mut problems = Vec::new();
    let mut targets = targets(&paths, &cwd, &mut problems);
    targets.sort_by(|a, b| a.shown.cmp(&b.shown));
    let compare_only = args.check && !args.diff;
    let outcomes: Vec<Outcome> = targets
        .par_iter()
        .map(|t| match &t.read {
            Some((text, None)) if compare_only => format_text(text, &t.options, true),
            Some((text, Some(at))) if compare_only => invalid_utf8(text.to_string(), *at),
            _ => match std::fs::read(&t.path) {
                Ok(bytes) => format_bytes(&bytes, &t.options, compare_only),
                Err(e) => Outcome::Failed(format!("cannot read: {e}")),
            },
        })
        .collect();

    let mut stdout = crate::out::stdout();
    let mut failed = !problems.is_empty();
    for p in &problems {
        say!("rustkeep: {p}");
    }
    let (mut changed, mut unchanged) = (0usize, 0usize);
    for (t, outcome) in targets.iter().zip(outcomes) {
        match outcome {
            Outcome::Unchanged(note) => {
                unchanged += 1;
                if let Some(n) = note {
                    n.say(&t.shown);
                }
            }
            Outcome::Changed(texts, note) => {
                changed += 1;
                let shown = &t.shown;
                let printed = match texts {
                    Some((old, new)) if args.diff => {
                        if let Some(n) = note {
                            n.say(shown);
                        }
                        stdout.write_all(rustkeep_fmt::diff::unified(shown, &old, &new).as_bytes())
                    }
                    Some((_, new)) if !args.check => {
                        match rustkeep_data::files::write_file(&t.path, new.as_bytes()) {
                            // The note is about the file as it is now: the formatted text.
                            Ok(()) if note.is_some() => {
                                if let Some(n) = Toml11Note::of(&new, rustkeep_fmt::toml_1_1_use(&new), &t.options) {
                                    n.say(shown);
                                }
                            }
                            Ok(()) => {}
                            Err(e) => {
                                say!("rustkeep: cannot write {shown}: {e}; the file is left as it was");
                                if let Some(n) = note {
                                    n.say(shown);
                                }
                                failed = true;
                                changed -= 1;
                            }
                        }
                        Ok(())
                    }
                    // `--check`: only the verdict was kept.
                    _ => {
                        if let Some(n) = note {
                            n.say(shown);
                        }
                        writeln!(stdout, "{shown}")
                    }
                };
                printed.map_err(|e| format!("cannot write to standard output: {e}"))?;
            }
            Outcome::Invalid { text, errors } => {
                report_syntax(&t.shown, &text, &errors, args.common.no_color);
                failed = true;
            }
            Outcome::Failed(msg) => {
                say!("rustkeep: {}: {msg}", t.shown);
                failed = true;
            }
        }
    }
    stdout.flush().map_err(|e| format!("cannot write to standard output: {e}"))?;
    let files = |n: usize| if n == 1 { "1 file".to_string() } else { format!("{n} files") };
    if args.check || args.diff {
        say!("rustkeep: {} would be reformatted, {} already formatted", files(changed), files(unchanged));
    } else {
        say!("rustkeep: {} reformatted, {} already formatted", files(changed), files(unchanged));
    }
    Ok(if failed {
        2
    } else if changed > 0 && (args.check || args.diff) {
        1
    } else {
        0
    })
}
