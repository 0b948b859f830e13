//! The table of verbs itself: each row with its summary, its act for the
//! tier table and its fields.

use super::{Command, Field, Param, Verb};
use crate::tier::ActKind;

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
            opt(
                Field::At,
                "read the file as it was then, from the folder's git history: a commit's id, `last commit`, `yesterday`, a date like 2026-05-01",
            ),
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
        summary: "Show the unified diff between a file and proposed content, or between its committed version and the file now (against), without writing.",
        act: Some(ActKind::Read),
        params: &[
            NAME,
            opt(
                Field::Content,
                "the proposed new content (default: the file as it is now)",
            ),
            opt(
                Field::Against,
                "compare with the file as the folder's git history holds it: `last commit`, a commit's id, `yesterday`, a date",
            ),
        ],
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
    Command {
        id: Verb::Changes,
        verb: "changes",
        summary: "Say what changed in the folder (files added, modified, removed, with line counts) since the last commit of its git repository, or since a day or commit.",
        act: Some(ActKind::Read),
        params: &[opt(
            Field::Since,
            "since when: `last commit` (the default), `today`, `yesterday`, `this week`, `3 days ago`, a date like 2026-05-01, or a commit's id",
        )],
    },
    Command {
        id: Verb::History,
        verb: "history",
        summary: "List the commits of the folder's git repository that touched the folder or one file: who, when, the message (newest first).",
        act: Some(ActKind::Read),
        params: &[
            opt(
                Field::Name,
                "a file whose commits to list (default: the whole folder)",
            ),
            opt(Field::Limit, "how many commits at most (default 10)"),
        ],
    },
];
