//! What the command line prints, on standard output and standard error and into report files,
//! is echoed inert ([`rustkeep_data::echo`]): control characters escaped, a closed pipe ending the
//! printing quietly. The colours of the human format are colour changes ([`WriteColor`]), never
//! text, so they pass. JSON and SARIF have no raw control character to escape (serde writes them
//! as `\u001b`), so one rule serves every format.

use std::io::{self, Write};

use codespan_reporting::term::termcolor::{ColorSpec, WriteColor};
use rustkeep_data::echo::{inert, inert_json, InertWriter};

/// An [`InertWriter`] that also passes a terminal's colour changes.
pub struct Out<W: Write>(InertWriter<W>);

/// Standard output, locked, through [`Out`].
pub fn stdout() -> Out<io::StdoutLock<'static>> {
    Out::new(io::stdout().lock())
}

/// Prints `text` on standard output: JSON text (`json`) with its control characters as JSON
/// escapes, any other with theirs as Rust escapes.
pub fn print(text: &str, json: bool) -> Result<(), String> {
    let lock = io::stdout().lock();
    let mut out = if json { Out(InertWriter::json(lock)) } else { Out::new(lock) };
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|e| e.to_string())
}

impl<W: Write> Out<W> {
    pub fn new(inner: W) -> Out<W> {
        Out(InertWriter::new(inner))
    }
}

impl<W: Write> Write for Out<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl<W: WriteColor> WriteColor for Out<W> {
    fn supports_color(&self) -> bool {
        self.0.inner().supports_color()
    }

    fn set_color(&mut self, spec: &ColorSpec) -> io::Result<()> {
        self.0.flush()?;
        if InertWriter::<W>::closed() {
            return Ok(());
        }
        self.0.inner_mut().set_color(spec)
    }

    fn reset(&mut self) -> io::Result<()> {
        self.0.flush()?;
        if InertWriter::<W>::closed() {
            return Ok(());
        }
        self.0.inner_mut().reset()
    }
}

/// Writes a report to the file `path` (`--format FORMAT:FILE`, a baseline), never through a
/// link, its control characters escaped as [`print`] escapes them.
pub fn report_file(path: &std::path::Path, text: &str, json: bool) -> io::Result<()> {
    let text = if json { inert_json(text) } else { inert(text) };
    rustkeep_data::files::write_file(path, text.as_bytes())
}
