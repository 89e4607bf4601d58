//! Every conversion from the crate's types to LSP types: project files to URIs, byte offsets and
//! spans to positions, ranges and locations in the negotiated encoding, diagnostics to LSP
//! diagnostics. Handlers build their answers from these, as rust-analyzer's `to_proto` does.

use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::project::CORE_PREFIX;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;

use super::State;
use crate::lsp;
use crate::uri;

impl State {
    /// The current diagnostics of one file, as LSP diagnostics (the fuzz target's differential
    /// check reads them).
    pub fn diagnostics_of(&self, fid: FileId) -> Vec<lsp::Diagnostic> {
        self.diagnostics(fid).iter().map(|d| self.to_lsp_diagnostic(d)).collect()
    }

    pub fn to_lsp_diagnostic(&self, d: &Diagnostic) -> lsp::Diagnostic {
        let related: Vec<lsp::DiagnosticRelatedInformation> = d
            .related
            .iter()
            .filter_map(|r| Some(lsp::DiagnosticRelatedInformation { location: self.location(r.loc.file, &r.loc.span)?, message: r.message.clone() }))
            .collect();
        let data = d.fix.as_ref().map(|f| serde_json::json!({ "fix": { "message": f.message, "replacement": f.replacement } }));
        lsp::Diagnostic {
            range: self.range(d.loc.file, &d.loc.span),
            severity: Some(match d.severity {
                Severity::Error => lsp::DiagnosticSeverity::Error,
                Severity::Warning => lsp::DiagnosticSeverity::Warning,
            }),
            code: Some(lsp::Code::String(d.code.name().to_string())),
            source: Some("rustkeep".into()),
            message: lsp::Message::String(d.message.clone()),
            related_information: (!related.is_empty()).then_some(related),
            data,
            ..Default::default()
        }
    }

    pub fn file_uri(&self, fid: FileId) -> Option<lsp::Uri> {
        let f = self.project.files.get(fid.0 as usize)?;
        if let Some(p) = &f.disk_path {
            return Some(uri::from_path(p));
        }
        if f.bundled {
            let name = f.path.strip_prefix(CORE_PREFIX)?.trim_start_matches('/');
            return Some(uri::from_path(&self.core_dir.as_ref()?.join(name)));
        }
        None
    }

    pub fn position(&self, fid: FileId, offset: usize) -> lsp::Position {
        let f = self.project.file(fid);
        let lc = f.index.position(&f.text, offset, self.encoding);
        lsp::Position { line: lc.line, character: lc.col }
    }

    pub fn range(&self, fid: FileId, span: &Span) -> lsp::Range {
        lsp::Range { start: self.position(fid, span.start), end: self.position(fid, span.end) }
    }

    pub fn location(&self, fid: FileId, span: &Span) -> Option<lsp::Location> {
        Some(lsp::Location { uri: self.file_uri(fid)?, range: self.range(fid, span) })
    }
}

/// The diagnostic of a document too large to analyse, on its first line.
pub(super) fn too_large(bytes: usize) -> lsp::Diagnostic {
    let mb = |n: usize| format!("{:.1} MB", n as f64 / 1e6);
    lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(lsp::DiagnosticSeverity::Warning),
        source: Some("rustkeep".into()),
        message: lsp::Message::String(format!(
            "this document is {} ({} bytes), more than the {} ({} bytes) the language server analyses: it is not checked as you type (`rustkeep check` checks it)",
            mb(bytes),
            rustkeep_data::text::thousands(bytes as u64),
            mb(super::MAX_DOCUMENT_BYTES),
            rustkeep_data::text::thousands(super::MAX_DOCUMENT_BYTES as u64)
        )),
        ..lsp::Diagnostic::default()
    }
}
