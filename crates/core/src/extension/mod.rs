//! Extensions: tools a model may *propose* as data, and only the person at the
//! host may admit.
//!
//! A descriptor names its capabilities, its bounds and its tools, each over a
//! closed set of primitives. [`judge`] is the gate that names what is wrong
//! with a proposal ([`gate`]); [`plan_digest`] is what an approval is bound
//! to; [`check_url`] is the egress check every `http-get` hop must pass, and
//! [`address`] says which hosts are public.

pub mod address;
mod gate;

pub use address::Reach;
pub use gate::{MAX_BYTES_CEILING, MAX_REQUESTS_CEILING, check_budget, check_url, judge};

use crate::rule::{Refusal, Rule};
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
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolDecl {
    pub name: String,
    pub primitive: Primitive,
    pub description: Option<String>,
    /// For `wasm`: the sha256 of the module.
    pub digest: Option<String>,
}

/// What an extension may reach, enforced at call time.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Bounds {
    /// Host names `http-get` may reach (exact match, no wildcards).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// How many requests `http-get` may make in all (every redirect hop counts).
    pub max_requests: Option<u32>,
    /// The most bytes one `write-file` may write.
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

/// Whether `id` is a valid entry id: an extension, tool or project name
/// (lowercase letters, digits and dashes, at most 64), so it is also a safe
/// file name.
pub fn valid_entry_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub(crate) fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The digest of the exact plan: an approval is bound to it, so a descriptor
/// changed after the code was issued is not the one approved.
pub fn plan_digest(descriptor: &Descriptor) -> String {
    let canonical = serde_json::to_string(descriptor).expect("descriptors serialise");
    crate::hex(&Sha256::digest(canonical.as_bytes()))
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
                "built-in", "shelf", "admitted", "pending", "refused", "present-not-admitted"
            ]
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
