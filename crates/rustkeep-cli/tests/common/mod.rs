//! Shared by the tests that drive `rustkeep lsp` over stdio.

use std::io::{BufRead, BufReader, Read};
use std::process::ChildStdout;
use std::sync::mpsc::{channel, Receiver};

use serde_json::Value;

/// Reads the server's `Content-Length`-framed JSON messages on a thread of their own; the
/// receiver yields them in order and closes when the server closes its stdout.
pub fn read_messages(stdout: ChildStdout) -> Receiver<Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        loop {
            let mut len = None;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    len = v.parse::<usize>().ok();
                }
            }
            let mut buf = vec![0; len.expect("the server frames with Content-Length")];
            if r.read_exact(&mut buf).is_err() {
                return;
            }
            if tx.send(serde_json::from_slice(&buf).expect("the server sends JSON")).is_err() {
                return;
            }
        }
    });
    rx
}
