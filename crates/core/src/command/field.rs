//! The fields an action may carry: their wire spelling, the kind of value
//! each holds and the most bytes it may be.

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
    Since,
    Limit,
    Against,
    At,
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
            Field::Since => "since",
            Field::Limit => "limit",
            Field::Against => "against",
            Field::At => "at",
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
            Field::First | Field::Last | Field::Limit => Kind::Count,
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
            | Field::Expect
            | Field::Since
            | Field::Against
            | Field::At => MAX_QUERY_BYTES,
            // Counts and flags are checked by value, not by size.
            Field::First | Field::Last | Field::Limit | Field::Done => MAX_QUERY_BYTES,
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
