//! What a folder shows to an act: its entries less dot names, special files
//! and links that resolve out of the root or into a hidden or host folder.
//! `list` and `grep` both see a folder through here, so a link to `.audit`
//! is hidden from both, and counted.

use super::Executor;
use crate::contain::{self, RelPath};
use crate::platform::{Abilities, DirEntry, Env, Storage, StorageError};
use crate::reply::Skipped;
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
            seen.push(Seen { entry, path, real });
        }
        Ok(seen)
    }
}
