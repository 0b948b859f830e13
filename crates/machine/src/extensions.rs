//! Extension proposals and the admission ledger, in the host's state folder
//! (never inside a root).
//!
//! - `proposals/<id>.json`: what was proposed (data only), with the gate's
//!   verdict and the plan digest. Anything else in that folder — a descriptor
//!   dropped there by hand — is listed as present-not-admitted and never loads.
//! - `ledger.json`: what a person admitted, by id and plan digest, with the
//!   requests each has made. The ledger alone defines what is admitted: a
//!   proposal changed after admission no longer matches and does not run.

use crate::env::now_ms;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;
use voicebox_core::extension::{self, Descriptor, ExtensionState, Reach};
use voicebox_core::platform::ExtensionLedger;
use voicebox_core::reply::ToolInfo;
use voicebox_core::time::iso8601;
use voicebox_core::{Refusal, Rule};

/// A stored proposal.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Proposal {
    pub descriptor: Descriptor,
    /// What the gate said (empty: may be admitted).
    pub problems: Vec<String>,
    pub plan_digest: String,
    pub proposed_at: String,
}

/// One admitted extension.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Admission {
    pub plan_digest: String,
    pub admitted_at: String,
    /// Requests made so far against `bounds.maxRequests`.
    pub requests: u32,
}

/// How an extension stands, for `GET /api/extensions`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    pub id: String,
    pub state: ExtensionState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_digest: Option<String>,
}

/// The most proposals that may wait for the person (stored, not admitted)
/// at once, and the most bytes they may take together: a model proposing in
/// a loop is refused by name here until the person withdraws some. The
/// bound also bounds what `list_extensions` (and MCP's `tools/list`) says.
pub const MAX_WAITING_PROPOSALS: usize = 32;
pub const MAX_WAITING_BYTES: u64 = 1 << 20;

/// The proposals folder and the ledger.
pub struct Registry {
    dir: PathBuf,
    /// Which hosts the gate admits: the host's egress reach.
    reach: Reach,
    /// Serialises ledger read-modify-writes within the process.
    ledger_lock: Mutex<()>,
}

fn io_refusal(what: &str, e: io::Error) -> Refusal {
    Refusal::new(
        Rule::StorageFailed,
        format!("{what}: {e}; check the state folder"),
    )
}

impl Registry {
    pub fn new(dir: PathBuf, reach: Reach) -> Registry {
        Registry {
            dir,
            reach,
            ledger_lock: Mutex::new(()),
        }
    }

    fn proposals(&self) -> PathBuf {
        self.dir.join("proposals")
    }

    /// Stores a proposal (replacing an earlier one with the same id).
    pub fn propose(
        &self,
        descriptor: &Descriptor,
        problems: &[Refusal],
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let proposal = Proposal {
            descriptor: descriptor.clone(),
            problems: extension::problems_text(problems),
            plan_digest: extension::plan_digest(descriptor),
            proposed_at: iso8601(now_ms),
        };
        std::fs::create_dir_all(self.proposals())
            .map_err(|e| io_refusal("the proposals folder cannot be made", e))?;
        let json = serde_json::to_vec_pretty(&proposal).expect("proposals serialise");
        // Counting and storing are one step, so two proposals at once cannot both fit the last place.
        let _guard = self.ledger_lock.lock().unwrap_or_else(|p| p.into_inner());
        self.room_for(&descriptor.id, json.len() as u64)?;
        write_atomic(
            &self.proposals().join(format!("{}.json", descriptor.id)),
            &json,
        )
        .map_err(|e| io_refusal("the proposal cannot be stored", e))
    }

    /// Refuses a proposal of `bytes` for `id` when the proposals waiting for
    /// the person (all but the admitted ones, and the one `id` replaces)
    /// already fill [`MAX_WAITING_PROPOSALS`] or [`MAX_WAITING_BYTES`].
    fn room_for(&self, id: &str, bytes: u64) -> Result<(), Refusal> {
        let ledger = self.ledger();
        let (mut waiting, mut total) = (0usize, 0u64);
        for entry in std::fs::read_dir(self.proposals())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            match name.strip_suffix(".json") {
                Some(other) if other != id && !ledger.contains_key(other) => {
                    waiting += 1;
                    total += entry.metadata().map_or(0, |m| m.len());
                }
                _ => {}
            }
        }
        if waiting < MAX_WAITING_PROPOSALS && total + bytes <= MAX_WAITING_BYTES {
            return Ok(());
        }
        Err(Refusal::new(
            Rule::TooManyProposals,
            format!(
                "{waiting} extension proposals ({total} bytes) are waiting for the person, and the host keeps at most {MAX_WAITING_PROPOSALS} ({MAX_WAITING_BYTES} bytes); `{id}` was not stored — withdraw some first in the Extensions panel"
            ),
        ))
    }

    /// The stored proposal of `id`.
    pub fn proposal(&self, id: &str) -> Result<Proposal, Refusal> {
        if !extension::valid_entry_id(id) {
            return Err(Refusal::new(
                Rule::NotAdmitted,
                format!("{id:?} is not an extension id"),
            ));
        }
        let bytes = std::fs::read(self.proposals().join(format!("{id}.json"))).map_err(|_| {
            Refusal::new(
                Rule::NotAdmitted,
                format!("no extension `{id}` was proposed"),
            )
        })?;
        serde_json::from_slice(&bytes).map_err(|_| {
            Refusal::new(
                Rule::NotAdmitted,
                format!("`{id}` is present but was not proposed through the host; it never loads"),
            )
        })
    }

    fn ledger(&self) -> BTreeMap<String, Admission> {
        std::fs::read(self.dir.join("ledger.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn save_ledger(&self, ledger: &BTreeMap<String, Admission>) -> Result<(), Refusal> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| io_refusal("the state folder cannot be made", e))?;
        let json = serde_json::to_vec_pretty(ledger).expect("the ledger serialises");
        write_atomic(&self.dir.join("ledger.json"), &json)
            .map_err(|e| io_refusal("the ledger cannot be written", e))
    }

    /// The gate's verdict on `descriptor` at this host's reach: refused by
    /// the first problem's rule, in words `why` makes of all the problems.
    fn gate(
        &self,
        descriptor: &Descriptor,
        why: impl FnOnce(&str) -> String,
    ) -> Result<(), Refusal> {
        let problems = extension::judge(descriptor, self.reach);
        match problems.first() {
            Some(first) => Err(Refusal::new(
                first.rule,
                why(&extension::problems_text(&problems).join("; ")),
            )),
            None => Ok(()),
        }
    }

    /// Checks `id` may be admitted as proposed, returning its plan digest.
    pub fn admissible(&self, id: &str) -> Result<Proposal, Refusal> {
        let proposal = self.proposal(id)?;
        self.gate(&proposal.descriptor, |problems| {
            format!("`{id}` cannot be admitted: {problems}")
        })?;
        Ok(proposal)
    }

    /// Admits `id` at exactly `plan_digest`.
    pub fn admit(&self, id: &str, plan_digest: &str, now_ms: u64) -> Result<(), Refusal> {
        let _guard = self.ledger_lock.lock().unwrap_or_else(|p| p.into_inner());
        let proposal = self.admissible(id)?;
        if proposal.plan_digest != plan_digest {
            return Err(Refusal::new(
                Rule::PlanChanged,
                format!("`{id}` changed since it was shown for approval; review it again"),
            ));
        }
        let mut ledger = self.ledger();
        ledger.insert(
            id.into(),
            Admission {
                plan_digest: plan_digest.into(),
                admitted_at: iso8601(now_ms),
                requests: 0,
            },
        );
        self.save_ledger(&ledger)
    }

    /// Removes the proposal of `id`, which was never admitted (an admitted
    /// one is revoked first, so its admission stays on the record).
    pub fn withdraw(&self, id: &str) -> Result<(), Refusal> {
        let _guard = self.ledger_lock.lock().unwrap_or_else(|p| p.into_inner());
        if !extension::valid_entry_id(id) {
            return Err(Refusal::new(
                Rule::MalformedField,
                format!("{id:?} is not an extension id"),
            ));
        }
        if self.ledger().contains_key(id) {
            return Err(Refusal::new(
                Rule::PlanChanged,
                format!("`{id}` is admitted; revoke it first, then remove the proposal"),
            ));
        }
        match std::fs::remove_file(self.proposals().join(format!("{id}.json"))) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Refusal::new(
                Rule::NotFound,
                format!("there is no proposal `{id}`; list the extensions to see what is proposed"),
            )),
            Err(e) => Err(io_refusal("the proposal cannot be removed", e)),
        }
    }

    /// Revokes `id`; it stops running at once.
    pub fn revoke(&self, id: &str) -> Result<bool, Refusal> {
        let _guard = self.ledger_lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut ledger = self.ledger();
        let was = ledger.remove(id).is_some();
        self.save_ledger(&ledger)?;
        Ok(was)
    }

    /// The admitted descriptor of `id`: in the ledger, and still the plan admitted.
    pub fn admitted(&self, id: &str) -> Result<Descriptor, Refusal> {
        let Some(admission) = self.ledger().remove(id) else {
            return Err(Refusal::new(
                Rule::NotAdmitted,
                format!("extension `{id}` is not admitted; a person must admit it first"),
            ));
        };
        let proposal = self.proposal(id)?;
        if proposal.plan_digest != admission.plan_digest {
            return Err(Refusal::new(
                Rule::PlanChanged,
                format!(
                    "extension `{id}` changed after it was admitted; it does not run until admitted again"
                ),
            ));
        }
        // The gate's rules hold for what runs, not only for what is
        // proposed: an admission made before a rule existed stops by name.
        self.gate(&proposal.descriptor, |problems| {
            format!(
                "extension `{id}` no longer passes the gate ({problems}); it does not run until a version that does is admitted"
            )
        })?;
        Ok(proposal.descriptor)
    }

    pub fn requests_used(&self, id: &str) -> u32 {
        self.ledger().get(id).map_or(0, |a| a.requests)
    }

    /// Counts one request, persisted before the request is made.
    pub fn count_request(&self, id: &str) -> Result<(), Refusal> {
        let _guard = self.ledger_lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut ledger = self.ledger();
        let admission = ledger.get_mut(id).ok_or_else(|| {
            Refusal::new(
                Rule::NotAdmitted,
                format!("extension `{id}` is not admitted"),
            )
        })?;
        admission.requests += 1;
        self.save_ledger(&ledger)
    }

    /// Every extension: admitted, pending, refused, or present-not-admitted.
    pub fn list(&self) -> Vec<Listing> {
        let ledger = self.ledger();
        let mut out = Vec::new();
        let Ok(entries) = std::fs::read_dir(self.proposals()) else {
            return out;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = name.strip_suffix(".json") else {
                continue;
            };
            let listing = match self.proposal(id) {
                Ok(p) => {
                    let admitted = ledger
                        .get(id)
                        .is_some_and(|a| a.plan_digest == p.plan_digest);
                    let state = if admitted {
                        ExtensionState::Admitted
                    } else if p.problems.is_empty() {
                        ExtensionState::Pending
                    } else {
                        ExtensionState::Refused
                    };
                    Listing {
                        id: id.into(),
                        state,
                        description: Some(p.descriptor.description),
                        problems: p.problems,
                        plan_digest: Some(p.plan_digest),
                    }
                }
                Err(_) => Listing {
                    id: id.into(),
                    state: ExtensionState::PresentNotAdmitted,
                    description: None,
                    problems: Vec::new(),
                    plan_digest: None,
                },
            };
            out.push(listing);
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }
}

/// The ledger of a machine host: its registry, or none where the host has no
/// state folder to keep one in (then every ledger act is refused by name).
pub struct Extensions {
    registry: Option<Registry>,
}

impl Extensions {
    /// No ledger: the host has no state folder to keep one in.
    pub fn none() -> Extensions {
        Extensions { registry: None }
    }

    /// The registry and ledger in `dir` (the state folder's `extensions/`),
    /// judging hosts by `reach`.
    pub fn in_dir(dir: PathBuf, reach: Reach) -> Extensions {
        Extensions {
            registry: Some(Registry::new(dir, reach)),
        }
    }

    /// The registry, for the person's acts (admit, revoke, list), which the
    /// server and CLI make outside any turn.
    pub fn registry(&self) -> Option<&Registry> {
        self.registry.as_ref()
    }

    fn registry_or_refuse(&self) -> Result<&Registry, Refusal> {
        self.registry
            .as_ref()
            .ok_or_else(|| Refusal::new(Rule::ToolUnavailable, "this host takes no extensions"))
    }
}

impl ExtensionLedger for Extensions {
    fn catalog(&self) -> Vec<ToolInfo> {
        self.registry
            .as_ref()
            .map(|registry| {
                registry
                    .list()
                    .into_iter()
                    .map(|l| ToolInfo {
                        id: l.id,
                        description: l.description.unwrap_or_default(),
                        state: l.state.into(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    async fn propose(&self, descriptor: &Descriptor, problems: &[Refusal]) -> Result<(), Refusal> {
        self.registry_or_refuse()?
            .propose(descriptor, problems, now_ms())
    }

    async fn admitted(&self, id: &str) -> Result<Descriptor, Refusal> {
        self.registry_or_refuse()?.admitted(id)
    }

    async fn requests_used(&self, id: &str) -> u32 {
        self.registry.as_ref().map_or(0, |r| r.requests_used(id))
    }

    async fn count_request(&self, id: &str) -> Result<(), Refusal> {
        self.registry_or_refuse()?.count_request(id)
    }
}

fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests;
