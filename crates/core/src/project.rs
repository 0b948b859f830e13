//! The project record: identity is placement + location.

use crate::extension::Capability;
use crate::platform::RootInfo;
use crate::tier::Placement;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Where a project's files are, as the placement names them.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// `machine`, `opfs` or `handle`.
    pub kind: String,
    /// A real path (machine), an OPFS-relative path (opfs); absent for a handle.
    pub path: Option<String>,
    /// A picked folder's handle id (handle only; the handle itself is not persisted here).
    pub id: Option<String>,
    /// The person's label for a picked folder.
    pub label: Option<String>,
}

impl From<&RootInfo> for Location {
    fn from(root: &RootInfo) -> Self {
        Location {
            kind: root.kind.clone(),
            path: Some(root.path.clone()),
            id: None,
            label: None,
        }
    }
}

/// Whether the storage is kept by the platform (e.g. `navigator.storage.persisted()`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Durability {
    pub persisted: bool,
    #[serde(rename = "checkedAt")]
    pub checked_at: String,
}

/// A project: a name at a placement, with its execution root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectRecord {
    /// `<name>@<placement label>`: the string the UI shows and the audit records.
    pub id: String,
    pub name: String,
    pub placement: String,
    pub location: Location,
    /// The execution root: the only path containment measures against.
    pub root: Location,
    pub capabilities: Vec<Capability>,
    #[serde(rename = "undoKind")]
    pub undo_kind: String,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    #[serde(rename = "lastUsed")]
    pub last_used: String,
    pub durability: Durability,
}

/// How undo works in this core: the journal keeps the bytes each change replaced.
pub const UNDO_KIND: &str = "journal-of-prior-bytes";

impl ProjectRecord {
    /// A new record for a root at a placement. `label` is the placement label
    /// (`machine`, or a browser's instance label such as `phone`).
    pub fn new(
        name: &str,
        label: &str,
        placement: Placement,
        root: &RootInfo,
        now: String,
        persisted: bool,
    ) -> Self {
        let location = Location::from(root);
        ProjectRecord {
            id: format!("{name}@{label}"),
            name: name.into(),
            placement: placement.wire().into(),
            root: location.clone(),
            location,
            capabilities: alloc::vec![Capability::Read, Capability::Write, Capability::Wasm],
            undo_kind: UNDO_KIND.into(),
            created_at: now.clone(),
            last_used: now.clone(),
            durability: Durability {
                persisted,
                checked_at: now,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_has_the_spec_shape() {
        let root = RootInfo {
            kind: "opfs".into(),
            path: "v1/projects/atlas".into(),
        };
        let record = ProjectRecord::new(
            "atlas",
            "phone",
            Placement::Browser,
            &root,
            "t".into(),
            false,
        );
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["id"], "atlas@phone");
        assert_eq!(json["root"]["path"], "v1/projects/atlas");
        assert_eq!(json["durability"]["persisted"], false);
        assert_eq!(json["undoKind"], UNDO_KIND);
        let back: ProjectRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);
    }
}
