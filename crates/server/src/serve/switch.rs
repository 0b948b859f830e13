//! Choosing another machine folder from the page. The page's authority may
//! only ask: the answer is a confirmation the person says yes to (a
//! single-use id that expires, like a delete's), and only then is the folder
//! declared, the choice audited in it (`declared-by-person`) and kept in the
//! recent folders. With the host token the folder is declared at once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use voicebox_core::confirm::{CONFIRM_TTL_MS, MAX_PENDING};
use voicebox_core::platform::Env;
use voicebox_core::reply::ConfirmRequest;
use voicebox_core::time::iso8601;
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::MachineEnv;

/// Folder switches the page asked for, waiting for the person's answer.
#[derive(Debug, Default)]
pub struct Switches {
    pending: Mutex<BTreeMap<String, Pending>>,
}

#[derive(Debug)]
struct Pending {
    folder: PathBuf,
    expires_ms: u64,
}

/// What answering a switch's id came to.
pub enum Answered {
    /// Yes, in time: declare this folder.
    Switch(PathBuf),
    /// No, or too late: the reply says so and nothing changed.
    Kept(Box<Reply>),
}

impl Switches {
    /// Files a switch to `folder` (from `current`, if any) and returns the
    /// question the page shows.
    pub fn ask(&self, folder: PathBuf, current: Option<&Path>) -> Reply {
        let now = MachineEnv.now_ms();
        let id = format!("switch-{}", MachineEnv.random_id());
        let name = folder_name(&folder);
        let consequence = match current {
            Some(current) => format!(
                "Voicebox will act only inside {} from now on; {} is left as it is.",
                folder.display(),
                current.display()
            ),
            None => format!("Voicebox will act only inside {}.", folder.display()),
        };
        let request = ConfirmRequest {
            id: id.clone(),
            rule: Rule::DeclaredByPerson,
            why: "the folder Voicebox works in is the person's choice: say yes to switch".into(),
            plan: format!("work in {}", folder.display()),
            expires_at: iso8601(now + CONFIRM_TTL_MS),
            question: format!("Work in {name}?"),
            consequence,
            yes: "Switch".into(),
            no: "Cancel".into(),
            expired: "Timed out — the folder was not switched.".into(),
        };
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        pending.retain(|_, p| p.expires_ms > now);
        if pending.len() >= MAX_PENDING
            && let Some(oldest) = pending
                .iter()
                .min_by_key(|(_, p)| p.expires_ms)
                .map(|(id, _)| id.clone())
        {
            pending.remove(&oldest);
        }
        pending.insert(
            id,
            Pending {
                folder,
                expires_ms: now + CONFIRM_TTL_MS,
            },
        );
        Reply {
            confirm: Some(request),
            ..Reply::default()
        }
    }

    /// The answer to `id` when it is a switch's (each id answers once), or
    /// `None` when it is not one (the executor's confirmations answer it).
    pub fn answer(&self, id: &str, approved: bool, current: Option<&Path>) -> Option<Answered> {
        let switch = self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id)?;
        let kept =
            |rule, why: String| Answered::Kept(Box::new(Reply::refusal(Refusal::new(rule, why))));
        Some(if switch.expires_ms <= MachineEnv.now_ms() {
            kept(
                Rule::ConfirmationExpired,
                format!(
                    "that question expired before it was answered, and nothing changed; choose {} again to switch",
                    switch.folder.display()
                ),
            )
        } else if !approved {
            kept(
                Rule::Declined,
                match current {
                    Some(current) => format!("Kept working in {}.", folder_name(current)),
                    None => "No folder was chosen.".into(),
                },
            )
        } else {
            Answered::Switch(switch.folder)
        })
    }
}

/// A folder's own name ("notes" for `~/notes`), the whole path when it has none.
pub fn folder_name(folder: &Path) -> String {
    folder.file_name().map_or_else(
        || folder.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}
