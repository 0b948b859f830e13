//! The gate a proposal passes before a person may admit it ([`judge`]), and
//! the checks every `http-get` hop passes at call time ([`check_url`],
//! [`check_budget`]).

use super::address::{Reach, judge_host, parse_host};
use super::{Bounds, Capability, Descriptor, Primitive, is_sha256, valid_entry_id};
use crate::platform::MAX_FILE_BYTES;
use crate::rule::{Refusal, Rule};
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The most requests a person can admit an extension with, in all.
pub const MAX_REQUESTS_CEILING: u32 = 1000;
/// The most bytes one `write-file` can be admitted with: the largest file a
/// write makes anyway.
pub const MAX_BYTES_CEILING: u64 = MAX_FILE_BYTES;

/// The gate: every problem with a proposal, each by its rule. Empty means it
/// may be admitted (by a person).
pub fn judge(descriptor: &Descriptor, reach: Reach) -> Vec<Refusal> {
    let mut problems = Vec::new();
    if !valid_entry_id(&descriptor.id) {
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
        if tool.primitive == Primitive::WriteFile && descriptor.bounds.max_bytes.is_none() {
            problems.push(Refusal::new(
                Rule::UnderDeclared,
                format!(
                    "write-file tool {:?} needs `bounds.maxBytes` (the most one write may write, at most {MAX_BYTES_CEILING})",
                    tool.name
                ),
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
    problems.extend(judge_bounds(&descriptor.bounds, reach));
    problems
}

/// The host's ceilings on what a person can admit, and the hosts it can
/// reach: every listed host must be public (by name and by address, in any
/// spelling).
fn judge_bounds(bounds: &Bounds, reach: Reach) -> Vec<Refusal> {
    let mut problems: Vec<Refusal> = bounds
        .hosts
        .iter()
        .filter_map(|host| {
            parse_host(host)
                .and_then(|parsed| judge_host(&parsed, reach))
                .err()
        })
        .collect();
    if let Some(max) = bounds.max_requests.filter(|&m| m > MAX_REQUESTS_CEILING) {
        problems.push(Refusal::new(
            Rule::BoundTooLarge,
            format!("`bounds.maxRequests` is {max}, over this host's ceiling of {MAX_REQUESTS_CEILING} requests in all; declare fewer (a person can admit a new version later)"),
        ));
    }
    if let Some(max) = bounds.max_bytes.filter(|&m| m > MAX_BYTES_CEILING) {
        problems.push(Refusal::new(
            Rule::BoundTooLarge,
            format!("`bounds.maxBytes` is {max}, over this host's ceiling of {MAX_BYTES_CEILING} bytes (the largest file a write makes); declare at most that"),
        ));
    }
    problems
}

/// The host of an `http://` or `https://` URL in its canonical spelling, if
/// it is public and on the extension's list (compared canonically, so
/// `0x7f.1` is `127.0.0.1`); every redirect hop is checked again with this.
pub fn check_url(url: &str, bounds: &Bounds, reach: Reach) -> Result<String, Refusal> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| {
            Refusal::new(
                Rule::HostNotAllowed,
                format!("{url:?} is not an http or https URL"),
            )
        })?;
    // The URL parser ends the authority at `\\` too, in http(s).
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(Refusal::new(
            Rule::HostNotAllowed,
            format!("{url:?} carries credentials; they are not allowed"),
        ));
    }
    let host = match authority.find(']') {
        Some(end) if authority.starts_with('[') => &authority[..=end],
        _ => authority.split(':').next().unwrap_or(""),
    };
    let host = parse_host(host)?;
    judge_host(&host, reach)?;
    let canonical = host.to_string();
    let listed = |entry: &String| parse_host(entry).is_ok_and(|h| h.to_string() == canonical);
    if bounds.hosts.iter().any(listed) {
        Ok(canonical)
    } else {
        Err(Refusal::new(
            Rule::HostNotAllowed,
            format!(
                "{canonical:?} is not among the extension's admitted hosts ({}); nothing was fetched",
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use serde_json::json;

    fn descriptor(value: serde_json::Value) -> Descriptor {
        Descriptor::from_json(&value).unwrap()
    }

    fn rules(d: &Descriptor) -> Vec<Rule> {
        judge(d, Reach::Public)
            .into_iter()
            .map(|r| r.rule)
            .collect()
    }

    #[test]
    fn a_bounded_descriptor_passes_the_gate() {
        let d = descriptor(json!({
            "id": "weather", "description": "fetch a forecast", "capabilities": ["network", "write"],
            "bounds": {"hosts": ["api.example"], "maxRequests": 3, "maxBytes": 1000},
            "tools": [{"name": "fetch", "primitive": "http-get"}, {"name": "save", "primitive": "write-file"}]
        }));
        assert!(
            judge(&d, Reach::Public).is_empty(),
            "{:?}",
            judge(&d, Reach::Public)
        );
    }

    #[test]
    fn each_gate_rule_names_its_problem() {
        // (capabilities, bounds, tools) and the one rule the gate names.
        let cases = [
            (json!(["exec"]), json!({}), json!([]), Rule::ExecAbsent),
            (
                json!(["eval"]),
                json!({}),
                json!([]),
                Rule::EvalNotAToolPath,
            ),
            (
                json!(["teleport"]),
                json!({}),
                json!([]),
                Rule::UnknownCapability,
            ),
            (
                json!(["network"]),
                json!({"hosts": ["a.example"]}),
                json!([{"name": "f", "primitive": "http-get"}]),
                Rule::NetworkUnbounded,
            ),
            (
                json!(["wasm"]),
                json!({}),
                json!([{"name": "w", "primitive": "wasm"}]),
                Rule::UnderDeclared,
            ),
            (
                json!([]),
                json!({}),
                json!([{"name": "r", "primitive": "read-file"}]),
                Rule::UnderDeclared,
            ),
            (
                json!(["read"]),
                json!({}),
                json!([{"name": "r", "primitive": "read-file"}, {"name": "r", "primitive": "list-files"}]),
                Rule::DuplicateTool,
            ),
        ];
        for (caps, bounds, tools, rule) in cases {
            let d = descriptor(
                json!({"id": "x", "description": "d", "capabilities": caps, "bounds": bounds, "tools": tools}),
            );
            assert_eq!(rules(&d), [rule], "{caps} {bounds} {tools}");
        }
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
            hosts: vec!["api.example".into()],
            max_requests: Some(2),
            max_bytes: None,
        };
        assert_eq!(
            check_url("http://API.example.:8080/a", &bounds, Reach::Public).unwrap(),
            "api.example"
        );
        for bad in [
            "http://evil.example/",
            "http://api.example.evil.example/",
            "http://user@api.example/",
            "file:///etc/passwd",
            "http://api.ex%61mple/",
        ] {
            assert_eq!(
                check_url(bad, &bounds, Reach::Public).unwrap_err().rule,
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
}
