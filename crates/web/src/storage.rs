//! Storage for one browser root (an OPFS project folder or a picked folder):
//! every operation becomes one parked request the worker performs.
//!
//! Paths are relative to the project root and have already passed the core's
//! containment. `confine` answers here without asking: OPFS cannot express an
//! escape (`..` does not resolve, there are no links), and the picked-folder
//! symlink case is an open item with a procedure in docs/ (e1-m0 spec §7).
//!
//! The audit seq is kept here, resumed from the file when the project opens
//! (see [`crate::session`]); appends are serialised because the worker runs
//! one request at a time.

use crate::io::Slot;
use serde_json::{Value, json};
use std::cell::Cell;
use std::rc::Rc;
use voicebox_core::audit::{AuditFile, Entry};
use voicebox_core::contain::RelPath;
use voicebox_core::platform::{DirEntry, Escape, Observation, RootInfo, Storage, StorageError};

pub struct WebStorage {
    slot: Rc<Slot>,
    root: RootInfo,
    audit_path: String,
    next_seq: Cell<u64>,
}

impl WebStorage {
    pub fn new(slot: Rc<Slot>, root: RootInfo, audit_path: String) -> WebStorage {
        WebStorage {
            slot,
            root,
            audit_path,
            next_seq: Cell::new(1),
        }
    }

    /// Resumes numbering after the highest seq already in this writer's file.
    pub fn resume_after(&self, last_seq: u64) {
        self.next_seq.set(last_seq + 1);
    }

    async fn ask(&self, request: Value, data: Vec<u8>) -> Result<(Value, Vec<u8>), StorageError> {
        let wanted_folder = matches!(request["op"].as_str(), Some("list" | "readAudit"));
        let (answer, bytes) = self.slot.exchange(request, data).await;
        match answer.get("error") {
            None => Ok((answer, bytes)),
            Some(error) => Err(storage_error(error, wanted_folder)),
        }
    }
}

/// The worker reports the platform's own error (a DOMException name and
/// message); the mapping to the executor's terms is made here, not in JS.
/// A `TypeMismatchError` says only "not an entry of requested type", so what
/// it means depends on what was asked for: a file (it is a folder) or a
/// folder (something on the way is a file).
fn storage_error(error: &Value, wanted_folder: bool) -> StorageError {
    let name = error.get("name").and_then(Value::as_str).unwrap_or("");
    let message = error.get("message").and_then(Value::as_str).unwrap_or("");
    match name {
        "NotFoundError" => StorageError::NotFound,
        "TypeMismatchError" if wanted_folder => StorageError::NotADirectory,
        "TypeMismatchError" => StorageError::IsADirectory,
        "NotAllowedError" | "SecurityError" => StorageError::Escape(Escape::Unreachable),
        _ => StorageError::Other(format!("{name}: {message}")),
    }
}

impl Storage for WebStorage {
    fn root_info(&self) -> RootInfo {
        self.root.clone()
    }

    async fn reachable(&self) -> bool {
        self.ask(json!({"op": "reachable"}), Vec::new())
            .await
            .is_ok_and(|(answer, _)| answer["ok"] == true)
    }

    async fn confine(&self, _path: &RelPath) -> Result<(), Escape> {
        Ok(())
    }

    async fn read(&self, path: &RelPath) -> Result<Vec<u8>, StorageError> {
        Ok(self
            .ask(json!({"op": "read", "path": path.as_str()}), Vec::new())
            .await?
            .1)
    }

    async fn write(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        self.ask(
            json!({"op": "write", "path": path.as_str()}),
            bytes.to_vec(),
        )
        .await
        .map(|_| ())
    }

    async fn append(&self, path: &RelPath, bytes: &[u8]) -> Result<(), StorageError> {
        self.ask(
            json!({"op": "append", "path": path.as_str()}),
            bytes.to_vec(),
        )
        .await
        .map(|_| ())
    }

    async fn remove(&self, path: &RelPath) -> Result<(), StorageError> {
        self.ask(json!({"op": "remove", "path": path.as_str()}), Vec::new())
            .await
            .map(|_| ())
    }

    async fn observe(&self, path: &RelPath) -> Observation {
        match self
            .ask(json!({"op": "observe", "path": path.as_str()}), Vec::new())
            .await
        {
            Ok((seen, _)) => Observation {
                exists: seen["exists"] == true,
                is_dir: seen["dir"] == true,
                bytes: seen["bytes"].as_u64().unwrap_or(0),
                mtime_ms: seen["mtime"].as_u64(),
            },
            Err(_) => Observation::default(),
        }
    }

    async fn list(&self, dir: &RelPath) -> Result<Vec<DirEntry>, StorageError> {
        let (answer, _) = self
            .ask(json!({"op": "list", "path": dir.as_str()}), Vec::new())
            .await?;
        serde_json::from_value::<Vec<Listed>>(answer["entries"].clone())
            .map(|entries| entries.into_iter().map(Listed::into_entry).collect())
            .map_err(|e| StorageError::Other(format!("the worker's listing is malformed: {e}")))
    }

    async fn append_audit(&self, entry: &Entry) -> Result<u64, StorageError> {
        let seq = self.next_seq.get();
        let line = Entry {
            seq,
            ..entry.clone()
        }
        .line();
        self.ask(
            json!({"op": "append", "path": self.audit_path}),
            line.into_bytes(),
        )
        .await?;
        self.next_seq.set(seq + 1);
        Ok(seq)
    }

    async fn read_audit(&self) -> Result<Vec<AuditFile>, StorageError> {
        let (answer, _) = self.ask(json!({"op": "readAudit"}), Vec::new()).await?;
        serde_json::from_value::<Vec<AuditText>>(answer["files"].clone())
            .map(|files| {
                files
                    .into_iter()
                    .map(|f| AuditFile {
                        name: f.name,
                        text: f.text,
                    })
                    .collect()
            })
            .map_err(|e| {
                StorageError::Other(format!("the worker's audit files are malformed: {e}"))
            })
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
        DirEntry {
            name: self.name,
            is_dir: self.dir,
            bytes: self.bytes,
        }
    }
}

#[derive(serde::Deserialize)]
struct AuditText {
    name: String,
    text: String,
}
