//! The audit chain on a real folder with the host's anchors: an untouched
//! log verifies, each kind of tampering is named where it happened, a file
//! the host wrote that is gone is `missing`, one it did not write is
//! `unanchored`, and the host never builds on lines it did not write.

mod common;

use common::write;
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use voicebox_core::audit::chain::{BreakKind, Verdict, line_hash};
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

/// A reader of `root` with the anchors in `anchors`: no writer opens (or
/// sweeps) the log.
fn reader(root: &Path, anchors: &Path) -> Host {
    let mut reader = Host::new("w", ());
    let options = RootOptions {
        anchors: Some(anchors.into()),
        audit_at_first_append: true,
        ..RootOptions::default()
    };
    reader.declare_with(root, options).unwrap();
    reader
}

impl Rig {
    /// Every file's verdict as a reader sees it, by name.
    fn verdicts(&self) -> Vec<(String, Verdict)> {
        let files = reader(&self.root, &self.anchors)
            .verify_audit()
            .unwrap()
            .files;
        files
            .into_iter()
            .map(|f| (f.name, f.verdict.unwrap()))
            .collect()
    }

    /// The verdict on the rig's own file.
    fn verdict(&self) -> Verdict {
        let name = self.log.file_name().unwrap().to_str().unwrap();
        let all = self.verdicts();
        let found = all.iter().find(|(n, _)| n == name);
        found
            .unwrap_or_else(|| panic!("{name} in {all:?}"))
            .1
            .clone()
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
    // A writer reopening the cut log leaves it as it is (the cut stays
    // seen) and goes on in its next file.
    let cut = rig.lines();
    drop(host(&rig.root, &rig.anchors));
    assert_eq!(broken(&rig.verdict()).0, BreakKind::Truncated);
    assert_eq!(rig.lines(), cut);
    // Positive control for the anchor's part: without it, the cut file's
    // chain holds and says so (anchored: false).
    let mut unanchored = Host::new("w", ());
    let read_only = RootOptions {
        audit_at_first_append: true,
        ..RootOptions::default()
    };
    unanchored.declare_with(&rig.root, read_only).unwrap();
    let files = unanchored.verify_audit().unwrap().files;
    let own = files.iter().find(|f| rig.log.ends_with(&f.name)).unwrap();
    match &own.verdict {
        Some(Verdict::Ok(chain)) => assert!(!chain.anchored && chain.last_seq == 7),
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
    std::fs::remove_file(&rig.log).unwrap();
    let mut rebuilt = host(&rig.root, fresh.path());
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
fn an_old_log_without_prev_is_reported_unchained_and_unanchored_and_not_built_on() {
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
    // With no anchor for it, the host did not write it as far as it knows:
    // the file is reported, not built on.
    match rig.verdict() {
        Verdict::Unanchored(chain) => assert_eq!((chain.unchained, chain.entries), (10, 10)),
        other => panic!("{other:?}"),
    }
    let mut host = host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("new.txt", "n"), None).ok);
    assert_eq!(rig.lines(), old);
    let next = next_file(&rig);
    assert!(
        matches!(&next.1, Verdict::Ok(c) if c.entries == 3),
        "{next:?}"
    );
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

/// The one file of the series besides the rig's own, with its verdict.
fn next_file(rig: &Rig) -> (String, Verdict) {
    let own = rig.log.file_name().unwrap().to_str().unwrap().to_string();
    let others: Vec<_> = rig
        .verdicts()
        .into_iter()
        .filter(|(n, _)| *n != own)
        .collect();
    assert_eq!(others.len(), 1, "{others:?}");
    assert_eq!(others[0].0, own.replace(".jsonl", ".2.jsonl"));
    others[0].clone()
}

/// The entries of file `name` of the rig's audit folder.
fn entries(rig: &Rig, name: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(rig.root.join(".audit").join(name))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The seq of each of `entries`, in file order.
fn seqs(entries: &[serde_json::Value]) -> Vec<u64> {
    entries.iter().map(|e| e["seq"].as_u64().unwrap()).collect()
}

/// Lines appended the way a writer of the root could: the last two entries
/// again with seqs past the host's, the chain recomputed over them.
fn forge_tail(rig: &Rig, seq_of: impl Fn(u64) -> u64) {
    let mut lines = rig.lines();
    let mut prev = line_hash(lines.last().unwrap().as_bytes());
    let sources: Vec<String> = lines[lines.len() - 2..].to_vec();
    for source in &sources {
        let mut entry: serde_json::Value = serde_json::from_str(source).unwrap();
        entry["seq"] = seq_of(entry["seq"].as_u64().unwrap()).into();
        entry["prev"] = prev.into();
        entry["act"]["target"] = "forged-act.txt".into();
        entry.as_object_mut().unwrap().remove("open");
        let line = format!("{entry}\n");
        prev = line_hash(line.as_bytes());
        lines.push(line);
    }
    rig.set_lines(&lines);
}

#[test]
fn a_file_the_host_wrote_that_is_gone_renamed_linked_or_emptied_fails_the_check() {
    let fails = |rig: &Rig| {
        let all = rig.verdicts();
        assert!(all.iter().any(|(_, v)| v.fails()), "{all:?}");
        rig.verdict()
    };
    let missing = |verdict: &Verdict| {
        matches!(
            verdict,
            Verdict::Missing {
                anchored_seq: 10,
                ..
            }
        )
    };
    // Control: the untouched log passes.
    let intact = rig();
    assert!(intact.verdicts().iter().all(|(_, v)| !v.fails()));

    let gone = rig();
    std::fs::remove_dir_all(gone.root.join(".audit")).unwrap();
    assert!(missing(&fails(&gone)), "{:?}", gone.verdicts());

    let renamed = rig();
    std::fs::rename(&renamed.log, renamed.log.with_extension("jsonl.bak")).unwrap();
    assert!(missing(&fails(&renamed)));

    let linked = rig();
    let empty = linked._dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::remove_dir_all(linked.root.join(".audit")).unwrap();
    std::os::unix::fs::symlink(&empty, linked.root.join(".audit")).unwrap();
    assert!(missing(&fails(&linked)));
    let folder = linked.verdicts().into_iter().find(|(n, _)| n == ".audit");
    assert!(
        matches!(folder, Some((_, Verdict::Unreadable { .. }))),
        "{folder:?}"
    );

    let link_to_copy = rig();
    let copy = link_to_copy._dir.path().join("copy.jsonl");
    std::fs::rename(&link_to_copy.log, &copy).unwrap();
    std::os::unix::fs::symlink(&copy, &link_to_copy.log).unwrap();
    assert!(missing(&fails(&link_to_copy)));

    let emptied = rig();
    std::fs::write(&emptied.log, "").unwrap();
    assert_eq!(broken(&fails(&emptied)).0, BreakKind::Truncated);

    // The host goes on in its next file, and the gone one stays missing.
    let mut host = host(&gone.root, &gone.anchors);
    assert!(host.execute(&write("after.txt", "a"), None).ok);
    assert!(missing(&gone.verdict()));
    let (name, next) = next_file(&gone);
    assert!(matches!(&next, Verdict::Ok(_)), "{next:?}");
    let first = &entries(&gone, &name)[0];
    assert_eq!(
        (first["rule"].as_str(), first["seq"].as_u64()),
        (Some("audit-tail-unanchored"), Some(11))
    );
}

#[test]
fn entries_after_the_hosts_last_line_are_an_unanchored_tail_and_never_built_on() {
    let rig = rig();
    // Control: a normal restart resumes its own tail, in the same file.
    let mut again = host(&rig.root, &rig.anchors);
    assert!(again.execute(&write("again.txt", "a"), None).ok);
    drop(again);
    assert!(matches!(rig.verdict(), Verdict::Ok(c) if c.last_seq == 12));
    assert_eq!(rig.verdicts().len(), 1);

    forge_tail(&rig, |seq| seq + 2);
    let forged = rig.lines();
    match rig.verdict() {
        Verdict::UnanchoredTail(tail) => {
            assert_eq!((tail.anchored_seq, tail.line, tail.after), (12, 13, 2));
            assert!(tail.chain.anchored);
        }
        other => panic!("{other:?}"),
    }
    // The host's next act: the forged lines stay as they are, not adopted;
    // it goes on in its next file, saying why, seqs after its own last one.
    let mut host = host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("next.txt", "n"), None).ok);
    assert_eq!(rig.lines(), forged);
    assert!(matches!(rig.verdict(), Verdict::UnanchoredTail(_)));
    let (name, next) = next_file(&rig);
    assert!(
        matches!(&next, Verdict::Ok(c) if c.anchored && c.entries == 3),
        "{next:?}"
    );
    let written = entries(&rig, &name);
    assert_eq!(seqs(&written), [13, 14, 15]);
    assert_eq!(written[0]["rule"], "audit-tail-unanchored");
    assert!(
        written[0]["why"].as_str().unwrap().contains("2 entries"),
        "{}",
        written[0]
    );
    // And it stays there: a restart resumes the new file.
    drop(host);
    let mut host = self::host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("later.txt", "l"), None).ok);
    assert_eq!(entries(&rig, &name).len(), 5);
    assert_eq!(rig.verdicts().len(), 2);
}

#[test]
fn a_writer_file_the_anchors_do_not_know_is_unanchored() {
    let rig = rig();
    // Another writer, with anchors of its own elsewhere, writes a well-formed
    // file in the same root.
    let elsewhere = TempDir::new().unwrap();
    let mut ghost = Host::new("ghost", ());
    let options = RootOptions {
        anchors: Some(elsewhere.path().into()),
        ..RootOptions::default()
    };
    ghost.declare_with(&rig.root, options).unwrap();
    assert!(ghost.execute(&write("ghost.txt", "g"), None).ok);
    let all = rig.verdicts();
    let ghost_file = all.iter().find(|(n, _)| n.starts_with("ghost-")).unwrap();
    assert!(
        matches!(&ghost_file.1, Verdict::Unanchored(c) if c.entries == 2),
        "{all:?}"
    );
    assert!(ghost_file.1.fails());
    // Control: the host's own file beside it passes, and with the other
    // writer's anchors the ghost file passes too.
    assert!(matches!(rig.verdict(), Verdict::Ok(_)));
    let theirs = reader(&rig.root, elsewhere.path())
        .verify_audit()
        .unwrap()
        .files;
    let ghost_file = theirs
        .iter()
        .find(|f| f.name.starts_with("ghost-"))
        .unwrap();
    assert!(matches!(ghost_file.verdict, Some(Verdict::Ok(_))));
}

#[test]
fn a_seq_at_the_ceiling_is_broken_and_the_writer_never_wraps() {
    let rig = rig();
    forge_tail(&rig, |_| u64::MAX);
    let (kind, line) = broken(&rig.verdict());
    assert_eq!((kind, line), (BreakKind::Ceiling, 11));
    let mut host = host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("next.txt", "n"), None).ok);
    let (name, _) = next_file(&rig);
    assert_eq!(
        seqs(&entries(&rig, &name)),
        [11, 12, 13],
        "seqs go on from the host's own, never from 0"
    );
    // Without anchors, a writer that would resume past the ceiling refuses.
    let bare = TempDir::new().unwrap();
    let mut unanchored = Host::new("w", ());
    unanchored.declare(bare.path()).unwrap();
    assert!(unanchored.execute(&write("a.txt", "a"), None).ok);
    let log = bare
        .path()
        .join(".audit")
        .join(unanchored.executor().storage().unwrap().audit_file_name());
    let text = std::fs::read_to_string(&log).unwrap();
    let mut entry: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    entry["seq"] = u64::MAX.into();
    entry["prev"] = line_hash(text.split_inclusive('\n').next_back().unwrap().as_bytes()).into();
    std::fs::write(&log, format!("{text}{entry}\n")).unwrap();
    drop(unanchored);
    let mut reopened = Host::new("w", ());
    reopened.declare(bare.path()).unwrap();
    let reply = reopened.execute(&write("b.txt", "b"), None);
    assert_eq!(
        reply.refused,
        Some(voicebox_core::Rule::AuditUnwritable),
        "{reply:?}"
    );
    assert!(!bare.path().join("b.txt").exists());
}

#[test]
fn a_lower_seq_chained_correctly_is_reordered() {
    let rig = rig();
    forge_tail(&rig, |_| 3);
    assert_eq!(broken(&rig.verdict()), (BreakKind::Reordered, 11));
}

#[test]
fn odd_entries_of_the_audit_folder_are_their_own_verdict_and_the_rest_shows() {
    let rig = rig();
    let audit = rig.root.join(".audit");
    std::fs::create_dir(audit.join("trap.jsonl")).unwrap();
    std::os::unix::fs::symlink(&rig.log, audit.join("link.jsonl")).unwrap();
    let fifo = std::ffi::CString::new(audit.join("fifo.jsonl").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let all = rig.verdicts();
    for odd in ["trap.jsonl", "link.jsonl", "fifo.jsonl"] {
        let found = all.iter().find(|(n, _)| n == odd);
        assert!(
            matches!(found, Some((_, Verdict::Unreadable { .. }))),
            "{odd}: {all:?}"
        );
    }
    assert!(matches!(rig.verdict(), Verdict::Ok(_)));
    let view = reader(&rig.root, &rig.anchors)
        .audit(&PageRequest::first(5))
        .unwrap();
    assert_eq!(view.entries.len(), 5);
    assert!(view.skipped.is_empty());
}

#[test]
fn a_line_longer_than_any_entry_is_passed_over_and_counted() {
    use voicebox_core::audit::lines::MAX_LINE;
    let rig = rig();
    let name = rig
        .log
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .replacen("w-", "zz-", 1);
    let long = rig.root.join(".audit").join(&name);
    let bytes = (MAX_LINE + 1000) as u64;
    std::fs::write(&long, vec![b'x'; bytes as usize]).unwrap();
    let view = reader(&rig.root, &rig.anchors)
        .audit(&PageRequest::first(5))
        .unwrap();
    assert_eq!(view.entries.len(), 5, "the other file's entries show");
    assert_eq!(view.skipped.len(), 1);
    assert_eq!(
        (
            view.skipped[0].file.as_str(),
            view.skipped[0].at,
            view.skipped[0].bytes
        ),
        (name.as_str(), 0, bytes)
    );
    let all = rig.verdicts();
    let found = all.iter().find(|(n, _)| *n == name).unwrap();
    assert!(matches!(found.1, Verdict::Unanchored(_)), "{all:?}");
    // Control: a line within the cap is read as a line (here: not an entry).
    std::fs::write(&long, vec![b'x'; 1000]).unwrap();
    let view = reader(&rig.root, &rig.anchors)
        .audit(&PageRequest::first(5))
        .unwrap();
    assert!(view.skipped.is_empty() && view.entries.len() == 5);
}

#[test]
fn a_tail_forged_while_the_host_runs_is_not_built_on_at_its_next_act() {
    let rig = rig();
    let mut live = host(&rig.root, &rig.anchors);
    // Control: the live host appends to its own file.
    assert!(live.execute(&write("own.txt", "o"), None).ok);
    assert_eq!(rig.verdicts().len(), 1);
    forge_tail(&rig, |seq| seq + 2);
    let forged = rig.lines();
    assert!(live.execute(&write("next.txt", "n"), None).ok);
    assert_eq!(rig.lines(), forged, "the forged lines are left as they are");
    let (name, next) = next_file(&rig);
    assert!(matches!(&next, Verdict::Ok(_)), "{next:?}");
    assert_eq!(seqs(&entries(&rig, &name)), [13, 14, 15]);
}

#[test]
fn an_act_the_host_left_pending_under_a_forged_tail_is_swept_in_its_next_file() {
    use voicebox_core::audit::{Entry, EntryDecision, EntryResult};
    use voicebox_core::platform::Storage;
    use voicebox_machine::FolderStorage;
    let rig = rig();
    let options = RootOptions {
        anchors: Some(rig.anchors.clone()),
        ..RootOptions::default()
    };
    let storage = FolderStorage::open_with(&rig.root, "w", options.clone()).unwrap();
    let mut pending: Entry = serde_json::from_str(&rig.lines()[0]).unwrap();
    (pending.decision, pending.result, pending.attempt) =
        (EntryDecision::Attempt, EntryResult::Pending, None);
    let seq = pollster::block_on(storage.append_audit(&pending)).unwrap();
    assert_eq!(seq, 11);
    drop(storage);
    forge_tail(&rig, |seq| seq + 2);
    drop(FolderStorage::open_with(&rig.root, "w", options).unwrap());
    let (name, _) = next_file(&rig);
    let written = entries(&rig, &name);
    assert_eq!(written.len(), 2, "{written:?}");
    assert_eq!(written[0]["rule"], "audit-tail-unanchored");
    assert_eq!(
        (
            written[1]["decision"].as_str(),
            written[1]["attempt"].as_u64()
        ),
        (Some("lost"), Some(11))
    );
}

/// The anchor file of the rig's log: its records, one a line, the last one
/// the anchor.
fn anchor_file(rig: &Rig) -> PathBuf {
    let name = rig.log.file_name().unwrap().to_str().unwrap();
    rig.anchors.join(name.replace(".jsonl", ".anchor.json"))
}

/// The anchor as the host last recorded it.
fn last_anchor(rig: &Rig) -> serde_json::Value {
    let records = std::fs::read_to_string(anchor_file(rig)).unwrap();
    serde_json::from_str(records.lines().last().unwrap()).unwrap()
}

#[test]
fn a_crash_on_either_side_of_an_append_leaves_a_log_the_anchor_accounts_for() {
    let rig = rig();
    let anchor = anchor_file(&rig);
    let mut before = last_anchor(&rig);
    assert_eq!(before["seq"], 10, "{before}");
    // Killed after announcing line 10 and before writing it: the anchor names
    // line 9 and announces 10, and the file ends at 9. Written here as a
    // host before grouped lines wrote it (one record, `next` a string), so
    // that format is checked too.
    let lines = rig.lines();
    before["seq"] = 9.into();
    before["hash"] = line_hash(lines[8].as_bytes()).into();
    before["next"] = line_hash(lines[9].as_bytes()).into();
    std::fs::write(&anchor, before.to_string()).unwrap();
    rig.set_lines(&lines[..9]);
    assert!(
        matches!(rig.verdict(), Verdict::Ok(c) if c.last_seq == 9),
        "{:?}",
        rig.verdict()
    );
    // Killed after writing it and before confirming it: the file ends at 10.
    rig.set_lines(&lines);
    assert!(matches!(rig.verdict(), Verdict::Ok(c) if c.last_seq == 10));
    // Either way the host goes on in the same file, appending its records
    // after the old one.
    let mut host = host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("next.txt", "n"), None).ok);
    assert_eq!(rig.verdicts().len(), 1);
    assert!(matches!(rig.verdict(), Verdict::Ok(c) if c.last_seq == 12));
    assert_eq!(last_anchor(&rig)["seq"], 12);
    // Control: with the confirmed anchor, the same cut of the last line shows.
    rig.set_lines(&rig.lines()[..11]);
    assert_eq!(broken(&rig.verdict()).0, BreakKind::Truncated);
    // And a line that is not the announced one is not the host's.
    std::fs::write(&anchor, before.to_string()).unwrap();
    rig.set_lines(&lines[..9]);
    forge_tail(&rig, |seq| seq + 2);
    assert!(
        matches!(rig.verdict(), Verdict::UnanchoredTail(t) if (t.line, t.after) == (10, 2)),
        "{:?}",
        rig.verdict()
    );
}

#[test]
fn a_crash_inside_a_group_leaves_any_prefix_of_it_the_hosts_and_nothing_more() {
    let rig = rig();
    let anchor = anchor_file(&rig);
    let lines = rig.lines();
    // The host announced lines 8, 9 and 10 as one group after line 7.
    let mut group = last_anchor(&rig);
    group["seq"] = 7.into();
    group["hash"] = line_hash(lines[6].as_bytes()).into();
    group["next"] = (7..10)
        .map(|i| line_hash(lines[i].as_bytes()))
        .collect::<Vec<_>>()
        .into();
    let mut records = std::fs::read_to_string(&anchor).unwrap();
    records.push_str(&format!("{group}\n"));
    std::fs::write(&anchor, &records).unwrap();
    for end in 7..=10 {
        rig.set_lines(&lines[..end]);
        assert!(
            matches!(rig.verdict(), Verdict::Ok(c) if c.last_seq == end as u64),
            "cut after line {end}: {:?}",
            rig.verdict()
        );
    }
    // The host builds on a prefix of its group: the next act follows line 8.
    rig.set_lines(&lines[..8]);
    let mut host = self::host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("next.txt", "n"), None).ok);
    drop(host);
    assert_eq!(rig.verdicts().len(), 1);
    assert!(matches!(rig.verdict(), Verdict::Ok(c) if c.last_seq == 10));
    // Not announced: lines 8 and 9 of the group, then two that are not its
    // 10th; nor does the host build on them: it goes on in its next file.
    std::fs::write(&anchor, &records).unwrap();
    rig.set_lines(&lines[..9]);
    forge_tail(&rig, |seq| seq + 2);
    assert!(
        matches!(rig.verdict(), Verdict::UnanchoredTail(t) if (t.anchored_seq, t.line, t.after) == (9, 10, 2)),
        "{:?}",
        rig.verdict()
    );
    let mut host = self::host(&rig.root, &rig.anchors);
    assert!(host.execute(&write("next.txt", "n"), None).ok);
    let (_, next) = next_file(&rig);
    assert!(matches!(&next, Verdict::Ok(_)), "{next:?}");
}
