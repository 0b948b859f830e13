//! Sealing and writing lines, and recording the synced ones in the anchor.

use super::anchors::Due;
use super::{AnchorLog, AuditWriter, OpenLog};
use crate::durable::{Gate, Syncer};
use std::fs::File;
use std::io;
use std::io::Write;
use voicebox_core::audit::Entry;
use voicebox_core::audit::chain;
use voicebox_core::audit::chain::Anchor;
use voicebox_core::audit::lines::MAX_LINE;

impl AuditWriter {
    /// Writes one entry and syncs it at once, under the file's lock: the
    /// entries a writer adds while it opens a file (the `lost` sweep, why it
    /// moved on).
    pub(super) fn append_locked(&self, open: &mut OpenLog, entry: &Entry) -> io::Result<u64> {
        let before = open.len;
        // A file being opened has no sync in flight: its lines are never held.
        let answer = self.write_lines(open, &[entry], 0, Gate::default())?.pop();
        let synced = sync_open(&self.shared.sync, open);
        if synced.is_err() && open.len > before {
            let _ = open.file.set_len(before);
        }
        synced?;
        answer
            .expect("one entry, one answer")
            .map_err(io::Error::other)
    }

    /// Seals `entries` (seq, chain, open seqs) as group `group` and writes
    /// them as one write, announced first in the anchor records, once `gate`
    /// is passed; not synced. While a sync has the file, they are held and
    /// written when it ends (see [`put_held`]). An entry that cannot be sealed (over the line
    /// cap, past the seq ceiling) is answered so and left out. On a failed
    /// write the file is cut back to its last whole line.
    pub(super) fn write_lines(
        &self,
        open: &mut OpenLog,
        entries: &[&Entry],
        group: u64,
        gate: Gate,
    ) -> io::Result<Vec<Result<u64, String>>> {
        let (mut seq, mut prev) = (open.next_seq, open.prev.clone());
        let mut still_open = open.open.clone();
        let (mut bytes, mut hashes, mut answers) = (Vec::new(), Vec::new(), Vec::new());
        for entry in entries {
            if seq == u64::MAX {
                answers.push(Err(ceiling().to_string()));
                continue;
            }
            let mut sealed = entry.sealed(seq, prev.clone(), None);
            let mut now_open = still_open.clone();
            chain::track(&mut now_open, &sealed);
            sealed.open = now_open.first().copied();
            let line = sealed.line();
            if line.len() > MAX_LINE {
                answers.push(Err(format!(
                    "the entry is {} bytes, over the log's {MAX_LINE}-byte line cap; nothing was appended",
                    line.len()
                )));
                continue;
            }
            prev = chain::line_hash(line.as_bytes());
            hashes.push(prev.clone());
            bytes.extend_from_slice(line.as_bytes());
            still_open = now_open;
            answers.push(Ok(seq));
            seq += 1;
        }
        if hashes.is_empty() {
            // Every entry is answered as failed already.
            let _ = gate.pass();
            return Ok(answers);
        }
        let first = open.first.clone().unwrap_or_else(|| hashes[0].clone());
        if !open.in_sync {
            announce(open, &first, &hashes);
        }
        // A gate that fails leaves the lines unwritten and the file as it
        // was: only their own entries are answered so.
        if let Err(e) = gate.pass() {
            return Ok(answers.iter().map(|_| Err(e.to_string())).collect());
        }
        if !open.in_sync {
            put(open, &bytes, hashes)?;
        } else {
            open.held.push(Held {
                group,
                bytes,
                hashes,
            });
        }
        open.next_seq = seq;
        open.first = Some(first);
        open.prev = prev;
        open.open = still_open;
        Ok(answers)
    }
}

/// A group sealed while a sync had the file: written when it ends, so
/// that sync never makes a line durable before the record announcing it.
pub(super) struct Held {
    group: u64,
    bytes: Vec<u8>,
    hashes: Vec<String>,
}

/// Announces lines hashed `hashes` in the anchor records (if kept), before
/// they are written: the record's sync starts at once on the sync pool.
fn announce(open: &mut OpenLog, first: &str, hashes: &[String]) {
    if let Some(log) = open
        .anchor
        .as_mut()
        .filter(|_| open.synced.0 >= open.anchored)
    {
        // Before the lines, the anchor announces them (with the lines
        // still waiting for a sync), so a crash on either side of the
        // write leaves a file the anchor accounts for. Never ahead of
        // the durable log: its last line is the last one synced.
        let announce = Anchor {
            file: open.name.clone(),
            seq: open.synced.0,
            hash: open.synced.1.clone(),
            first: first.into(),
            next: [open.unsynced.as_slice(), hashes].concat(),
        };
        let _ = log.announce(&announce);
    }
}

/// Writes `bytes` (lines hashed `hashes`, announced) at the file's end.
fn put(open: &mut OpenLog, bytes: &[u8], hashes: Vec<String>) -> io::Result<()> {
    // `resync` has just made `len` the file's real length.
    let before = open.len;
    if let Err(e) = (&*open.file).write_all(bytes) {
        let _ = open.file.set_len(before);
        return Err(e);
    }
    open.len = before + bytes.len() as u64;
    open.unsynced.extend(hashes);
    Ok(())
}

/// Writes the groups held while a sync had the file, as one write: their
/// numbers, put on file or (the error) not.
pub(super) fn put_held(open: &mut OpenLog) -> Result<Vec<u64>, Vec<u64>> {
    let held = std::mem::take(&mut open.held);
    let (Some(first), false) = (open.first.clone(), held.is_empty()) else {
        return Ok(Vec::new());
    };
    let groups: Vec<u64> = held.iter().map(|h| h.group).collect();
    let bytes: Vec<u8> = held.iter().flat_map(|h| h.bytes.iter().copied()).collect();
    let hashes: Vec<String> = held.into_iter().flat_map(|h| h.hashes).collect();
    announce(open, &first, &hashes);
    match put(open, &bytes, hashes) {
        Ok(()) => Ok(groups),
        Err(_) => Err(groups),
    }
}

/// The numbers of the groups `open` holds, dropped with it: their lines
/// never reach the file.
pub(super) fn dropped_groups(open: &OpenLog) -> Vec<u64> {
    open.held.iter().map(|h| h.group).collect()
}

/// Makes the anchor records `anchor` durable (if any are kept), then the log.
pub(super) fn sync_files(sync: &Syncer, anchor: Option<Due>, file: &File) -> io::Result<()> {
    if let Some(anchor) = anchor {
        anchor.wait();
    }
    sync.file(file)
}

/// Syncs `open` where it is (its file lock held) and records its last line
/// as the host's in the anchor.
pub(super) fn sync_open(sync: &Syncer, open: &mut OpenLog) -> io::Result<()> {
    let anchor = open.anchor.as_ref().map(AnchorLog::due);
    sync_files(sync, anchor, &open.file)?;
    let last = (open.next_seq - 1, open.prev.clone());
    anchor_synced(open, last);
    Ok(())
}

/// `last` (seq, hash) and every line before it are durable: recorded as the
/// host's last line in the anchor (not synced: the next group's
/// announcement syncs it, and until then the announcement accounts for the
/// lines). Not where another process has appended since: its own records
/// then say more.
pub(super) fn anchor_synced(open: &mut OpenLog, last: (u64, String)) {
    if last.0 <= open.synced.0 {
        return;
    }
    let done = ((last.0 - open.synced.0) as usize).min(open.unsynced.len());
    open.unsynced.drain(..done);
    open.synced = last;
    let len = open.file.metadata().map(|m| m.len()).ok();
    let (Some(log), Some(first)) = (open.anchor.as_mut(), open.first.clone()) else {
        return;
    };
    if len != Some(open.len) || open.synced.0 < open.anchored {
        return;
    }
    let anchor = Anchor {
        file: open.name.clone(),
        seq: open.synced.0,
        hash: open.synced.1.clone(),
        first,
        next: open.unsynced.clone(),
    };
    // The lines are durable already; a record that cannot be written leaves
    // the announcement, which still accounts for them.
    if log.append(&anchor).is_ok() {
        open.anchored = open.synced.0;
    }
}

/// The seq after `seq`; the ceiling (2^64−1) is never written, so a file
/// whose last seq is at it cannot be resumed.
pub(super) fn after(seq: u64) -> io::Result<u64> {
    seq.checked_add(1).ok_or_else(ceiling)
}

pub(super) fn ceiling() -> io::Error {
    io::Error::other(
        "the audit file's seq is at its ceiling (2^64−1): no seq can follow it; nothing was appended",
    )
}
