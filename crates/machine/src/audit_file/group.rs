//! Group commit: appends wait in a queue, one caller writes the waiting
//! lines as one group, and one `fdatasync` makes every group written durable.

use super::{AnchorLog, AuditWriter, OpenLog, anchor_synced, dropped_groups, put_held, sync_files};
use crate::durable::{Gate, Syncer, pool};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io;
use std::sync::Arc;
use std::sync::Condvar;
use std::sync::Mutex;
use std::sync::MutexGuard;
use voicebox_core::audit::Entry;
use voicebox_core::tier::ActKind;

/// The most entries one group writes: the announcing anchor record lists
/// each one's hash, so a group stays a few KiB.
const MAX_GROUP: usize = 64;

/// What the caller writing a group and the thread finishing its sync share.
pub(super) struct Shared {
    pub(super) sync: Syncer,
    pub(super) state: Mutex<Option<OpenLog>>,
    /// Files left with lines not yet synced (moved on from, replaced).
    pub(super) retired: Mutex<Vec<Arc<File>>>,
    queue: Mutex<Queue>,
    /// Told when answers are ready or the writing caller is done.
    turn: Condvar,
}

/// Entries waiting to be written, and the groups written but not yet durable.
#[derive(Default)]
struct Queue {
    waiting: Vec<Waiting>,
    next_ticket: u64,
    /// A caller is writing a group.
    writing: bool,
    /// A sync is in flight.
    syncing: bool,
    /// Groups written, and groups known durable, counted from the first.
    written: u64,
    synced: u64,
    /// Answers that wait for their group's sync: (group, ticket, answer).
    owed: Vec<(u64, u64, Result<u64, String>)>,
    /// Answers by ticket: the entry's seq and its group, or why it is not
    /// on record.
    answered: BTreeMap<u64, Result<(u64, u64), String>>,
    /// Syncs that failed: the groups they covered (first, last), and why.
    failed: Vec<(u64, u64, String)>,
    /// Looks whose group was held: answered once it is on file, as a look
    /// is (group, ticket, answer).
    after_put: Vec<(u64, u64, Result<u64, String>)>,
    /// Held groups put on file before their looks were queued above.
    put_early: BTreeSet<u64>,
}

/// An entry waiting to be written.
struct Waiting {
    ticket: u64,
    entry: Entry,
    /// Answered once written (see [`AuditWriter::append_written`]).
    now: bool,
    /// Syncs its line is written after (see [`AuditWriter::append`]).
    gate: Gate,
}

/// How many of `waiting` the next group takes: up to [`MAX_GROUP`], and an
/// entry with a gate alone, so a failed gate fails only its own entry.
fn group_len(waiting: &[Waiting]) -> usize {
    match waiting.iter().position(|w| !w.gate.is_open()) {
        Some(0) => 1,
        Some(gated) => gated,
        None => waiting.len(),
    }
    .min(MAX_GROUP)
}

/// A line written but maybe not yet durable: [`Owed::wait`] returns once a
/// sync that began after its write has ended.
pub(crate) struct Owed {
    shared: Arc<Shared>,
    group: u64,
}

impl Owed {
    /// Waits until the line's group is durable, syncing it here where no
    /// sync is in flight; an error if the sync that covered it failed.
    pub(crate) fn wait(&self) -> io::Result<()> {
        let shared = &self.shared;
        let mut queue = shared.queue();
        loop {
            if let Some(why) = queue.failure(self.group) {
                return Err(io::Error::other(why.to_string()));
            }
            if queue.synced >= self.group {
                return Ok(());
            }
            if !queue.syncing && queue.written > queue.synced {
                queue.syncing = true;
                drop(queue);
                Shared::sync_written_groups(shared, false);
                queue = shared.queue();
                continue;
            }
            queue = shared.turn.wait(queue).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Queue {
    /// Why group `group`'s lines are not durable, if a sync that covered
    /// them failed or they never reached the file.
    fn failure(&self, group: u64) -> Option<&str> {
        let covers = |(first, last, _): &&(u64, u64, String)| (*first..=*last).contains(&group);
        self.failed
            .iter()
            .find(covers)
            .map(|(.., why)| why.as_str())
    }
}

impl AuditWriter {
    /// Appends one entry with the next seq and returns that seq once the
    /// line is durable (a look's line: once it is written; its sync follows
    /// at once, off the answer's path). The entry waits with the others; a
    /// caller that finds no group being written writes the waiting ones as
    /// the next group, while the one before may still be syncing: one
    /// `fdatasync` then covers every line written before it.
    ///
    /// The line is sealed (and announced, where no sync has the file; else
    /// once it ends) at once, and written once `gate`
    /// is passed: the syncs it names are made meanwhile.
    pub(crate) fn append(&self, entry: &Entry, gate: Gate) -> io::Result<u64> {
        self.enqueue(entry, false, gate).map(|(seq, _)| seq)
    }

    /// Appends one entry with the next seq and returns that seq once the
    /// line has its place in the chain (written, or held behind a sync in
    /// flight), with what to wait on for it to be durable (`None` for a
    /// look, whose sync follows off the answer's path anyway): the caller
    /// makes other files durable meanwhile, or lets others act, and then
    /// waits ([`Owed::wait`] syncs it where no sync is in flight).
    pub(crate) fn append_written(
        &self,
        entry: &Entry,
        gate: Gate,
    ) -> io::Result<(u64, Option<Owed>)> {
        let (seq, group) = self.enqueue(entry, true, gate)?;
        let owed = (!is_look(entry)).then(|| Owed {
            shared: self.shared.clone(),
            group,
        });
        Ok((seq, owed))
    }

    /// Queues `entry` and answers its seq and group: once written (`now`)
    /// or once durable.
    fn enqueue(&self, entry: &Entry, now: bool, gate: Gate) -> io::Result<(u64, u64)> {
        let mut queue = self.shared.queue();
        let ticket = queue.next_ticket;
        queue.next_ticket += 1;
        queue.waiting.push(Waiting {
            ticket,
            entry: entry.clone(),
            now,
            gate,
        });
        loop {
            if let Some(answer) = queue.answered.remove(&ticket) {
                return answer.map_err(io::Error::other);
            }
            // One group written at a time (held while a sync has the file).
            if !queue.writing && !queue.waiting.is_empty() {
                queue.writing = true;
                let take = group_len(&queue.waiting);
                let group: Vec<_> = queue.waiting.drain(..take).collect();
                let number = queue.written + 1;
                drop(queue);
                self.write_group(group, number);
                queue = self.shared.queue();
                continue;
            }
            // Groups written and no sync in flight: this caller syncs them.
            if !queue.syncing && queue.written > queue.synced {
                queue.syncing = true;
                drop(queue);
                Shared::sync_written_groups(&self.shared, false);
                queue = self.shared.queue();
                continue;
            }
            queue = self
                .shared
                .turn
                .wait(queue)
                .unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Writes `group` as one write. A look (or an entry appended with
    /// [`AuditWriter::append_written`]) is answered now; any other entry once
    /// a sync that began after its write ends. Whoever waits for a line syncs
    /// it on their own thread (no hand-over to another); a group of looks
    /// alone, with no sync in flight, has its sync started at once on the
    /// sync pool.
    fn write_group(&self, mut group: Vec<Waiting>, number: u64) {
        // A gated entry is alone in its group (see `group_len`).
        let gate = group
            .first_mut()
            .map(|w| std::mem::take(&mut w.gate))
            .unwrap_or_default();
        let entries: Vec<&Entry> = group.iter().map(|w| &w.entry).collect();
        let written = self.with_open(|open| {
            let answers = self.write_lines(open, &entries, number, gate)?;
            Ok((answers, open.in_sync))
        });
        let mut queue = self.shared.queue();
        queue.writing = false;
        let (answers, held) = match written {
            Ok(written) => written,
            Err(e) => {
                let failed = group.iter().map(|w| (w.ticket, Err(e.to_string())));
                queue.answered.extend(failed);
                drop(queue);
                self.shared.turn.notify_all();
                return;
            }
        };
        queue.written = number;
        let mut waits = false;
        let mut looks_held = Vec::new();
        for (
            Waiting {
                ticket, entry, now, ..
            },
            answer,
        ) in group.iter().zip(answers)
        {
            waits |= !is_look(entry) && answer.is_ok();
            if held && !*now && is_look(entry) && answer.is_ok() {
                looks_held.push((number, *ticket, answer));
            } else if *now || is_look(entry) || answer.is_err() {
                queue
                    .answered
                    .insert(*ticket, answer.map(|seq| (seq, number)));
            } else {
                queue.owed.push((number, *ticket, answer));
            }
        }
        // A look held behind a sync is answered once its line is on file.
        if !looks_held.is_empty() {
            let failure = queue.failure(number).map(str::to_string);
            if failure.is_none() && !queue.put_early.remove(&number) {
                queue.after_put.extend(looks_held);
            } else {
                for (_, ticket, answer) in looks_held {
                    let answer = match &failure {
                        Some(why) => Err(why.clone()),
                        None => answer.map(|seq| (seq, number)),
                    };
                    queue.answered.insert(ticket, answer);
                }
            }
        }
        let start = !queue.syncing && !waits;
        queue.syncing |= start;
        drop(queue);
        self.shared.turn.notify_all();
        if !start {
            return;
        }
        Shared::sync_on_a_thread(&self.shared);
    }
}

impl Shared {
    pub(super) fn new(sync: Syncer) -> Shared {
        Shared {
            sync,
            state: Mutex::new(None),
            retired: Mutex::default(),
            queue: Mutex::default(),
            turn: Condvar::new(),
        }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets the open file (it is opened afresh next time).
    pub(super) fn reset(&self, state: &mut Option<OpenLog>) {
        if let Some(open) = state.take() {
            self.retire(&open);
        }
    }

    /// A file this writer leaves: where lines of it wait for their sync,
    /// the next sync covers it too; groups it held never reach it, and
    /// fail.
    pub(super) fn retire(&self, open: &OpenLog) {
        if !open.unsynced.is_empty() {
            let mut retired = self.retired.lock().unwrap_or_else(|p| p.into_inner());
            retired.push(open.file.clone());
        }
        if open.in_sync {
            let _ = open.file.unlock();
        }
        self.fail_groups(
            dropped_groups(open),
            "the audit file changed before these lines were written; nothing was appended",
        );
    }

    /// Records that `groups`' lines are not on file.
    fn fail_groups(&self, groups: Vec<u64>, why: &str) {
        if groups.is_empty() {
            return;
        }
        let mut queue = self.queue();
        for group in &groups {
            queue.failed.push((*group, *group, why.into()));
        }
        let (failed, rest) = std::mem::take(&mut queue.after_put)
            .into_iter()
            .partition(|(group, ..)| groups.contains(group));
        queue.after_put = rest;
        for (_, ticket, _) in failed {
            queue.answered.insert(ticket, Err(why.into()));
        }
        drop(queue);
        self.turn.notify_all();
    }

    /// Held `groups` are on file now: their looks are answered.
    fn groups_put(&self, groups: Vec<u64>) {
        let mut queue = self.queue();
        for group in groups {
            let (due, rest): (Vec<_>, _) = std::mem::take(&mut queue.after_put)
                .into_iter()
                .partition(|(held, ..)| *held == group);
            queue.after_put = rest;
            if due.is_empty() {
                queue.put_early.insert(group);
            }
            for (_, ticket, answer) in due {
                queue
                    .answered
                    .insert(ticket, answer.map(|seq| (seq, group)));
            }
        }
        drop(queue);
        self.turn.notify_all();
    }

    /// Syncs the groups written (`syncing` is set), answering the entries
    /// that waited for them. Then, with groups written meanwhile: a caller
    /// waiting for its own line syncs those; looks' alone are synced on the
    /// sync pool (`on_thread`: this one).
    fn sync_written_groups(shared: &Arc<Shared>, on_thread: bool) {
        let mut once = false;
        loop {
            let mut queue = shared.queue();
            let target = queue.written;
            let owners = !queue.owed.is_empty();
            if target == queue.synced || once && (owners || !on_thread) {
                let handed_on = target > queue.synced && !owners;
                queue.syncing = handed_on;
                drop(queue);
                shared.turn.notify_all();
                if handed_on {
                    Shared::sync_on_a_thread(shared);
                }
                return;
            }
            once = true;
            drop(queue);
            let result = shared.sync_written().map_err(|e| e.to_string());
            let mut queue = shared.queue();
            if let Err(why) = &result {
                let first = queue.synced + 1;
                queue.failed.push((first, target, why.clone()));
            }
            queue.synced = target;
            let (due, owed) = std::mem::take(&mut queue.owed)
                .into_iter()
                .partition(|(group, ..)| *group <= target);
            queue.owed = owed;
            for (group, ticket, answer) in due {
                let result = match queue.failure(group) {
                    Some(why) => Err(why.to_string()),
                    None => result.clone(),
                };
                let answer = result.and(answer).map(|seq| (seq, group));
                queue.answered.insert(ticket, answer);
            }
            drop(queue);
            shared.turn.notify_all();
        }
    }

    /// Runs [`Shared::sync_written_groups`] on the sync pool (`syncing` is set).
    fn sync_on_a_thread(shared: &Arc<Shared>) {
        let moved = shared.clone();
        pool::detach(move || Shared::sync_written_groups(&moved, true));
    }

    /// Makes every line written so far durable (its announcing anchor
    /// records first), then records the last of them as the host's in the
    /// anchor. A file whose sync failed is opened afresh next time.
    fn sync_written(&self) -> io::Result<()> {
        let retired = std::mem::take(&mut *self.retired.lock().unwrap_or_else(|p| p.into_inner()));
        for file in retired {
            self.sync.file(&file)?;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(open) = state.as_mut() else {
            return Ok(());
        };
        // Until the sync ends, this file is this writer's alone, and lines
        // sealed meanwhile are held: the log's sync must not make a line
        // durable before the anchor record announcing it is.
        open.file.lock()?;
        open.in_sync = true;
        let (file, last) = (open.file.clone(), (open.next_seq - 1, open.prev.clone()));
        let anchor = open.anchor.as_ref().map(AnchorLog::due);
        drop(state);
        let synced = sync_files(&self.sync, anchor, &file);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(open) = state.as_mut().filter(|open| Arc::ptr_eq(&open.file, &file)) else {
            return synced;
        };
        open.in_sync = false;
        if synced.is_err() {
            // What the file holds after a failed sync is read back afresh.
            self.reset(&mut state);
            return synced;
        }
        anchor_synced(open, last);
        let held = put_held(open);
        let _ = open.file.unlock();
        match held {
            Ok(groups) => self.groups_put(groups),
            Err(groups) => {
                self.fail_groups(
                    groups,
                    "the audit line could not be written; nothing was appended",
                );
                self.reset(&mut state);
            }
        }
        synced
    }
}

impl Drop for AuditWriter {
    /// Waits for the groups still syncing, and makes the last anchor record durable.
    fn drop(&mut self) {
        let mut queue = self.shared.queue();
        while queue.writing || queue.syncing {
            queue = self
                .shared
                .turn
                .wait(queue)
                .unwrap_or_else(|p| p.into_inner());
        }
        drop(queue);
        let state = self.shared.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(anchor) = state.as_ref().and_then(|open| open.anchor.as_ref()) {
            anchor.due().wait();
        }
    }
}

/// Whether `entry` records a look (a read, a listing, a search): what the
/// host knew, not a change; its line need not be durable before the answer.
fn is_look(entry: &Entry) -> bool {
    entry.act.kind == ActKind::Read && !entry.is_pending()
}
