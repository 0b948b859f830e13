//! The sync-point crash test.
//!
//! A [`SyncObserver`] records, at every sync point, what the synced file or
//! folder shows. A power cut after any sync point leaves exactly that: each
//! file's bytes as of its last sync, each folder's names as of its last sync,
//! and nothing written since (the lazyfs model: unsynced data is lost). For
//! every such cut the test rebuilds that image in a fresh folder, boots a host
//! on it (which runs the `lost` sweep), and checks that every acknowledged act
//! is there with its outcome and its bytes, and that every other act is
//! absent, `lost`, or complete as recorded. The host's anchors (in a folder
//! outside the root) are cut with it, and the log still verifies against
//! them: a power cut is never reported as tampering.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use tempfile::TempDir;
use voicebox_core::audit::chain::{self, Anchoring};
use voicebox_core::audit::{self, AuditFile, Entry, EntryResult};
use voicebox_core::executor::Executor;
use voicebox_core::platform::Storage;
use voicebox_core::tier::Placement;
use voicebox_core::turn::Proposal;
use voicebox_machine::durable::{SyncObserver, Syncer};
use voicebox_machine::settle::settle_after;
use voicebox_machine::{FolderStorage, Host, MachineEnv, RootOptions};

/// What one sync point made durable.
#[derive(Clone)]
enum Synced {
    File {
        ino: u64,
        bytes: Vec<u8>,
    },
    Folder {
        ino: u64,
        names: BTreeMap<OsString, (u64, bool)>,
    },
}

#[derive(Default)]
struct Recorder {
    points: Mutex<Vec<Synced>>,
}

/// The open file's own path, which follows renames.
fn fd_path(file: &File) -> String {
    format!("/proc/self/fd/{}", file.as_raw_fd())
}

impl SyncObserver for Recorder {
    fn file_synced(&self, file: &File) {
        let ino = file.metadata().unwrap().ino();
        let bytes = std::fs::read(fd_path(file)).unwrap();
        self.points
            .lock()
            .unwrap()
            .push(Synced::File { ino, bytes });
    }

    fn folder_synced(&self, folder: &File) {
        let ino = folder.metadata().unwrap().ino();
        let mut names = BTreeMap::new();
        for entry in std::fs::read_dir(fd_path(folder)).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            names.insert(entry.file_name(), (meta.ino(), meta.is_dir()));
        }
        self.points
            .lock()
            .unwrap()
            .push(Synced::Folder { ino, names });
    }
}

/// An act the test asked for, and what it was answered.
struct Acked {
    /// Sync points recorded before the answer came back.
    after_point: usize,
    /// The outcome entry's seq.
    logged: u64,
    /// The name it changed and what it left there (`None`: no file).
    leaves: Option<(String, Option<String>)>,
}

/// Rebuilds, in `into`, what a power cut after the first `cut` sync points
/// leaves of the folder whose inode is `root`.
fn image(points: &[Synced], cut: usize, root: u64, into: &Path) {
    let mut folders: BTreeMap<u64, BTreeMap<OsString, (u64, bool)>> = BTreeMap::new();
    let mut files: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    for point in &points[..cut] {
        match point {
            Synced::File { ino, bytes } => {
                files.insert(*ino, bytes.clone());
            }
            Synced::Folder { ino, names } => {
                folders.insert(*ino, names.clone());
            }
        }
    }
    fn build(
        ino: u64,
        at: &Path,
        folders: &BTreeMap<u64, BTreeMap<OsString, (u64, bool)>>,
        files: &BTreeMap<u64, Vec<u8>>,
    ) {
        let Some(names) = folders.get(&ino) else {
            return;
        };
        for (name, (child, is_dir)) in names {
            let path = at.join(name);
            if *is_dir {
                std::fs::create_dir(&path).unwrap();
                build(*child, &path, folders, files);
            } else {
                // A name whose data was never synced comes back empty.
                std::fs::write(&path, files.get(child).map_or(&[][..], Vec::as_slice)).unwrap();
            }
        }
    }
    build(root, into, &folders, &files);
}

fn entries_in(root: &Path) -> Vec<Entry> {
    let mut entries = Vec::new();
    let Ok(listing) = std::fs::read_dir(root.join(".audit")) else {
        return entries;
    };
    for entry in listing {
        let path = entry.unwrap().path();
        let file = AuditFile {
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            text: std::fs::read_to_string(&path).unwrap(),
        };
        entries.extend(audit::parse(&file).1);
    }
    entries
}

/// The acts, each with the name it changes and what it leaves there.
fn acts() -> Vec<(Value, &'static str, Option<String>)> {
    let mut acts = Vec::new();
    for i in 0..6 {
        let name = ["n0.txt", "n1.txt", "n2.txt"][i % 3];
        acts.push((
            json!({"verb": "write", "name": name, "content": format!("v{i}")}),
            name,
            Some(format!("v{i}")),
        ));
    }
    let deep = "deep/er/x.txt";
    acts.push((
        json!({"verb": "write", "name": deep, "content": "nested"}),
        deep,
        Some("nested".into()),
    ));
    acts.push((
        json!({"verb": "edit", "name": "n0.txt", "oldText": "v3", "newText": "edited"}),
        "n0.txt",
        Some("edited".into()),
    ));
    acts.push((json!({"verb": "delete", "name": "n1.txt"}), "n1.txt", None));
    acts.push((json!({"verb": "undo"}), "n1.txt", Some("v4".into())));
    acts.push((
        json!({"verb": "write", "name": "n2.txt", "content": "last"}),
        "n2.txt",
        Some("last".into()),
    ));
    acts
}

/// Rebuilds what a power cut after the first `cut` sync points leaves of
/// the root and the anchors (each where it was), boots a host on it (the
/// `lost` sweep), checks the log verifies against the cut anchors, and
/// answers the entries before the boot and after it.
fn reboot_at(
    points: &[Synced],
    cut: usize,
    folders: [(&Path, u64); 2],
) -> (Vec<Entry>, Vec<Entry>) {
    // The image goes where the root was: the writer's file name depends on it.
    for (folder, ino) in folders {
        std::fs::remove_dir_all(folder).unwrap();
        std::fs::create_dir(folder).unwrap();
        image(points, cut, ino, folder);
    }
    let [(root, _), (anchors, _)] = folders;
    let before_boot = entries_in(root);
    // The reboot: opening the root runs the `lost` sweep.
    let options = RootOptions {
        anchors: Some(anchors.to_path_buf()),
        ..RootOptions::default()
    };
    let booted = FolderStorage::open_with(root, "crash", options).unwrap();
    let kept = pollster::block_on(booted.audit_anchors()).unwrap();
    let files = pollster::block_on(booted.audit_files()).unwrap();
    drop(booted);
    // One file, which the host built on, and it verifies against the anchors.
    assert!(files.len() <= 1, "cut {cut}: the host moved on: {files:?}");
    for file in files {
        let anchoring = match kept.iter().find(|a| a.file == file.name) {
            Some(anchor) => Anchoring::Anchored(anchor.clone()),
            None => Anchoring::Unknown,
        };
        let bytes = std::fs::read(root.join(".audit").join(&file.name)).unwrap();
        let verdict = chain::verify(&file.name, &bytes, anchoring)
            .verdict
            .unwrap();
        assert!(!verdict.fails(), "cut {cut}: {verdict:?}");
    }
    (before_boot, entries_in(root))
}

/// At cut `cut`: every act acknowledged before it is on record with `ok`
/// and its bytes (or those of a later act on the same name, not yet
/// acknowledged), every attempt is completed, and at most `in_flight` acts
/// were swept as `lost`.
fn check_cut(
    cut: usize,
    root: &Path,
    before_boot: &[Entry],
    entries: &[Entry],
    acked: &[Acked],
    in_flight: usize,
) {
    let outcome = |seq: u64| {
        entries
            .iter()
            .find(|e| e.seq == seq && e.instance == "crash")
    };
    let mut latest: BTreeMap<&str, &Option<String>> = BTreeMap::new();
    for act in acked.iter().filter(|a| a.after_point <= cut) {
        let entry = outcome(act.logged)
            .unwrap_or_else(|| panic!("cut {cut}: acknowledged entry {} is gone", act.logged));
        assert_eq!(entry.result, EntryResult::Ok, "cut {cut}: {entry:?}");
        if let Some((name, leaves)) = &act.leaves {
            latest.insert(name, leaves);
        }
    }
    for (name, leaves) in latest {
        let now = std::fs::read_to_string(root.join(name)).ok();
        // The next, unacknowledged act on the same name may have landed whole.
        let next = acked
            .iter()
            .filter(|a| a.after_point > cut)
            .filter_map(|a| a.leaves.as_ref())
            .find(|(n, _)| n == name)
            .map(|(_, leaves)| leaves);
        assert!(
            &now == leaves || next == Some(&now),
            "cut {cut}: {name} holds {now:?}, acknowledged {leaves:?}"
        );
    }
    // Every attempt is completed after the boot: by its outcome, or `lost`.
    assert!(
        audit::lost_completions(entries, "now").is_empty(),
        "cut {cut}: pending attempts remain"
    );
    let swept = entries.len() - before_boot.len();
    assert!(
        swept <= in_flight,
        "cut {cut}: at most the acts in flight are lost"
    );
}

/// A root and an anchors folder beside it, each with its inode (the rebuilt
/// image must keep them), watched by one recorder of every sync point.
struct Watched {
    _dir: TempDir,
    root: PathBuf,
    anchors: PathBuf,
    inos: (u64, u64),
    recorder: Arc<Recorder>,
}

impl Watched {
    fn new() -> Watched {
        let dir = TempDir::new().unwrap();
        let (root, anchors) = (dir.path().join("root"), dir.path().join("anchors"));
        std::fs::create_dir(&root).unwrap();
        std::fs::create_dir(&anchors).unwrap();
        let ino = |path: &Path| std::fs::metadata(path).unwrap().ino();
        Watched {
            inos: (ino(&root), ino(&anchors)),
            _dir: dir,
            root,
            anchors,
            recorder: Arc::new(Recorder::default()),
        }
    }

    /// The root's options: its syncs recorded, its anchors in the folder beside it.
    fn options(&self) -> RootOptions {
        RootOptions {
            sync: Syncer::observed(self.recorder.clone()),
            anchors: Some(self.anchors.clone()),
            ..RootOptions::default()
        }
    }

    /// The two folders a power cut rebuilds, with their inodes.
    fn folders(&self) -> [(&Path, u64); 2] {
        [(&self.root, self.inos.0), (&self.anchors, self.inos.1)]
    }
}

#[test]
fn no_acknowledged_act_is_lost_at_any_sync_point() {
    let watched = Watched::new();
    let (root, recorder) = (&watched.root, &watched.recorder);
    let mut ex = Executor::new(Placement::Machine, "crash", MachineEnv, ());
    ex.declare(
        FolderStorage::open_with(root, "crash", watched.options()).unwrap(),
        "root@machine",
    );

    let mut acked = Vec::new();
    for (action, name, leaves) in acts() {
        let mut reply = pollster::block_on(ex.execute(&action, None));
        if let Some(ask) = reply.confirm.take() {
            reply = pollster::block_on(ex.confirm(&ask.id, true));
        }
        assert!(reply.ok, "{action}: {reply:?}");
        assert_eq!(
            std::fs::read_to_string(root.join(name)).ok(),
            leaves,
            "{action}"
        );
        acked.push(Acked {
            after_point: recorder.points.lock().unwrap().len(),
            logged: reply.logged.expect("an answered act is on record"),
            leaves: Some((name.to_string(), leaves)),
        });
    }
    drop(ex);
    let points = recorder.points.lock().unwrap().clone();
    assert!(
        points.len() > acked.len() * 3,
        "every act passes several sync points"
    );

    let mut cuts = 0;
    for cut in 0..=points.len() {
        let entries = reboot_at(&points, cut, watched.folders());
        check_cut(cut, root, &entries.0, &entries.1, &acked, 1);
        cuts += 1;
    }
    assert_eq!(cuts, points.len() + 1);
    eprintln!(
        "{} acts, {} sync points, {cuts} power cuts checked",
        acked.len(),
        points.len()
    );
}

/// Thread `i`'s acts: (name, content), each content its own.
fn concurrent_acts(i: usize) -> Vec<(String, String)> {
    let names = [
        // A folder the first of them makes and the others write into.
        format!("shared/t{i}.txt"),
        format!("c{i}-a.txt"),
        format!("c{i}-b.txt"),
        format!("c{i}-a.txt"),
        format!("d{i}/e/x.txt"),
    ];
    names
        .into_iter()
        .enumerate()
        .map(|(k, name)| (name, format!("t{i}-v{k}")))
        .collect()
}

const THREADS: usize = 4;

#[test]
fn no_acknowledged_act_is_lost_when_concurrent_acts_share_syncs() {
    let watched = Watched::new();
    let (root, recorder) = (&watched.root, &watched.recorder);
    let mut host = Host::new("crash", ());
    host.declare_with(root, watched.options()).unwrap();
    // As the server runs writes: beside one another under the host's shared
    // lock, each answered once its lines are durable, waited for after it;
    // any other change holds the lock alone.
    let host = RwLock::new(host);
    let acked = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for i in 0..THREADS {
            let (host, acked) = (&host, &acked);
            scope.spawn(move || {
                for (name, content) in concurrent_acts(i) {
                    let action = json!({"verb": "write", "name": name, "content": content});
                    let proposal = Proposal::Sent(action.clone());
                    let (reply, settle) =
                        settle_after(|| host.read().unwrap().beside(&proposal, None));
                    let reply = reply.expect("a write runs beside others");
                    settle.wait().unwrap();
                    assert!(reply.ok, "{action}: {reply:?}");
                    acked.lock().unwrap().push(Acked {
                        after_point: recorder.points.lock().unwrap().len(),
                        logged: reply.logged.expect("an answered act is on record"),
                        leaves: Some((name, Some(content))),
                    });
                }
                // A removal holds the host alone, between the others' writes.
                let name = format!("c{i}-b.txt");
                let action = json!({"verb": "delete", "name": name});
                let (reply, settle) = settle_after(|| {
                    let mut host = host.write().unwrap();
                    let asked = host.execute(&action, None);
                    let ask = asked.confirm.expect("a delete is asked first");
                    host.confirm(&ask.id, true)
                });
                settle.wait().unwrap();
                assert!(reply.ok, "{action}: {reply:?}");
                acked.lock().unwrap().push(Acked {
                    after_point: recorder.points.lock().unwrap().len(),
                    logged: reply.logged.expect("an answered act is on record"),
                    leaves: Some((name, None)),
                });
            });
        }
    });
    drop(host);
    let acked = acked.into_inner().unwrap();
    let points = recorder.points.lock().unwrap().clone();

    for cut in 0..=points.len() {
        let (before_boot, entries) = reboot_at(&points, cut, watched.folders());
        check_cut(cut, root, &before_boot, &entries, &acked, THREADS);
        // Nothing lands before its attempt is on record: a file holds no
        // bytes but an act's, and only one whose attempt (and those of the
        // acts before it on that name) the log holds.
        for i in 0..THREADS {
            let acts = concurrent_acts(i);
            for (name, _) in &acts {
                let Ok(now) = std::fs::read_to_string(root.join(name)) else {
                    continue;
                };
                let k = acts
                    .iter()
                    .position(|(n, c)| n == name && *c == now)
                    .unwrap_or_else(|| panic!("cut {cut}: {name} holds {now:?}, no act's bytes"));
                let needed = acts[..=k].iter().filter(|(n, _)| n == name).count();
                let attempts = before_boot
                    .iter()
                    .filter(|e| e.result == EntryResult::Pending && e.act.target == *name)
                    .count();
                assert!(
                    attempts >= needed,
                    "cut {cut}: {name} holds {now:?} with {attempts} attempts on record"
                );
            }
        }
    }
    let logs = points
        .iter()
        .filter(|p| matches!(p, Synced::File { bytes, .. } if bytes.starts_with(b"{\"seq\"")))
        .count();
    eprintln!(
        "{} concurrent acts, {} sync points ({logs} of the log), {} power cuts checked",
        acked.len(),
        points.len(),
        points.len() + 1
    );
}
