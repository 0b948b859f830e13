//! Verbs that change a file: `write`, `append` and `edit`. Each is two
//! entries (attempt, outcome) around the act, with the prior bytes kept in
//! the undo journal.

use super::ask::Ask;
use super::refusals::pattern_refusal;
use super::{Approved, Change, Executor, bytes};
use crate::action::WriteMode;
use crate::audit::ActRecord;
use crate::confirm::Deferred;
use crate::contain::{self, RelPath};
use crate::journal::{self, Remembered};
use crate::notes;
use crate::platform::Abilities;
use crate::platform::{Env, Held, MAX_FILE_BYTES, Observation, Storage, StorageError};
use crate::reply::Reply;
use crate::rule::{Refusal, Rule};
use crate::tier::Act;
use crate::tier::ActKind;
use crate::words;
use alloc::format;
use alloc::string::String;

/// The new text an append or an edit makes, and the answer that says so.
struct Rewrite {
    updated: String,
    summary: String,
    words: String,
}

/// Why an append or an edit makes no new text: the refusal, and for list
/// items the ones to choose from.
pub(super) struct Unmade {
    pub refusal: Refusal,
    pub candidates: Option<alloc::vec::Vec<String>>,
}

impl From<Refusal> for Unmade {
    fn from(refusal: Refusal) -> Unmade {
        Unmade {
            refusal,
            candidates: None,
        }
    }
}

/// How a write ended: done (or refused), or a question to ask first.
pub(super) enum Written {
    Reply(alloc::boxed::Box<Reply>),
    Ask(alloc::boxed::Box<(Ask, Observation)>),
}

/// A change sent with `expect` (the digest of the copy the client read) is
/// made only on that copy: `now` is what the file holds (`None`: it is gone).
pub(super) fn as_expected(
    path: &RelPath,
    expect: Option<&str>,
    now: Option<&[u8]>,
) -> Result<(), Refusal> {
    let Some(expect) = expect else {
        return Ok(());
    };
    let now = now.map(journal::digest);
    if now.as_deref() == Some(expect.trim().to_ascii_lowercase().as_str()) {
        return Ok(());
    }
    let what = match now {
        Some(_) => "changed since the copy you have was read",
        None => "is gone since the copy you have was read",
    };
    Err(Refusal::new(
        Rule::ChangedSinceRead,
        format!(
            "`{path}` {what}, so nothing was written (your change would replace the newer copy); read it again and make the change on what it holds now"
        ),
    ))
}

/// Whether `updated` may be what `path` holds: at most the file cap.
fn fits(path: &RelPath, updated: &str, what_to_do: &str) -> Result<(), Refusal> {
    if updated.len() as u64 <= MAX_FILE_BYTES {
        return Ok(());
    }
    Err(Refusal::new(
        Rule::TooLarge,
        format!(
            "the change would make `{path}` {}; a file may hold at most {} — split it, or {what_to_do}",
            bytes(updated.len() as u64),
            bytes(MAX_FILE_BYTES)
        ),
    ))
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// A write; one the person phrased as creating a file asks first when
    /// the file exists (the tier table's `create-over-existing`).
    pub(super) async fn write(
        &mut self,
        name: &str,
        content: &str,
        mode: Option<WriteMode>,
        expect: Option<&str>,
        turn: Option<&str>,
    ) -> Reply {
        match self.write_or_ask(name, content, mode, expect, turn).await {
            Written::Reply(reply) => *reply,
            Written::Ask(asked) => {
                let (ask, seen) = *asked;
                self.ask_unless_refused(ask, &seen, turn).await
            }
        }
    }

    /// [`Self::write`] up to the question it may have to ask (which only
    /// `&mut self` may keep): a write that does not ask is done here.
    pub(super) async fn write_or_ask(
        &self,
        name: &str,
        content: &str,
        mode: Option<WriteMode>,
        expect: Option<&str>,
        turn: Option<&str>,
    ) -> Written {
        let _held = self.hold(name).await;
        let record = ActRecord::new(ActKind::Write, name);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return Written::Reply(reply.into()),
        };
        let seen = self.store().observe(&approved.path).await;
        if seen.is_dir {
            let refusal = self.storage_refusal(StorageError::IsADirectory, &approved.path);
            return Written::Reply(self.refuse(refusal, record, turn).await.into());
        }
        if expect.is_some() {
            let now = match self.read_bounded(&approved.path).await {
                Ok(bytes) => Some(bytes),
                Err(StorageError::NotFound) => None,
                Err(e) => {
                    let refusal = self.storage_refusal(e, &approved.path);
                    return Written::Reply(self.refuse(refusal, record, turn).await.into());
                }
            };
            if let Err(refusal) = as_expected(&approved.path, expect, now.as_deref()) {
                return Written::Reply(self.refuse(refusal, record, turn).await.into());
            }
        }
        if seen.exists && mode == Some(WriteMode::Create) {
            let path = approved.path;
            let plan = format!(
                "replace {path} ({} now) with {}; undo would restore it",
                bytes(seen.bytes),
                bytes(content.len() as u64),
            );
            let ask = Ask {
                record,
                path,
                verdict: self.table.decide(&Act::replacing()),
                plan,
                deferred: Deferred::Write {
                    content: content.into(),
                },
            };
            return Written::Ask((ask, seen).into());
        }
        let before = seen.exists.then_some(seen.bytes);
        let reply = self
            .write_approved(&approved, content, before, None, turn)
            .await;
        Written::Reply(reply.into())
    }

    /// Holds the file `name` names for the change about to read and write
    /// it (see [`Storage::hold`]) — before it is approved, so what approval
    /// found is still so when the change is made. A name that is not inside
    /// the root holds nothing: it is refused next.
    async fn hold(&self, name: &str) -> Held {
        match contain::resolve_inside_root(name) {
            Ok(path) => self.store().hold(&path).await,
            Err(_) => Held::default(),
        }
    }

    /// Writes an approved file whole; the answer says what it replaced
    /// (`before`, when the file existed) and that undo restores it.
    pub(super) async fn write_approved(
        &self,
        approved: &Approved,
        content: &str,
        before: Option<u64>,
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let path = &approved.path;
        let after = bytes(content.len() as u64);
        let (summary, words) = match before {
            Some(before) => (
                format!("replaced {path} ({before} → {after}); undo restores what it held"),
                format!("Replaced what {path} held; Undo brings it back."),
            ),
            None => (
                format!("wrote {path} ({after})"),
                format!("Created {path}."),
            ),
        };
        let write = Change::Write {
            verb: Remembered::Write,
            bytes: content.as_bytes(),
        };
        self.replace_file(approved, write, (summary, words), completes, turn)
            .await
    }

    /// Adds `content` at the end of a file, or of the section under the
    /// heading `under` (see [`notes::append`]), as a list item where the
    /// text there is a list, making the file if it is missing.
    pub(super) async fn append(
        &self,
        name: &str,
        content: &str,
        under: Option<&str>,
        expect: Option<&str>,
        turn: Option<&str>,
    ) -> Reply {
        self.rewrite(name, Remembered::Append, expect, turn, |path, current| {
            let current = match current {
                Ok(text) => text,
                Err(refusal) if refusal.rule == Rule::NotFound => String::new(),
                Err(refusal) => return Err(refusal.into()),
            };
            let updated = notes::append(&current, content, under);
            fits(path, &updated, "append less")?;
            let place = match under {
                Some(heading) => format!("{path} under {}", words::quoted(heading)),
                None => format!("{path}"),
            };
            let summary = format!(
                "appended {} to {place} ({} → {})",
                bytes(content.len() as u64),
                current.len(),
                bytes(updated.len() as u64)
            );
            let words = format!("Added {} to {place}.", words::quoted(content));
            Ok(Rewrite {
                updated,
                summary,
                words,
            })
        })
        .await
    }

    /// Ticks (or un-ticks) the one list item whose words match `item`.
    pub(super) async fn check_item(
        &self,
        name: &str,
        item: &str,
        done: bool,
        expect: Option<&str>,
        turn: Option<&str>,
    ) -> Reply {
        self.rewrite(name, Remembered::Check, expect, turn, |path, current| {
            let current = current?;
            let found = one_item(path, &current, item)?;
            let updated = notes::set_checked(&current, found.line, done);
            let (did, said) = match done {
                true => ("ticked", "Ticked"),
                false => ("un-ticked", "Un-ticked"),
            };
            let quoted = words::quoted(&found.text);
            Ok(Rewrite {
                summary: format!("{did} {quoted} in {path} (line {})", found.line + 1),
                words: format!("{said} {quoted} in {path}."),
                updated,
            })
        })
        .await
    }

    /// Removes the one list item whose words match `item`.
    pub(super) async fn remove_item(&self, name: &str, item: &str, turn: Option<&str>) -> Reply {
        self.rewrite(name, Remembered::Unlist, None, turn, |path, current| {
            let current = current?;
            let found = one_item(path, &current, item)?;
            let quoted = words::quoted(&found.text);
            Ok(Rewrite {
                updated: notes::remove_line(&current, found.line),
                summary: format!("removed {quoted} from {path} (line {})", found.line + 1),
                words: format!("Removed {quoted} from {path}; Undo puts it back."),
            })
        })
        .await
    }

    pub(super) async fn edit(
        &self,
        name: &str,
        old_text: &str,
        new_text: &str,
        expect: Option<&str>,
        turn: Option<&str>,
    ) -> Reply {
        self.rewrite(name, Remembered::Edit, expect, turn, |path, current| {
            let current = current?;
            let found = if old_text.is_empty() {
                0
            } else {
                current.matches(old_text).count()
            };
            if found != 1 {
                return Err(pattern_refusal(path, old_text, found).into());
            }
            let updated = current.replacen(old_text, new_text, 1);
            fits(path, &updated, "replace less")?;
            let summary = format!(
                "edited {path}: replaced 1 occurrence ({} → {})",
                bytes(current.len() as u64),
                bytes(updated.len() as u64)
            );
            let words = format!(
                "Changed {} to {} in {path}.",
                words::quoted(old_text),
                words::quoted(new_text)
            );
            Ok(Rewrite {
                updated,
                summary,
                words,
            })
        })
        .await
    }

    /// Append, edit and the list verbs: `make` turns what the file holds
    /// now (or why it could not be read) into its new text, or a refusal;
    /// the new text is written whole, kept in the journal as `verb`. With
    /// `expect`, only when the file is still the copy the client read.
    async fn rewrite(
        &self,
        name: &str,
        verb: Remembered,
        expect: Option<&str>,
        turn: Option<&str>,
        make: impl FnOnce(&RelPath, Result<String, Refusal>) -> Result<Rewrite, Unmade>,
    ) -> Reply {
        let _held = self.hold(name).await;
        let record = ActRecord::new(ActKind::Write, name);
        let approved = match self.approve(record.clone(), ActKind::Write, turn).await {
            Ok(approved) => approved,
            Err(reply) => return reply,
        };
        let current = self.read_text(&approved.path).await;
        let now = current.as_ref().ok().map(String::as_bytes);
        if let Err(refusal) = as_expected(&approved.path, expect, now) {
            return self.refuse(refusal, record, turn).await;
        }
        let made = make(&approved.path, current.clone());
        let Rewrite {
            updated,
            summary,
            words,
        } = match made {
            Ok(rewrite) => rewrite,
            Err(Unmade {
                refusal,
                candidates,
            }) => {
                let mut reply = self.refuse(refusal, record, turn).await;
                reply.candidates = candidates;
                return reply;
            }
        };
        if current.as_deref() == Ok(updated.as_str()) {
            // Nothing to change (a tick on a ticked item): said, not written.
            let seq = match self
                .nothing_changed(record, &approved.path, approved.rule, turn)
                .await
            {
                Ok(seq) => Some(seq),
                Err(reply) => return reply,
            };
            let mut reply =
                Reply::done(format!("{summary}; it was so already, nothing written")).said(words);
            reply.file = Some(approved.path.as_str().into());
            reply.sha256 = Some(journal::digest(updated.as_bytes()));
            return self.answer(reply, seq);
        }
        let write = Change::Write {
            verb,
            bytes: updated.as_bytes(),
        };
        self.replace_file(&approved, write, (summary, words), None, turn)
            .await
    }

    /// Writes a file whole as one change, and answers with `summary` (the
    /// exact account, and the same in a person's words).
    /// `completes` is the ask a confirmed write answers.
    async fn replace_file(
        &self,
        approved: &Approved,
        write: Change<'_>,
        (summary, words): (String, String),
        completes: Option<u64>,
        turn: Option<&str>,
    ) -> Reply {
        let (written, digest) = match &write {
            Change::Write { bytes, .. } => (bytes.len() as u64, Some(journal::digest(bytes))),
            _ => (0, None),
        };
        let changed = self.change(approved, write, completes, turn).await;
        self.answer_changed(changed, || {
            let mut reply = Reply::done(summary).said(words);
            reply.file = Some(approved.path.as_str().into());
            reply.bytes = Some(written);
            reply.sha256 = digest;
            reply
        })
    }
}

/// The one list item of `text` whose words match `asked`; none or several
/// is a refusal that lists the items to choose from.
fn one_item(path: &RelPath, text: &str, asked: &str) -> Result<notes::Item, Unmade> {
    let items = notes::items(text);
    let found = notes::matching(&items, asked);
    if let [one] = found.as_slice() {
        return Ok((*one).clone());
    }
    let asked = words::quoted(asked);
    let (rule, why, shown): (Rule, String, alloc::vec::Vec<&notes::Item>) = match found.len() {
        0 if items.is_empty() => (
            Rule::ItemNotFound,
            format!("`{path}` has no list items"),
            alloc::vec::Vec::new(),
        ),
        0 => (
            Rule::ItemNotFound,
            format!("no item of `{path}` matches {asked}; say which one"),
            items.iter().take(MAX_CANDIDATES).collect(),
        ),
        n => (
            Rule::ItemNotUnique,
            format!("{n} items of `{path}` match {asked}; say which one"),
            found.into_iter().take(MAX_CANDIDATES).collect(),
        ),
    };
    let candidates: alloc::vec::Vec<String> = shown.iter().map(|item| item.text.clone()).collect();
    let quoted: alloc::vec::Vec<String> = candidates.iter().map(|c| words::quoted(c)).collect();
    let why = match quoted.is_empty() {
        true => why,
        false => format!("{why}: {}", words::listed(&quoted)),
    };
    Err(Unmade {
        refusal: Refusal::new(rule, why),
        candidates: Some(candidates),
    })
}

/// The most list items a refusal offers to choose from.
const MAX_CANDIDATES: usize = 20;
