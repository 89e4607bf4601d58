//! The tests' client ([`LspClient`]) of the real server, driven as an editor drives it: the
//! server (`rustkeep_lsp::server::serve`, the input sanitizer and the Content-Length framing
//! included) on its own runtime in this process, over in-memory pipes.
#![allow(dead_code)]

use std::io::{Read, Write};

use rustkeep_testutil::{file_uri, LspClient, TempDir};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// One end of an in-memory pipe, read or written by blocking on a runtime of its own.
struct Blocking<T> {
    rt: tokio::runtime::Runtime,
    io: T,
}

impl<T> Blocking<T> {
    fn new(io: T) -> Blocking<T> {
        Blocking { rt: tokio::runtime::Builder::new_current_thread().build().expect("a runtime"), io }
    }
}

impl<T: AsyncRead + Unpin> Read for Blocking<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.rt.block_on(self.io.read(buf))
    }
}

impl<T: AsyncWrite + Unpin> Write for Blocking<T> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.rt.block_on(self.io.write(buf))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.rt.block_on(self.io.flush())
    }
}

/// Starts the server in this process (its core files in a temporary folder the client holds)
/// and a client of it.
pub fn start() -> LspClient {
    let (to_server, server_in) = tokio::io::duplex(1 << 20);
    let (server_out, from_server) = tokio::io::duplex(1 << 20);
    let cache = TempDir::new("core-cache");
    let cache_dir = cache.to_path_buf();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(rustkeep_lsp::server::serve(server_in, server_out, Some(cache_dir)));
    });
    LspClient::over(Blocking::new(to_server), Blocking::new(from_server)).holding(cache)
}

/// `initialize` on the workspace `ws`, with code lens refreshes; the server's capabilities.
pub fn initialize(c: &mut LspClient, ws: &std::path::Path) -> Value {
    let caps = json!({ "workspace": { "codeLens": { "refreshSupport": true } } });
    c.initialize(json!({ "processId": null, "rootUri": file_uri(ws), "capabilities": caps }))
}

/// Waits until the server asks for the code lenses again: a run was recorded.
pub fn lens_refresh(c: &mut LspClient) {
    c.server_request("workspace/codeLens/refresh");
}
