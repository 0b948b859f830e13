//! What a folder shows to an act: its entries less dot names, special files
//! and links that resolve out of the root or into a hidden or host folder.
//! `list` and `grep` both see a folder through here, so a link to `.audit`
//! is hidden from both, and counted.

use super::Executor;
use crate::contain::{self, RelPath};
use crate::platform::{Abilities, DirEntry, Env, Storage, StorageError};
use crate::reply::Skipped;
use crate::rule::Refusal;
use alloc::string::String;
use alloc::vec::Vec;

/// One entry an act may see, with the real path it stands for.
pub(super) struct Seen {
    pub entry: DirEntry,
    /// The entry's path as named from the root.
    pub path: RelPath,
    /// Where it really is (differs from `path` through a link).
    pub real: RelPath,
}

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// The visible entries of the folder at `path`, found through its real
    /// path first (a folder reached through a link is listed where it
    /// leads), or the refusal that stopped the look.
    pub(super) async fn folder_entries(
        &self,
        path: &RelPath,
        skipped: &mut Skipped,
    ) -> Result<Vec<Seen>, Refusal> {
        let real = contain::confine(self.store(), path).await?;
        self.visible_entries(path, &real.path, skipped)
            .await
            .map_err(|e| self.storage_refusal(e, path))
    }

    /// The visible entries of `folder` (whose real path is `real`), counting
    /// what was left out in `skipped`.
    pub(super) async fn visible_entries(
        &self,
        folder: &RelPath,
        real: &RelPath,
        skipped: &mut Skipped,
    ) -> Result<Vec<Seen>, StorageError> {
        let entries = self.store().list(folder).await?;
        let mut seen = Vec::with_capacity(entries.len());
        for entry in entries {
            // Dot entries are host or tool files: hidden, as containment refuses them.
            if entry.name.starts_with('.') {
                continue;
            }
            if entry.special {
                skipped.special += 1;
                continue;
            }
            let path = folder.child(&entry.name);
            let real = if entry.link {
                let resolved = match contain::confine(self.store(), &path).await {
                    Ok(resolved) => resolved,
                    Err(_) => {
                        skipped.links += 1;
                        continue;
                    }
                };
                if contain::check_resolved(&path, &resolved).is_err() {
                    if resolved.special {
                        skipped.special += 1;
                    } else {
                        skipped.links += 1;
                    }
                    continue;
                }
                resolved.path
            } else {
                real.child(&entry.name)
            };
            let mut entry = entry;
            if entry.link {
                entry.real = Some(real.as_str().into());
            }
            seen.push(Seen { entry, path, real });
        }
        Ok(seen)
    }
}

/// The most folders [`Executor::names`] opens, and how deep it goes.
const NAME_FOLDERS: usize = 500;
const NAME_DEPTH: usize = 8;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// The visible files of the root as paths from it, breadth first, at most
    /// `limit` of them: what the resolver settles a spoken name against
    /// ([`crate::resolver::resolve_in`]). It sees what `list` sees (dot
    /// names, special files and links out of bounds are left out), reads no
    /// file, and writes no entry: it is context for understanding a
    /// sentence, not an act. No usable root gives no names.
    pub async fn names(&self, limit: usize) -> Vec<String> {
        let mut names = Vec::new();
        if self.root_ready().await.is_err() {
            return names;
        }
        let mut skipped = Skipped::default();
        let mut folders =
            alloc::collections::VecDeque::from([(RelPath::root(), RelPath::root(), 0)]);
        // Real folders queued, so a link to `.` or to a folder seen is not walked again.
        let mut visited = alloc::collections::BTreeSet::from([RelPath::root()]);
        let mut opened = 0;
        while let Some((folder, real, depth)) = folders.pop_front() {
            opened += 1;
            if opened > NAME_FOLDERS {
                break;
            }
            let Ok(entries) = self.visible_entries(&folder, &real, &mut skipped).await else {
                continue;
            };
            for seen in entries {
                if seen.entry.is_dir {
                    if depth < NAME_DEPTH && visited.insert(seen.real.clone()) {
                        folders.push_back((seen.path, seen.real, depth + 1));
                    }
                    continue;
                }
                names.push(String::from(seen.path.as_str()));
                if names.len() >= limit {
                    return names;
                }
            }
        }
        names
    }
}

/// The most close names a not-found answer offers.
const NEIGHBOURS: usize = 3;

impl<S: Storage, E: Env, A: Abilities> Executor<S, E, A> {
    /// A `not-found` refusal with the files whose names are close to the
    /// one asked for ("did you mean `notes.txt`?"), so a misheard or
    /// mistyped name is one step from the right one and never guessed.
    /// Any other refusal is returned as it is.
    pub(super) async fn with_neighbours(&self, refusal: Refusal, asked: &str) -> Refusal {
        if refusal.rule != crate::rule::Rule::NotFound {
            return refusal;
        }
        let close: Vec<String> = self
            .names(crate::resolver::settle::MAX_NAMES)
            .await
            .into_iter()
            .filter(|name| close_to(asked, name))
            .take(NEIGHBOURS)
            .map(|name| alloc::format!("`{name}`"))
            .collect();
        if close.is_empty() {
            return refusal;
        }
        let why = alloc::format!("{} — did you mean {}?", refusal.why, close.join(" or "));
        Refusal::new(refusal.rule, why)
    }
}

/// Whether `name` is close to `asked`: the same but for case, the same stem
/// with another extension, or at most two letters apart.
fn close_to(asked: &str, name: &str) -> bool {
    let (asked, name) = (asked.to_lowercase(), name.to_lowercase());
    let stem = |text: &str| String::from(text.rsplit_once('.').map_or(text, |(stem, _)| stem));
    !asked.is_empty() && (asked == name || stem(&asked) == stem(&name) || edits(&asked, &name) <= 2)
}

/// The edit distance between two short names (bounded: longer ones are far).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 2 || a.len() > 128 || b.len() > 128 {
        return usize::MAX;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let replaced = last + usize::from(ca != cb);
            last = row[j + 1];
            row[j + 1] = replaced.min(row[j] + 1).min(last + 1);
        }
    }
    row[b.len()]
}
