//! Allow comments that cannot do what they say: a code that is no diagnostic code
//! (`unknown-lint`, with "did you mean"), and a code that silences nothing where it stands
//! (`unused-suppression`, fixed by removing it). Without these, a misspelt code or a comment
//! left behind after the mistake was repaired would silently hide the next mistake of its kind.

use std::collections::HashSet;
use std::ops::Range;

use rustkeep_data::diag::{Applicability, Code, Diagnostic, Loc};
use rustkeep_data::model::AllowComment;
use rustkeep_data::source::SourceFile;
use rustkeep_data::suggest;

/// The diagnostics about the allow comments of one file; `used` holds the (comment, code) pairs
/// that silenced a diagnostic.
pub fn report(file: &SourceFile, allows: &[AllowComment], used: &HashSet<(usize, usize)>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let names = || Code::ALL.iter().map(|c| c.name());
    for (i, a) in allows.iter().enumerate() {
        let unused: Vec<usize> = (0..a.codes.len()).filter(|c| !used.contains(&(i, *c))).collect();
        for &c in &unused {
            let name = a.codes[c].as_str();
            let loc = Loc { file: file.id, span: a.code_spans[c].clone() };
            let code = Code::from_name(name);
            if code.is_none() {
                let judged = suggest::closest_judged(name, names());
                let mut msg = format!("`{name}` is not a diagnostic code, so this comment silences nothing");
                match judged {
                    Some((s, _)) => msg.push_str(&format!("; did you mean `{s}`?")),
                    None => msg.push_str(": `rustkeep explain` lists the codes"),
                }
                let mut d = Diagnostic::new(Code::UnknownLint, loc, msg);
                if let Some((s, safety)) = judged {
                    d = d.with_fix(format!("replace with `{s}`"), s, safety);
                }
                out.push(d);
                continue;
            }
            let msg = if code == Some(Code::TomlSyntax) {
                "`toml-syntax` cannot be silenced: a file that does not parse is not checked at all; remove this".to_string()
            } else {
                format!("`allow({name})` silences nothing: no `{name}` is reported on the line below it or in the entry or field it stands above; remove it")
            };
            let (span, what) =
                if unused.len() == a.codes.len() { (whole_comment(file, a), "remove the comment") } else { (one_code(a, c), "remove the code from the list") };
            // Removing a comment that silences nothing changes nothing but the comment.
            out.push(Diagnostic::new(Code::UnusedSuppression, loc, msg).with_fix_at(span, what, "", Applicability::Safe));
        }
    }
    out
}

/// The comment and the blanks before it; its whole line (with the line break) when nothing else
/// stands on it.
fn whole_comment(file: &SourceFile, a: &AllowComment) -> Range<usize> {
    let text = &file.text;
    let line = file.index.line_span(text, a.line);
    let before = &text[line.start..a.span.start];
    if before.trim().is_empty() {
        let mut end = line.end;
        if text[end..].starts_with("\r\n") {
            end += 2;
        } else if text[end..].starts_with('\n') {
            end += 1;
        }
        return line.start..end;
    }
    let start = line.start + before.trim_end().len();
    start..a.span.end
}

/// One code and its separator: up to the next code, or (for the last) from the end of the one
/// before.
fn one_code(a: &AllowComment, c: usize) -> Range<usize> {
    if c + 1 < a.code_spans.len() {
        a.code_spans[c].start..a.code_spans[c + 1].start
    } else {
        a.code_spans[c - 1].end..a.code_spans[c].end
    }
}
