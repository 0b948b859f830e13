//! What a placement can do beyond its storage and clock: run tools, keep an
//! extension ledger, reach the network — and the hosts that have none of it.
#![allow(async_fn_in_trait)]

use crate::extension::Descriptor;
use crate::reply::ToolInfo;
use crate::rule::{Refusal, Rule};
use alloc::string::String;
use alloc::vec::Vec;

/// What a tool run asked for. The tool only *records* writes; the host
/// re-checks each path and performs the write itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolRun {
    /// `(path, bytes)` the tool asked to write, in order.
    pub writes: Vec<(String, Vec<u8>)>,
    /// Notes for the person.
    pub notes: Vec<String>,
    /// What the tool returned (`env.output`).
    pub output: Vec<u8>,
}

/// One HTTP exchange, redirects not followed (the core follows them, checking
/// every hop against the extension's bounds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    pub status: u16,
    /// The `Location` of a redirect.
    pub location: Option<String>,
    pub body: Vec<u8>,
}

/// The host's tools: Wasm modules run with exactly the host functions each
/// may use, under limits the tool cannot raise. Faults are named refusals
/// (`out-of-fuel`, `resource-exceeded`, `over-budget`, `wasm-trapped`,
/// `import-undeclared`, `digest-mismatch`, `tool-unavailable`).
pub trait ToolRunner {
    /// The tools this host can run.
    fn catalog(&self) -> Vec<ToolInfo>;
    /// Runs tool `id` on `input`: a fresh instance per call.
    async fn run(&self, id: &str, input: &[u8]) -> Result<ToolRun, Refusal>;
    /// Runs the shelf module whose sha256 is `digest` (re-hashed) on `input`.
    async fn run_pinned(&self, digest: &str, input: &[u8]) -> Result<ToolRun, Refusal>;
}

/// The extensions a person admitted, and what each has used of its bounds.
/// The ledger alone decides what is admitted (`not-admitted`, `plan-changed`).
pub trait ExtensionLedger {
    /// Every extension and how it stands, for `list_extensions`.
    fn catalog(&self) -> Vec<ToolInfo>;
    /// Stores a proposal as pending data with the gate's verdict; nothing loads.
    async fn propose(&self, descriptor: &Descriptor, problems: &[Refusal]) -> Result<(), Refusal>;
    /// The admitted descriptor of extension `id`: the ledger decides, not the
    /// proposals folder.
    async fn admitted(&self, id: &str) -> Result<Descriptor, Refusal>;
    /// How many requests extension `id` has made so far.
    async fn requests_used(&self, id: &str) -> u32;
    /// Counts one request of extension `id` (before it is made).
    async fn count_request(&self, id: &str) -> Result<(), Refusal>;
}

/// The network, for `http-get`: the core checks every hop against the
/// extension's bounds before it asks.
pub trait Egress {
    /// One GET, redirects not followed.
    async fn fetch(&self, url: &str) -> Result<Fetched, Refusal>;
    /// Which addresses this network may reach; the gate judges a proposal's
    /// hosts by it. Public only unless the operator opted in to loopback.
    fn reach(&self) -> crate::extension::Reach {
        crate::extension::Reach::Public
    }
}

/// What a placement can do beyond its storage and clock: run tools, keep an
/// extension ledger, reach the network. Each concern is its own trait, so a
/// placement says in its type what it has; a plain [`ToolRunner`] is a host
/// with no extensions and no network (the blanket impl below), which is what
/// the unit host `()` and the browser are.
pub trait Abilities {
    type Tools: ToolRunner;
    type Ledger: ExtensionLedger;
    type Egress: Egress;
    fn tools(&self) -> &Self::Tools;
    fn ledger(&self) -> &Self::Ledger;
    fn egress(&self) -> &Self::Egress;
}

impl<T: ToolRunner> Abilities for T {
    type Tools = T;
    type Ledger = NoExtensions;
    type Egress = NoEgress;

    fn tools(&self) -> &T {
        self
    }

    fn ledger(&self) -> &NoExtensions {
        &NoExtensions
    }

    fn egress(&self) -> &NoEgress {
        &NoEgress
    }
}

/// The ledger of a host that takes no extensions: nothing is ever admitted,
/// and a proposal is refused by name rather than dropped.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoExtensions;

impl ExtensionLedger for NoExtensions {
    fn catalog(&self) -> Vec<ToolInfo> {
        Vec::new()
    }

    async fn propose(
        &self,
        _descriptor: &Descriptor,
        _problems: &[Refusal],
    ) -> Result<(), Refusal> {
        Err(Refusal::new(
            Rule::ToolUnavailable,
            "this host does not take extension proposals",
        ))
    }

    async fn admitted(&self, id: &str) -> Result<Descriptor, Refusal> {
        Err(Refusal::new(
            Rule::NotAdmitted,
            alloc::format!("extension `{id}` is not admitted here"),
        ))
    }

    async fn requests_used(&self, _id: &str) -> u32 {
        0
    }

    async fn count_request(&self, _id: &str) -> Result<(), Refusal> {
        Err(Refusal::new(
            Rule::BudgetExhausted,
            "this host keeps no request budgets",
        ))
    }
}

/// The egress of a host with no network.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEgress;

impl Egress for NoEgress {
    async fn fetch(&self, url: &str) -> Result<Fetched, Refusal> {
        Err(Refusal::new(
            Rule::AbsentCapability,
            alloc::format!("this host cannot fetch {url}"),
        ))
    }
}

/// A host with no tools.
impl ToolRunner for () {
    fn catalog(&self) -> Vec<ToolInfo> {
        Vec::new()
    }

    async fn run(&self, id: &str, _input: &[u8]) -> Result<ToolRun, Refusal> {
        Err(Refusal::new(
            Rule::ToolUnavailable,
            alloc::format!(
                "this host has no tool `{id}`; list the extensions to see what it can run"
            ),
        ))
    }

    async fn run_pinned(&self, digest: &str, _input: &[u8]) -> Result<ToolRun, Refusal> {
        Err(no_shelf(digest))
    }
}

/// The refusal of a host with no shelf, for a pinned run.
pub fn no_shelf(digest: &str) -> Refusal {
    Refusal::new(
        Rule::ToolUnavailable,
        alloc::format!("no module with digest {digest} is on this host's shelf"),
    )
}
