//! The comment check, a safety net behind the syntax tree and the printer: the formatted text must
//! hold every comment of the input, each as often as the input does. The tree is built so that no
//! comment is dropped, but a shape nobody thought of must cost a refusal, never a user's comment.
//!
//! The input's comments are those of its event stream (the one [`crate::cst`] builds the tree
//! from), taken before the tree is built: a comment the tree never kept is still counted. The
//! output's are read by the same reader ([`rustkeep_data::syntax::comments`]). A comment is compared by its text without trailing whitespace, which is the only change
//! the printer makes to one. An input without comments is not lexed again: the printer writes
//! comments only from the tree, and a comment made up from a value's text would change the meaning,
//! which the meaning check refuses.

use std::collections::HashMap;
use std::ops::Range;

use rustkeep_data::syntax;

/// The comments of a TOML text (without a byte-order mark): each one's start and its text without
/// trailing whitespace, in text order.
fn comments(text: &str) -> impl Iterator<Item = (usize, &str)> {
    syntax::comments(text).into_iter().map(move |r| (r.start, text[r].trim_end()))
}

/// Where `output` does not keep the comments of `input` (their spans in `input`, in text order):
/// the 1-based line, in `input`, of the first comment `output` holds fewer times than `input` (a
/// lost one). When none is lost but `output` holds a comment more often than `input` does, the
/// line of that comment's first occurrence in `input`, or of the first line if `input` has no
/// such comment. `None` when both hold the same comments, each the same number of times, and when
/// `input` has no comment (see the module's documentation).
pub fn first_difference(input: &str, input_comments: &[Range<usize>], output: &str) -> Option<usize> {
    if input_comments.is_empty() {
        return None;
    }
    let mut left: HashMap<&str, isize> = HashMap::new();
    for (_, c) in comments(output) {
        *left.entry(c).or_default() += 1;
    }
    let line = |at: usize| input[..at].bytes().filter(|&b| b == b'\n').count() + 1;
    let mut first_seen: HashMap<&str, usize> = HashMap::new();
    for (at, c) in input_comments.iter().map(|r| (r.start, input[r.clone()].trim_end())) {
        first_seen.entry(c).or_insert(at);
        let n = left.entry(c).or_default();
        *n -= 1;
        if *n < 0 {
            return Some(line(at));
        }
    }
    // Nothing was lost; what is left over was added.
    left.iter().filter(|(_, &n)| n > 0).map(|(c, _)| first_seen.get(c).map_or(1, |&at| line(at))).min()
}

/// Test hook for the tests of how a refusal reaches the user (`crates/rustkeep-cli/tests/fmt_cli.rs`):
/// with `RUSTKEEP_TEST_FMT_LOSE_COMMENT` set, `output` without its first comment, the way a bug of
/// the printer would lose it, so that [`first_difference`] and every report of its refusal run for
/// real; `None` otherwise. Nothing else reads the variable, and only builds with the `test-hooks`
/// feature (the command line's tests) read it at all.
#[cfg(feature = "test-hooks")]
pub fn lose_comment_hook(output: &str) -> Option<String> {
    std::env::var_os("RUSTKEEP_TEST_FMT_LOSE_COMMENT")?;
    let (at, c) = comments(output).next()?;
    Some(format!("{}{}", &output[..at], &output[at + c.len()..]))
}

#[cfg(not(feature = "test-hooks"))]
pub fn lose_comment_hook(_output: &str) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`first_difference`] with the input's comments found by the lexer.
    fn first_difference(input: &str, output: &str) -> Option<usize> {
        let spans: Vec<Range<usize>> = comments(input).map(|(at, c)| at..at + c.len()).collect();
        super::first_difference(input, &spans, output)
    }

    #[test]
    fn the_same_comments_anywhere_are_kept() {
        assert_eq!(first_difference("a = 1 # x\n# y\n", "# y\na = 1 # x\n"), None);
        assert_eq!(first_difference("a = 1 # x   \n", "a = 1 # x\n"), None, "trailing spaces are the printer's to drop");
        assert_eq!(first_difference("a = \"# not a comment\"\n", "a = \"# not a comment\"\n"), None);
        assert_eq!(first_difference("", ""), None);
    }

    #[test]
    fn a_lost_comment_is_found_by_its_line() {
        assert_eq!(first_difference("a = [\n  1 # one\n  , # two\n]\n", "a = [\n  1, # two\n]\n"), Some(2));
        assert_eq!(first_difference("# same\n# same\n", "# same\n"), Some(2), "a repeated comment counts each time");
        assert_eq!(first_difference("a = 1 # x\n", "a = 1 # y\n"), Some(1), "a changed text is a lost comment");
        assert_eq!(first_difference("# a\n# b\n", "# a\n# b\n# b\n"), Some(2), "an added copy points to the original");
        assert_eq!(first_difference("# a\n", "# a\n# new\n"), Some(1));
        assert_eq!(first_difference("a = 1\n", "a = 1 # new\n"), None, "an input without comments is not compared");
    }
}
