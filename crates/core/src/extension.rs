//! Extensions: tools a model may *propose* as data, and only the person at the
//! host may admit (DESIGN §7).
//!
//! A descriptor names its capabilities, its bounds and its tools, each over a
//! closed set of primitives. [`judge`] is the gate that names what is wrong
//! with a proposal; [`plan_digest`] is what an approval is bound to; and
//! [`check_url`] is the egress check every `http-get` hop must pass.

use crate::rule::{Refusal, Rule};
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The closed set of things an extension tool can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Primitive {
    /// The current time.
    Now,
    /// Read a file inside the root (`args.name`).
    ReadFile,
    /// Write a file inside the root (`args.name`, `args.content`), at most `bounds.maxBytes`.
    WriteFile,
    /// List a folder inside the root (`args.dir`).
    ListFiles,
    /// GET a URL (`args.url`) on one of `bounds.hosts`, at most `bounds.maxRequests` times.
    HttpGet,
    /// Run a Wasm module pinned by `digest` on the shelf.
    Wasm,
}

impl Primitive {
    /// The capability a tool of this primitive needs declared.
    pub fn capability(self) -> Option<Capability> {
        match self {
            Primitive::Now => None,
            Primitive::ReadFile | Primitive::ListFiles => Some(Capability::Read),
            Primitive::WriteFile => Some(Capability::Write),
            Primitive::HttpGet => Some(Capability::Network),
            Primitive::Wasm => Some(Capability::Wasm),
        }
    }
}

/// What a descriptor (or a project) declares it may do, as its word.
/// A word outside the closed set is kept as [`Capability::Other`] rather than
/// failing the parse, so the gate can name it (`exec-absent`,
/// `eval-not-a-tool-path`, `unknown-capability`) and the plan digest is over
/// the words as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum Capability {
    Read,
    Write,
    Network,
    Wasm,
    Other(String),
}

impl Capability {
    /// The capabilities a descriptor may declare.
    pub const KNOWN: [Capability; 4] = [
        Capability::Read,
        Capability::Write,
        Capability::Network,
        Capability::Wasm,
    ];

    pub fn as_str(&self) -> &str {
        match self {
            Capability::Read => "read",
            Capability::Write => "write",
            Capability::Network => "network",
            Capability::Wasm => "wasm",
            Capability::Other(word) => word,
        }
    }
}

impl From<String> for Capability {
    fn from(word: String) -> Capability {
        Capability::KNOWN
            .into_iter()
            .find(|known| known.as_str() == word)
            .unwrap_or(Capability::Other(word))
    }
}

impl From<Capability> for String {
    fn from(capability: Capability) -> String {
        capability.as_str().into()
    }
}

impl core::fmt::Display for Capability {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How an extension stands with the person at the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExtensionState {
    /// In the ledger at the plan digest of its proposal: it may run.
    Admitted,
    /// Proposed, passed the gate, waiting for a person.
    Pending,
    /// Proposed, and the gate named problems: it cannot be admitted.
    Refused,
    /// A file in the proposals folder that was not proposed through the host:
    /// it never loads.
    PresentNotAdmitted,
}

/// One tool of an extension.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolDecl {
    pub name: String,
    pub primitive: Primitive,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// For `wasm`: the sha256 of the module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// What an extension may reach, enforced at call time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Bounds {
    /// Host names `http-get` may reach (exact match, no wildcards).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// How many requests `http-get` may make in all (every redirect hop counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_requests: Option<u32>,
    /// The most bytes one `write-file` may write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
}

/// A proposed extension: data only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    pub id: String,
    pub description: String,
    pub capabilities: Vec<Capability>,
    #[serde(default)]
    pub bounds: Bounds,
    pub tools: Vec<ToolDecl>,
}

impl Descriptor {
    /// Parses descriptor JSON; a field that does not fit is `malformed-field`.
    pub fn from_json(value: &serde_json::Value) -> Result<Descriptor, Refusal> {
        serde_json::from_value(value.clone()).map_err(|e| {
            Refusal::new(
                Rule::MalformedField,
                format!("the descriptor does not fit the extension format: {e}"),
            )
        })
    }

    pub fn tool(&self, name: &str) -> Option<&ToolDecl> {
        self.tools.iter().find(|t| t.name == name)
    }
}

/// The gate: every problem with a proposal, each by its rule. Empty means it
/// may be admitted (by a person).
pub fn judge(descriptor: &Descriptor) -> Vec<Refusal> {
    let mut problems = Vec::new();
    if !valid_id(&descriptor.id) {
        problems.push(Refusal::new(
            Rule::MalformedField,
            format!(
                "extension id {:?} must be 1–64 of a-z, 0-9 and -",
                descriptor.id
            ),
        ));
    }
    for capability in &descriptor.capabilities {
        let Capability::Other(word) = capability else {
            continue;
        };
        let refusal = match word.as_str() {
            "exec" => Refusal::new(
                Rule::ExecAbsent,
                "`exec` is absent here: there is no process to spawn, in any placement",
            ),
            "eval" => Refusal::new(
                Rule::EvalNotAToolPath,
                "`eval` is not a tool path: a model can emit a schema, not an execute body",
            ),
            other => Refusal::new(
                Rule::UnknownCapability,
                format!(
                    "capability {other:?} is unknown; declare only: {}",
                    Capability::KNOWN.map(|c| c.as_str().to_string()).join(", ")
                ),
            ),
        };
        problems.push(refusal);
    }
    let mut names = BTreeSet::new();
    for tool in &descriptor.tools {
        if !names.insert(tool.name.as_str()) {
            problems.push(Refusal::new(
                Rule::DuplicateTool,
                format!(
                    "two tools are named {:?}; tool names must be unique",
                    tool.name
                ),
            ));
        }
        if let Some(needed) = tool
            .primitive
            .capability()
            .filter(|c| !descriptor.capabilities.contains(c))
        {
            problems.push(Refusal::new(
                Rule::UnderDeclared,
                format!("tool {:?} uses a primitive that needs the `{needed}` capability, which the descriptor does not declare", tool.name),
            ));
        }
        if tool.primitive == Primitive::Wasm && tool.digest.as_deref().is_none_or(|d| !is_sha256(d))
        {
            problems.push(Refusal::new(
                Rule::UnderDeclared,
                format!(
                    "wasm tool {:?} must pin its module by a sha256 `digest` (64 hex digits)",
                    tool.name
                ),
            ));
        }
    }
    let fetches = descriptor
        .tools
        .iter()
        .any(|t| t.primitive == Primitive::HttpGet);
    let network = fetches || descriptor.capabilities.contains(&Capability::Network);
    if network && (descriptor.bounds.hosts.is_empty() || descriptor.bounds.max_requests.is_none()) {
        problems.push(Refusal::new(
            Rule::NetworkUnbounded,
            "network access needs `bounds.hosts` (which hosts) and `bounds.maxRequests` (how many requests in all)",
        ));
    }
    problems
}

/// Whether `id` is a valid extension id (also a safe file name).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The digest of the exact plan: an approval is bound to it, so a descriptor
/// changed after the code was issued is not the one approved.
pub fn plan_digest(descriptor: &Descriptor) -> String {
    let canonical = serde_json::to_string(descriptor).expect("descriptors serialise");
    crate::hex(&Sha256::digest(canonical.as_bytes()))
}

/// The host of an `http://` or `https://` URL, lowercased, if it is on the
/// extension's list; every redirect hop is checked again with this.
pub fn check_url(url: &str, bounds: &Bounds) -> Result<String, Refusal> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| {
            Refusal::new(
                Rule::HostNotAllowed,
                format!("{url:?} is not an http or https URL"),
            )
        })?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(Refusal::new(
            Rule::HostNotAllowed,
            format!("{url:?} carries credentials; they are not allowed"),
        ));
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    }
    .to_ascii_lowercase();
    if bounds.hosts.iter().any(|h| h.eq_ignore_ascii_case(&host)) {
        Ok(host)
    } else {
        Err(Refusal::new(
            Rule::HostNotAllowed,
            format!(
                "{host:?} is not among the extension's admitted hosts ({}); nothing was fetched",
                bounds.hosts.join(", ")
            ),
        ))
    }
}

/// Whether one more request fits the budget, given how many were made.
pub fn check_budget(used: u32, bounds: &Bounds) -> Result<(), Refusal> {
    let max = bounds.max_requests.unwrap_or(0);
    if used < max {
        Ok(())
    } else {
        Err(Refusal::new(
            Rule::BudgetExhausted,
            format!(
                "the extension has used all {max} requests it was admitted with; a person can admit a new version with a larger budget"
            ),
        ))
    }
}

/// What the gate said, for listings.
pub fn problems_text(problems: &[Refusal]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn descriptor(value: serde_json::Value) -> Descriptor {
        Descriptor::from_json(&value).unwrap()
    }

    #[test]
    fn capabilities_keep_their_words_so_the_plan_digest_does_not_move() {
        let value = json!({"id": "x", "description": "d", "capabilities": ["read", "exec", "wasm"], "tools": []});
        let parsed = descriptor(value.clone());
        assert_eq!(
            parsed.capabilities,
            [
                Capability::Read,
                Capability::Other("exec".into()),
                Capability::Wasm
            ]
        );
        assert_eq!(
            serde_json::to_value(&parsed).unwrap()["capabilities"],
            value["capabilities"]
        );
    }

    #[test]
    fn catalog_states_are_their_kebab_case_words() {
        use crate::reply::ToolState;
        let words = [
            ToolState::BuiltIn,
            ToolState::Shelf,
            ExtensionState::Admitted.into(),
            ExtensionState::Pending.into(),
            ExtensionState::Refused.into(),
            ExtensionState::PresentNotAdmitted.into(),
        ]
        .map(|state| serde_json::to_value(state).unwrap());
        assert_eq!(
            words,
            [
                "built-in",
                "shelf",
                "admitted",
                "pending",
                "refused",
                "present-not-admitted"
            ]
        );
    }

    fn rules(d: &Descriptor) -> Vec<Rule> {
        judge(d).into_iter().map(|r| r.rule).collect()
    }

    #[test]
    fn a_bounded_descriptor_passes_the_gate() {
        let d = descriptor(json!({
            "id": "weather", "description": "fetch a forecast", "capabilities": ["network", "write"],
            "bounds": {"hosts": ["api.example"], "maxRequests": 3, "maxBytes": 1000},
            "tools": [{"name": "fetch", "primitive": "http-get"}, {"name": "save", "primitive": "write-file"}]
        }));
        assert!(judge(&d).is_empty(), "{:?}", judge(&d));
    }

    #[test]
    fn each_gate_rule_names_its_problem() {
        let base = |caps: serde_json::Value,
                    bounds: serde_json::Value,
                    tools: serde_json::Value| {
            descriptor(
                json!({"id": "x", "description": "d", "capabilities": caps, "bounds": bounds, "tools": tools}),
            )
        };
        assert_eq!(
            rules(&base(json!(["exec"]), json!({}), json!([]))),
            [Rule::ExecAbsent]
        );
        assert_eq!(
            rules(&base(json!(["eval"]), json!({}), json!([]))),
            [Rule::EvalNotAToolPath]
        );
        assert_eq!(
            rules(&base(json!(["teleport"]), json!({}), json!([]))),
            [Rule::UnknownCapability]
        );
        assert_eq!(
            rules(&base(
                json!(["network"]),
                json!({"hosts": ["a.example"]}),
                json!([{"name": "f", "primitive": "http-get"}])
            )),
            [Rule::NetworkUnbounded]
        );
        assert_eq!(
            rules(&base(
                json!(["wasm"]),
                json!({}),
                json!([{"name": "w", "primitive": "wasm"}])
            )),
            [Rule::UnderDeclared]
        );
        assert_eq!(
            rules(&base(
                json!([]),
                json!({}),
                json!([{"name": "r", "primitive": "read-file"}])
            )),
            [Rule::UnderDeclared]
        );
        assert_eq!(
            rules(&base(
                json!(["read"]),
                json!({}),
                json!([{"name": "r", "primitive": "read-file"}, {"name": "r", "primitive": "list-files"}])
            )),
            [Rule::DuplicateTool]
        );
        let unknown = Descriptor::from_json(
            &json!({"id": "x", "description": "d", "capabilities": [], "tools": [{"name": "e", "primitive": "exec"}]}),
        );
        assert_eq!(
            unknown.unwrap_err().rule,
            Rule::MalformedField,
            "primitives are a closed set"
        );
    }

    #[test]
    fn urls_are_checked_by_host_on_every_hop_and_budgets_count() {
        let bounds = Bounds {
            hosts: alloc::vec!["127.0.0.1".into()],
            max_requests: Some(2),
            max_bytes: None,
        };
        assert_eq!(
            check_url("http://127.0.0.1:8080/a", &bounds).unwrap(),
            "127.0.0.1"
        );
        for bad in [
            "http://evil.example/",
            "http://127.0.0.1.evil.example/",
            "http://user@127.0.0.1/",
            "file:///etc/passwd",
            "http://[::1]/",
        ] {
            assert_eq!(
                check_url(bad, &bounds).unwrap_err().rule,
                Rule::HostNotAllowed,
                "{bad}"
            );
        }
        assert!(check_budget(1, &bounds).is_ok());
        assert_eq!(
            check_budget(2, &bounds).unwrap_err().rule,
            Rule::BudgetExhausted
        );
    }

    #[test]
    fn the_plan_digest_changes_with_the_plan() {
        let a = descriptor(json!({"id": "x", "description": "d", "capabilities": [], "tools": []}));
        let mut b = a.clone();
        b.description.push('!');
        assert_eq!(plan_digest(&a), plan_digest(&a.clone()));
        assert_ne!(plan_digest(&a), plan_digest(&b));
    }
}
