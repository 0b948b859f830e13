//! The one executor: every entry point (CLI, HTTP, live voice, the browser
//! worker) hands it an action and gets a [`Reply`]. For an act on a file the
//! order is fixed: root → validate → resolve the path → decide →
//! attempt entry (fail closed) → act → observe → outcome entry.

mod ask;
mod audit_log;
mod changes;
mod compare;
mod entries;
mod extensions;
pub use extensions::{Fetch, Step};
pub(crate) use looks::name_matches;
mod grep;
mod heard;
mod history;
mod housekeeping;
mod journal;
mod looks;
mod organise;
mod pipeline;
mod reads;
mod refusals;
pub(crate) use refusals::describe;
use refusals::{bytes, host_folder};
pub mod tools;
use crate::turn::Proposal;
use heard::Check;
use pipeline::{Approved, Change};
mod undo;
mod walk;

use crate::action::{self, Action};
use crate::confirm::Pending;
use crate::contain;
use crate::platform::{Abilities, Env, ExtensionLedger, Storage, ToolRunner};
use crate::reply::{Reply, ToolState};
use crate::rule::{Refusal, Rule};
use crate::tier::{Placement, TierTable};
use crate::words;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};
use serde_json::Value;

/// The declared project: its storage and the id the audit records.
struct Project<S> {
    storage: S,
    id: String,
    /// The undo index's line count as this host last knew it (`None` until
    /// first read): counted on each append, so a write need not re-read the
    /// index. Lines other writers add are counted when it is next read.
    journal_lines: KnownCount,
}

/// A count, or not known yet: a [`core::cell::Cell`] that threads may
/// share, so a host can run looks at once over one executor.
struct KnownCount(AtomicUsize);

impl KnownCount {
    const UNKNOWN: usize = usize::MAX;

    fn get(&self) -> Option<usize> {
        Some(self.0.load(Ordering::Relaxed)).filter(|&n| n != Self::UNKNOWN)
    }

    fn set(&self, count: Option<usize>) {
        self.0
            .store(count.unwrap_or(Self::UNKNOWN), Ordering::Relaxed);
    }

    /// One more, if the count is known (changes beside one another count at once).
    fn add_one(&self) {
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n != Self::UNKNOWN).then(|| n + 1)
            });
    }
}

/// Changes running beside one another now (see [`Executor::beside`]),
/// counted while each runs.
#[derive(Default)]
struct Beside(AtomicUsize);

impl Beside {
    fn running(&self) -> bool {
        self.0.load(Ordering::Acquire) > 0
    }

    fn start(&self) -> BesideRunning<'_> {
        self.0.fetch_add(1, Ordering::AcqRel);
        BesideRunning(self)
    }
}

/// One change counted in [`Beside`] until dropped.
struct BesideRunning<'a>(&'a Beside);

impl Drop for BesideRunning<'_> {
    fn drop(&mut self) {
        self.0.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Default for KnownCount {
    fn default() -> KnownCount {
        KnownCount(AtomicUsize::new(Self::UNKNOWN))
    }
}

/// The executor of one host (one writer instance). `A` is what the placement
/// can do beyond storage (tools, extensions, network), bundled in one type
/// parameter so every act's impl block stays `Executor<S, E, A>`.
pub struct Executor<S, E, A = ()> {
    project: Option<Project<S>>,
    instance: String,
    env: E,
    abilities: A,
    table: TierTable,
    pending: Pending,
    /// Set while a heard action the person said yes to is carried out.
    consent: Option<Consent>,
    /// The words of a spoken yes while the act it answered is carried out
    /// (written on its attempt entries).
    spoken: Option<String>,
    /// Whether `http-get` fetches at once or hands its hop to [`Self::start`]'s caller.
    fetching: extensions::Fetching,
    /// While any change runs beside others, the undo index is appended to
    /// but not compacted (that rewrites it whole): [`Self::tidy`] does it.
    beside: Beside,
}

/// The person's yes to a heard action: the seq of the ask it answered, so
/// the act neither asks again nor loses the link to the ask.
#[derive(Clone, Copy, Debug)]
struct Consent {
    ask_seq: Option<u64>,
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// A host with no root declared yet. `instance` names this writer in the
    /// audit log and must be a safe file-name part (see [`crate::audit::valid_instance`]).
    pub fn new(placement: Placement, instance: &str, env: E, abilities: A) -> Self {
        assert!(
            crate::audit::valid_instance(instance),
            "instance names are [A-Za-z0-9_-], 1..=64"
        );
        Executor {
            project: None,
            instance: instance.into(),
            env,
            abilities,
            table: TierTable::load(placement).expect("the tier table's examples hold"),
            pending: Pending::default(),
            consent: None,
            spoken: None,
            fetching: extensions::Fetching::Inline,
            beside: Beside::default(),
        }
    }

    /// Declares the project root; `project_id` is `<name>@<placement label>`.
    /// Pending confirmations for an earlier root are dropped.
    pub fn declare(&mut self, storage: S, project_id: &str) {
        self.pending = Pending::default();
        self.project = Some(Project {
            storage,
            id: project_id.into(),
            journal_lines: KnownCount::default(),
        });
    }

    /// Un-declares the root; every act then answers `root-not-declared`.
    pub fn undeclare(&mut self) -> Option<S> {
        self.pending = Pending::default();
        self.project.take().map(|p| p.storage)
    }

    pub fn storage(&self) -> Option<&S> {
        self.project.as_ref().map(|p| &p.storage)
    }

    pub fn instance(&self) -> &str {
        &self.instance
    }

    pub fn abilities(&self) -> &A {
        &self.abilities
    }

    /// Executes a turn's proposal: a typed action as it is, JSON validated once.
    pub async fn run(&mut self, proposal: &Proposal, turn: Option<&str>) -> Reply {
        match proposal {
            Proposal::Resolved(action) => self.execute_action(action.clone(), turn).await,
            Proposal::Sent(value) => self.execute(value, turn).await,
            Proposal::Heard(action) => self.check(action.clone(), Check::Heard, turn).await,
            Proposal::Guessed(action) => self.check(action.clone(), Check::Guessed, turn).await,
        }
    }

    /// [`Self::run`], but an `http-get` hop is handed back to the caller as
    /// [`Step::Fetch`] instead of fetched: a host that serialises its acts
    /// behind a lock releases it for the network, then hands what it got to
    /// [`Self::fetched`].
    pub async fn start(&mut self, proposal: &Proposal, turn: Option<&str>) -> Step {
        self.fetching = extensions::Fetching::Deferred(None);
        let reply = self.run(proposal, turn).await;
        match core::mem::take(&mut self.fetching) {
            extensions::Fetching::Deferred(Some(fetch)) => Step::Fetch(fetch),
            _ => Step::Done(Box::new(reply)),
        }
    }

    /// Executes action JSON: validated by the command table, then acted on.
    pub async fn execute(&mut self, value: &Value, turn: Option<&str>) -> Reply {
        match Action::from_json(value) {
            Ok(action) => self.execute_action(action, turn).await,
            Err(refusal) => self.refuse_invalid(value, refusal, turn).await,
        }
    }

    /// Executes a typed action: the entry point for every placement.
    pub async fn execute_action(&mut self, action: Action, turn: Option<&str>) -> Reply {
        if action.verb().command().act.is_none() {
            return self.catalog();
        }
        if let Err(refusal) = self.root_ready().await {
            return Reply::refusal(refusal);
        }
        let turn = turn.map(String::from);
        let turn = turn.as_deref();
        if let Some(reply) = self.look_at(&action, turn).await {
            return reply;
        }
        if let Some(reply) = self.rewrite_at(&action, turn).await {
            return reply;
        }
        match action {
            Action::List { .. }
            | Action::Read { .. }
            | Action::Grep { .. }
            | Action::Diff { .. }
            | Action::Find { .. }
            | Action::Info { .. }
            | Action::Changes { .. }
            | Action::History { .. } => {
                unreachable!("looks are answered above")
            }
            Action::Append { .. }
            | Action::Edit { .. }
            | Action::CheckItem { .. }
            | Action::RemoveItem { .. } => unreachable!("rewrites are answered above"),
            Action::Write {
                name,
                content,
                mode,
                expect,
            } => {
                self.write(&name, &content, mode, expect.as_deref(), turn)
                    .await
            }
            Action::Delete { name } => self.ask_delete(&name, turn).await,
            Action::Undo { name } => self.undo(name.as_deref(), turn).await,
            Action::Move { name, to } => self.ask_move(&name, &to, turn).await,
            Action::Copy { name, to } => self.copy(&name, &to, turn).await,
            Action::Mkdir { name } => self.mkdir(&name, turn).await,
            Action::CreateAsset { name, kind, body } => {
                self.create_asset(&name, &kind, &body, turn).await
            }
            Action::Tool { id, name } => self.run_tool(&id, name.as_deref(), turn).await,
            Action::MakeTool { descriptor } | Action::ProposeExtension { descriptor } => {
                self.propose(&descriptor, turn).await
            }
            Action::CallExtension { id, tool, args } => {
                self.call_extension(&id, &tool, args.as_ref()).await
            }
            Action::ListExtensions => unreachable!("a verb with no act is the catalog"),
        }
    }

    /// Runs `proposal` if it only looks (`read`, `list`, `grep`, `diff`):
    /// a look needs no `&mut`, so a host may run several at once, while
    /// nothing that changes the folder runs. `None`: it is no look (or not
    /// a valid action); run it with [`Self::run`].
    pub async fn look(&self, proposal: &Proposal, turn: Option<&str>) -> Option<Reply> {
        let action = match proposal {
            Proposal::Resolved(action) | Proposal::Heard(action) => action.clone(),
            Proposal::Sent(value) => Action::from_json(value).ok()?,
            // A guessed look says what it assumed: that is `run`'s to add.
            Proposal::Guessed(_) => return None,
        };
        if action.verb().command().act.is_none() || action.verb().changes_files() {
            return None;
        }
        if let Err(refusal) = self.root_ready().await {
            return Some(Reply::refusal(refusal));
        }
        self.look_at(&action, turn).await
    }

    /// Runs `proposal` if it is a change that may run beside others of its
    /// kind: a write that asks nothing first, an append, an edit, a list
    /// item ticked or removed. Each reads and writes one file whole, holding
    /// it meanwhile (see [`Storage::hold`]), and needs no `&mut`, so a host
    /// may run several at once — their audit lines and syncs then shared —
    /// while no other act runs. `None`: it is none of these (or not a valid
    /// action); run it with [`Self::run`].
    pub async fn beside(&self, proposal: &Proposal, turn: Option<&str>) -> Option<Reply> {
        let action = match proposal {
            Proposal::Resolved(action) => action.clone(),
            Proposal::Sent(value) => Action::from_json(value).ok()?,
            // Heard and guessed acts are checked with the person first.
            Proposal::Heard(_) | Proposal::Guessed(_) => return None,
        };
        let runs_beside = match &action {
            Action::Write { mode, .. } => *mode != Some(action::WriteMode::Create),
            Action::Append { .. }
            | Action::Edit { .. }
            | Action::CheckItem { .. }
            | Action::RemoveItem { .. } => true,
            _ => false,
        };
        if !runs_beside {
            return None;
        }
        if let Err(refusal) = self.root_ready().await {
            return Some(Reply::refusal(refusal));
        }
        let _running = self.beside.start();
        let Action::Write {
            name,
            content,
            mode,
            expect,
        } = &action
        else {
            return self.rewrite_at(&action, turn).await;
        };
        match self
            .write_or_ask(name, content, *mode, expect.as_deref(), turn)
            .await
        {
            changes::Written::Reply(reply) => Some(*reply),
            changes::Written::Ask(..) => unreachable!("only a create asks first"),
        }
    }

    /// The verbs that rewrite one file from what it holds (append, edit,
    /// the list verbs), answered; `None` for any other.
    async fn rewrite_at(&self, action: &Action, turn: Option<&str>) -> Option<Reply> {
        Some(match action {
            Action::Append {
                name,
                content,
                under,
                expect,
            } => {
                self.append(name, content, under.as_deref(), expect.as_deref(), turn)
                    .await
            }
            Action::Edit {
                name,
                old_text,
                new_text,
                expect,
            } => {
                self.edit(name, old_text, new_text, expect.as_deref(), turn)
                    .await
            }
            Action::CheckItem {
                name,
                item,
                done,
                expect,
            } => {
                self.check_item(name, item, done.unwrap_or(true), expect.as_deref(), turn)
                    .await
            }
            Action::RemoveItem { name, item } => self.remove_item(name, item, turn).await,
            _ => return None,
        })
    }

    /// Whether the undo index has grown past its length since it was last
    /// compacted: changes run beside others leave that to [`Self::tidy`].
    pub fn journal_due(&self) -> bool {
        self.project.as_ref().is_some_and(|project| {
            project
                .journal_lines
                .get()
                .is_some_and(|lines| lines > crate::journal::COMPACT_AFTER_LINES)
        })
    }

    /// Compacts the undo index if it is due (see [`Self::journal_due`]),
    /// with nothing running beside it.
    pub async fn tidy(&mut self) -> Result<(), Refusal> {
        if !self.journal_due() || self.root_ready().await.is_err() {
            return Ok(());
        }
        self.compact_journal().await
    }

    /// The verbs that only look, answered; `None` for any other.
    async fn look_at(&self, action: &Action, turn: Option<&str>) -> Option<Reply> {
        Some(match action {
            Action::List { dir } => self.list(dir.as_deref(), turn).await,
            Action::Read {
                name,
                first,
                last,
                at,
            } => self.read(name, *first, *last, at.as_deref(), turn).await,
            Action::Find { pattern, dir } => self.find(pattern, dir.as_deref(), turn).await,
            Action::Info { name } => self.info(name, turn).await,
            Action::Diff {
                name,
                content,
                against,
            } => {
                self.diff(name, content.as_deref(), against.as_deref(), turn)
                    .await
            }
            Action::Changes { since } => self.changes(since.as_deref(), turn).await,
            Action::History { name, limit } => self.history(name.as_deref(), *limit, turn).await,
            Action::Grep { query, dir } => self.grep(query, dir.as_deref(), turn).await,
            _ => return None,
        })
    }

    /// The tools a `tool` action can name here (the shelf and admitted
    /// extensions), with what each does: what the resolver settles a
    /// sentence's tool on.
    pub fn runnable_tools(&self) -> Vec<(String, String)> {
        let mut tools = self.abilities.tools().catalog();
        tools.extend(self.abilities.ledger().catalog());
        tools
            .into_iter()
            .filter(|tool| matches!(tool.state, ToolState::Shelf | ToolState::Admitted))
            .map(|tool| (tool.id, tool.description))
            .collect()
    }

    /// The verbs that touch no file (the tool catalog) are answered whether or
    /// not a root is declared.
    fn catalog(&self) -> Reply {
        let mut tools = self.abilities.tools().catalog();
        tools.extend(self.abilities.ledger().catalog());
        let mut reply = Reply::done(format!("{} tools available", tools.len())).said(format!(
            "{} can be used here.",
            words::count(tools.len(), "tool")
        ));
        reply.tools = Some(tools);
        reply
    }

    /// Step 1: a root is declared and reachable.
    async fn root_ready(&self) -> Result<(), Refusal> {
        let Some(project) = &self.project else {
            return Err(Refusal::new(
                Rule::RootNotDeclared,
                "no folder is chosen yet; choose the folder to work in, then ask again",
            ));
        };
        if !project.storage.reachable().await {
            return Err(contain::unreachable_root());
        }
        Ok(())
    }

    fn project(&self) -> &Project<S> {
        self.project
            .as_ref()
            .expect("root_ready checked the project")
    }

    fn store(&self) -> &S {
        &self.project().storage
    }

    /// The root as the person knows it: its path on the machine or a picked
    /// folder's label; a browser-storage folder by its project's name (its
    /// storage path means nothing to a person).
    fn folder_name(&self) -> String {
        let project = self.project();
        let root = project.storage.root_info();
        match (root.kind.as_str(), project.id.rsplit_once('@')) {
            ("opfs", Some((name, _))) => name.into(),
            _ => root.path,
        }
    }
}
