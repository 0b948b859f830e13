//! Containment: resolve, compare, refuse — never tidy.
//!
//! [`resolve_inside_root`] is the one lexical decision about whether a name is
//! inside the root. It never normalises, decodes, trims or strips: rewriting a
//! name is what produced the escapes this rule exists to stop (`basename("..")`
//! is `".."`). `.` and empty segments are dropped for comparison only. The
//! real-path half (symlinks) is the storage adapter's [`crate::platform::Storage::confine`];
//! [`contain`] runs both, then the host-folder and dotfile rules.

use crate::platform::{Escape, Resolved, Storage};
use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// The folder inside every root where the audit log lives.
pub const AUDIT_DIR: &str = ".audit";
/// The host's own folder inside every root (the undo journal).
pub const HOST_DIR: &str = ".voicebox";
/// The longest one path segment may be (the common filesystem limit).
pub const MAX_SEGMENT_BYTES: usize = 255;

/// A path already proven to stay inside the root, as `/`-joined segments.
/// The empty path is the root itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RelPath(String);

impl RelPath {
    /// The root itself.
    pub fn root() -> RelPath {
        RelPath(String::new())
    }

    /// A host-owned path (audit, journal), built by the host, never from input.
    pub(crate) fn host(path: &str) -> RelPath {
        RelPath(path.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|s| !s.is_empty())
    }

    /// A child of this path; `name` is one directory entry as storage listed it.
    pub fn child(&self, name: &str) -> RelPath {
        if self.0.is_empty() {
            RelPath(name.into())
        } else {
            RelPath(format!("{}/{name}", self.0))
        }
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str(".")
        } else {
            f.write_str(&self.0)
        }
    }
}

fn outside(name: &str, reason: &str) -> Refusal {
    Refusal::new(
        Rule::OutsideRoot,
        format!(
            "`{}` {reason}, which could reach outside your folder; name a file inside it, like `notes.md` or `drafts/plan.md`",
            printable(name)
        ),
    )
}

/// The name with control characters shown as escapes, so a refusal never
/// carries raw control bytes into a transcript.
fn printable(name: &str) -> String {
    name.chars().flat_map(char::escape_debug).collect()
}

/// Whether `name` is one entry of a folder and nothing more: not empty, at
/// most 255 bytes, not `.` or `..`, and no `/`, `\` or control character.
/// Names that are joined onto a host folder (shelf files, project folders)
/// pass this first, so a name can never climb out or split into a path.
pub fn entry_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && name != "."
        && name != ".."
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control())
}

/// The lexical containment decision: `Ok` with the path inside the root, or
/// `outside-root` with a why in its own words.
pub fn resolve_inside_root(candidate: &str) -> Result<RelPath, Refusal> {
    if candidate.is_empty() {
        return Err(outside(candidate, "is empty"));
    }
    if let Some(c) = candidate.chars().find(|c| c.is_control()) {
        let reason = if c == '\0' {
            "contains a NUL character".to_string()
        } else {
            format!("contains the control character {:?}", c)
        };
        return Err(outside(candidate, &reason));
    }
    if candidate.contains('\\') {
        return Err(outside(candidate, "contains a backslash"));
    }
    if candidate.starts_with('/') {
        return Err(outside(candidate, "is an absolute path"));
    }
    let mut kept: Vec<&str> = Vec::new();
    for segment in candidate.split('/') {
        match segment {
            ".." => return Err(outside(candidate, "has a `..` segment")),
            "" | "." => {}
            long if long.len() > MAX_SEGMENT_BYTES => {
                return Err(Refusal::new(
                    Rule::TooLarge,
                    format!(
                        "one part of `{}` is {} bytes; each part of a name may be at most {MAX_SEGMENT_BYTES} bytes — use a shorter name",
                        printable(candidate),
                        long.len()
                    ),
                ));
            }
            other => kept.push(other),
        }
    }
    // `~/notes.txt` and `~bob/x` mean a home folder to every shell the
    // person knows; taking them as a folder named `~` here would surprise.
    // Judged on the kept segments, so `./~/x` is the same name.
    if let Some(first) = kept.first()
        && (*first == "~" || (first.starts_with('~') && kept.len() > 1))
    {
        return Err(outside(candidate, "names a home folder (`~`)"));
    }
    Ok(RelPath(kept.join("/")))
}

/// The host-folder and dotfile rules, applied after the path is known to be inside.
pub fn check_visible(path: &RelPath) -> Result<(), Refusal> {
    check_segments(path, path)
}

/// The host-folder and dotfile rules on the segments of `seen`, the path as
/// spelled or as resolved; refusals name `spelled`, what the person wrote.
fn check_segments(spelled: &RelPath, seen: &RelPath) -> Result<(), Refusal> {
    let through = if seen == spelled {
        String::new()
    } else {
        format!(
            " (it resolves to `{}` through a link)",
            printable(seen.as_str())
        )
    };
    let mut segments = seen.segments();
    if let Some(first) = segments.next() {
        if first == AUDIT_DIR || first == HOST_DIR {
            return Err(Refusal::new(
                Rule::ProtectedAudit,
                format!(
                    "`{spelled}`{} is inside `{first}/`, which the host keeps for the audit log and undo journal; no act may touch it — work on other files",
                    through
                ),
            ));
        }
        if first.starts_with('.') {
            return Err(dotfile(spelled, first, &through));
        }
    }
    if let Some(dot) = segments.find(|s| s.starts_with('.')) {
        return Err(dotfile(spelled, dot, &through));
    }
    Ok(())
}

fn dotfile(path: &RelPath, segment: &str, through: &str) -> Refusal {
    Refusal::new(
        Rule::DotfileRefused,
        format!(
            "`{}`{through} goes through `{}`; names starting with a dot are hidden host or tool files and are refused — use a name without a leading dot",
            printable(path.as_str()),
            printable(segment)
        ),
    )
}

/// The one containment function every act goes through: lexical check, then
/// the storage's real-path check, then the host-folder and dotfile rules on
/// the name *and* on what it resolves to (a link named `notes` that points at
/// `.audit` is the audit folder), then the regular-file rule.
pub async fn contain<S: Storage>(storage: &S, candidate: &str) -> Result<RelPath, Refusal> {
    let path = resolve_inside_root(candidate)?;
    check_resolved(&path, &confine(storage, &path).await?)?;
    Ok(path)
}

/// The rules a contained name must pass once storage said what it resolves to.
pub fn check_resolved(path: &RelPath, resolved: &Resolved) -> Result<(), Refusal> {
    check_visible(path)?;
    check_segments(path, &resolved.path)?;
    if resolved.special {
        return Err(not_regular(path));
    }
    Ok(())
}

/// Whether an act on the visible name `spelled`, about to touch `real` (where
/// the storage found it really is, at the moment of the act), must stop: a
/// name a person may use that leads into a host or hidden folder. Host paths
/// (the journal) are the host's own and lead where they say.
pub fn leads_into_hidden(spelled: &RelPath, real: &RelPath) -> bool {
    check_visible(spelled).is_ok() && check_visible(real).is_err()
}

/// The refusal for a FIFO, socket, device or other special file.
pub fn not_regular(path: &RelPath) -> Refusal {
    Refusal::new(
        Rule::NotARegularFile,
        format!(
            "`{path}` is not a regular file or folder (a pipe, socket or device); Voicebox acts only on files and folders, and never opens these — name a file"
        ),
    )
}

/// The storage's real-path check, with its escapes named.
pub async fn confine<S: Storage>(storage: &S, path: &RelPath) -> Result<Resolved, Refusal> {
    storage
        .confine(path)
        .await
        .map_err(|escape| escape_refusal(escape, path.as_str()))
}

/// Why `path` cannot be used from this root, as the rule that says so.
pub fn escape_refusal(escape: Escape, path: &str) -> Refusal {
    let path = printable(path);
    match escape {
        Escape::LinkOut => Refusal::new(
            Rule::SymlinkOut,
            format!(
                "`{path}` goes through a link that leads outside your folder, is absolute, or points at nothing; a link is followed only to a place inside the folder named relative to the link — use the real file inside the folder"
            ),
        ),
        Escape::Unreachable => unreachable_root(),
        Escape::NeedsGesture => Refusal::new(
            Rule::NeedsGesture,
            "the browser has not granted access to this folder yet, and asking needs your click; press \"Allow access\" on the page, then try again",
        ),
        Escape::PermissionDenied => Refusal::new(
            Rule::PermissionDenied,
            "access to this folder was denied; allow it in the browser's site settings (or pick the folder again), then try again",
        ),
    }
}

/// The refusal for a root that was declared but cannot be reached now.
pub fn unreachable_root() -> Refusal {
    Refusal::new(
        Rule::RootUnreachable,
        "your folder cannot be reached (removed, unmounted or no permission); bring it back, or choose another folder",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_name_is_one_entry() {
        for name in ["atlas", "wc.wasm", ".hidden", "a..b"] {
            assert!(entry_name(name), "{name}");
        }
        let long = "a".repeat(256);
        for name in ["", ".", "..", "a/b", "a\\b", "a\nb", long.as_str()] {
            assert!(!entry_name(name), "{name:?}");
        }
    }

    #[test]
    fn a_home_folder_path_is_outside_and_a_tilde_file_is_not() {
        for home in ["~", "~/notes.txt", "~bob/notes.txt", "./~", "./~/x"] {
            let refusal = resolve_inside_root(home).unwrap_err();
            assert_eq!(refusal.rule, Rule::OutsideRoot, "{home}");
            assert!(refusal.why.contains("home folder"), "{}", refusal.why);
        }
        for kept in ["~draft.txt", "notes~", "a/~b.txt"] {
            assert_eq!(resolve_inside_root(kept).unwrap().as_str(), kept);
        }
    }

    #[test]
    fn dot_dot_as_a_name_is_refused_while_a_sibling_name_is_accepted() {
        let refusal = resolve_inside_root("..").unwrap_err();
        assert_eq!(refusal.rule, Rule::OutsideRoot);
        assert!(refusal.why.contains("`..` segment"), "{}", refusal.why);
        assert_eq!(resolve_inside_root("..a").unwrap().as_str(), "..a");
        assert_eq!(resolve_inside_root("a..").unwrap().as_str(), "a..");
    }

    #[test]
    fn escapes_are_refused_and_inside_names_kept_literally() {
        for bad in [
            "", "/etc/passwd", "../x", "a/../../x", "a/..", "a\\b", "a\0b", "a\nb", "\u{7f}",
            "../../evil.sh",
        ] {
            assert_eq!(
                resolve_inside_root(bad).unwrap_err().rule,
                Rule::OutsideRoot,
                "{bad:?}"
            );
        }
        for (good, kept) in [
            ("a.txt", "a.txt"),
            ("./a.txt", "a.txt"),
            ("d//e.txt", "d/e.txt"),
            ("%2e%2e/x", "%2e%2e/x"),
            (" spaced ", " spaced "),
            ("Hello.TXT", "Hello.TXT"),
            (".", ""),
        ] {
            assert_eq!(
                resolve_inside_root(good).unwrap().as_str(),
                kept,
                "{good:?}"
            );
        }
    }

    #[test]
    fn host_folders_and_dotfiles_are_refused_by_their_own_rules() {
        let check = |s: &str| check_visible(&resolve_inside_root(s).unwrap());
        assert_eq!(
            check(".audit/x.jsonl").unwrap_err().rule,
            Rule::ProtectedAudit
        );
        assert_eq!(
            check(".voicebox/undo").unwrap_err().rule,
            Rule::ProtectedAudit
        );
        assert_eq!(check(".env").unwrap_err().rule, Rule::DotfileRefused);
        assert_eq!(
            check("a/.git/config").unwrap_err().rule,
            Rule::DotfileRefused
        );
        assert!(check("a/b.txt").is_ok());
        assert!(check("audit/x").is_ok());
    }

    #[test]
    fn a_visible_name_leading_into_a_hidden_place_stops_and_a_host_path_does_not() {
        let path = |s: &str| resolve_inside_root(s).unwrap();
        assert!(leads_into_hidden(
            &path("sub/x.jsonl"),
            &path(".audit/x.jsonl")
        ));
        assert!(leads_into_hidden(&path("notes"), &path(".git/config")));
        assert!(!leads_into_hidden(
            &path("d/plan.md"),
            &path("docs/plan.md")
        ));
        // The journal is a host path: it leads where it says.
        let journal = path(".voicebox/undo/journal.jsonl");
        assert!(!leads_into_hidden(&journal, &journal));
    }
}
