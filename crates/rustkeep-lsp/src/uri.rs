//! `file://` URIs ↔ paths. The LSP types crate keeps URIs as plain strings, so the conversion
//! (percent-encoding, the Windows drive letter form `file:///C:/…`) lives here.

use std::path::{Path, PathBuf};

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::lsp::Uri;

/// What a path keeps as it is in a URI: the characters RFC 3986 allows in a path (unreserved,
/// sub-delimiters, `:`, `@`) and `/`; every other byte is percent-encoded.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/')
    .remove(b':')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// The `file://` URI of an absolute path.
pub fn from_path(path: &Path) -> Uri {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        // `C:/x` → `file:///C:/x`.
        out.push('/');
    }
    out.extend(utf8_percent_encode(&s, PATH));
    Uri::from(out)
}

/// The path of a `file://` URI; `None` for other schemes.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let s: &str = uri.as_ref();
    let rest = s.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let mut p = percent_decode_str(rest).decode_utf8_lossy().into_owned();
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
