//! The command list: one table of verbs, their fields and a one-line description.
//!
//! It is the single source for validating actions, for the LLM resolver's prompt
//! and schema, and for live tool declarations. Adding a verb means adding a row
//! here and a variant to [`crate::action::Action`]; a test checks the two agree.

use crate::rule::{Refusal, Rule};
use crate::tier::ActKind;
use alloc::format;
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
            | Verb::CallExtension => false,
        }
    }
}

/// An action field, with its wire spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Content,
    OldText,
    NewText,
    Query,
    Dir,
    Kind,
    Body,
    Id,
    Tool,
    Descriptor,
    Args,
    Mode,
    To,
    First,
    Last,
    Pattern,
    Item,
    Done,
    Under,
    Expect,
}

/// What kind of JSON value a field carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Object,
    /// A whole number from 1 to [`MAX_LINES`] (a number, or its digits as text).
    Count,
    /// `true` or `false` (or those words as text).
    Flag,
}

impl Field {
    pub fn wire(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Content => "content",
            Field::OldText => "oldText",
            Field::NewText => "newText",
            Field::Query => "query",
            Field::Dir => "dir",
            Field::Kind => "kind",
            Field::Body => "body",
            Field::Id => "id",
            Field::Tool => "tool",
            Field::Descriptor => "descriptor",
            Field::Args => "args",
            Field::Mode => "mode",
            Field::To => "to",
            Field::First => "first",
            Field::Last => "last",
            Field::Pattern => "pattern",
            Field::Item => "item",
            Field::Done => "done",
            Field::Under => "under",
            Field::Expect => "expect",
        }
    }

    /// Whether the field carries a JSON object rather than a string.
    pub const fn is_object(self) -> bool {
        matches!(self.kind(), Kind::Object)
    }

    /// The kind of value the field carries.
    pub const fn kind(self) -> Kind {
        match self {
            Field::Descriptor | Field::Args => Kind::Object,
            Field::First | Field::Last => Kind::Count,
            Field::Done => Kind::Flag,
            _ => Kind::Text,
        }
    }

    /// The most bytes a value of this field may carry.
    pub const fn max_bytes(self) -> usize {
        match self {
            Field::Name | Field::Dir | Field::To => MAX_NAME_BYTES,
            Field::Query
            | Field::Kind
            | Field::Id
            | Field::Tool
            | Field::Mode
            | Field::Pattern
            | Field::Item
            | Field::Under
            | Field::Expect => MAX_QUERY_BYTES,
            // Counts and flags are checked by value, not by size.
            Field::First | Field::Last | Field::Done => MAX_QUERY_BYTES,
            Field::Descriptor | Field::Args => MAX_OBJECT_BYTES,
            Field::Content | Field::OldText | Field::NewText | Field::Body => MAX_CONTENT_BYTES,
        }
    }
}

/// Longest path a name or dir may be.
pub const MAX_NAME_BYTES: usize = 1024;
/// Longest search query.
pub const MAX_QUERY_BYTES: usize = 1024;
/// Largest JSON object field (an extension descriptor, tool arguments).
pub const MAX_OBJECT_BYTES: usize = 64 * 1024;
/// Largest content a single write, edit or diff may carry (1 MiB).
pub const MAX_CONTENT_BYTES: usize = 1 << 20;
/// The most lines a `read` with `first` or `last` returns.
pub const MAX_LINES: u64 = 10_000;

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

const fn req(field: Field, describe: &'static str) -> Param {
    Param {
        field,
        required: true,
        describe,
        max_bytes: field.max_bytes(),
    }
}

const fn opt(field: Field, describe: &'static str) -> Param {
    Param {
        field,
        required: false,
        describe,
        max_bytes: field.max_bytes(),
    }
}

/// A param with a tighter limit than its field's default.
const fn capped(param: Param, max_bytes: usize) -> Param {
    Param { max_bytes, ..param }
}

/// The longest asset name (one file name).
pub const MAX_ASSET_NAME_BYTES: usize = 255;

const NAME: Param = req(
    Field::Name,
    "path of the file, relative to the project root",
);

/// The changes that may be refused when the file changed since it was read.
const EXPECT: Param = opt(
    Field::Expect,
    "the sha256 of the content last read (a read answers it): if the file changed since, nothing is written",
);

/// `make-tool` and `propose_extension` take the same one field.
const DESCRIPTOR: Param = req(
    Field::Descriptor,
    "the extension descriptor: id, description, capabilities, bounds, tools",
);

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

/// The command list.
pub static COMMANDS: &[Command] = &[
    Command {
        id: Verb::List,
        verb: "list",
        summary: "List the files in the project root, or in one folder of it.",
        act: Some(ActKind::Read),
        params: &[opt(Field::Dir, "folder to list, relative to the root")],
    },
    Command {
        id: Verb::Read,
        verb: "read",
        summary: "Read a text file and return its content (or only its first or last lines); the answer carries the content's sha256.",
        act: Some(ActKind::Read),
        params: &[
            NAME,
            opt(Field::First, "return only this many lines from the start"),
            opt(Field::Last, "return only this many lines from the end"),
        ],
    },
    Command {
        id: Verb::Write,
        verb: "write",
        summary: "Create or overwrite a text file with the given content.",
        act: Some(ActKind::Write),
        params: &[
            NAME,
            req(Field::Content, "the complete new content (may be empty)"),
            opt(
                Field::Mode,
                "create (the person asked for a new file: if one exists, the person is asked first) or replace (the default: overwrite it)",
            ),
            EXPECT,
        ],
    },
    Command {
        id: Verb::Append,
        verb: "append",
        summary: "Add text to the end of a file, or of one heading's section (a new line when needed; a list item in the list's own format); makes the file if it is missing.",
        act: Some(ActKind::Write),
        params: &[
            NAME,
            req(Field::Content, "the text to add at the end"),
            opt(
                Field::Under,
                "a heading: the text goes at the end of its section (a missing heading is made at the end)",
            ),
            EXPECT,
        ],
    },
    Command {
        id: Verb::Delete,
        verb: "delete",
        summary: "Delete a file or an empty folder (asks the person first).",
        act: Some(ActKind::Delete),
        params: &[NAME],
    },
    Command {
        id: Verb::Edit,
        verb: "edit",
        summary: "Replace exactly one occurrence of oldText with newText in a file.",
        act: Some(ActKind::Write),
        params: &[
            NAME,
            req(Field::OldText, "text that occurs exactly once in the file"),
            req(Field::NewText, "text to put in its place"),
            EXPECT,
        ],
    },
    Command {
        id: Verb::Diff,
        verb: "diff",
        summary: "Show the unified diff between a file and proposed content, without writing.",
        act: Some(ActKind::Read),
        params: &[NAME, req(Field::Content, "the proposed new content")],
    },
    Command {
        id: Verb::Grep,
        verb: "grep",
        summary: "Search file contents for text (case-insensitive), optionally in one folder.",
        act: Some(ActKind::Read),
        params: &[
            req(Field::Query, "text to look for"),
            opt(Field::Dir, "folder to search, relative to the root"),
        ],
    },
    Command {
        id: Verb::Undo,
        verb: "undo",
        summary: "Revert the last change, or the newest change to one file.",
        act: Some(ActKind::Write),
        params: &[opt(
            Field::Name,
            "the file whose newest change to revert (default: the last change of all)",
        )],
    },
    Command {
        id: Verb::Move,
        verb: "move",
        summary: "Rename or move a file or folder inside the root (asks first if the new name exists).",
        act: Some(ActKind::Write),
        params: &[
            req(Field::Name, "path of the file or folder to move"),
            req(Field::To, "its new path, relative to the project root"),
        ],
    },
    Command {
        id: Verb::Copy,
        verb: "copy",
        summary: "Copy a file to a new path (asks first if a file is there).",
        act: Some(ActKind::Write),
        params: &[
            req(Field::Name, "path of the file to copy"),
            req(Field::To, "the copy's path, relative to the project root"),
        ],
    },
    Command {
        id: Verb::Mkdir,
        verb: "mkdir",
        summary: "Make a folder (and any folders above it that are missing).",
        act: Some(ActKind::Write),
        params: &[req(
            Field::Name,
            "path of the folder, relative to the project root",
        )],
    },
    Command {
        id: Verb::Find,
        verb: "find",
        summary: "Find files whose names match words or a * ? pattern (case-insensitive), optionally in one folder.",
        act: Some(ActKind::Read),
        params: &[
            req(Field::Pattern, "words of the name, or a pattern like *.md"),
            opt(Field::Dir, "folder to search, relative to the root"),
        ],
    },
    Command {
        id: Verb::Info,
        verb: "info",
        summary: "Say what a file or folder is: size, lines, when it changed.",
        act: Some(ActKind::Read),
        params: &[req(Field::Name, "path of the file or folder")],
    },
    Command {
        id: Verb::CheckItem,
        verb: "check_item",
        summary: "Tick (or un-tick) the item of a Markdown checklist whose words match.",
        act: Some(ActKind::Write),
        params: &[
            NAME,
            req(Field::Item, "words of the list item"),
            opt(Field::Done, "false to un-tick it (default true)"),
            EXPECT,
        ],
    },
    Command {
        id: Verb::RemoveItem,
        verb: "remove_item",
        summary: "Remove the list item whose words match from a file.",
        act: Some(ActKind::Write),
        params: &[NAME, req(Field::Item, "words of the list item")],
    },
    Command {
        id: Verb::ListExtensions,
        verb: "list_extensions",
        summary: "List the tools and extensions this host can run.",
        act: None,
        params: &[],
    },
    Command {
        id: Verb::CreateAsset,
        verb: "create_asset",
        summary: "Create an asset file in assets/ with the create-asset tool (kind: svg, text or html).",
        act: Some(ActKind::Write),
        params: &[
            capped(
                req(Field::Name, "file name of the asset, inside assets/"),
                MAX_ASSET_NAME_BYTES,
            ),
            req(Field::Kind, "one of: svg, text, html"),
            req(Field::Body, "the asset's content"),
        ],
    },
    Command {
        id: Verb::Tool,
        verb: "tool",
        summary: "Run a tool from the shelf, optionally on one file (e.g. wc, checksum).",
        act: Some(ActKind::Read),
        params: &[
            req(Field::Id, "the tool's id, as list_extensions shows it"),
            opt(Field::Name, "a file to give the tool as its input"),
        ],
    },
    Command {
        id: Verb::MakeTool,
        verb: "make-tool",
        summary: "Propose a new tool as data (a descriptor); it stays pending until the person at the host admits it.",
        act: Some(ActKind::Write),
        params: &[DESCRIPTOR],
    },
    Command {
        id: Verb::ProposeExtension,
        verb: "propose_extension",
        summary: "Propose an extension as data (a descriptor); it stays pending until the person at the host admits it.",
        act: Some(ActKind::Write),
        params: &[DESCRIPTOR],
    },
    Command {
        id: Verb::CallExtension,
        verb: "call_extension",
        summary: "Call a tool of an admitted extension, within its declared bounds.",
        act: Some(ActKind::Read),
        params: &[
            req(Field::Id, "the extension's id"),
            req(Field::Tool, "the tool's name in the extension"),
            opt(
                Field::Args,
                "the tool's arguments, e.g. {\"url\": ...} or {\"name\": ...}",
            ),
        ],
    },
];

/// Checks action JSON against the command list and names the first problem.
///
/// Order: not an object / no verb → `missing-argument`; unknown verb →
/// `unknown-verb`; unknown field → `unknown-field`; a field that is not a
/// string → `malformed-field`; a required field absent → `missing-argument`;
/// a value over its size limit → `too-large`. `null` counts as absent.
pub fn check(value: &Value) -> Result<&'static Command, Refusal> {
    let Some(object) = value.as_object() else {
        return Err(Refusal::new(
            Rule::MalformedField,
            "an action is a JSON object like {\"verb\":\"read\",\"name\":\"notes.md\"}",
        ));
    };
    let command = verb_of(object)?;
    for (key, val) in object {
        if key == "verb" {
            continue;
        }
        let Some(param) = command.params.iter().find(|p| p.field.wire() == key) else {
            return Err(Refusal::new(
                Rule::UnknownField,
                format!(
                    "`{}` takes no field `{key}`; its fields are: {}",
                    command.verb,
                    field_list(command)
                ),
            ));
        };
        check_value(key, val, param)?;
    }
    for param in command.params.iter().filter(|p| p.required) {
        if object.get(param.field.wire()).is_none_or(Value::is_null) {
            return Err(Refusal::new(
                Rule::MissingArgument,
                format!(
                    "`{}` needs `{}` ({})",
                    command.verb,
                    param.field.wire(),
                    param.describe
                ),
            ));
        }
    }
    Ok(command)
}

/// One field's value: the right JSON type, within its size.
fn check_value(key: &str, value: &Value, param: &Param) -> Result<(), Refusal> {
    let size = match (value, param.field.kind()) {
        (Value::Null, _) => return Ok(()),
        (Value::String(s), Kind::Text) => s.len(),
        (Value::Object(_), Kind::Object) => {
            serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
        }
        (_, Kind::Count) => {
            return count_of(value).map(|_| ()).ok_or_else(|| {
                Refusal::new(
                    Rule::MalformedField,
                    format!("`{key}` must be a whole number from 1 to {MAX_LINES}"),
                )
            });
        }
        (_, Kind::Flag) => {
            return flag_of(value).map(|_| ()).ok_or_else(|| {
                Refusal::new(
                    Rule::MalformedField,
                    format!("`{key}` must be true or false"),
                )
            });
        }
        (_, kind) => {
            let kind = if kind == Kind::Object {
                "an object"
            } else {
                "a string"
            };
            return Err(Refusal::new(
                Rule::MalformedField,
                format!("`{key}` must be {kind}"),
            ));
        }
    };
    if size > param.max_bytes {
        return Err(Refusal::new(
            Rule::TooLarge,
            format!(
                "`{key}` is {size} bytes; the limit is {} bytes — send less",
                param.max_bytes
            ),
        ));
    }
    Ok(())
}

/// A count field's value: a number, or its digits as text (a model whose
/// answer schema is all strings writes it so), from 1 to [`MAX_LINES`].
pub fn count_of(value: &Value) -> Option<u64> {
    let n = match value {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    (1..=MAX_LINES).contains(&n).then_some(n)
}

/// A flag field's value: a boolean, or `true`/`false` as text.
pub fn flag_of(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

fn verb_of(object: &Map<String, Value>) -> Result<&'static Command, Refusal> {
    match object.get("verb") {
        None | Some(Value::Null) => Err(Refusal::new(
            Rule::MissingArgument,
            format!("an action needs a `verb`, one of: {}", verb_list()),
        )),
        Some(Value::String(verb)) => COMMANDS.iter().find(|c| c.verb == verb).ok_or_else(|| {
            Refusal::new(
                Rule::UnknownVerb,
                format!("`{verb}` is not a verb here; use one of: {}", verb_list()),
            )
        }),
        Some(_) => Err(Refusal::new(
            Rule::MalformedField,
            "`verb` must be a string",
        )),
    }
}

/// The verbs, comma-separated, for messages and prompts.
pub fn verb_list() -> String {
    let verbs: alloc::vec::Vec<&str> = COMMANDS.iter().map(|c| c.verb).collect();
    verbs.join(", ")
}

fn field_list(command: &Command) -> String {
    if command.params.is_empty() {
        return "none".into();
    }
    let fields: alloc::vec::Vec<&str> = command.params.iter().map(|p| p.field.wire()).collect();
    fields.join(", ")
}
