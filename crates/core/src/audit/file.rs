//! One writer's log file: its name, reading it back (a torn last line is
//! skipped, never fatal), what a root's read and check answer, and what an
//! earlier boot left pending.

use super::{Entry, chain};
use crate::contain::AUDIT_DIR;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The file name of one writer's log for one root:
/// `<instance>-<root-hash>.jsonl`, with the first 12 hex digits of the
/// SHA-256 of the root.
pub fn file_name(instance: &str, root: &str) -> String {
    let digest = Sha256::digest(root.as_bytes());
    format!("{instance}-{}.jsonl", crate::hex(&digest[..6]))
}

/// The `n`th file of a writer's series (from 1, the file [`file_name`]
/// names): a writer that will not build on its file's tail moves on to the
/// next, `<instance>-<root-hash>.<n>.jsonl`.
pub fn numbered(first: &str, n: u64) -> String {
    match n {
        0 | 1 => first.into(),
        n => format!("{}.{n}.jsonl", first.trim_end_matches(".jsonl")),
    }
}

/// Which file of the series that starts with `first` `name` is, if any.
pub fn number_in(first: &str, name: &str) -> Option<u64> {
    if name == first {
        return Some(1);
    }
    let stem = first.strip_suffix(".jsonl")?;
    let n = name.strip_prefix(stem)?.strip_prefix('.')?;
    let n: u64 = n.strip_suffix(".jsonl")?.parse().ok()?;
    (n >= 2 && numbered(first, n) == name).then_some(n)
}

/// Whether `name` is a writer file of the root `root` (any writer, any
/// file of its series).
pub fn of_root(name: &str, root: &str) -> bool {
    let Some(stem) = name.strip_suffix(".jsonl") else {
        return false;
    };
    let stem = match stem.rsplit_once('.') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => stem,
    };
    let digest = Sha256::digest(root.as_bytes());
    stem.strip_suffix(&crate::hex(&digest[..6]))
        .and_then(|instance| instance.strip_suffix('-'))
        .is_some_and(valid_instance)
}

/// The audit file's path relative to the root.
pub fn file_path(instance: &str, root: &str) -> String {
    format!("{AUDIT_DIR}/{}", file_name(instance, root))
}

/// Whether an instance name is safe as part of a file name.
pub fn valid_instance(instance: &str) -> bool {
    !instance.is_empty()
        && instance.len() <= 64
        && instance
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// One audit file as storage returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditFile {
    pub name: String,
    pub text: String,
}

/// One file, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ParsedFile {
    pub name: String,
    pub entries: usize,
    /// A last line cut short (a crash mid-append): skipped and reported.
    pub torn: bool,
    /// Line numbers (from 1) of complete lines that do not parse.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub corrupt: Vec<usize>,
    /// Whether the file's chain holds, where the file was verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<chain::Verdict>,
}

/// Parses one log: every whole line that parses is an entry; a last line
/// without its newline that does not parse is torn and skipped, never fatal.
pub fn parse(file: &AuditFile) -> (ParsedFile, Vec<Entry>) {
    let mut report = ParsedFile {
        name: file.name.clone(),
        ..ParsedFile::default()
    };
    let mut entries = Vec::new();
    let complete = file.text.ends_with('\n');
    let lines: Vec<&str> = file.text.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Entry>(line) {
            Ok(entry) => entries.push(entry),
            Err(_) if index + 1 == lines.len() && !complete => report.torn = true,
            Err(_) => report.corrupt.push(index + 1),
        }
    }
    report.entries = entries.len();
    (report, entries)
}

/// One page of a root's audit, as `GET /api/audit` and `voicebox audit`
/// answer it: entries newest first in (instance, seq) order reversed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditView {
    pub ok: bool,
    pub root: Option<String>,
    pub entries: Vec<Entry>,
    /// The cursor of the next (older) page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// Lines passed over on the way because they are longer than any entry.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<super::page::Skipped>,
}

/// Every log of a root checked, as `GET /api/audit/verify` and `voicebox
/// audit --verify` answer it: per file its entries, torn or unreadable lines
/// and the chain's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditCheck {
    pub ok: bool,
    pub root: Option<String>,
    pub files: Vec<ParsedFile>,
}

/// Entries left pending with no completion naming them (one instance's log).
pub fn dangling(entries: &[Entry]) -> Vec<&Entry> {
    let completed: BTreeSet<u64> = entries.iter().filter_map(|e| e.attempt).collect();
    entries
        .iter()
        .filter(|e| e.is_pending() && !completed.contains(&e.seq))
        .collect()
}

/// The `lost` completions an opening writer appends for its own log: one per
/// entry an earlier boot left pending.
pub fn lost_completions(entries: &[Entry], at: &str) -> Vec<Entry> {
    dangling(entries)
        .into_iter()
        .map(|pending| pending.lost_completion(at.into()))
        .collect()
}

/// The highest seq in one instance's log (0 for an empty log).
pub fn last_seq(entries: &[Entry]) -> u64 {
    entries.iter().map(|e| e.seq).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{ActRecord, Context, EntryResult, Happened};
    use crate::rule::Rule;
    use crate::tier::ActKind;

    /// An attempt entry made as the executor makes one, with `seq` and
    /// `result` set as a writer and a later outcome would.
    fn entry(seq: u64, instance: &str, result: EntryResult, attempt: Option<u64>) -> Entry {
        let context = Context {
            instance: instance.into(),
            project: "p@machine".into(),
            root: "/r".into(),
            turn: None,
            at: "2026-01-01T00:00:00.000Z".into(),
        };
        let happened = Happened::Attempt {
            rule: Rule::WritesInside,
            completes: attempt,
        };
        let mut entry = Entry::new(context, ActRecord::new(ActKind::Write, "a.txt"), happened);
        entry.seq = seq;
        entry.result = result;
        entry
    }

    #[test]
    fn file_names_are_per_instance_and_root() {
        let a = file_name("cli", "/roots/a");
        assert!(a.starts_with("cli-") && a.ends_with(".jsonl") && a.len() == 4 + 12 + 6);
        assert_ne!(a, file_name("cli", "/roots/b"));
        assert_ne!(a, file_name("srv", "/roots/a"));
        assert!(valid_instance("tab-1_a") && !valid_instance("../x") && !valid_instance(""));
    }

    #[test]
    fn a_series_numbers_its_files_and_every_file_knows_its_root() {
        let first = file_name("cli", "/roots/a");
        let third = numbered(&first, 3);
        assert_eq!(third, first.replace(".jsonl", ".3.jsonl"));
        assert_eq!(number_in(&first, &first), Some(1));
        assert_eq!(number_in(&first, &third), Some(3));
        for other in [
            file_name("srv", "/roots/a"),
            numbered(&first, 1) + "x",
            "cli-.3.jsonl".into(),
        ] {
            assert_eq!(number_in(&first, &other), None, "{other}");
        }
        assert!(of_root(&first, "/roots/a") && of_root(&third, "/roots/a"));
        assert!(!of_root(&first, "/roots/b") && !of_root("zz-x.jsonl", "/roots/a"));
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_reported_and_whole_lines_survive() {
        let whole = entry(1, "a", EntryResult::Ok, None).line();
        let next = entry(2, "a", EntryResult::Ok, None).line();
        for cut in 0..next.len() {
            let text = format!("{whole}{}", &next[..cut]);
            let (report, entries) = parse(&AuditFile {
                name: "a".into(),
                text,
            });
            // A cut exactly before the newline still holds a whole entry.
            let expect = if cut + 1 == next.len() { 2 } else { 1 };
            assert_eq!(entries.len(), expect, "cut at {cut}");
            assert_eq!(report.torn, cut > 0 && expect == 1, "cut at {cut}");
            assert!(report.corrupt.is_empty());
        }
    }
}
