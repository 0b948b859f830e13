//! Rule ids: every refusal names one, and carries a sentence that says what to do.

use alloc::string::String;
use core::fmt;
use serde::{Deserialize, Serialize};

/// Declares [`Rule`] from one table of `Variant => "id"` rows: the enum, its
/// one spelling ([`Rule::id`]) and the way back ([`Rule::from_id`]), so an id
/// cannot be written in one direction and forgotten in the other.
macro_rules! rules {
    ($($(#[$doc:meta])* $variant:ident => $id:literal,)*) => {
        /// Every named rule a Voicebox answer can cite. The serialised form (kebab-case)
        /// is the contract: tests, the page and the audit log match on these strings.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $($(#[$doc])* $variant,)*
        }

        impl Rule {
            /// Every rule, in table order.
            pub const ALL: &[Rule] = &[$(Rule::$variant,)*];

            /// The rule id as it appears on the wire and in the audit log.
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// The rule an id names, if any.
            pub fn from_id(id: &str) -> Option<Rule> {
                match id {
                    $($id => Some(Rule::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

rules! {
    // Tier table rules.
    OutsideRoot => "outside-root",
    SymlinkOut => "symlink-out",
    EvalPath => "eval-path",
    AbsentCapability => "absent-capability",
    WritesInside => "writes-inside",
    ReadsInside => "reads-inside",
    AdmittedEgress => "admitted-egress",
    Delete => "delete",
    /// A change a recogniser that can mishear produced: shown as heard, asked first.
    HeardChange => "heard-change",
    /// A change read from words that could mean something else: the best
    /// guess is shown and asked first; say it again in other words if it is wrong.
    UnsureChange => "unsure-change",
    /// A write the person phrased as creating a file, on a file that exists.
    CreateOverExisting => "create-over-existing",
    /// A move or copy onto a name a file holds: asked first (undo brings it back).
    MoveOverExisting => "move-over-existing",
    LeavesMachine => "leaves-machine",
    LeavesBrowser => "leaves-browser",
    NoMatch => "no-match",
    // Containment beyond the lexical check.
    DotfileRefused => "dotfile-refused",
    ProtectedAudit => "protected-audit",
    // The folder's own git repository (read only, never run).
    /// The folder has no `.git` of its own: changes and history need one
    /// (`git init` in the folder, then commit); the files still read as usual.
    NotARepository => "not-a-repository",
    /// The folder's `.git` is a link, or a file naming a git folder, that
    /// leads outside the folder (or holds a link, or borrows objects from
    /// elsewhere): nothing of it is read; keep the repository inside the folder.
    RepositoryOutside => "repository-outside",
    // The root itself.
    RootNotDeclared => "root-not-declared",
    RootUnreachable => "root-unreachable",
    /// `.audit`, `.voicebox` or a folder under them is a link, a pipe or a
    /// file: the root is not opened, and nothing there is repaired or removed.
    HostFolderNotAFolder => "host-folder-not-a-folder",
    /// The host removed a temporary of its own that an interrupted write
    /// left in its staging folder (a host act, audited, never a refusal).
    StaleTemporary => "stale-temporary",
    /// The host's state folder is the root or inside it (machine placement).
    StateInRoot => "state-in-root",
    /// The root is inside the host's state folder (machine placement).
    RootInState => "root-in-state",
    /// The act needs a folder of this machine, and the active root is a page's.
    RootIsPageOwned => "root-is-page-owned",
    NeedsGesture => "needs-gesture",
    PermissionDenied => "permission-denied",
    // Validating an action against the command list.
    UnknownVerb => "unknown-verb",
    UnknownField => "unknown-field",
    MissingArgument => "missing-argument",
    MalformedField => "malformed-field",
    TooLarge => "too-large",
    // Verb outcomes.
    NotFound => "not-found",
    IsADirectory => "is-a-directory",
    NotADirectory => "not-a-directory",
    NotText => "not-text",
    NotARegularFile => "not-a-regular-file",
    PatternNotFound => "pattern-not-found",
    PatternNotUnique => "pattern-not-unique",
    NothingToUndo => "nothing-to-undo",
    UndoStale => "undo-stale",
    /// The file changed since the copy the client holds was read (`expect`
    /// is not its sha256 now): nothing was written; read it again.
    ChangedSinceRead => "changed-since-read",
    /// No list item matches the words; the answer lists the items there are.
    ItemNotFound => "item-not-found",
    /// Several list items match the words; the answer lists them to choose from.
    ItemNotUnique => "item-not-unique",
    /// A folder to delete still holds something (perhaps hidden files).
    FolderNotEmpty => "folder-not-empty",
    /// The name is taken: by a folder, or by a file where a folder was asked for.
    AlreadyExists => "already-exists",
    /// A link is never moved: where a link leads depends on where it sits.
    IsALink => "is-a-link",
    /// A folder cannot be moved into itself or a folder inside it.
    MoveIntoItself => "move-into-itself",
    // Tier-2 confirmations.
    Declined => "declined",
    ConfirmationUnknown => "confirmation-unknown",
    ConfirmationExpired => "confirmation-expired",
    /// A spoken answer that is not the words the question asks for (never a
    /// bare "yes"): nothing was done and the question still waits; say the
    /// words it shows, "no", or click.
    SpokenAnswerMismatch => "spoken-answer-mismatch",
    /// A spoken answer to a question only a click answers (it was not a
    /// heard change, or its file's name has nothing to say): click instead.
    SpokenAnswerNotTaken => "spoken-answer-not-taken",
    /// The words heard to change fit several places in the file (in another
    /// case, or a letter or two off): nothing was asked; say which, with
    /// more of its words.
    HeardTextUnsure => "heard-text-unsure",
    /// A tier-2 act asked over a channel that cannot put the question to the
    /// person (an MCP client without elicitation): not done.
    ConfirmationUnavailable => "confirmation-unavailable",
    // Fail closed.
    AuditUnwritable => "audit-unwritable",
    /// The host's audit file does not end in the last line the host wrote
    /// there (lines were added after it, or it was cut or replaced): the host
    /// does not append to it, and moves on to its next file.
    AuditTailUnanchored => "audit-tail-unanchored",
    StorageFailed => "storage-failed",
    // Tools.
    ToolUnavailable => "tool-unavailable",
    OutOfFuel => "out-of-fuel",
    ResourceExceeded => "resource-exceeded",
    OverBudget => "over-budget",
    WasmTrapped => "wasm-trapped",
    ImportUndeclared => "import-undeclared",
    DigestMismatch => "digest-mismatch",
    ToolProtocol => "tool-protocol",
    TimeExceeded => "time-exceeded",
    // Extensions.
    UnknownCapability => "unknown-capability",
    ExecAbsent => "exec-absent",
    EvalNotAToolPath => "eval-not-a-tool-path",
    NetworkUnbounded => "network-unbounded",
    UnderDeclared => "under-declared",
    DuplicateTool => "duplicate-tool",
    ProposalPending => "proposal-pending",
    /// So many extension proposals wait for the person (or they are so
    /// large) that no more is stored until some are withdrawn.
    TooManyProposals => "too-many-proposals",
    NotAdmitted => "not-admitted",
    HostNotAllowed => "host-not-allowed",
    /// `http-get` to loopback, link-local, private or other non-public
    /// addresses, in any spelling, at proposal time or at fetch time.
    PrivateAddress => "private-address",
    /// `maxRequests` or `maxBytes` over the host's ceiling.
    BoundTooLarge => "bound-too-large",
    TooManyRedirects => "too-many-redirects",
    BudgetExhausted => "budget-exhausted",
    CodeInvalid => "code-invalid",
    CodeExpired => "code-expired",
    /// Too many wrong console codes, across all codes, in a while.
    ApprovalLocked => "approval-locked",
    PlanChanged => "plan-changed",
    AdmittedByPerson => "admitted-by-person",
    RevokedByPerson => "revoked-by-person",
    WithdrawnByPerson => "withdrawn-by-person",
    /// The person chose this folder as the root (the page, confirmed; or the host).
    DeclaredByPerson => "declared-by-person",
    // The HTTP guard (machine placement).
    ForeignHost => "foreign-host",
    ForeignOrigin => "foreign-origin",
    BadHostToken => "bad-host-token",
    /// Neither the page's session nor the host token came with a
    /// request that needs one (an `Origin` header alone authorizes nothing).
    NoAuthority => "no-authority",
    /// The secret in a `?token=` address is not this start's.
    BadPageSecret => "bad-page-secret",
    HostTokenRequired => "host-token-required",
    UnsupportedContentType => "unsupported-content-type",
    BodyTooLarge => "body-too-large",
    /// The body did not arrive within the body timeout.
    BodyTimeout => "body-timeout",
    /// A header that must be said once (Host, Origin, Content-Type, the token, the session) came twice.
    DuplicateHeader => "duplicate-header",
    /// A JSON object in the body names one key twice.
    DuplicateKey => "duplicate-key",
    /// The request line or a header could not be read as HTTP (a byte no
    /// URI or header may hold, a malformed line): answered before any route.
    MalformedRequest => "malformed-request",
    /// The request's head (its URI or headers) is over the server's buffer.
    HeadTooLarge => "head-too-large",
    /// Every connection slot is busy with a request.
    TooManyConnections => "too-many-connections",
    /// Every WebSocket this server keeps open is taken; close a tab or a client and open it again.
    TooManySockets => "too-many-sockets",
    /// Every MCP session over HTTP is busy with a request; retry the initialize in a moment.
    McpSessionsFull => "mcp-sessions-full",
    /// The MCP session id is not one this server holds (it expired or was closed); initialize again.
    McpSessionUnknown => "mcp-session-unknown",
    MalformedBody => "malformed-body",
    NoSuchRoute => "no-such-route",
    // Live voice sessions (machine placement): frames and the provider.
    AudioEmpty => "audio-empty",
    AudioOddLength => "audio-odd-length",
    AudioTooLarge => "audio-too-large",
    UnknownFrame => "unknown-frame",
    NotReady => "not-ready",
    KeyMissing => "key-missing",
    VendorError => "vendor-error",
    OfflineVoiceUnavailable => "offline-voice-unavailable",
    /// Every offline recogniser this server runs at once is in use; close another voice session first.
    OfflineVoiceBusy => "offline-voice-busy",
    // The page channel: acts relayed to a page-owned root.
    MalformedFrame => "malformed-frame",
    UnknownCall => "unknown-call",
    NoPage => "no-page",
    PageTimeout => "page-timeout",
    PageClosed => "page-closed",
    PageFailed => "page-failed",
}

/// Serialises as [`Rule::id`], the one spelling of every rule.
impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// Reads a rule back from its id; an id no table row names is an error.
impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        Rule::from_id(&id).ok_or_else(|| serde::de::Error::unknown_variant(&id, &[]))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A named refusal: the rule that refused, and a sentence saying why and what to do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub rule: Rule,
    pub why: String,
}

impl Refusal {
    pub fn new(rule: Rule, why: impl Into<String>) -> Self {
        Refusal {
            rule,
            why: why.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_reads_back_as_its_rule_and_an_unknown_id_is_refused() {
        for &rule in Rule::ALL {
            let wire = serde_json::to_value(rule).unwrap();
            assert_eq!(serde_json::from_value::<Rule>(wire).unwrap(), rule);
            assert_eq!(Rule::from_id(rule.id()), Some(rule));
        }
        let mut ids: alloc::vec::Vec<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), Rule::ALL.len(), "each id names one rule");
        assert!(serde_json::from_str::<Rule>("\"no-such-rule\"").is_err());
    }
}
