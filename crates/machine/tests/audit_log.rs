//! The audit file on a real folder: concurrency, torn lines, the lost sweep,
//! two roots, and reopening across hosts.

mod common;

use common::write;
use std::path::Path;
use std::sync::Arc;
use tempfile::TempDir;
use voicebox_core::audit::page::{MAX_LIMIT, PageRequest};
use voicebox_core::audit::{
    self, ActRecord, AuditFile, Context, Entry, EntryDecision, EntryResult, Happened,
};
use voicebox_core::platform::Storage;
use voicebox_core::tier::ActKind;
use voicebox_machine::durable::{SyncObserver, Syncer};
use voicebox_machine::{FolderStorage, Host, RootOptions};

/// An entry of `instance`: an attempt left `Pending`, or an allowed act (`Ok`).
fn entry(instance: &str, result: EntryResult) -> Entry {
    let context = Context {
        instance: instance.into(),
        project: "p@machine".into(),
        root: "r".into(),
        turn: None,
        at: "2026-01-01T00:00:00.000Z".into(),
    };
    let rule = voicebox_core::Rule::WritesInside;
    let happened = match result {
        EntryResult::Pending => Happened::Attempt {
            rule,
            completes: None,
        },
        _ => Happened::Allowed {
            rule,
            observed: None,
            read: None,
        },
    };
    Entry::new(context, ActRecord::new(ActKind::Write, "a.txt"), happened)
}

fn log_text(root: &Path, storage: &FolderStorage) -> String {
    std::fs::read_to_string(root.join(".audit").join(storage.audit_file_name())).unwrap()
}

fn entries_of(text: &str) -> Vec<Entry> {
    let file = AuditFile {
        name: "x".into(),
        text: text.into(),
    };
    let (report, entries) = audit::parse(&file);
    assert!(!report.torn && report.corrupt.is_empty(), "{report:?}");
    entries
}

#[test]
fn many_threads_many_writes_lose_no_line_and_leave_no_gap() {
    let dir = TempDir::new().unwrap();
    // Two handles on the same file stand for two processes with one instance
    // name; the file lock and the seq re-read keep them apart.
    let a = Arc::new(FolderStorage::open(dir.path(), "w").unwrap());
    let b = Arc::new(FolderStorage::open(dir.path(), "w").unwrap());
    let (threads, per_thread) = (8, 200);
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let storage = if t % 2 == 0 { a.clone() } else { b.clone() };
            std::thread::spawn(move || {
                for _ in 0..per_thread {
                    pollster::block_on(storage.append_audit(&entry("w", EntryResult::Ok))).unwrap();
                }
            })
        })
        .collect();
    handles.into_iter().for_each(|h| h.join().unwrap());
    let seqs: Vec<u64> = entries_of(&log_text(dir.path(), &a))
        .iter()
        .map(|e| e.seq)
        .collect();
    let expected: Vec<u64> = (1..=(threads * per_thread) as u64).collect();
    assert_eq!(seqs, expected, "every line present, in seq order, gap-free");
}

#[test]
fn a_log_cut_at_every_byte_reads_as_a_prefix_and_appends_resume() {
    let dir = TempDir::new().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let storage = FolderStorage::open(&root, "w").unwrap();
    for _ in 0..3 {
        pollster::block_on(storage.append_audit(&entry("w", EntryResult::Ok))).unwrap();
    }
    let full = log_text(&root, &storage);
    let whole = entries_of(&full);
    let path = root.join(".audit").join(storage.audit_file_name());
    drop(storage);
    for cut in 0..=full.len() {
        let text = &full[..cut];
        let (report, got) = audit::parse(&AuditFile {
            name: "x".into(),
            text: text.into(),
        });
        // A line cut just before its newline is still a whole entry.
        let cut_before_newline =
            !text.is_empty() && !text.ends_with('\n') && full[cut..].starts_with('\n');
        let complete = text.matches('\n').count() + usize::from(cut_before_newline);
        assert_eq!(got, whole[..complete.min(3)], "cut at {cut}");
        assert!(report.corrupt.is_empty(), "cut at {cut}");
        // Reopening a cut log and appending gives the next seq, and the next
        // line is whole whatever was cut.
        std::fs::write(&path, text).unwrap();
        let reopened = FolderStorage::open(&root, "w").unwrap();
        let seq = pollster::block_on(reopened.append_audit(&entry("w", EntryResult::Ok))).unwrap();
        assert_eq!(seq, got.len() as u64 + 1, "cut at {cut}");
        let (_, after) = audit::parse(&AuditFile {
            name: "x".into(),
            text: std::fs::read_to_string(&path).unwrap(),
        });
        assert_eq!(after.last().unwrap().seq, seq, "cut at {cut}");
    }
}

#[test]
fn a_pending_attempt_from_an_earlier_boot_gets_exactly_one_lost_completion() {
    let dir = TempDir::new().unwrap();
    let storage = FolderStorage::open(dir.path(), "w").unwrap();
    pollster::block_on(storage.append_audit(&entry("w", EntryResult::Ok))).unwrap();
    let pending =
        pollster::block_on(storage.append_audit(&entry("w", EntryResult::Pending))).unwrap();
    drop(storage);
    for _boot in 0..3 {
        let storage = FolderStorage::open(dir.path(), "w").unwrap();
        let entries = entries_of(&log_text(dir.path(), &storage));
        let lost: Vec<&Entry> = entries
            .iter()
            .filter(|e| e.decision == EntryDecision::Lost)
            .collect();
        assert_eq!(lost.len(), 1);
        assert_eq!(
            (lost[0].attempt, lost[0].result),
            (Some(pending), EntryResult::Lost)
        );
        assert!(audit::dangling(&entries).is_empty());
    }
}

/// Two processes with one instance name (`serve` and a `turn`, or two
/// `turn`s) share a file: an opener is not alone, so the other's act in
/// flight is not declared `lost`; once it is gone, the next opener sweeps.
#[test]
fn an_act_in_flight_in_another_live_writer_is_not_swept_until_that_writer_is_gone() {
    let dir = TempDir::new().unwrap();
    let busy = FolderStorage::open(dir.path(), "w").unwrap();
    let pending = pollster::block_on(busy.append_audit(&entry("w", EntryResult::Pending))).unwrap();
    let lost_in = |storage: &FolderStorage| {
        entries_of(&log_text(dir.path(), storage))
            .into_iter()
            .filter(|e| e.decision == EntryDecision::Lost)
            .count()
    };
    let beside = FolderStorage::open(dir.path(), "w").unwrap();
    assert_eq!(lost_in(&beside), 0, "the live writer's attempt is not lost");
    drop(beside);
    drop(busy);
    let after = FolderStorage::open(dir.path(), "w").unwrap();
    assert_eq!(lost_in(&after), 1, "alone, the next opener sweeps it");
    let entries = entries_of(&log_text(dir.path(), &after));
    assert_eq!(entries.last().unwrap().attempt, Some(pending));
}

#[test]
fn two_roots_write_two_files_and_the_merged_read_orders_by_instance_and_seq() {
    let dir = TempDir::new().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    std::fs::create_dir(&one).unwrap();
    std::fs::create_dir(&two).unwrap();
    let mut first = Host::new("alpha", ());
    first.declare(&one).unwrap();
    let mut second = Host::new("beta", ());
    second.declare(&two).unwrap();
    assert!(first.execute(&write("a.txt", "1"), None).ok);
    assert!(second.execute(&write("b.txt", "2"), None).ok);
    assert!(first.execute(&write("c.txt", "3"), None).ok);
    let files = |root: &Path| std::fs::read_dir(root.join(".audit")).unwrap().count();
    assert_eq!(
        (files(&one), files(&two)),
        (1, 1),
        "one file per root and writer"
    );

    // Both writers' files side by side in one folder, read merged.
    std::fs::copy(
        two.join(".audit")
            .join(second.executor().storage().unwrap().audit_file_name()),
        one.join(".audit/beta-copied.jsonl"),
    )
    .unwrap();
    let view = first.audit(&PageRequest::first(MAX_LIMIT)).unwrap();
    assert_eq!(first.verify_audit().unwrap().files.len(), 2);
    let keys: Vec<(&str, u64)> = view
        .entries
        .iter()
        .map(|e| (e.instance.as_str(), e.seq))
        .collect();
    assert_eq!(
        keys,
        [
            ("beta", 2),
            ("beta", 1),
            ("alpha", 4),
            ("alpha", 3),
            ("alpha", 2),
            ("alpha", 1),
        ]
    );
    // No claimed global order: newest first is the (instance, seq) merge
    // reversed, never interleaved by wall clock.
    assert!(
        view.entries
            .windows(2)
            .all(|w| (&w[0].instance, w[0].seq) > (&w[1].instance, w[1].seq))
    );
}

/// Records each synced file's bytes by inode, and holds every sync a moment
/// after it, as a slow disk would, so that appends made meanwhile queue.
#[derive(Default)]
struct SlowDisk {
    synced: std::sync::Mutex<Vec<(u64, Vec<u8>)>>,
}

impl SyncObserver for SlowDisk {
    fn file_synced(&self, file: &std::fs::File) {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        let bytes = std::fs::read(format!("/proc/self/fd/{}", file.as_raw_fd())).unwrap();
        let ino = file.metadata().unwrap().ino();
        self.synced.lock().unwrap().push((ino, bytes));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    fn folder_synced(&self, _: &std::fs::File) {}
}

/// A root on a [`SlowDisk`], anchored; the storage and its log's inode.
fn on_slow_disk(dir: &TempDir) -> (Arc<FolderStorage>, Arc<SlowDisk>, std::path::PathBuf) {
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let disk = Arc::new(SlowDisk::default());
    let options = RootOptions {
        sync: Syncer::observed(disk.clone()),
        anchors: Some(dir.path().join("anchors")),
        ..RootOptions::default()
    };
    let storage = Arc::new(FolderStorage::open_with(&root, "w", options).unwrap());
    let log = root.join(".audit").join(storage.audit_file_name());
    (storage, disk, log)
}

/// The seqs of the log (inode `ino`) as of each of its sync points.
fn synced_seqs(disk: &SlowDisk, ino: u64) -> Vec<Vec<u64>> {
    let synced = disk.synced.lock().unwrap();
    let of_log = synced.iter().filter(|(i, _)| *i == ino);
    of_log
        .map(|(_, bytes)| {
            let text = String::from_utf8(bytes.clone()).unwrap();
            entries_of(&text).iter().map(|e| e.seq).collect()
        })
        .collect()
}

#[test]
fn concurrent_appends_share_a_sync_and_each_is_durable_before_its_answer() {
    use std::os::unix::fs::MetadataExt;
    let dir = TempDir::new().unwrap();
    let (storage, disk, log) = on_slow_disk(&dir);
    let threads = 16;
    let answered: Vec<(u64, usize)> = (0..threads)
        .map(|_| {
            let (storage, disk) = (storage.clone(), disk.clone());
            std::thread::spawn(move || {
                let seq =
                    pollster::block_on(storage.append_audit(&entry("w", EntryResult::Pending)))
                        .unwrap();
                (seq, disk.synced.lock().unwrap().len())
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    let ino = std::fs::metadata(&log).unwrap().ino();
    let points = synced_seqs(&disk, ino);
    for (seq, seen) in &answered {
        // A sync of the log recorded before the answer holds the line.
        let synced = disk.synced.lock().unwrap()[..*seen]
            .iter()
            .filter(|(i, _)| *i == ino)
            .count();
        assert!(
            points[..synced].iter().any(|seqs| seqs.contains(seq)),
            "seq {seq} was answered before it was synced"
        );
    }
    // Every seq once, in order, and fewer syncs of the log than appends.
    let last = points.last().unwrap();
    assert_eq!(*last, (1..=threads as u64).collect::<Vec<_>>());
    assert!(
        points.len() < threads,
        "{} syncs of the log for {threads} appends",
        points.len()
    );
    // The anchor names the last line, and the log verifies against it.
    let anchors = pollster::block_on(storage.audit_anchors()).unwrap();
    let name = log.file_name().unwrap().to_str().unwrap();
    let anchor = anchors.into_iter().find(|a| a.file == name).unwrap();
    assert_eq!((anchor.seq, anchor.next.len()), (threads as u64, 0));
    let verified = audit::chain::verify(
        name,
        &std::fs::read(&log).unwrap(),
        audit::chain::Anchoring::Anchored(anchor),
    );
    assert!(
        matches!(&verified.verdict, Some(audit::chain::Verdict::Ok(c)) if c.last_seq == threads as u64),
        "{verified:?}"
    );
}

#[test]
fn a_looks_line_is_on_file_at_its_answer_and_durable_by_the_next_change() {
    use std::os::unix::fs::MetadataExt;
    let dir = TempDir::new().unwrap();
    let (storage, disk, log) = on_slow_disk(&dir);
    let mut look = entry("w", EntryResult::Ok);
    look.act = ActRecord::new(ActKind::Read, "a.txt");
    let seq = pollster::block_on(storage.append_audit(&look)).unwrap();
    let written = entries_of(&std::fs::read_to_string(&log).unwrap());
    assert_eq!(
        written.last().map(|e| e.seq),
        Some(seq),
        "on file when answered"
    );
    // Control: a change's line is durable before its answer.
    let change = pollster::block_on(storage.append_audit(&entry("w", EntryResult::Ok))).unwrap();
    let ino = std::fs::metadata(&log).unwrap().ino();
    assert!(
        synced_seqs(&disk, ino)
            .iter()
            .any(|seqs| seqs.contains(&change))
    );
    // The look's sync followed it, before the change's group was written.
    assert!(
        synced_seqs(&disk, ino)
            .iter()
            .any(|seqs| seqs.contains(&seq))
    );
}

/// The anchor file's inode and its last record's `next` hashes, as of each
/// of its sync points.
fn synced_announcements(disk: &SlowDisk, anchors: &Path) -> Vec<Vec<String>> {
    use std::os::unix::fs::MetadataExt;
    let file = std::fs::read_dir(anchors).unwrap().next().unwrap().unwrap();
    let ino = file.metadata().unwrap().ino();
    let synced = disk.synced.lock().unwrap();
    synced
        .iter()
        .filter(|(i, _)| *i == ino)
        .map(|(_, bytes)| {
            let text = String::from_utf8(bytes.clone()).unwrap();
            let last = text.lines().last().unwrap();
            let record: serde_json::Value = serde_json::from_str(last).unwrap();
            let next = record["next"].as_array().cloned().unwrap_or_default();
            next.iter()
                .map(|h| h.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn an_announcement_is_synced_as_soon_as_it_is_written_and_the_log_only_when_waited_for() {
    use std::os::unix::fs::MetadataExt;
    let dir = TempDir::new().unwrap();
    let (storage, disk, log) = on_slow_disk(&dir);
    // An attempt is written, not waited for: its line's sync is the change's.
    pollster::block_on(storage.append_attempt(&entry("w", EntryResult::Pending))).unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let line = text.split_inclusive('\n').next_back().unwrap();
    let hash = audit::chain::line_hash(line.as_bytes());
    let ino = std::fs::metadata(&log).unwrap().ino();
    let anchors = dir.path().join("anchors");
    let announced = (0..500).any(|_| {
        let found = synced_announcements(&disk, &anchors)
            .iter()
            .any(|next| next.contains(&hash));
        std::thread::sleep(std::time::Duration::from_millis(10));
        found
    });
    assert!(
        announced,
        "the record announcing the attempt was synced by itself"
    );
    let seqs = synced_seqs(&disk, ino);
    assert!(
        seqs.iter()
            .all(|seqs| !seqs.contains(&entries_of(&text)[0].seq)),
        "nothing waited for the log yet: {seqs:?}"
    );
    // Control: a line waited for is in the log's last sync by its answer,
    // and its announcement was synced too.
    let outcome = pollster::block_on(storage.append_audit(&entry("w", EntryResult::Ok))).unwrap();
    let seqs = synced_seqs(&disk, ino);
    assert!(
        seqs.last().is_some_and(|last| last.contains(&outcome)),
        "{seqs:?}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let line = text.split_inclusive('\n').next_back().unwrap();
    let hash = audit::chain::line_hash(line.as_bytes());
    let announced = synced_announcements(&disk, &anchors);
    assert!(
        announced.iter().any(|next| next.contains(&hash)),
        "{announced:?}"
    );
}
