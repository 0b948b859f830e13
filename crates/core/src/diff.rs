//! A unified line diff, for the `diff` verb (which never writes).
//!
//! Common leading and trailing lines are trimmed first; the middle is aligned
//! by a longest-common-subsequence table when it is small enough, and shown as
//! a whole replacement when it is not, so the cost stays bounded for any input.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Lines of context around each change.
const CONTEXT: usize = 3;
/// Largest LCS table (cells) before the middle is shown as one replacement.
const MAX_TABLE_CELLS: usize = 4_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Keep,
    Remove,
    Add,
}

/// The unified diff from `old` to `new`, labelled `a/<name>` and `b/<name>`;
/// empty when they are equal.
pub fn unified(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let script = edit_script(&a, &b);
    let mut out = format!("--- a/{name}\n+++ b/{name}\n");
    for hunk in hunks(&script) {
        render_hunk(&mut out, &script[hunk.0..hunk.1], &a, &b);
    }
    out
}

/// How many lines going from `old` to `new` adds and removes, as the
/// unified diff of the two counts them.
pub fn line_counts(old: &str, new: &str) -> (usize, usize) {
    if old == new {
        return (0, 0);
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let script = edit_script(&a, &b);
    let added = script.iter().filter(|s| s.op == Op::Add).count();
    let removed = script.iter().filter(|s| s.op == Op::Remove).count();
    (added, removed)
}

/// One step of the edit script, with the indices it consumed.
#[derive(Clone, Copy, Debug)]
struct Step {
    op: Op,
    a: usize,
    b: usize,
}

fn edit_script(a: &[&str], b: &[&str]) -> Vec<Step> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut steps: Vec<Step> = (0..prefix)
        .map(|i| Step {
            op: Op::Keep,
            a: i,
            b: i,
        })
        .collect();
    for (op, i, j) in align(mid_a, mid_b) {
        steps.push(Step {
            op,
            a: prefix + i,
            b: prefix + j,
        });
    }
    let (end_a, end_b) = (a.len() - suffix, b.len() - suffix);
    steps.extend((0..suffix).map(|k| Step {
        op: Op::Keep,
        a: end_a + k,
        b: end_b + k,
    }));
    steps
}

/// Aligns two line slices: LCS when the table is affordable, else replace all.
fn align(a: &[&str], b: &[&str]) -> Vec<(Op, usize, usize)> {
    let (n, m) = (a.len(), b.len());
    if n.saturating_mul(m) > MAX_TABLE_CELLS {
        let removes = (0..n).map(|i| (Op::Remove, i, 0));
        return removes.chain((0..m).map(|j| (Op::Add, n, j))).collect();
    }
    // lcs[i][j] = length of the LCS of a[i..] and b[j..].
    let mut lcs = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[at(i, j)] = if a[i] == b[j] {
                lcs[at(i + 1, j + 1)] + 1
            } else {
                lcs[at(i + 1, j)].max(lcs[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(n + m));
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push((Op::Keep, i, j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[at(i + 1, j)] >= lcs[at(i, j + 1)]) {
            out.push((Op::Remove, i, j));
            i += 1;
        } else {
            out.push((Op::Add, i, j));
            j += 1;
        }
    }
    out
}

/// Ranges of the script that form hunks: changes with their context, merged
/// when their contexts touch.
fn hunks(script: &[Step]) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (k, step) in script.iter().enumerate() {
        if step.op == Op::Keep {
            continue;
        }
        let start = k.saturating_sub(CONTEXT);
        let end = (k + 1 + CONTEXT).min(script.len());
        match ranges.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => ranges.push((start, end)),
        }
    }
    ranges
}

fn render_hunk(out: &mut String, steps: &[Step], a: &[&str], b: &[&str]) {
    let first = steps[0];
    let old_len = steps.iter().filter(|s| s.op != Op::Add).count();
    let new_len = steps.iter().filter(|s| s.op != Op::Remove).count();
    let old_start = if old_len == 0 { first.a } else { first.a + 1 };
    let new_start = if new_len == 0 { first.b } else { first.b + 1 };
    out.push_str(&format!(
        "@@ -{old_start},{old_len} +{new_start},{new_len} @@\n"
    ));
    for step in steps {
        let (mark, line) = match step.op {
            Op::Keep => (' ', a[step.a]),
            Op::Remove => ('-', a[step.a]),
            Op::Add => ('+', b[step.b]),
        };
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{line_counts, unified};

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a", "x\n", "x\n"), "");
        assert_eq!(line_counts("x\n", "x\n"), (0, 0));
    }

    #[test]
    fn line_counts_are_the_diffs_own() {
        assert_eq!(line_counts("1\n2\n3\n", "1\ntwo\n3\n4\n"), (2, 1));
        assert_eq!(line_counts("", "a\nb\n"), (2, 0));
        assert_eq!(line_counts("a\nb\n", ""), (0, 2));
    }

    #[test]
    fn a_one_line_change_has_one_hunk_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n";
        assert_eq!(
            unified("n.txt", old, new),
            "--- a/n.txt\n+++ b/n.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn a_new_file_and_missing_newlines_are_shown() {
        assert_eq!(
            unified("h.txt", "", "hello world"),
            "--- a/h.txt\n+++ b/h.txt\n@@ -0,0 +1,1 @@\n+hello world\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified("h.txt", "hi", "hello world"),
            "--- a/h.txt\n+++ b/h.txt\n@@ -1,1 +1,1 @@\n-hi\n\\ No newline at end of file\n+hello world\n\\ No newline at end of file\n"
        );
    }
}
