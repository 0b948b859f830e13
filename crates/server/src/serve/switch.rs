//! Choosing another machine folder from the page. The page's authority may
//! only ask: the answer is a confirmation the person says yes to (a
//! single-use id that expires, like a delete's), and only then is the folder
//! declared, the choice audited in it (`declared-by-person`) and kept in the
//! recent folders. With the host token the folder is declared at once.
//! A folder that is not there yet is offered to be made: the same yes makes
//! it (a first run's `~/notes`), as `serve --root` makes a missing folder.

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
    make: bool,
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
    /// Yes, in time: declare this folder, made first when `make`.
    Switch { folder: PathBuf, make: bool },
    /// No, or too late: the reply says so and nothing changed.
    Kept(Box<Reply>),
}

impl Switches {
    /// Files a switch to `folder` (from `current`, if any), to be made first
    /// when `make`, and returns the question the page shows.
    pub fn ask(&self, folder: PathBuf, make: bool, current: Option<&Path>) -> Reply {
        let now = MachineEnv.now_ms();
        let id = format!("switch-{}", MachineEnv.random_id());
        let name = folder_name(&folder);
        let only = match (make, current) {
            (true, _) => format!(
                "{} does not exist yet: yes makes it, and Voicebox acts only inside it from then on",
                folder.display()
            ),
            (false, Some(_)) => format!(
                "Voicebox will act only inside {} from now on",
                folder.display()
            ),
            (false, None) => format!("Voicebox will act only inside {}", folder.display()),
        };
        let consequence = match current {
            Some(current) => format!("{only}; {} is left as it is.", current.display()),
            None => format!("{only}."),
        };
        let request = ConfirmRequest {
            id: id.clone(),
            rule: Rule::DeclaredByPerson,
            why: "the folder Voicebox works in is the person's choice: say yes to switch".into(),
            plan: format!(
                "{}work in {}",
                if make { "make and " } else { "" },
                folder.display()
            ),
            expires_at: iso8601(now + CONFIRM_TTL_MS),
            question: if make {
                format!("Make {name} and work there?")
            } else {
                format!("Work in {name}?")
            },
            consequence,
            yes: if make { "Make it" } else { "Switch" }.into(),
            no: "Cancel".into(),
            expired: "Timed out — the folder was not switched.".into(),
            danger: false,
            rephrase: false,
            say: None,
        };
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(
                id,
                Asked {
                    folder,
                    make,
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
            Ok(asked) => Answered::Switch {
                folder: asked.folder,
                make: asked.make,
            },
        })
    }
}

/// A folder's own name ("notes" for `~/notes`), the whole path when it has none.
pub(crate) fn folder_name(folder: &Path) -> String {
    folder.file_name().map_or_else(
        || folder.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}
