//! The command list: one table of verbs, their fields and a one-line description.
//!
//! It is the single source for validating actions, for the LLM resolver's prompt
//! and schema, and for live tool declarations. Adding a verb means adding a row
//! here and a variant to [`crate::action::Action`]; a test checks the two agree.

mod check;
mod field;
mod table;

pub use check::{check, count_of, flag_of, verb_list};
pub use field::{
    Field, Kind, MAX_CONTENT_BYTES, MAX_LINES, MAX_NAME_BYTES, MAX_OBJECT_BYTES, MAX_QUERY_BYTES,
};
pub use table::{COMMANDS, MAX_ASSET_NAME_BYTES};

use crate::tier::ActKind;
use alloc::string::String;
use serde_json::{Map, Value};

/// Every verb an action may name, with its wire spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verb {
    List,
    Read,
    Write,
    Append,
    Delete,
    Edit,
    Diff,
    Grep,
    Undo,
    Move,
    Copy,
    Mkdir,
    Find,
    Info,
    CheckItem,
    RemoveItem,
    ListExtensions,
    CreateAsset,
    Tool,
    MakeTool,
    ProposeExtension,
    CallExtension,
    Changes,
    History,
}

impl Verb {
    pub fn wire(self) -> &'static str {
        self.command().verb
    }

    pub fn from_wire(s: &str) -> Option<Verb> {
        COMMANDS.iter().find(|c| c.verb == s).map(|c| c.id)
    }

    pub fn command(self) -> &'static Command {
        COMMANDS
            .iter()
            .find(|c| c.id == self)
            .expect("every verb has a row in COMMANDS")
    }

    /// Whether the verb's act can change the root's files: any act but a
    /// read. A verb that touches no file (`act: None`) changes nothing.
    pub fn changes_files(self) -> bool {
        self.command().act.is_some_and(|kind| kind != ActKind::Read)
    }

    /// Whether the verb may replace or remove what a file or folder holds
    /// (undo may bring it back), rather than only add to the root: what an
    /// MCP client shows as the destructive hint. Looks destroy nothing.
    pub fn destroys(self) -> bool {
        match self {
            Verb::Write
            | Verb::Delete
            | Verb::Edit
            | Verb::Undo
            | Verb::Move
            | Verb::Copy
            | Verb::CheckItem
            | Verb::RemoveItem
            | Verb::CreateAsset => true,
            Verb::Append | Verb::Mkdir | Verb::MakeTool | Verb::ProposeExtension => false,
            Verb::List
            | Verb::Read
            | Verb::Diff
            | Verb::Grep
            | Verb::Find
            | Verb::Info
            | Verb::ListExtensions
            | Verb::Tool
            | Verb::CallExtension
            | Verb::Changes
            | Verb::History => false,
        }
    }
}

/// One field of a verb: whether it is required, what it means (for
/// prompts), and the most bytes it may carry for this verb.
#[derive(Debug)]
pub struct Param {
    pub field: Field,
    pub required: bool,
    pub describe: &'static str,
    pub max_bytes: usize,
}

/// One row of the command list.
#[derive(Debug)]
pub struct Command {
    pub id: Verb,
    /// The verb as written in action JSON.
    pub verb: &'static str,
    /// One line for people and models.
    pub summary: &'static str,
    /// The kind of act the verb performs, for the tier table; `None` for verbs
    /// that touch no file (answered even with no root declared).
    pub act: Option<ActKind>,
    pub params: &'static [Param],
}

impl Command {
    /// The verb's fields as a JSON Schema object (strings, or objects for
    /// [`Field::is_object`] fields, the required ones listed): what a tool
    /// declaration takes as its input schema (MCP, live voice).
    pub fn input_schema(&self) -> Value {
        let properties: Map<String, Value> = self
            .params
            .iter()
            .map(|param| {
                let describe = param.describe;
                let schema = match param.field.kind() {
                    Kind::Text => serde_json::json!({"type": "string", "description": describe}),
                    Kind::Object => serde_json::json!({"type": "object", "description": describe}),
                    Kind::Count => serde_json::json!({
                        "type": "integer", "minimum": 1, "maximum": MAX_LINES, "description": describe
                    }),
                    Kind::Flag => serde_json::json!({"type": "boolean", "description": describe}),
                };
                (param.field.wire().into(), schema)
            })
            .collect();
        let required: alloc::vec::Vec<&str> = self
            .params
            .iter()
            .filter(|p| p.required)
            .map(|p| p.field.wire())
            .collect();
        serde_json::json!({"type": "object", "properties": properties, "required": required})
    }
}
