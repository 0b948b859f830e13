//! Rule ids: every refusal names one, and carries a sentence that says what to do.

use alloc::string::String;
use core::fmt;
use serde::Serialize;

/// Every named rule a Voicebox answer can cite. The serialised form (kebab-case)
/// is the contract: tests, the page and the audit log match on these strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    // Tier table rules (DESIGN §4).
    OutsideRoot,
    SymlinkOut,
    EvalPath,
    AbsentCapability,
    WritesInside,
    ReadsInside,
    AdmittedEgress,
    Delete,
    LeavesMachine,
    LeavesBrowser,
    NoMatch,
    // Containment beyond the lexical check (DESIGN §5).
    DotfileRefused,
    ProtectedAudit,
    // The root itself.
    RootNotDeclared,
    RootUnreachable,
    /// The host's state folder is the root or inside it (machine placement).
    StateInRoot,
    /// The root is inside the host's state folder (machine placement).
    RootInState,
    NeedsGesture,
    PermissionDenied,
    // Validating an action against the command list.
    UnknownVerb,
    UnknownField,
    MissingArgument,
    MalformedField,
    TooLarge,
    // Verb outcomes.
    NotFound,
    IsADirectory,
    NotADirectory,
    NotText,
    NotARegularFile,
    PatternNotFound,
    PatternNotUnique,
    NothingToUndo,
    UndoStale,
    // Tier-2 confirmations.
    Declined,
    ConfirmationUnknown,
    ConfirmationExpired,
    // Fail closed.
    AuditUnwritable,
    StorageFailed,
    // Tools.
    ToolUnavailable,
    OutOfFuel,
    ResourceExceeded,
    OverBudget,
    WasmTrapped,
    ImportUndeclared,
    DigestMismatch,
    ToolProtocol,
    TimeExceeded,
    // Extensions.
    UnknownCapability,
    ExecAbsent,
    EvalNotAToolPath,
    NetworkUnbounded,
    UnderDeclared,
    DuplicateTool,
    ProposalPending,
    NotAdmitted,
    HostNotAllowed,
    BudgetExhausted,
    CodeInvalid,
    CodeExpired,
    PlanChanged,
    AdmittedByPerson,
    RevokedByPerson,
    // The HTTP guard (machine placement).
    ForeignHost,
    ForeignOrigin,
    BadHostToken,
    HostTokenRequired,
    UnsupportedContentType,
    BodyTooLarge,
    MalformedBody,
    NoSuchRoute,
    // Live voice sessions (machine placement): frames and the provider.
    AudioEmpty,
    AudioOddLength,
    AudioTooLarge,
    UnknownFrame,
    NotReady,
    KeyMissing,
    VendorError,
    OfflineVoiceUnavailable,
    // The page channel: acts relayed to a page-owned root.
    MalformedFrame,
    UnknownCall,
    NoPage,
    PageTimeout,
    PageClosed,
    PageFailed,
}

impl Rule {
    /// The rule id as it appears on the wire and in the audit log.
    pub fn id(self) -> &'static str {
        match self {
            Rule::OutsideRoot => "outside-root",
            Rule::SymlinkOut => "symlink-out",
            Rule::EvalPath => "eval-path",
            Rule::AbsentCapability => "absent-capability",
            Rule::WritesInside => "writes-inside",
            Rule::ReadsInside => "reads-inside",
            Rule::AdmittedEgress => "admitted-egress",
            Rule::Delete => "delete",
            Rule::LeavesMachine => "leaves-machine",
            Rule::LeavesBrowser => "leaves-browser",
            Rule::NoMatch => "no-match",
            Rule::DotfileRefused => "dotfile-refused",
            Rule::ProtectedAudit => "protected-audit",
            Rule::RootNotDeclared => "root-not-declared",
            Rule::RootUnreachable => "root-unreachable",
            Rule::StateInRoot => "state-in-root",
            Rule::RootInState => "root-in-state",
            Rule::NeedsGesture => "needs-gesture",
            Rule::PermissionDenied => "permission-denied",
            Rule::UnknownVerb => "unknown-verb",
            Rule::UnknownField => "unknown-field",
            Rule::MissingArgument => "missing-argument",
            Rule::MalformedField => "malformed-field",
            Rule::TooLarge => "too-large",
            Rule::NotFound => "not-found",
            Rule::IsADirectory => "is-a-directory",
            Rule::NotADirectory => "not-a-directory",
            Rule::NotText => "not-text",
            Rule::NotARegularFile => "not-a-regular-file",
            Rule::PatternNotFound => "pattern-not-found",
            Rule::PatternNotUnique => "pattern-not-unique",
            Rule::NothingToUndo => "nothing-to-undo",
            Rule::UndoStale => "undo-stale",
            Rule::Declined => "declined",
            Rule::ConfirmationUnknown => "confirmation-unknown",
            Rule::ConfirmationExpired => "confirmation-expired",
            Rule::AuditUnwritable => "audit-unwritable",
            Rule::StorageFailed => "storage-failed",
            Rule::ToolUnavailable => "tool-unavailable",
            Rule::OutOfFuel => "out-of-fuel",
            Rule::ResourceExceeded => "resource-exceeded",
            Rule::OverBudget => "over-budget",
            Rule::WasmTrapped => "wasm-trapped",
            Rule::ImportUndeclared => "import-undeclared",
            Rule::DigestMismatch => "digest-mismatch",
            Rule::ToolProtocol => "tool-protocol",
            Rule::TimeExceeded => "time-exceeded",
            Rule::UnknownCapability => "unknown-capability",
            Rule::ExecAbsent => "exec-absent",
            Rule::EvalNotAToolPath => "eval-not-a-tool-path",
            Rule::NetworkUnbounded => "network-unbounded",
            Rule::UnderDeclared => "under-declared",
            Rule::DuplicateTool => "duplicate-tool",
            Rule::ProposalPending => "proposal-pending",
            Rule::NotAdmitted => "not-admitted",
            Rule::HostNotAllowed => "host-not-allowed",
            Rule::BudgetExhausted => "budget-exhausted",
            Rule::CodeInvalid => "code-invalid",
            Rule::CodeExpired => "code-expired",
            Rule::PlanChanged => "plan-changed",
            Rule::AdmittedByPerson => "admitted-by-person",
            Rule::RevokedByPerson => "revoked-by-person",
            Rule::ForeignHost => "foreign-host",
            Rule::ForeignOrigin => "foreign-origin",
            Rule::BadHostToken => "bad-host-token",
            Rule::HostTokenRequired => "host-token-required",
            Rule::UnsupportedContentType => "unsupported-content-type",
            Rule::BodyTooLarge => "body-too-large",
            Rule::MalformedBody => "malformed-body",
            Rule::NoSuchRoute => "no-such-route",
            Rule::AudioEmpty => "audio-empty",
            Rule::AudioOddLength => "audio-odd-length",
            Rule::AudioTooLarge => "audio-too-large",
            Rule::UnknownFrame => "unknown-frame",
            Rule::NotReady => "not-ready",
            Rule::KeyMissing => "key-missing",
            Rule::VendorError => "vendor-error",
            Rule::OfflineVoiceUnavailable => "offline-voice-unavailable",
            Rule::MalformedFrame => "malformed-frame",
            Rule::UnknownCall => "unknown-call",
            Rule::NoPage => "no-page",
            Rule::PageTimeout => "page-timeout",
            Rule::PageClosed => "page-closed",
            Rule::PageFailed => "page-failed",
        }
    }
}

/// Serialises as [`Rule::id`], the one spelling of every rule.
impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
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
