//! Choosing another machine folder from the page. The page's authority may
//! only ask: the answer is a confirmation the person says yes to (a
//! single-use id that expires, like a delete's), and only then is the folder
//! declared, the choice audited in it (`declared-by-person`) and kept in the
//! recent folders. With the host token the folder is declared at once.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use voicebox_core::confirm::{CONFIRM_TTL_MS, Pending, Waiting};
use voicebox_core::platform::Env;
use voicebox_core::reply::ConfirmRequest;
use voicebox_core::time::iso8601;
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::MachineEnv;

/// Folder switches the page asked for, waiting for the person's answer, in
/// the core's table of questions (single-use ids that expire, bounded).
#[derive(Debug, Default)]
pub struct Switches {
    pending: Mutex<Pending<Asked>>,
}

#[derive(Debug)]
struct Asked {
    folder: PathBuf,
    created_ms: u64,
}

impl Waiting for Asked {
    fn created_ms(&self) -> u64 {
        self.created_ms
    }

    fn expires_ms(&self) -> u64 {
        self.created_ms + CONFIRM_TTL_MS
    }
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
            rephrase: false,
        };
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(
                id,
                Asked {
                    folder,
                    created_ms: now,
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
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if !pending.holds(id) {
            return None;
        }
        let kept = |refusal| Answered::Kept(Box::new(Reply::refusal(refusal)));
        Some(match pending.take(id, MachineEnv.now_ms()) {
            Err(refusal) => kept(refusal),
            Ok(_) if !approved => kept(Refusal::new(
                Rule::Declined,
                match current {
                    Some(current) => format!("Kept working in {}.", folder_name(current)),
                    None => "No folder was chosen.".into(),
                },
            )),
            Ok(asked) => Answered::Switch(asked.folder),
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
