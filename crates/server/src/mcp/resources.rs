//! The folder's files as MCP resources, listed and read through the
//! executor: each listing and each read is an act (contained, audited), and
//! what the executor's `list` hides (dot folders, the audit, the host's
//! state, links out of the root) never appears.
//!
//! A resource's URI is `voicebox:///` and the file's path in the root,
//! percent-encoded. Decoding it is the URI's own syntax, not a tidying of
//! the path: the decoded name goes to the executor as it is, and a `..` or
//! an absolute path in it is refused there like any other.

use super::TURN;
use crate::host::Acts;
use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents};
use serde_json::json;
use std::collections::HashSet;
use voicebox_core::turn::Proposal;
use voicebox_core::{Action, Reply, Rule};

const SCHEME: &str = "voicebox:///";
/// At most this many files are listed (a working folder's worth).
const MAX_RESOURCES: usize = 1_000;
/// At most this many folders are listed on the way.
const MAX_FOLDERS: usize = 200;

/// Every file the executor shows, folder by folder from the root. Each
/// folder and file is taken once, by what it really is, as grep's walk
/// does: the folders themselves are walked first and links after (a
/// listing names a link's target), so a file keeps its own name, and a
/// link to `.` or to a folder already walked adds nothing.
pub async fn list(acts: &Acts) -> Result<Vec<Resource>, ErrorData> {
    let mut resources = Vec::new();
    // Folders to list, as spelled from the root (`None`: the root), with their real paths.
    let mut folders = vec![(None::<String>, String::new())];
    let mut links = Vec::new();
    let mut visited = HashSet::from([String::new()]);
    let mut listed = 0;
    loop {
        let (dir, real_dir) = match folders.pop() {
            Some(folder) => folder,
            None => match links.pop() {
                Some(link) => {
                    take(link, &mut visited, &mut folders, &mut resources);
                    continue;
                }
                None => break,
            },
        };
        listed += 1;
        if listed > MAX_FOLDERS || resources.len() >= MAX_RESOURCES {
            break;
        }
        let listing = Proposal::Resolved(Action::List { dir: dir.clone() });
        let reply = act(acts, listing).await?;
        for entry in reply.files.into_iter().flatten() {
            let found = Found {
                path: joined(dir.as_deref().unwrap_or(""), &entry.name),
                real: joined(&real_dir, &entry.name),
                dir: entry.is_dir,
                bytes: Some(entry.bytes),
            };
            match entry.real {
                Some(real) => links.push(Found { real, ..found }),
                None => take(found, &mut visited, &mut folders, &mut resources),
            }
        }
    }
    resources.sort_by(|a, b| a.uri.cmp(&b.uri));
    Ok(resources)
}

/// An entry a listing showed.
struct Found {
    /// As spelled from the root.
    path: String,
    /// What it really is, from the root.
    real: String,
    dir: bool,
    bytes: Option<u64>,
}

/// A folder to walk or a file to list, unless what it really is was taken.
fn take(
    found: Found,
    visited: &mut HashSet<String>,
    folders: &mut Vec<(Option<String>, String)>,
    resources: &mut Vec<Resource>,
) {
    if !visited.insert(found.real.clone()) {
        return;
    }
    if found.dir {
        folders.push((Some(found.path), found.real));
    } else if resources.len() < MAX_RESOURCES {
        let mut resource = Resource::new(uri(&found.path), found.path).with_mime_type("text/plain");
        if let Some(bytes) = found.bytes {
            resource = resource.with_size(bytes);
        }
        resources.push(resource);
    }
}

/// `name` in folder `dir` (`""`: the root), as a path from the root.
fn joined(dir: &str, name: &str) -> String {
    match dir {
        "" => name.to_string(),
        dir => format!("{dir}/{name}"),
    }
}

/// One file's text, read by the executor.
pub async fn read(acts: &Acts, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let Some(name) = uri.strip_prefix(SCHEME).and_then(decode) else {
        return Err(ErrorData::invalid_params(
            format!("`{uri}` is not a Voicebox resource; its URIs start with {SCHEME}"),
            None,
        ));
    };
    // A name from the client is checked as any sent action is.
    let read = Proposal::Sent(json!(Action::Read {
        name,
        first: None,
        last: None,
        at: None,
    }));
    let reply = act(acts, read).await?;
    let text = reply.content.unwrap_or_default();
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("text/plain"),
    ]))
}

/// One act; a refusal is a protocol error whose message starts with the
/// rule id, with the reply as its data.
async fn act(acts: &Acts, proposal: Proposal) -> Result<Reply, ErrorData> {
    let acted = acts.act(proposal, TURN.into()).await;
    let Some(rule) = acted.reply().refused else {
        return Ok(acted.into_reply());
    };
    let why = acted.reply().why.as_deref().unwrap_or_default();
    let message = format!("{rule}: {why}");
    Err(match rule {
        Rule::NotFound => ErrorData::resource_not_found(message, Some(json!(acted))),
        _ => ErrorData::invalid_params(message, Some(json!(acted))),
    })
}

/// `voicebox:///` and the path, each byte outside the unreserved set and
/// `/` written `%XX`.
pub fn uri(path: &str) -> String {
    let mut uri = String::from(SCHEME);
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(char::from(byte));
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

/// The path a URI's tail spells, `%XX` read back; `None` for a broken
/// escape or bytes that are not UTF-8.
fn decode(tail: &str) -> Option<String> {
    let bytes = tail.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_spells_its_path_and_reads_back_as_it() {
        for path in ["notes.md", "my notes/plan 1.md", "ünï/ç.txt", "100%.txt"] {
            let uri = uri(path);
            assert!(!uri[SCHEME.len()..].contains(' '), "{uri}");
            assert_eq!(decode(&uri[SCHEME.len()..]).as_deref(), Some(path));
        }
        assert_eq!(uri("a b.md"), "voicebox:///a%20b.md");
        // Read back literally: the executor, not this decoder, refuses `..`.
        assert_eq!(decode("%2e%2e/x").as_deref(), Some("../x"));
        assert_eq!(decode("bad%2"), None);
        assert_eq!(decode("bad%zz"), None);
    }
}
