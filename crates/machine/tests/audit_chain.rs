//! The audit chain on a real folder with the host's anchors: an untouched
//! log verifies, and each kind of tampering is named where it happened.

mod common;

use common::write;
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use voicebox_core::audit::chain::{BreakKind, Verdict};
use voicebox_core::audit::page::{MAX_LIMIT, PageRequest};
use voicebox_machine::{Host, RootOptions};

struct Rig {
    _dir: TempDir,
    root: PathBuf,
    anchors: PathBuf,
    log: PathBuf,
}

/// A root whose log holds five write turns (ten lines), anchored.
fn rig() -> Rig {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    let anchors = dir.path().join("state/anchors");
    std::fs::create_dir(&root).unwrap();
    let mut host = host(&root, &anchors);
    for i in 0..5 {
        assert!(host.execute(&write(&format!("f{i}.txt"), "x"), None).ok);
    }
    let name = host
        .executor()
        .storage()
        .unwrap()
        .audit_file_name()
        .to_string();
    Rig {
        log: root.join(".audit").join(name),
        _dir: dir,
        root,
        anchors,
    }
}

fn host(root: &Path, anchors: &Path) -> Host {
    let mut host = Host::new("w", ());
    let options = RootOptions {
        anchors: Some(anchors.into()),
        ..RootOptions::default()
    };
    host.declare_with(root, options).unwrap();
    host
}

impl Rig {
    /// The verdict as a reader sees it: no writer opens (or sweeps) the log.
    fn verdict(&self) -> Verdict {
        let mut reader = Host::new("w", ());
        let options = RootOptions {
            anchors: Some(self.anchors.clone()),
            audit_at_first_append: true,
            ..RootOptions::default()
        };
        reader.declare_with(&self.root, options).unwrap();
        let files = reader.verify_audit().unwrap().files;
        assert_eq!(files.len(), 1);
        files[0].verdict.clone().unwrap()
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap()
            .split_inclusive('\n')
            .map(String::from)
            .collect()
    }

    fn set_lines(&self, lines: &[String]) {
        std::fs::write(&self.log, lines.concat()).unwrap();
    }

    /// Rewrites the log with its lines as `edit` leaves them.
    fn edit_lines(&self, edit: impl FnOnce(&mut Vec<String>)) {
        let mut lines = self.lines();
        edit(&mut lines);
        self.set_lines(&lines);
    }
}

fn broken(verdict: &Verdict) -> (BreakKind, usize) {
    match verdict {
        Verdict::Broken(b) => (b.kind, b.line),
        other => panic!("expected a break, got {other:?}"),
    }
}

#[test]
fn an_untouched_log_verifies_ok_with_its_anchor() {
    let rig = rig();
    match rig.verdict() {
        Verdict::Ok(chain) => {
            assert_eq!((chain.entries, chain.last_seq), (10, 10));
            assert!(chain.anchored && chain.unchained == 0);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_edited_line_breaks_the_chain_at_that_line() {
    let rig = rig();
    rig.edit_lines(|lines| lines[3] = lines[3].replace("f1.txt", "f9.txt"));
    assert_eq!(broken(&rig.verdict()), (BreakKind::Edited, 4));
}

#[test]
fn a_removed_line_is_named_removed() {
    let rig = rig();
    rig.edit_lines(|lines| {
        lines.remove(4);
    });
    assert_eq!(broken(&rig.verdict()), (BreakKind::Removed, 5));
}

#[test]
fn two_swapped_lines_are_named_reordered() {
    let rig = rig();
    rig.edit_lines(|lines| lines.swap(4, 5));
    assert_eq!(broken(&rig.verdict()), (BreakKind::Reordered, 5));
}

#[test]
fn whole_lines_cut_from_the_end_are_seen_only_against_the_anchor() {
    let rig = rig();
    let lines = rig.lines();
    rig.set_lines(&lines[..7]);
    assert_eq!(broken(&rig.verdict()).0, BreakKind::Truncated);
    // A writer reopening the cut log (its sweep appends a `lost` line) does
    // not move the anchor back: the cut stays seen.
    drop(host(&rig.root, &rig.anchors));
    assert_eq!(broken(&rig.verdict()).0, BreakKind::Truncated);
    // Positive control for the anchor's part: without it, the cut file's
    // chain holds and says so (anchored: false).
    let mut unanchored = Host::new("w", ());
    let read_only = RootOptions {
        audit_at_first_append: true,
        ..RootOptions::default()
    };
    unanchored.declare_with(&rig.root, read_only).unwrap();
    match &unanchored.verify_audit().unwrap().files[0].verdict {
        Some(Verdict::Ok(chain)) => assert!(!chain.anchored && chain.last_seq == 8),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_replaced_file_is_named_replaced() {
    let (rig, other) = (self::rig(), self::rig());
    // Another root's well-formed log, copied over this one's name.
    std::fs::copy(&other.log, &rig.log).unwrap();
    assert_eq!(broken(&rig.verdict()), (BreakKind::Replaced, 1));
    // The same file rebuilt from this file's own genesis with new content is
    // caught by the anchor's first line.
    let fresh = TempDir::new().unwrap();
    let mut rebuilt = host(&rig.root, fresh.path());
    std::fs::remove_file(&rig.log).unwrap();
    for i in 0..6 {
        assert!(rebuilt.execute(&write(&format!("g{i}.txt"), "y"), None).ok);
    }
    assert_eq!(broken(&rig.verdict()), (BreakKind::Replaced, 1));
}

#[test]
fn a_torn_last_line_is_torn_not_tampering_and_the_next_append_chains() {
    let rig = rig();
    rig.edit_lines(|lines| lines.push("{\"seq\":11,\"inst".into()));
    assert!(
        matches!(rig.verdict(), Verdict::Torn(_)),
        "{:?}",
        rig.verdict()
    );
    // Reopening closes the fragment; the next line chains over it.
    let mut host = host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("after.txt", "z"), None).ok);
    assert!(
        matches!(rig.verdict(), Verdict::Ok(_)),
        "{:?}",
        rig.verdict()
    );
}

#[test]
fn an_old_log_without_prev_is_reported_unchained_and_chains_from_there() {
    let rig = rig();
    let old: Vec<String> = rig
        .lines()
        .iter()
        .map(|line| {
            let mut entry: serde_json::Value = serde_json::from_str(line).unwrap();
            let map = entry.as_object_mut().unwrap();
            map.remove("prev");
            map.remove("open");
            format!("{entry}\n")
        })
        .collect();
    rig.set_lines(&old);
    std::fs::remove_dir_all(&rig.anchors).unwrap();
    let mut host = host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("new.txt", "n"), None).ok);
    match rig.verdict() {
        Verdict::Ok(chain) => assert_eq!((chain.unchained, chain.entries), (10, 12)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn pages_walk_the_whole_log_newest_first_without_repeats() {
    let rig = rig();
    let host = host(&rig.root, &rig.anchors);
    let mut seen = Vec::new();
    let mut page = PageRequest::new(None, Some(3)).unwrap();
    loop {
        let view = host.audit(&page).unwrap();
        seen.extend(view.entries.iter().map(|e| e.seq));
        match view.next {
            Some(next) => page = PageRequest::new(Some(&next), Some(3)).unwrap(),
            None => break,
        }
    }
    assert_eq!(seen, (1..=10).rev().collect::<Vec<u64>>());
    // Refusals by name: a limit over the maximum, and a cursor not given.
    assert!(PageRequest::new(None, Some(MAX_LIMIT + 1)).is_err());
    assert!(PageRequest::new(None, Some(MAX_LIMIT)).is_ok());
    assert!(PageRequest::new(Some("zz"), None).is_err());
}
