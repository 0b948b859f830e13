//! Where acts run: the host's folder, or the page that owns the active root.
//! Every route and live tool call that acts, confirms or reads the audit
//! comes through [`Acts`], which asks "which root is active" once per
//! request ([`ActiveRoot`]) and counts refusals once for `GET /api/health`.
//! Handlers never branch on it themselves.

use super::relay::Channel;
use super::resolve::Words;
use serde::{Serialize, Serializer};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use voicebox_core::command::Verb;
use voicebox_core::executor::Step;
use voicebox_core::platform::{RootInfo, Storage};
use voicebox_core::resolver::{Folder, NOTES_FILE};
use voicebox_core::turn::{Outcome, Proposal, TurnAnswer, TurnInput, run_turn};
use voicebox_core::worker::{Answer, Execute, Relayed};
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::egress::HttpEgress;
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

/// What an act answered, wherever it ran.
#[derive(Debug)]
pub enum Acted {
    Machine(Box<Reply>),
    /// The page's core result (marked `via: "page"`) and whether, as the
    /// page's core judged, the act changed the project's files.
    Page {
        result: Value,
        changes: bool,
    },
}

impl Acted {
    /// Whether the answer is a refusal.
    pub fn refused(&self) -> bool {
        match self {
            Acted::Machine(reply) => reply.refused.is_some(),
            Acted::Page { result, .. } => result.get("refused").is_some(),
        }
    }

    /// Whether it is the person's own No to a question.
    fn declined(&self) -> bool {
        match self {
            Acted::Machine(reply) => reply.refused == Some(Rule::Declined),
            Acted::Page { result, .. } => result["refused"] == "declined",
        }
    }
}

impl Serialize for Acted {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Acted::Machine(reply) => reply.serialize(serializer),
            Acted::Page { result, .. } => result.serialize(serializer),
        }
    }
}

impl Outcome for Acted {
    fn changes(&self, verb: Option<Verb>) -> bool {
        match self {
            Acted::Machine(reply) => reply.changes(verb),
            Acted::Page { changes, .. } => *changes,
        }
    }
}

/// The host (one writer: what changes the folder is serialised by its lock,
/// looks share it, and no act holds it while the network answers), the page
/// channel, and the refusals answered since start.
pub struct Acts {
    host: Arc<RwLock<Host<MachineAbilities>>>,
    channel: Channel,
    refused: AtomicU64,
    /// The file the latest turn acted on, for "delete it" next.
    previous: Mutex<Option<String>>,
}

impl Acts {
    pub fn new(host: Host<MachineAbilities>, channel: Channel) -> Acts {
        Acts {
            host: Arc::new(RwLock::new(host)),
            channel,
            refused: AtomicU64::new(0),
            previous: Mutex::default(),
        }
    }

    /// The host itself, for a thread that only looks (the offline
    /// recogniser reads the root's file names for its grammar).
    pub fn host(&self) -> Arc<RwLock<Host<MachineAbilities>>> {
        self.host.clone()
    }

    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// The page-owned root, when the page executes the acts.
    pub fn page_root(&self) -> Option<RootInfo> {
        self.channel.root()
    }

    pub(super) fn active(&self) -> ActiveRoot {
        match self.page_root() {
            Some(_) => ActiveRoot::Page,
            None => ActiveRoot::Machine,
        }
    }

    /// Runs `f` on the host, alone, on a blocking thread (the executor does
    /// file I/O).
    pub async fn with_host<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Host<MachineAbilities>) -> R + Send + 'static,
    ) -> Result<R, Failed> {
        let host = self.host.clone();
        on_thread(move || f(&mut host.write().unwrap_or_else(|p| p.into_inner()))).await
    }

    /// Runs `f`, which only looks, on the host beside other looks (never
    /// beside an act that changes the folder), on a blocking thread.
    pub async fn looking<R: Send + 'static>(
        &self,
        f: impl FnOnce(&Host<MachineAbilities>) -> R + Send + 'static,
    ) -> Result<R, Failed> {
        let host = self.host.clone();
        on_thread(move || f(&host.read().unwrap_or_else(|p| p.into_inner()))).await
    }

    /// Counts a refusal made before any executor (a call that does not fit).
    pub fn count_refusal(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Refusals answered since start.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// One turn ([`run_turn`]): the words resolved by `words`, the action run
    /// in the active root.
    pub async fn turn(&self, words: &Words, input: TurnInput, turn: String) -> TurnAnswer<Acted> {
        if let (TurnInput::Words(text), Err(refusal)) = (&input, words.ready()) {
            let refused = Acted::Machine(Box::new(Reply::refusal(refusal)));
            return TurnAnswer::before_resolving(text.clone(), self.counted(refused));
        }
        // Only words need the root's names. A page that cannot say its names
        // cannot act either: its refusal (`no-page`, `page-closed`, ...) is
        // the turn's result, not a second wait.
        let (folder, unreachable) = match &input {
            TurnInput::Words(_) => self.folder_or_refusal().await,
            TurnInput::Action(_) => (Folder::default(), None),
        };
        // A model is shown the project's notes; the built-in resolver reads none.
        let folder = match (words.resolver().llm(), &unreachable) {
            (true, None) => self.noted(folder).await,
            _ => folder,
        };
        let answer = run_turn(
            input,
            async |text: String| words.resolve(&text, &folder).await,
            async |proposal| match unreachable {
                Some(result) => self.counted(Acted::Page {
                    result,
                    changes: false,
                }),
                None => self.act(proposal, turn).await,
            },
        )
        .await;
        if let Some(name) = answer.file() {
            *self.previous.lock().unwrap_or_else(|p| p.into_inner()) = Some(name.into());
        }
        answer
    }

    /// [`Acts::folder`] with the project's notes for a model (its
    /// `AGENTS.md`), read through the executor like any read (so contained
    /// and audited, as turn `instructions`), and only when the root has one.
    pub async fn folder_with_notes(&self) -> Folder {
        let folder = self.folder().await;
        self.noted(folder).await
    }

    /// `folder` with the notes, when it lists them.
    async fn noted(&self, folder: Folder) -> Folder {
        if !folder.names().iter().any(|name| name == NOTES_FILE) {
            return folder;
        }
        let read = json!({"verb": "read", "name": NOTES_FILE});
        let notes = match self.act(Proposal::Sent(read), "instructions".into()).await {
            Acted::Machine(reply) => reply.content,
            Acted::Page { result, .. } => result["content"].as_str().map(String::from),
        };
        folder.with_notes(notes)
    }

    /// The active root's files and the previous turn's file, for settling
    /// spoken names: the host's folder's, or the names the page that owns
    /// the root reports (none when it does not answer: names are then kept
    /// as said, and the page's executor still answers for each act).
    pub async fn folder(&self) -> Folder {
        self.folder_or_refusal().await.0
    }

    /// [`Acts::folder`], and the channel's refusal when the page that owns
    /// the root did not answer.
    async fn folder_or_refusal(&self) -> (Folder, Option<Value>) {
        let previous = self
            .previous
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let (folder, refused) = match self.active() {
            ActiveRoot::Page => match self.channel.relay(&Relayed::Names).await {
                Ok(answer) => (Folder::new(names_in(&answer)), None),
                Err(refusal) => (Folder::default(), Some(refusal)),
            },
            ActiveRoot::Machine => {
                let folder = self.looking(|host| host.folder()).await;
                (folder.unwrap_or_default(), None)
            }
        };
        (folder.after(previous), refused)
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

    /// One proposal on the host: a look beside other looks; anything else
    /// alone, but for the network: an `http-get` hop is fetched with the
    /// host free, then handed back to be judged (a redirect) or recorded.
    async fn on_machine(&self, proposal: Proposal, turn: String) -> Reply {
        let failed = |error: Failed| Reply::refusal(error.refusal);
        let (look, label) = (proposal.clone(), turn.clone());
        match self
            .looking(move |host| host.look(&look, Some(&label)))
            .await
        {
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
                self.relayed(&Relayed::Confirm(Answer { id, approved }))
                    .await
            }
            ActiveRoot::Machine => self.on_host(move |host| host.confirm(&id, approved)).await,
        }
    }

    /// The active root: the page's, or the host's folder.
    pub async fn active_root(&self) -> Result<Option<RootInfo>, Failed> {
        if let Some(root) = self.page_root() {
            return Ok(Some(root));
        }
        self.looking(|host| host.executor().storage().map(Storage::root_info))
            .await
    }

    /// Makes the page's `root` the active one: the host's folder is
    /// un-declared first, so acts never land in both.
    pub async fn use_page_root(&self, root: RootInfo) -> Result<(), Failed> {
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
    pub fn machine_declared(&self) {
        self.channel.set_root(None);
    }

    /// The host's declared folder (even while a page owns the active root).
    pub async fn machine_root(&self) -> Result<Option<std::path::PathBuf>, Failed> {
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

    /// Relays one request to the page; the core's result is returned
    /// untouched but for `via: "page"`, and a missing answer is a named refusal.
    pub(super) async fn relayed(&self, request: &Relayed) -> Acted {
        let acted = match self.channel.relay(request).await {
            Ok(mut answer) => {
                let changes = answer["changes"] == true;
                let mut result = match answer.get_mut("result") {
                    Some(result) if result.is_object() => result.take(),
                    _ => answer,
                };
                result["via"] = json!("page");
                Acted::Page { result, changes }
            }
            Err(refusal) => Acted::Page {
                result: refusal,
                changes: false,
            },
        };
        self.counted(acted)
    }

    /// Counts a refusal the policy made; the person's own No is an answer.
    fn counted(&self, acted: Acted) -> Acted {
        if acted.refused() && !acted.declined() {
            self.count_refusal();
        }
        acted
    }
}

/// Runs `f` on a blocking thread; a thread that fails is `storage-failed`.
async fn on_thread<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> Result<R, Failed> {
    tokio::task::spawn_blocking(f).await.map_err(|_| {
        Failed::new(
            "the host failed while acting; the next request is served normally — check the audit log",
        )
    })
}

/// The names a page's worker listed (`{names: [...]}`); anything else, none.
fn names_in(answer: &Value) -> Vec<String> {
    let names = answer["names"].as_array().into_iter().flatten();
    names.filter_map(Value::as_str).map(String::from).collect()
}
