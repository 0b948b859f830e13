//! Reading the declared root's audit log: a page of it, newest first, or
//! every file checked against its chain and the host's anchors. An entry of
//! the audit folder that cannot be read is that entry's own verdict, never an
//! error for the whole view.

use super::{Executor, describe};
use crate::audit::chain::{Anchor, Anchoring, Verdict, Verifier};
use crate::audit::lines::{CHUNK, Forwards};
use crate::audit::page::{PageRequest, Pager};
use crate::audit::{AuditCheck, AuditView, ParsedFile};
use crate::contain::AUDIT_DIR;
use crate::platform::{Abilities, Env, Storage, StorageError};
use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// One page of the declared root's audit, newest first. It
    /// reads only what it shows, so a page costs the same at any log length;
    /// the chain is checked by [`Self::verify_audit`], which reads everything.
    pub async fn audit(&self, request: &PageRequest) -> Result<AuditView, Refusal> {
        self.root_ready().await?;
        let storage = self.store();
        let files: Vec<(String, u64)> = storage
            .audit_files()
            .await
            .map_err(unreadable_audit)?
            .into_iter()
            .filter_map(|listed| Some((listed.name, listed.len.ok()?)))
            .collect();
        let mut pager = Pager::new(&files, request);
        while let Some(read) = pager.want() {
            match storage
                .read_audit_range(&read.name, read.start, read.end)
                .await
            {
                Ok(bytes) => pager.feed(&read, bytes),
                // Changed since it was listed: the check names it.
                Err(_) => pager.drop_file(&read),
            }
        }
        let (entries, next, skipped) = pager.finish();
        Ok(AuditView {
            ok: true,
            root: Some(storage.root_info().path),
            entries,
            next,
            skipped,
        })
    }

    /// Every audit file of the declared root verified against its chain and
    /// the host's anchors, and every file the anchors name that is not there:
    /// reads every line, so it is asked for on its own.
    pub async fn verify_audit(&self) -> Result<AuditCheck, Refusal> {
        self.root_ready().await?;
        let storage = self.store();
        let listed = storage.audit_files().await.map_err(unreadable_audit)?;
        let anchors = storage.audit_anchors().await;
        let anchor_of = |name: &str| -> Option<&Anchor> {
            anchors.as_ref()?.iter().find(|anchor| anchor.file == name)
        };
        let mut files = Vec::new();
        for entry in &listed {
            let anchor = anchor_of(&entry.name);
            files.push(match (&entry.len, anchor) {
                (Ok(len), _) => {
                    let anchoring = match (&anchors, anchor) {
                        (None, _) => Anchoring::NotKept,
                        (Some(_), None) => Anchoring::Unknown,
                        (Some(_), Some(anchor)) => Anchoring::Anchored(anchor.clone()),
                    };
                    self.verify_file(&entry.name, *len, anchoring).await
                }
                (Err(why), Some(anchor)) => missing(anchor, why),
                (Err(why), None) => judged(&entry.name, Verdict::Unreadable { why: why.clone() }),
            });
        }
        for anchor in anchors.iter().flatten() {
            if !listed.iter().any(|entry| entry.name == anchor.file) {
                files.push(missing(anchor, &format!("it is not in {AUDIT_DIR}/")));
            }
        }
        files.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(AuditCheck {
            ok: true,
            root: Some(storage.root_info().path),
            files,
        })
    }

    /// Streams one file through the verifier in chunks, never holding a
    /// line longer than any entry; a file that cannot be read is `unreadable`.
    async fn verify_file(&self, name: &str, len: u64, anchoring: Anchoring) -> ParsedFile {
        let storage = self.store();
        let anchor = match &anchoring {
            Anchoring::Anchored(anchor) => Some(anchor.clone()),
            _ => None,
        };
        let mut verifier = Verifier::new(name, anchoring);
        let mut lines = Forwards::default();
        let mut at = 0;
        while at < len {
            let end = (at + CHUNK).min(len);
            let bytes = match storage.read_audit_range(name, at, end).await {
                Ok(bytes) if bytes.is_empty() => break,
                Ok(bytes) => bytes,
                Err(error) => {
                    let why = format!("it cannot be read: {}", describe(&error));
                    return match &anchor {
                        Some(anchor) => missing(anchor, &why),
                        None => judged(name, Verdict::Unreadable { why }),
                    };
                }
            };
            at += bytes.len() as u64;
            lines.feed(&bytes, &mut |piece| verifier.piece(piece));
        }
        lines.finish(&mut |piece| verifier.piece(piece));
        verifier.finish()
    }
}

/// A file that is only a verdict: nothing of it was read.
fn judged(name: &str, verdict: Verdict) -> ParsedFile {
    ParsedFile {
        name: name.into(),
        verdict: Some(verdict),
        ..ParsedFile::default()
    }
}

/// A file the host wrote that is not there to read as a file.
fn missing(anchor: &Anchor, why: &str) -> ParsedFile {
    let verdict = Verdict::Missing {
        anchored_seq: anchor.seq,
        why: format!(
            "the host wrote this file (its anchor is at seq {}); {why}",
            anchor.seq
        ),
    };
    judged(&anchor.file, verdict)
}

fn unreadable_audit(error: StorageError) -> Refusal {
    Refusal::new(
        Rule::StorageFailed,
        format!(
            "the audit folder cannot be read ({}); check its permissions",
            describe(&error)
        ),
    )
}
