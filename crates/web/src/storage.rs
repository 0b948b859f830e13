//! Storage for one browser root (an OPFS project folder or a picked folder):
//! every operation becomes one parked request the worker performs.
//!
//! Paths are relative to the project root and have already passed the core's
//! containment. `confine` answers here without asking: OPFS cannot express an
//! escape (`..` does not resolve, there are no links), and the picked-folder
//! symlink case is an open item with a procedure in docs/.
//!
//! Every request names the access it needs (`mode`), and the worker asks the
//! root's permission for that mode before it touches anything: a picked
//! folder whose permission is `prompt` is never acted on. The answer comes
//! back as the platform's words plus the permission state, mapped here.
//!
//! The audit seq is kept here, resumed from the file when the project opens
//! (see [`crate::session`]); appends are serialised because the worker runs
//! one request at a time. A picked folder that may not be written keeps its
//! audit in a folder of this origin's private file system instead
//! ([`AuditHome::Origin`]); the audit view reads both.

use crate::io::Slot;
use crate::ops::{Op, Request};
use serde_json::Value;
use std::cell::Cell;
use std::rc::Rc;
use voicebox_core::audit::{self, AuditFile, Entry};
use voicebox_core::contain::{AUDIT_DIR, RelPath};
use voicebox_core::platform::{
    Access, DirEntry, Escape, MAX_FILE_BYTES, Observation, Resolved, RootInfo, Storage,
    StorageError,
};

/// Where this writer's audit file lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuditHome {
    /// The root's own `.audit` folder.
    Root,
    /// A folder of the origin's private file system (a picked folder that
    /// may not be written): `v1/audit-fallback/<project>`.
    Origin(String),
}

impl AuditHome {
    /// The fallback folder for a project's audit.
    pub fn fallback(project: &str) -> AuditHome {
        AuditHome::Origin(format!("v1/audit-fallback/{project}"))
    }

    /// The folder, relative to the root the worker resolves for it.
    fn folder(&self) -> &str {
        match self {
            AuditHome::Root => AUDIT_DIR,
            AuditHome::Origin(dir) => dir,
        }
    }

    /// A worker request in this home: the origin's own files need no
    /// permission; the project's name the access they need.
    fn request(&self, op: Op) -> Request {
        match self {
            AuditHome::Root => Request::on_root(op),
            AuditHome::Origin(_) => Request::on_origin(op),
        }
    }
}

pub struct WebStorage {
    slot: Rc<Slot>,
    root: RootInfo,
    /// This writer's audit file name, and where it lives.
    audit_file: String,
    home: AuditHome,
    /// Every folder the audit view reads, in order.
    audit_folders: Vec<AuditHome>,
    next_seq: Cell<u64>,
}

impl WebStorage {
    /// Storage for `root`; the audit file of `writer` lives in `home`, and the
    /// view reads `audit_folders`.
    pub fn new(
        slot: Rc<Slot>,
        root: RootInfo,
        writer: &str,
        home: AuditHome,
        audit_folders: Vec<AuditHome>,
    ) -> WebStorage {
        WebStorage {
            slot,
            audit_file: audit::file_name(writer, &root.path),
            root,
            home,
            audit_folders,
            next_seq: Cell::new(1),
        }
    }

    /// This writer's audit file: its name, and the home it is in.
    pub fn audit_file(&self) -> (&str, &AuditHome) {
        (&self.audit_file, &self.home)
    }

    /// Resumes numbering after the highest seq already in this writer's file.
    pub fn resume_after(&self, last_seq: u64) {
        // At the ceiling the next append is refused, never wrapped to 0.
        self.next_seq.set(last_seq.saturating_add(1));
    }

    /// One request to the worker.
    async fn ask(&self, request: Request, data: Vec<u8>) -> Result<(Value, Vec<u8>), StorageError> {
        let wants_folder = request.op.wants_folder();
        let (answer, bytes) = self.slot.exchange(request, data).await;
        match answer.get("error") {
            None => Ok((answer, bytes)),
            Some(error) => Err(storage_error(error, wants_folder)),
        }
    }

    /// `op` on the root, with no bytes to send.
    async fn on_root(&self, op: Op) -> Result<Value, StorageError> {
        self.ask(Request::on_root(op), Vec::new())
            .await
            .map(|(answer, _)| answer)
    }

    /// `op` on the root with `bytes` to put in a file (a write, an append).
    async fn send_bytes(&self, op: Op, bytes: &[u8]) -> Result<(), StorageError> {
        self.ask(Request::on_root(op), bytes.to_vec())
            .await
            .map(|_| ())
    }
}

/// A permission state the worker reported, in the core's terms.
fn withheld(state: &str) -> Option<Escape> {
    match state {
        "granted" => None,
        "denied" => Some(Escape::PermissionDenied),
        // `prompt`, or anything unknown: only a person's gesture can settle it.
        _ => Some(Escape::NeedsGesture),
    }
}

/// The worker reports the platform's own error (a DOMException name and
/// message, and the permission state when it refused to ask the root); the
/// mapping to the executor's terms is made here, not in JS.
/// A `TypeMismatchError` says only "not an entry of requested type", so what
/// it means depends on what was asked for: a file (it is a folder) or a
/// folder (something on the way is a file).
fn storage_error(error: &Value, wanted_folder: bool) -> StorageError {
    let name = error.get("name").and_then(Value::as_str).unwrap_or("");
    let message = error.get("message").and_then(Value::as_str).unwrap_or("");
    if let Some(escape) = error
        .get("permission")
        .and_then(Value::as_str)
        .and_then(withheld)
    {
        return StorageError::Escape(escape);
    }
    match name {
        "NotFoundError" => StorageError::NotFound,
        "TypeMismatchError" if wanted_folder => StorageError::NotADirectory,
        "TypeMismatchError" => StorageError::IsADirectory,
        // The worker's own names for what a folder act found.
        "NotEmptyError" => StorageError::NotEmpty,
        "ExistsError" => StorageError::Exists,
        "NotAllowedError" | "SecurityError" => StorageError::Escape(Escape::Unreachable),
        _ => StorageError::Other(format!("{name}: {message}")),
    }
}

impl Storage for WebStorage {
    fn root_info(&self) -> RootInfo {
        self.root.clone()
    }

    async fn reachable(&self) -> bool {
        self.on_root(Op::Reachable)
            .await
            .is_ok_and(|answer| answer["ok"] == true)
    }

    async fn permit(&self, access: Access) -> Result<(), Escape> {
        match self.on_root(Op::Permit { access }).await {
            Ok(answer) => withheld(answer["state"].as_str().unwrap_or("")).map_or(Ok(()), Err),
            Err(StorageError::Escape(escape)) => Err(escape),
            Err(_) => Err(Escape::Unreachable),
        }
    }

    async fn confine(&self, path: &RelPath) -> Result<Resolved, Escape> {
        Ok(Resolved::itself(path))
    }

    /// The worker reads at most `max` bytes: for a larger file it answers
    /// only the size, and the refusal is made here.
    async fn read(&self, path: &RelPath) -> Result<Vec<u8>, StorageError> {
        let op = Op::Read {
            path: path.as_str().into(),
            max: MAX_FILE_BYTES,
        };
        let (answer, bytes) = self.ask(Request::on_root(op), Vec::new()).await?;
        match answer["size"].as_u64() {
            Some(size) if size > MAX_FILE_BYTES => Err(StorageError::TooLarge(size)),
            _ => Ok(bytes),
        }
    }

    async fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        let op = Op::Write {
            path: path.as_str().into(),
        };
        self.send_bytes(op, bytes).await
    }

    async fn append(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        let op = Op::Append {
            path: path.as_str().into(),
        };
        self.send_bytes(op, bytes).await
    }

    async fn remove(&self, path: &RelPath) -> Result<(), StorageError> {
        let op = Op::Remove {
            path: path.as_str().into(),
        };
        self.on_root(op).await.map(|_| ())
    }

    async fn rename(&self, from: &RelPath, to: &RelPath) -> Result<(), StorageError> {
        let op = Op::Rename {
            path: from.as_str().into(),
            to: to.as_str().into(),
        };
        self.on_root(op).await.map(|_| ())
    }

    async fn make_dir(&self, path: &RelPath) -> Result<bool, StorageError> {
        let op = Op::Mkdir {
            path: path.as_str().into(),
        };
        Ok(self.on_root(op).await?["made"] == true)
    }

    async fn remove_dir(&self, path: &RelPath) -> Result<(), StorageError> {
        let op = Op::Rmdir {
            path: path.as_str().into(),
        };
        self.on_root(op).await.map(|_| ())
    }

    async fn observe(&self, path: &RelPath) -> Observation {
        let op = Op::Observe {
            path: path.as_str().into(),
        };
        match self.on_root(op).await {
            Ok(seen) => Observation {
                exists: seen["exists"] == true,
                is_dir: seen["dir"] == true,
                bytes: seen["bytes"].as_u64().unwrap_or(0),
                mtime_ms: seen["mtime"].as_u64(),
            },
            Err(_) => Observation::default(),
        }
    }

    async fn list(&self, dir: &RelPath) -> Result<Vec<DirEntry>, StorageError> {
        let op = Op::List {
            path: dir.as_str().into(),
        };
        let answer = self.on_root(op).await?;
        serde_json::from_value::<Vec<Listed>>(answer["entries"].clone())
            .map(|entries| entries.into_iter().map(Listed::into_entry).collect())
            .map_err(|e| StorageError::Other(format!("the worker's listing is malformed: {e}")))
    }

    async fn append_audit(&self, entry: &Entry) -> Result<u64, StorageError> {
        let seq = self.next_seq.get();
        if seq == u64::MAX {
            return Err(StorageError::Other(
                "the audit file's seq is at its ceiling (2^64−1): no seq can follow it".into(),
            ));
        }
        let line = Entry {
            seq,
            ..entry.clone()
        }
        .line();
        if line.len() > voicebox_core::audit::lines::MAX_LINE {
            return Err(StorageError::Other(format!(
                "the entry is {} bytes, over the log's line cap; nothing was appended",
                line.len()
            )));
        }
        let path = format!("{}/{}", self.home.folder(), self.audit_file);
        self.ask(self.home.request(Op::Append { path }), line.into_bytes())
            .await?;
        self.next_seq.set(seq + 1);
        Ok(seq)
    }

    async fn read_audit(&self) -> Result<Vec<AuditFile>, StorageError> {
        let mut all = Vec::new();
        for home in &self.audit_folders {
            let request = home.request(Op::ReadAudit {
                path: home.folder().into(),
            });
            let answer = match self.ask(request, Vec::new()).await {
                Ok((answer, _)) => answer,
                // A picked folder not readable now (no permission, or gone):
                // its own lines wait there; the view shows what can be read,
                // and every act is refused by name until it is back.
                Err(StorageError::Escape(_) | StorageError::NotFound)
                    if *home == AuditHome::Root && self.root.kind == "handle" =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            };
            let files =
                serde_json::from_value::<Vec<AuditText>>(answer["files"].clone()).map_err(|e| {
                    StorageError::Other(format!("the worker's audit files are malformed: {e}"))
                })?;
            all.extend(files.into_iter().map(|f| AuditFile {
                name: f.name,
                text: f.text,
            }));
        }
        Ok(all)
    }
}

#[derive(serde::Deserialize)]
struct Listed {
    name: String,
    #[serde(default)]
    dir: bool,
    #[serde(default)]
    bytes: u64,
}

impl Listed {
    fn into_entry(self) -> DirEntry {
        DirEntry::new(&self.name, self.dir, self.bytes)
    }
}

#[derive(serde::Deserialize)]
struct AuditText {
    name: String,
    text: String,
}
