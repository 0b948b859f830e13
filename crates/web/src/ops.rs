//! The I/O the worker performs for the core, as types: each operation names
//! what it touches and the access it needs, and is turned into the worker's
//! JSON only at the slot.

use serde::Serialize;
use voicebox_core::platform::Access;

/// One operation the worker performs, as it is sent (`{"op": "read", ...}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Op {
    /// Whether the root can still be reached at all.
    Reachable,
    /// Asks the root's permission for an access (and answers its state).
    Permit {
        #[serde(skip)]
        access: Access,
    },
    /// A file's bytes, or only its size when it is over `max`.
    Read {
        path: String,
        max: u64,
    },
    /// The request's bytes become the file, whole.
    Write {
        path: String,
    },
    /// The request's bytes go at the file's end.
    Append {
        path: String,
    },
    Remove {
        path: String,
    },
    Rename {
        path: String,
        to: String,
    },
    /// Makes a folder; the answer says whether it was `made` or already there.
    Mkdir {
        path: String,
    },
    /// Removes an empty folder.
    Rmdir {
        path: String,
    },
    /// What is at a path now (exists, folder, size, time).
    Observe {
        path: String,
    },
    /// A folder's entries.
    List {
        path: String,
    },
    /// Every audit file in a folder, as text.
    ReadAudit {
        path: String,
    },
    /// Runs the page's built-in tool on the request's bytes.
    RunTool {
        id: String,
        #[serde(rename = "budgetMs")]
        budget_ms: u64,
    },
}

impl Op {
    /// The access the operation needs from the root, asked for before the
    /// worker touches anything; `None` for what touches no entry of it.
    pub fn access(&self) -> Option<Access> {
        match self {
            Op::Permit { access } => Some(*access),
            Op::Write { .. }
            | Op::Append { .. }
            | Op::Remove { .. }
            | Op::Rename { .. }
            | Op::Mkdir { .. }
            | Op::Rmdir { .. } => Some(Access::Write),
            Op::Read { .. } | Op::Observe { .. } | Op::List { .. } | Op::ReadAudit { .. } => {
                Some(Access::Read)
            }
            Op::Reachable | Op::RunTool { .. } => None,
        }
    }

    /// Whether the operation is about a folder: the platform's "not an entry
    /// of the requested type" then means something on the way is a file.
    pub fn wants_folder(&self) -> bool {
        matches!(
            self,
            Op::List { .. }
                | Op::ReadAudit { .. }
                | Op::Mkdir { .. }
                | Op::Rmdir { .. }
                | Op::Rename { .. }
        )
    }
}

/// Which file system an operation acts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum On {
    /// The origin's private file system: the host's own files (an audit kept
    /// beside a picked folder that may not be written), needing no permission.
    Origin,
}

/// An operation with where it acts and the permission mode it asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Request {
    #[serde(flatten)]
    pub op: Op,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<On>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
}

impl Request {
    /// `op` on the root: it names the access it needs, which the worker asks
    /// for before it touches the root.
    pub fn on_root(op: Op) -> Request {
        let mode = op.access().map(mode);
        Request {
            op,
            root: None,
            mode,
        }
    }

    /// `op` on the origin's own files, which need no permission.
    pub fn on_origin(op: Op) -> Request {
        Request {
            op,
            root: Some(On::Origin),
            mode: None,
        }
    }
}

/// The permission mode the File System Access API names for an access.
fn mode(access: Access) -> &'static str {
    match access {
        Access::Read => "read",
        Access::Write => "readwrite",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_operation_on_the_root_names_the_access_it_needs() {
        let read = Request::on_root(Op::Read {
            path: "a.md".into(),
            max: 9,
        });
        assert_eq!(
            serde_json::to_value(read).unwrap(),
            json!({"op": "read", "path": "a.md", "max": 9, "mode": "read"})
        );
        let rename = Request::on_root(Op::Rename {
            path: "a.md".into(),
            to: "b/a.md".into(),
        });
        assert_eq!(
            serde_json::to_value(rename).unwrap(),
            json!({"op": "rename", "path": "a.md", "to": "b/a.md", "mode": "readwrite"})
        );
        let permit = Request::on_root(Op::Permit {
            access: Access::Write,
        });
        assert_eq!(
            serde_json::to_value(permit).unwrap(),
            json!({"op": "permit", "mode": "readwrite"})
        );
    }

    #[test]
    fn the_origins_own_files_and_a_tool_ask_no_permission() {
        let audit = Request::on_origin(Op::Append {
            path: "v1/audit-fallback/p/x.jsonl".into(),
        });
        assert_eq!(
            serde_json::to_value(audit).unwrap(),
            json!({"op": "append", "path": "v1/audit-fallback/p/x.jsonl", "root": "origin"})
        );
        let tool = Request::on_root(Op::RunTool {
            id: "create_asset".into(),
            budget_ms: 5,
        });
        assert_eq!(
            serde_json::to_value(tool).unwrap(),
            json!({"op": "runTool", "id": "create_asset", "budgetMs": 5})
        );
    }
}
