//! [`shell_line`]: a command line of the docs read as a POSIX shell splits it, for the tests that
//! run or parse the commands the docs show.

/// A command line split into words.
#[derive(Debug, PartialEq)]
pub struct ShellLine {
    pub words: Vec<String>,
    /// The text after a `#` that starts a word outside quotes, trimmed.
    pub comment: Option<String>,
    /// Whether a quote was left open at the end of the line.
    pub open_quote: bool,
}

/// Splits a command line into words: whitespace separates, double or single quotes group, a `#`
/// that starts a word outside quotes starts a comment, and a pipe, redirection or list operator
/// (`|`, `>`, `<`, `;`, `&`) ends the command.
pub fn shell_line(line: &str) -> ShellLine {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut comment = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => {
                comment = Some(line[i + 1..].trim().to_string());
                break;
            }
            (None, '|' | '>' | '<' | ';' | '&') => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    ShellLine { words, comment, open_quote: quote.is_some() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_quotes_comments_and_operators() {
        let l = shell_line("rustkeep loot 'a b'  # exit code 2");
        assert_eq!(l, ShellLine { words: vec!["rustkeep".into(), "loot".into(), "a b".into()], comment: Some("exit code 2".into()), open_quote: false });
        assert_eq!(shell_line("a#b c").words, ["a#b", "c"], "a `#` inside a word is no comment");
        assert_eq!(shell_line(r#"x "y z" > out.json # no"#).words, ["x", "y z"]);
        assert_eq!(shell_line(r#"x "y # z""#).words, ["x", "y # z"]);
        assert!(shell_line("x 'y").open_quote);
    }
}
