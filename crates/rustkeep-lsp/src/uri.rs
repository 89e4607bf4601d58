//! `file://` URIs ↔ paths. The LSP types crate keeps URIs as plain strings, so the conversion
//! (percent-encoding, the Windows drive letter form `file:///C:/…`) lives here.

use std::path::{Path, PathBuf};

use crate::lsp::Uri;

fn keep(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/' | b':' | b'@' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=')
}

/// The `file://` URI of an absolute path.
pub fn from_path(path: &Path) -> Uri {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        // `C:/x` → `file:///C:/x`.
        out.push('/');
    }
    for b in s.bytes() {
        if keep(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from(out)
}

/// The path of a `file://` URI; `None` for other schemes.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let s: &str = uri.as_ref();
    let rest = s.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Some(v) = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let mut p = String::from_utf8_lossy(&out).into_owned();
    // `/C:/x` → `C:/x` on Windows-style paths.
    if p.len() > 2 && p.as_bytes()[0] == b'/' && p.as_bytes()[2] == b':' && p.as_bytes()[1].is_ascii_alphabetic() {
        p.remove(0);
    }
    Some(rustkeep_data::project::normalize(Path::new(&p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_spaces_and_umlauts() {
        let p = Path::new("/tmp/mein mod/Ätherklinge#1.toml");
        let u = from_path(p);
        assert_eq!(u.as_ref(), "file:///tmp/mein%20mod/%C3%84therklinge%231.toml");
        assert_eq!(to_path(&u).unwrap(), p);
        assert_eq!(to_path(&Uri::from("untitled:Untitled-1")), None);
    }
}
