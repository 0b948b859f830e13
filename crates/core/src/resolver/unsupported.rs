//! File verbs the resolver knows but cannot do yet: named, so the note can say so.

use super::Resolution;
use super::text::Words;
use alloc::format;

const VERBS: &[&str] = &[
    "rmdir", "zip", "unzip", "compress", "upload", "download", "email", "send", "share",
];

pub fn resolve(words: Words<'_>) -> Option<Resolution> {
    let verb = words.key(0);
    VERBS.contains(&verb).then(|| {
        super::unresolved(format!(
            "I can't {verb} files. I can list, read, write, delete, edit, diff, grep, find, rename, move and copy them, make folders, and undo changes."
        ))
    })
}
