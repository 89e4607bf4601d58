//! The server's stdin, made safe to hand to tower-lsp-server.
//!
//! tower-lsp-server stops reading for good after the first message it cannot decode (its framed
//! reader ends on a decoder error), so one malformed message from a client — a body that is not
//! JSON, not UTF-8, or not a JSON-RPC message, or a frame without `Content-Length` — would leave
//! the server deaf while it still looked alive. [`sanitize`] frames the input itself and replaces
//! each such message by a request the server answers with the proper JSON-RPC error (`-32700`
//! parse error, `-32600` invalid request; `id` null as JSON-RPC 2.0 requires), so the connection
//! keeps working. Found by `crates/rustkeep-cli/tests/lsp_abuse.rs`.
//!
//! It also returns when the client closed stdin or sent `exit`, so that the server exits even
//! while a request to the client (which will never be answered) is pending.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The method of the request that stands in for an undecodable message (answered with -32700).
pub const PARSE_ERROR_METHOD: &str = "rustkeep/$parseError";
/// The method of the request that stands in for JSON that is no JSON-RPC message (-32600).
pub const INVALID_REQUEST_METHOD: &str = "rustkeep/$invalidRequest";

/// Headers longer than this without a blank line are garbage, not a header block.
const MAX_HEADER: usize = 64 * 1024;

/// What one input frame becomes.
fn classify(body: &[u8]) -> Option<&'static str> {
    let Ok(text) = std::str::from_utf8(body) else { return Some(PARSE_ERROR_METHOD) };
    if serde_json::from_str::<serde_json::Value>(text).is_err() {
        return Some(PARSE_ERROR_METHOD);
    }
    let is_message =
        serde_json::from_str::<tower_lsp_server::jsonrpc::Request>(text).is_ok() || serde_json::from_str::<tower_lsp_server::jsonrpc::Response>(text).is_ok();
    (!is_message).then_some(INVALID_REQUEST_METHOD)
}

fn is_exit(body: &[u8]) -> bool {
    find(body, b"exit").is_some() && serde_json::from_slice::<serde_json::Value>(body).is_ok_and(|v| v.get("method").and_then(|m| m.as_str()) == Some("exit"))
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn stand_in(method: &str) -> Vec<u8> {
    frame(format!("{{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"{method}\"}}").as_bytes())
}

/// The `Content-Length` of a header block, if it has a valid one.
fn content_length(headers: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(headers).ok()?;
    text.split("\r\n").find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim().eq_ignore_ascii_case("content-length").then(|| value.trim().parse::<usize>().ok()).flatten()
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Copies framed messages from `input` to `output`, replacing every message tower-lsp-server
/// could not decode by a stand-in request (see the module docs). Returns when `input` ends,
/// `output` is closed, or after passing on an `exit` notification.
pub async fn sanitize<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(mut input: R, mut output: W) {
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        // Take every complete frame out of the buffer.
        loop {
            let Some(end) = find(&buf, b"\r\n\r\n") else {
                if buf.len() > MAX_HEADER {
                    // No header block at all: skip to the next thing that looks like one.
                    let keep = find(&buf[1..], b"Content-Length").map(|i| i + 1).unwrap_or(buf.len() - 16);
                    buf.drain(..keep);
                    if output.write_all(&stand_in(PARSE_ERROR_METHOD)).await.is_err() {
                        return;
                    }
                }
                break;
            };
            let Some(len) = content_length(&buf[..end]) else {
                // A header block without a usable length: drop it and answer with a parse error.
                buf.drain(..end + 4);
                if output.write_all(&stand_in(PARSE_ERROR_METHOD)).await.is_err() {
                    return;
                }
                continue;
            };
            if buf.len() < end + 4 + len {
                break;
            }
            let body: Vec<u8> = buf[end + 4..end + 4 + len].to_vec();
            buf.drain(..end + 4 + len);
            let out = match classify(&body) {
                None => frame(&body),
                Some(method) => stand_in(method),
            };
            if output.write_all(&out).await.is_err() || output.flush().await.is_err() {
                return;
            }
            if is_exit(&body) {
                // Nothing may follow `exit`; the caller ends the server even if a request to the
                // client is still waiting for an answer.
                return;
            }
        }
        match input.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn run(input: &[u8]) -> String {
        let mut out = Vec::new();
        sanitize(input, &mut out).await;
        String::from_utf8(out).unwrap()
    }

    #[tokio::test]
    async fn good_frames_pass_bad_ones_become_stand_ins() {
        let good = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}";
        let input = format!(
            "Content-Length: {}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{good}\
             Content-Length: 5\r\n\r\n{{\"a\":\
             Content-Length: 2\r\n\r\n[]\
             X-Nothing: 1\r\n\r\n\
             content-length: {}\r\n\r\n{good}",
            good.len(),
            good.len()
        );
        let out = run(input.as_bytes()).await;
        let expected =
            [frame(good.as_bytes()), stand_in(PARSE_ERROR_METHOD), stand_in(INVALID_REQUEST_METHOD), stand_in(PARSE_ERROR_METHOD), frame(good.as_bytes())]
                .concat();
        assert_eq!(out, String::from_utf8(expected).unwrap());
    }

    #[tokio::test]
    async fn a_frame_cut_off_by_the_end_of_input_is_dropped() {
        assert_eq!(run(b"Content-Length: 500\r\n\r\n{\"jsonrpc\":").await, "");
        // Non-UTF-8 bodies are parse errors.
        assert_eq!(run(b"Content-Length: 2\r\n\r\n\xFF\xFE").await, String::from_utf8(stand_in(PARSE_ERROR_METHOD)).unwrap());
    }
}
