//! What one worker request does: open a project, run a turn, answer a
//! confirmation, read the audit. Each is an async fn over the one executor;
//! the executor is moved in and handed back, so no borrow outlives a request.

use crate::env::SharedEnv;
use crate::io::Slot;
use crate::storage::{AuditHome, WebStorage};
use crate::tools::WebTools;
use serde_json::{Value, json};
use std::rc::Rc;
use voicebox_core::audit::page::PageRequest;
use voicebox_core::audit::{self, AuditFile};
use voicebox_core::contain::AUDIT_DIR;
use voicebox_core::platform::{Access, Env, Escape, RootInfo, Storage};
use voicebox_core::project::{Location, ProjectRecord};
use voicebox_core::resolver::settle::MAX_NAMES;
use voicebox_core::resolver::{self, Folder, Resolution};
use voicebox_core::tier::Placement;
use voicebox_core::time::iso8601;
use voicebox_core::turn::{Conversation, Proposal, TurnInput, run_turn};
use voicebox_core::worker::{Answer, Execute, Open, WorkerRequest};
use voicebox_core::{Executor, Refusal, Reply, Rule};

pub type WebExecutor = Executor<WebStorage, SharedEnv, WebTools>;

/// A named refusal as a request's answer.
fn refusal(rule: Rule, why: &str) -> Value {
    json!(Reply::refusal(Refusal::new(rule, why)))
}

/// Runs one request and hands the executor back with the answer.
pub async fn run(
    request: Value,
    executor: Option<WebExecutor>,
    slot: Rc<Slot>,
    env: SharedEnv,
) -> (Option<WebExecutor>, Value) {
    let request = match WorkerRequest::from_json(request) {
        Ok(request) => request,
        Err(refusal) => return (executor, json!(Reply::refusal(refusal))),
    };
    match (request, executor) {
        (WorkerRequest::Open(request), executor) => open(request, executor, slot, env).await,
        (WorkerRequest::Resolve { text }, executor) => (executor, resolution(&text)),
        (_, None) => (
            None,
            refusal(
                Rule::RootNotDeclared,
                "no project is open; open or create a project first",
            ),
        ),
        (request, Some(mut executor)) => {
            let answer = in_project(&mut executor, request, &env).await;
            (Some(executor), answer)
        }
    }
}

/// A request for the open project.
async fn in_project(executor: &mut WebExecutor, request: WorkerRequest, env: &SharedEnv) -> Value {
    match request {
        WorkerRequest::Execute(request) => turn(executor, request, env).await,
        WorkerRequest::Confirm(Answer {
            id,
            spoken: Some(heard),
            ..
        }) => json!({"result": executor.confirm_spoken(&id, &heard).await}),
        WorkerRequest::Confirm(Answer { id, approved, .. }) => {
            json!({"result": executor.confirm(&id, approved).await})
        }
        WorkerRequest::Names => json!({"names": executor.names(MAX_NAMES).await}),
        WorkerRequest::VerifyAudit => match executor.verify_audit().await {
            Ok(check) => json!(check),
            Err(refusal) => json!(Reply::refusal(refusal)),
        },
        WorkerRequest::Audit(page) => {
            let view = match PageRequest::new(page.cursor.as_deref(), page.limit) {
                Ok(page) => executor.audit(&page).await,
                Err(refusal) => Err(refusal),
            };
            match view {
                Ok(view) => json!(view),
                Err(refusal) => json!(Reply::refusal(refusal)),
            }
        }
        WorkerRequest::Open(_) | WorkerRequest::Resolve { .. } => {
            unreachable!("answered before a project is needed")
        }
    }
}

/// A sentence through the core's script resolver, as `{action, sure}`
/// (with `assumed` when not sure) or `{action: null, note}`.
fn resolution(text: &str) -> Value {
    match resolver::resolve(text) {
        Resolution::Action(action) => json!({"action": action, "sure": true}),
        Resolution::Guess { action, assumed } => {
            json!({"action": action, "sure": false, "assumed": assumed})
        }
        Resolution::Unresolved { note } => json!({"action": null, "sure": false, "note": note}),
    }
}

/// One turn through the core's [`run_turn`], answered as `POST /api/turn`
/// answers it (with `changes`, so the page knows when to re-list); words
/// are settled against the project's files.
async fn turn(executor: &mut WebExecutor, request: Execute, env: &SharedEnv) -> Value {
    let input = match TurnInput::new(request.transcript, request.action) {
        Ok(input) => input,
        Err(refusal) => return json!(Reply::refusal(refusal)),
    };
    let turn = request.turn.as_deref();
    // Only words need the project's names (a walk of its root).
    let folder = match &input {
        TurnInput::Words(_) => Folder::new(executor.names(MAX_NAMES).await),
        TurnInput::Action(_) => Folder::default(),
    };
    let folder =
        CONVERSATION.with_borrow(|conversation| conversation.folder(folder, env.0.daily_note()));
    let answer = run_turn(
        input,
        async |text: String| resolver::resolve_in(&text, &folder),
        async |proposal: Proposal| executor.run(&proposal, turn).await,
    )
    .await;
    CONVERSATION.with_borrow_mut(|conversation| conversation.remember(&answer));
    json!(answer)
}

thread_local! {
    /// What the worker's turns keep for the next (the file "it" means; the
    /// worker runs one request at a time on one thread).
    static CONVERSATION: std::cell::RefCell<Conversation> = std::cell::RefCell::default();
}

/// Opens (or creates) a project: its root, the writer's audit file (seq
/// resumed, `lost` sweep), and its project record, which the worker stores.
async fn open(
    request: Open,
    executor: Option<WebExecutor>,
    slot: Rc<Slot>,
    env: SharedEnv,
) -> (Option<WebExecutor>, Value) {
    // "it" never reaches back into another project.
    CONVERSATION.set(Conversation::default());
    let project = &request.project;
    let (Some(name), Some(instance)) = (project["name"].as_str(), request.instance.as_deref())
    else {
        return (
            executor,
            refusal(
                Rule::MissingArgument,
                "open needs `project.name` and `instance`",
            ),
        );
    };
    if !voicebox_core::extension::valid_entry_id(name) || !audit::valid_instance(instance) {
        return (
            executor,
            refusal(
                Rule::MalformedField,
                "project names are a-z, 0-9 and -; instances are A-Z, a-z, 0-9, - and _",
            ),
        );
    }
    let root = match Root::from_request(name, project) {
        Ok(root) => root,
        Err(refusal) => return (executor, json!(Reply::refusal(refusal))),
    };
    let info = root.info();
    let access = access(&slot, &info).await;
    let (writer, home, folders) = root.audit_place(name, instance, access["write"] == "granted");
    if !audit::valid_instance(&writer) {
        return (
            executor,
            refusal(Rule::MalformedField, "the instance name is too long"),
        );
    }
    let storage = WebStorage::new(slot.clone(), info.clone(), &writer, home, folders);
    if let Err(refusal) = resume_audit(&storage, &env).await {
        return (executor, json!(Reply::refusal(refusal)));
    }
    let mut executor = match executor {
        Some(executor) if executor.instance() == writer => executor,
        _ => Executor::new(
            Placement::Browser,
            &writer,
            env.clone(),
            WebTools::new(slot),
        ),
    };
    let now = iso8601(env.now_ms());
    let persisted = request.persisted;
    // The project's identity is placement + location: one label for this
    // browser, not the tab's writer name (which names the audit file).
    let label = request.label.as_deref().unwrap_or("browser");
    let mut record = ProjectRecord::new(name, label, Placement::Browser, &info, now, persisted);
    if let Some(location) = root.location() {
        record.location = location.clone();
        record.root = location;
    }
    // The worker passes the creation time its registry kept; an open is not a creation.
    if let Some(created) = request.created_at.as_deref().filter(|t| is_timestamp(t)) {
        record.created_at = created.into();
    }
    let (file, home) = storage.audit_file();
    let audit_at = match home {
        AuditHome::Root => json!({"in": "root", "file": format!("{AUDIT_DIR}/{file}")}),
        AuditHome::Origin(dir) => json!({"in": "origin", "file": format!("{dir}/{file}")}),
    };
    executor.declare(storage, &record.id);
    (
        Some(executor),
        json!({"ok": true, "project": record, "access": access, "audit": audit_at, "writer": writer}),
    )
}

/// What an open request names as the project's root.
enum Root {
    /// `v1/projects/<name>` in the origin's private file system.
    Opfs { path: String },
    /// A folder the person picked, kept by the worker as a handle under `id`.
    Handle { id: String, label: String },
}

impl Root {
    fn from_request(name: &str, project: &Value) -> Result<Root, Refusal> {
        match project["kind"].as_str().unwrap_or("opfs") {
            "opfs" => Ok(Root::Opfs {
                path: format!("v1/projects/{name}"),
            }),
            "handle" => {
                let id = project["id"].as_str().unwrap_or("");
                let label = project["label"].as_str().unwrap_or("").trim();
                let id_ok = id.len() <= 64
                    && id.strip_prefix("h_").is_some_and(|rest| {
                        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric())
                    });
                if !id_ok {
                    return Err(Refusal::new(
                        Rule::MalformedField,
                        "a picked folder's `id` is h_ and letters or digits, as the worker made it when the folder was picked",
                    ));
                }
                if label.is_empty()
                    || label.chars().count() > 200
                    || label.chars().any(char::is_control)
                {
                    return Err(Refusal::new(
                        Rule::MalformedField,
                        "a picked folder needs a `label` of 1 to 200 printable characters, so a person can tell it apart",
                    ));
                }
                Ok(Root::Handle {
                    id: id.into(),
                    label: label.into(),
                })
            }
            other => Err(Refusal::new(
                Rule::MalformedField,
                format!("a project's kind is opfs or handle, not {other:?}"),
            )),
        }
    }

    fn info(&self) -> RootInfo {
        match self {
            Root::Opfs { path } => RootInfo {
                kind: "opfs".into(),
                path: path.clone(),
            },
            Root::Handle { label, .. } => RootInfo {
                kind: "handle".into(),
                path: label.clone(),
            },
        }
    }

    /// Who writes the audit, where, and which folders the view reads. A
    /// picked folder that may not be written keeps this writer's audit in
    /// the origin's fallback folder, under a writer name of its own.
    fn audit_place(
        &self,
        project: &str,
        instance: &str,
        writable: bool,
    ) -> (String, AuditHome, Vec<AuditHome>) {
        match self {
            Root::Opfs { .. } => (instance.into(), AuditHome::Root, vec![AuditHome::Root]),
            Root::Handle { .. } => {
                let folders = vec![AuditHome::Root, AuditHome::fallback(project)];
                if writable {
                    (instance.into(), AuditHome::Root, folders)
                } else {
                    let fallback = AuditHome::fallback(project);
                    (format!("{instance}-fallback"), fallback, folders)
                }
            }
        }
    }

    /// A picked folder is remembered as a handle id and the person's label,
    /// never a path: the origin cannot describe where it is.
    fn location(&self) -> Option<Location> {
        match self {
            Root::Opfs { .. } => None,
            Root::Handle { id, label } => Some(Location {
                kind: "handle".into(),
                path: None,
                id: Some(id.clone()),
                label: Some(label.clone()),
            }),
        }
    }
}

/// An ISO 8601 UTC time as the core writes them (`2026-09-19T15:00:00.000Z`).
fn is_timestamp(text: &str) -> bool {
    text.len() <= 32
        && text.ends_with('Z')
        && text.contains('T')
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b':' | b'.' | b'T' | b'Z'))
}

/// The root's permission for reading and for writing, as the page shows it.
async fn access(slot: &Rc<Slot>, info: &RootInfo) -> Value {
    let probe = WebStorage::new(slot.clone(), info.clone(), "probe", AuditHome::Root, vec![]);
    json!({
        "read": state(probe.permit(Access::Read).await),
        "write": state(probe.permit(Access::Write).await),
    })
}

/// A permission answer as the page shows it.
fn state(answer: Result<(), Escape>) -> &'static str {
    match answer {
        Ok(()) => "granted",
        Err(Escape::NeedsGesture) => "prompt",
        Err(Escape::PermissionDenied) => "denied",
        Err(_) => "unreachable",
    }
}

/// Seq resumed from this writer's own file; every entry an earlier boot left
/// pending gets its one `lost` completion.
async fn resume_audit(storage: &WebStorage, env: &SharedEnv) -> Result<(), Refusal> {
    let files = storage.read_audit().await.map_err(|e| {
        Refusal::new(
            Rule::AuditUnwritable,
            format!("the audit folder cannot be read ({e:?}); nothing was opened"),
        )
    })?;
    let own = storage.audit_file().0.to_string();
    let text = files
        .into_iter()
        .find(|f| f.name == own)
        .map(|f| f.text)
        .unwrap_or_default();
    let (_, entries) = audit::parse(&AuditFile { name: own, text });
    storage.resume_after(audit::last_seq(&entries));
    for lost in audit::lost_completions(&entries, &iso8601(env.now_ms())) {
        storage.append_audit(&lost).await.map_err(|e| {
            Refusal::new(
                Rule::AuditUnwritable,
                format!("the audit log cannot be written ({e:?})"),
            )
        })?;
    }
    Ok(())
}
