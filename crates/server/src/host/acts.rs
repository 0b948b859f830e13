//! Where acts run: the host's folder, or the page that owns the active root.
//! Every route and live tool call that acts, confirms or reads the audit
//! comes through [`Acts`], which asks "which root is active" once per
//! request ([`ActiveRoot`]) and counts refusals once for `GET /api/health`.
//! Handlers never branch on it themselves.

use super::acted::Acted;
use super::envelope::{PageRefused, PageReply};
use super::relay::Channel;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use voicebox_core::executor::Step;
use voicebox_core::platform::{RootInfo, Storage};
use voicebox_core::turn::{Conversation, Proposal};
use voicebox_core::worker::{Answer, Execute, Relayed};
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::egress::HttpEgress;
use voicebox_machine::settle::settle_after;
use voicebox_machine::{Host, MachineAbilities};

/// A host thread that failed (it panicked) while acting or reading: the
/// request answers `storage-failed`, and the next one is served normally.
#[derive(Debug)]
pub struct Failed {
    pub refusal: Refusal,
}

impl Failed {
    pub(super) fn new(why: &str) -> Failed {
        Failed {
            refusal: Refusal::new(Rule::StorageFailed, why),
        }
    }
}

/// Which root acts land in, asked once per request.
pub(super) enum ActiveRoot {
    /// The host's declared folder (or none): the host's executor answers.
    Machine,
    /// A page-owned root: the request is relayed to the page's worker, and no
    /// disk of this machine is touched.
    Page,
}

/// The host (one writer: looks and the changes that may run beside one
/// another share its lock, every other act holds it alone, and no act holds
/// it while the network answers or while its audit lines are synced), the
/// page channel, and the refusals answered since start.
pub struct Acts {
    host: Arc<RwLock<Host<MachineAbilities>>>,
    /// A compaction of the undo index is asked for and not yet run.
    tidying: Arc<AtomicBool>,
    channel: Channel,
    refused: AtomicU64,
    /// What the turns so far keep for the next (the file "it" means).
    pub(super) conversation: Mutex<Conversation>,
}

impl Acts {
    pub fn new(host: Host<MachineAbilities>, channel: Channel) -> Acts {
        Acts {
            host: Arc::new(RwLock::new(host)),
            tidying: Arc::default(),
            channel,
            refused: AtomicU64::new(0),
            conversation: Mutex::default(),
        }
    }

    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// The page-owned root, when the page executes the acts.
    pub(crate) fn page_root(&self) -> Option<RootInfo> {
        self.channel.root()
    }

    pub(super) fn active(&self) -> ActiveRoot {
        match self.page_root() {
            Some(_) => ActiveRoot::Page,
            None => ActiveRoot::Machine,
        }
    }

    /// Runs `f` on the host, alone, on a blocking thread (the executor does
    /// file I/O). The audit lines `f` writes last (an act's outcome) are made
    /// durable after the host is released, so the next act runs meanwhile
    /// and their lines share one sync; the answer waits for them.
    pub(crate) async fn with_host<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Host<MachineAbilities>) -> R + Send + 'static,
    ) -> Result<R, Failed> {
        let host = self.host.clone();
        let acted = on_thread(move || {
            let (result, settle) =
                settle_after(|| f(&mut host.write().unwrap_or_else(|p| p.into_inner())));
            settle.wait().map(|()| result)
        });
        acted.await?.map_err(|e| unsettled(&e))
    }

    /// Answers `proposal` on a blocking thread, beside other looks and the
    /// changes that may run beside one another (see [`Host::beside`]), never
    /// beside any other act: `None` when it is neither, to be run alone. A
    /// change's lines are waited for after the host is released, as
    /// [`Self::with_host`]'s are; a look is answered once its line is on file.
    async fn look_or_beside(
        &self,
        proposal: Proposal,
        turn: String,
    ) -> Result<Option<Reply>, Failed> {
        let host = self.host.clone();
        let acted = on_thread(move || {
            let host = host.read().unwrap_or_else(|p| p.into_inner());
            if let Some(reply) = host.look(&proposal, Some(&turn)) {
                return Ok((Some(reply), false));
            }
            let (reply, settle) = settle_after(|| host.beside(&proposal, Some(&turn)));
            let due = host.executor().journal_due();
            drop(host);
            settle.wait().map(|()| (reply, due))
        });
        let (reply, due) = acted.await?.map_err(|e| unsettled(&e))?;
        if due {
            self.tidy_later();
        }
        Ok(reply)
    }

    /// Compacts the undo index that changes run beside one another left
    /// long, on its own, off every answer's path; asked once at a time.
    fn tidy_later(&self) {
        if self.tidying.swap(true, Ordering::AcqRel) {
            return;
        }
        let (host, tidying) = (self.host.clone(), self.tidying.clone());
        tokio::task::spawn_blocking(move || {
            let tidied = host.write().unwrap_or_else(|p| p.into_inner()).tidy();
            tidying.store(false, Ordering::Release);
            if let Err(refusal) = tidied {
                tracing::warn!(why = %refusal.why, "the undo index could not be compacted; the next change tries again");
            }
        });
    }

    /// Runs `f`, which only looks, on the host beside other looks (never
    /// beside an act that changes the folder), on a blocking thread.
    pub(crate) async fn looking<R: Send + 'static>(
        &self,
        f: impl FnOnce(&Host<MachineAbilities>) -> R + Send + 'static,
    ) -> Result<R, Failed> {
        let host = self.host.clone();
        on_thread(move || f(&host.read().unwrap_or_else(|p| p.into_inner()))).await
    }

    /// Counts a refusal made before any executor (a call that does not fit).
    pub(crate) fn count_refusal(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Refusals answered since start.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Runs one proposal in the active root. An executor that fails while
    /// acting answers `storage-failed` like any refusal, so every act has a
    /// reply (the audit log says what happened).
    pub async fn act(&self, proposal: Proposal, turn: String) -> Acted {
        match self.active() {
            ActiveRoot::Page => {
                let execute = Execute {
                    action: Some(proposal.to_json()),
                    turn: Some(turn),
                    ..Execute::default()
                };
                self.relayed(&Relayed::Execute(execute)).await
            }
            ActiveRoot::Machine => {
                let reply = self.on_machine(proposal, turn).await;
                self.counted(Acted::Machine(Box::new(reply)))
            }
        }
    }

    /// One proposal on the host: a look, or a change that may run beside
    /// others, beside the others; anything else alone, but for the network:
    /// an `http-get` hop is fetched with the host free, then handed back to
    /// be judged (a redirect) or recorded.
    async fn on_machine(&self, proposal: Proposal, turn: String) -> Reply {
        let failed = |error: Failed| Reply::refusal(error.refusal);
        match self.look_or_beside(proposal.clone(), turn.clone()).await {
            Ok(Some(reply)) => return reply,
            Ok(None) => {}
            Err(error) => return failed(error),
        }
        let begun = self
            .with_host(move |host| (host.start(&proposal, Some(&turn)), host.egress()))
            .await;
        let (mut step, egress) = match begun {
            Ok(begun) => begun,
            Err(error) => return failed(error),
        };
        loop {
            let fetch = match step {
                Step::Done(reply) => return *reply,
                Step::Fetch(fetch) => fetch,
            };
            let got = on_thread(move || {
                let got = HttpEgress::get(&egress, fetch.url());
                (fetch, got)
            });
            let (fetch, got) = match got.await {
                Ok(fetched) => fetched,
                Err(error) => return failed(error),
            };
            step = match self.with_host(move |host| host.fetched(fetch, got)).await {
                Ok(step) => step,
                Err(error) => return failed(error),
            };
        }
    }

    /// The person's answer to a pending confirmation, in the root that asked.
    pub async fn confirm(&self, id: String, approved: bool) -> Acted {
        match self.active() {
            ActiveRoot::Page => {
                let answer = Answer {
                    id,
                    approved,
                    spoken: None,
                };
                self.relayed(&Relayed::Confirm(answer)).await
            }
            ActiveRoot::Machine => self.on_host(move |host| host.confirm(&id, approved)).await,
        }
    }

    /// Answers a pending confirmation with the words offline voice heard;
    /// the core judges them against the question's challenge.
    pub(crate) async fn confirm_spoken(&self, id: String, heard: String) -> Acted {
        match self.active() {
            ActiveRoot::Page => {
                let answer = Answer {
                    id,
                    approved: false,
                    spoken: Some(heard),
                };
                self.relayed(&Relayed::Confirm(answer)).await
            }
            ActiveRoot::Machine => {
                self.on_host(move |host| host.confirm_spoken(&id, &heard))
                    .await
            }
        }
    }

    /// The active root: the page's, or the host's folder.
    pub(crate) async fn active_root(&self) -> Result<Option<RootInfo>, Failed> {
        if let Some(root) = self.page_root() {
            return Ok(Some(root));
        }
        self.looking(|host| host.executor().storage().map(Storage::root_info))
            .await
    }

    /// Makes the page's `root` the active one: the host's folder is
    /// un-declared first, so acts never land in both.
    pub(crate) async fn use_page_root(&self, root: RootInfo) -> Result<(), Failed> {
        self.with_host(|host| host.undeclare()).await?;
        self.channel.set_root(Some(root));
        Ok(())
    }

    /// No root at all: every act then answers `root-not-declared`.
    pub async fn undeclare(&self) -> Result<(), Failed> {
        self.channel.set_root(None);
        self.with_host(|host| host.undeclare()).await
    }

    /// The host's folder was just declared: it is the active root again.
    pub(crate) fn machine_declared(&self) {
        self.channel.set_root(None);
    }

    /// The host's declared folder (even while a page owns the active root).
    pub(crate) async fn machine_root(&self) -> Result<Option<std::path::PathBuf>, Failed> {
        self.looking(|host| host.root().map(Path::to_path_buf))
            .await
    }

    /// Runs an act on the host; a host that fails while acting is a
    /// `storage-failed` reply. The reply is counted if it refuses.
    async fn on_host(
        &self,
        act: impl FnOnce(&mut Host<MachineAbilities>) -> Reply + Send + 'static,
    ) -> Acted {
        let reply = self
            .with_host(act)
            .await
            .unwrap_or_else(|error| Reply::refusal(error.refusal));
        self.counted(Acted::Machine(Box::new(reply)))
    }

    /// Relays an act or a confirmation to the page: the page's core's
    /// reply, an answer that is no reply `page-failed`, and a missing answer
    /// a named refusal.
    async fn relayed(&self, request: &Relayed) -> Acted {
        let acted = match self.channel.relay(request).await {
            Ok(answer) => match PageReply::read(answer) {
                Ok(page) => Acted::Page {
                    reply: Box::new(page.reply),
                    wire: page.wire,
                    changes: page.changes,
                },
                Err(refusal) => Acted::unanswered(refusal),
            },
            Err(refusal) => Acted::unanswered(refusal),
        };
        self.counted(acted)
    }

    /// Relays a read of the page's audit log: the page's answer as it came
    /// (marked `via: "page"`), or the refusal that there was none.
    pub(super) async fn relayed_view(&self, request: &Relayed) -> Value {
        match self.channel.relay(request).await {
            Ok(mut view) => {
                if PageRefused::read(&view) {
                    self.count_refusal();
                }
                if let Some(fields) = view.as_object_mut() {
                    fields.insert("via".into(), "page".into());
                }
                view
            }
            Err(refusal) => json!(self.counted(Acted::unanswered(refusal))),
        }
    }

    /// Counts a refusal the policy made; the person's own No is an answer.
    pub(super) fn counted(&self, acted: Acted) -> Acted {
        if acted.refused() && !acted.declined() {
            self.count_refusal();
        }
        acted
    }
}

/// An act whose audit lines could not be made durable: not reported done.
fn unsettled(error: &std::io::Error) -> Failed {
    Failed::new(&format!(
        "the act's audit line could not be made durable ({error}), so it is not reported done; check the audit log and free space"
    ))
}

/// Runs `f` on a blocking thread; a thread that fails is `storage-failed`.
async fn on_thread<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> Result<R, Failed> {
    tokio::task::spawn_blocking(f).await.map_err(|_| {
        Failed::new(
            "the host failed while acting; the next request is served normally — check the audit log",
        )
    })
}
