//! An executor over folder storage, driven to completion on the calling thread.
//!
//! The folder storage's futures complete at once (cap-std is synchronous), so
//! a tiny `block_on` drives the core's async executor. Callers on an async
//! runtime run these methods on a blocking thread.

use crate::{FolderStorage, MachineEnv, OpenError, RootOptions};
use serde_json::Value;
use std::path::Path;
use voicebox_core::audit::page::PageRequest;
use voicebox_core::audit::{AuditCheck, AuditView};
use voicebox_core::executor::{Fetch, Step};
use voicebox_core::platform::Abilities;
use voicebox_core::platform::Fetched;
use voicebox_core::resolver::Folder;
use voicebox_core::resolver::settle::MAX_NAMES;
use voicebox_core::tier::{PersonAct, Placement};
use voicebox_core::turn::Proposal;
use voicebox_core::{Executor, Refusal, Reply};

/// One machine host: one writer instance, at most one declared root.
pub struct Host<A: Abilities = ()> {
    executor: Executor<FolderStorage, MachineEnv, A>,
}

impl<A: Abilities> Host<A> {
    /// A host with no root. `instance` names this writer in the audit log.
    pub fn new(instance: &str, abilities: A) -> Self {
        Host {
            executor: Executor::new(Placement::Machine, instance, MachineEnv, abilities),
        }
    }

    /// Declares `path` as the project root (`<folder name>@machine`).
    pub fn declare(&mut self, path: &Path) -> Result<(), OpenError> {
        self.declare_with(path, RootOptions::default())
    }

    /// [`Host::declare`] with explicit options (the anchors folder, ...).
    /// What interrupted writes left in the host's staging folder is removed
    /// then, each removal audited (a reader removes nothing).
    pub fn declare_with(&mut self, path: &Path, options: RootOptions) -> Result<(), OpenError> {
        let storage = FolderStorage::open_with(path, self.executor.instance(), options)?;
        let project = storage.project();
        self.executor.declare(storage, &project);
        pollster::block_on(self.executor.sweep_temporaries());
        Ok(())
    }

    /// Un-declares the root.
    pub fn undeclare(&mut self) {
        self.executor.undeclare();
    }

    /// The declared root's real path.
    pub fn root(&self) -> Option<&Path> {
        self.executor.storage().map(FolderStorage::path)
    }

    pub fn executor(&self) -> &Executor<FolderStorage, MachineEnv, A> {
        &self.executor
    }

    /// Executes action JSON.
    pub fn execute(&mut self, action: &Value, turn: Option<&str>) -> Reply {
        pollster::block_on(self.executor.execute(action, turn))
    }

    /// Executes a turn's proposal (see [`Executor::run`]).
    pub fn run(&mut self, proposal: &Proposal, turn: Option<&str>) -> Reply {
        pollster::block_on(self.executor.run(proposal, turn))
    }

    /// Answers a proposal that only looks, through `&self` (see
    /// [`Executor::look`]); `None` for any other.
    pub fn look(&self, proposal: &Proposal, turn: Option<&str>) -> Option<Reply> {
        pollster::block_on(self.executor.look(proposal, turn))
    }

    /// Runs a change that may run beside others of its kind, through
    /// `&self` (see [`Executor::beside`]); `None` for any other.
    pub fn beside(&self, proposal: &Proposal, turn: Option<&str>) -> Option<Reply> {
        pollster::block_on(self.executor.beside(proposal, turn))
    }

    /// Compacts the undo index that changes run beside others left long
    /// (see [`Executor::tidy`]).
    pub fn tidy(&mut self) -> Result<(), Refusal> {
        pollster::block_on(self.executor.tidy())
    }

    /// [`Host::run`], but an `http-get` hop comes back to be fetched
    /// without the host (see [`Executor::start`]).
    pub fn start(&mut self, proposal: &Proposal, turn: Option<&str>) -> Step {
        pollster::block_on(self.executor.start(proposal, turn))
    }

    /// What the fetch of `fetch` got, taken back (see [`Executor::fetched`]).
    pub fn fetched(&self, fetch: Fetch, got: Result<Fetched, Refusal>) -> Step {
        pollster::block_on(self.executor.fetched(fetch, got))
    }

    /// The root's files as the resolver settles names against them (see
    /// [`Executor::names`]), and the tools a sentence may name.
    pub fn folder(&self) -> Folder {
        Folder::new(pollster::block_on(self.executor.names(MAX_NAMES)))
            .with_tools(self.executor.runnable_tools())
    }

    /// Answers a tier-2 confirmation.
    pub fn confirm(&mut self, id: &str, approved: bool) -> Reply {
        pollster::block_on(self.executor.confirm(id, approved))
    }

    /// Answers a tier-2 confirmation by voice (see [`Executor::confirm_spoken`]).
    pub fn confirm_spoken(&mut self, id: &str, heard: &str) -> Reply {
        pollster::block_on(self.executor.confirm_spoken(id, heard))
    }

    /// Records a person's decision about an extension around `act` (see
    /// [`Executor::record_person_act`]).
    pub fn person_act(
        &self,
        id: &str,
        person: PersonAct,
        how: &str,
        act: impl FnOnce() -> Result<(), Refusal>,
    ) -> Reply {
        pollster::block_on(self.executor.record_person_act(id, person, how, act))
    }

    /// One page of the declared root's audit, newest first.
    pub fn audit(&self, page: &PageRequest) -> Result<AuditView, Refusal> {
        pollster::block_on(self.executor.audit(page))
    }

    /// Every audit file of the declared root, with its verdict.
    pub fn verify_audit(&self) -> Result<AuditCheck, Refusal> {
        pollster::block_on(self.executor.verify_audit())
    }
}

impl Host<crate::MachineAbilities> {
    /// The network the host's extensions use, to fetch a [`Step::Fetch`]
    /// while the host is free for other requests.
    pub fn egress(&self) -> crate::egress::HttpEgress {
        *self.executor.abilities().egress()
    }
}
