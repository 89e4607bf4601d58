//! Unified diffs for `rustkeep fmt --diff`, in the format `patch` and `git apply` read.
//!
//! Lines are compared whole (with their line ends, so a line-ending change shows). The common
//! start and end are cut off first; the middle is matched by a longest common subsequence when it
//! is small enough, else shown as replaced wholesale (still a correct patch, only a coarser one).

/// Lines of context around each change.
const CONTEXT: usize = 3;
/// The largest middle (old lines × new lines) matched line by line.
const MAX_CELLS: usize = 4_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Same,
    Del,
    Ins,
}

fn lines(s: &str) -> Vec<&str> {
    s.split_inclusive('\n').collect()
}

/// The edit script turning `a` into `b`: (op, index in a or b).
fn script<'x>(a: &[&'x str], b: &[&'x str]) -> Vec<(Op, usize)> {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..].iter().rev().zip(b[pre..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (am, bm) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut out: Vec<(Op, usize)> = (0..pre).map(|i| (Op::Same, i)).collect();
    if am.len().saturating_mul(bm.len()) <= MAX_CELLS {
        // lcs[i][j] = length of the longest common subsequence of am[i..] and bm[j..].
        let w = bm.len() + 1;
        let mut lcs = vec![0u32; (am.len() + 1) * w];
        for i in (0..am.len()).rev() {
            for j in (0..bm.len()).rev() {
                lcs[i * w + j] = if am[i] == bm[j] { lcs[(i + 1) * w + j + 1] + 1 } else { lcs[(i + 1) * w + j].max(lcs[i * w + j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < am.len() || j < bm.len() {
            if i < am.len() && j < bm.len() && am[i] == bm[j] {
                out.push((Op::Same, pre + i));
                i += 1;
                j += 1;
            } else if i < am.len() && (j == bm.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                out.push((Op::Del, pre + i));
                i += 1;
            } else {
                out.push((Op::Ins, pre + j));
                j += 1;
            }
        }
    } else {
        out.extend((0..am.len()).map(|i| (Op::Del, pre + i)));
        out.extend((0..bm.len()).map(|j| (Op::Ins, pre + j)));
    }
    out.extend((0..suf).map(|k| (Op::Same, a.len() - suf + k)));
    out
}

fn push_line(out: &mut String, sign: char, line: &str) {
    out.push(sign);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

/// A unified diff from `old` to `new` with headers `--- a/PATH` / `+++ b/PATH`; empty when the
/// texts are equal.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (a, b) = (lines(old), lines(new));
    let ops = script(&a, &b);
    // Positions (in a and b) of each op, to number the hunks.
    let mut pos = Vec::with_capacity(ops.len());
    let (mut ia, mut ib) = (0usize, 0usize);
    for (op, _) in &ops {
        pos.push((ia, ib));
        match op {
            Op::Same => {
                ia += 1;
                ib += 1;
            }
            Op::Del => ia += 1,
            Op::Ins => ib += 1,
        }
    }
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, (op, _))| *op != Op::Same).map(|(k, _)| k).collect();
    let mut k = 0;
    while k < changed.len() {
        // Grow the hunk while the next change is within two contexts of the previous one.
        let first = changed[k];
        let mut last = first;
        while k + 1 < changed.len() && changed[k + 1] - last <= 2 * CONTEXT {
            k += 1;
            last = changed[k];
        }
        k += 1;
        let start = first.saturating_sub(CONTEXT);
        let end = (last + CONTEXT + 1).min(ops.len());
        let (a0, b0) = pos[start];
        let count_a = ops[start..end].iter().filter(|(op, _)| *op != Op::Ins).count();
        let count_b = ops[start..end].iter().filter(|(op, _)| *op != Op::Del).count();
        // An empty side is numbered by the line before it, as diff(1) does.
        let num = |start: usize, count: usize| if count == 0 { start } else { start + 1 };
        out.push_str(&format!("@@ -{},{count_a} +{},{count_b} @@\n", num(a0, count_a), num(b0, count_b)));
        for (op, i) in &ops[start..end] {
            match op {
                Op::Same => push_line(&mut out, ' ', a[*i]),
                Op::Del => push_line(&mut out, '-', a[*i]),
                Op::Ins => push_line(&mut out, '+', b[*i]),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies a unified diff made by [`unified`] to `old` (a tiny `patch`).
    fn apply(old: &str, diff: &str) -> String {
        let a = lines(old);
        let mut out = String::new();
        let mut at = 0;
        let mut it = diff.lines().skip(2).peekable();
        while let Some(h) = it.next() {
            let nums: Vec<usize> = h.trim_start_matches("@@ -").split([',', ' ', '+']).filter_map(|x| x.parse().ok()).collect();
            let (start, count) = (nums[0], nums[1]);
            let from = if count == 0 { start } else { start - 1 };
            for l in &a[at..from] {
                out.push_str(l);
            }
            at = from;
            while let Some(l) = it.peek() {
                if l.starts_with("@@") {
                    break;
                }
                let l = it.next().unwrap();
                let eol = if it.peek() == Some(&"\\ No newline at end of file") {
                    it.next();
                    ""
                } else {
                    "\n"
                };
                match l.chars().next() {
                    Some(' ') => {
                        out.push_str(&l[1..]);
                        out.push_str(eol);
                        at += 1;
                    }
                    Some('-') => at += 1,
                    Some('+') => {
                        out.push_str(&l[1..]);
                        out.push_str(eol);
                    }
                    _ => panic!("bad line {l:?}"),
                }
            }
        }
        for l in &a[at..] {
            out.push_str(l);
        }
        out
    }

    #[test]
    fn diffs_apply_back() {
        let cases = [
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("a\n", "a\nb\n"),
            ("", "x\n"),
            ("x\n", ""),
            ("a\nb", "a\nb\n"),
            ("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n", "1\n2x\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13x\n14\n"),
            ("k = 1\nj = 2\n", "j = 2\nk = 1\n"),
        ];
        for (old, new) in cases {
            let d = unified("f.toml", old, new);
            assert!(d.starts_with("--- a/f.toml\n+++ b/f.toml\n@@ "), "{d}");
            assert_eq!(apply(old, &d), new, "{old:?} → {new:?}\n{d}");
        }
        assert_eq!(unified("f", "same\n", "same\n"), "");
    }

    #[test]
    fn hunks_have_three_lines_of_context() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old.replace("10\n", "ten\n");
        let d = unified("f", &old, &new);
        assert!(d.contains("@@ -7,7 +7,7 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n"), "{d}");
    }
}
