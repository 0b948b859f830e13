//! The folder's files against a commit: every visible file is hashed as
//! git would store it and compared with the commit's tree. Names starting
//! with a dot (`.git`, `.audit`, `.voicebox`, any hidden file) are left out
//! on both sides, as every verb leaves them out; links are never followed.

use super::open::unreadable;
use cap_std::fs::Dir;
use gix::{ObjectId, Repository};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use voicebox_core::diff;
use voicebox_core::history::{ChangeKind, Changes, FileChange, MAX_CHANGED_FILES};
use voicebox_core::platform::MAX_FILE_BYTES;
use voicebox_core::rule::{Refusal, Rule};

/// The most working files one comparison hashes.
pub const MAX_WORK_FILES: usize = 20_000;

/// What `base` holds against the folder's files now (`None`: no commit,
/// so every file is new).
pub fn changes(
    repo: &Repository,
    root: &Dir,
    base: Option<&gix::Commit<'_>>,
) -> Result<Changes, Refusal> {
    let committed = match base {
        Some(commit) => tracked(commit)?,
        None => BTreeMap::new(),
    };
    let working = working_files(repo, root)?;
    let mut files: Vec<FileChange> = Vec::new();
    for (path, id) in &working {
        match committed.get(path) {
            Some(old) if old == id => {}
            Some(_) => files.push(change(path, ChangeKind::Modified)),
            None => files.push(change(path, ChangeKind::Added)),
        }
    }
    let gone: Vec<&String> = committed
        .keys()
        .filter(|path| !working.contains_key(*path))
        .collect();
    for path in gone {
        // The same content under a new name is a rename.
        let renamed = files
            .iter_mut()
            .find(|f| f.kind == ChangeKind::Added && working.get(&f.path) == committed.get(path));
        match renamed {
            Some(added) => {
                added.kind = ChangeKind::Renamed;
                added.from = Some(path.clone());
            }
            None => files.push(change(path, ChangeKind::Removed)),
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let total = files.len();
    files.truncate(MAX_CHANGED_FILES);
    for file in &mut files {
        count_lines(repo, root, &committed, file)?;
    }
    Ok(Changes {
        base: base.map(super::commits::described).transpose()?,
        files,
        total,
        bounded: false,
        branch: None,
    })
}

fn change(path: &str, kind: ChangeKind) -> FileChange {
    FileChange {
        path: path.into(),
        kind,
        from: None,
        added: 0,
        removed: 0,
        binary: false,
    }
}

/// The visible files a commit holds, by path (links and submodules left out).
fn tracked(commit: &gix::Commit<'_>) -> Result<BTreeMap<String, ObjectId>, Refusal> {
    let tree = commit.tree().map_err(|e| unreadable(&e))?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| unreadable(&e))?;
    Ok(recorder
        .records
        .into_iter()
        .filter(|entry| entry.mode.is_blob())
        .map(|entry| (entry.filepath.to_string(), entry.oid))
        .filter(|(path, _)| visible(path))
        .collect())
}

fn visible(path: &str) -> bool {
    path.split('/').all(|part| !part.starts_with('.'))
}

/// Every visible regular file of the root, hashed as a git blob.
fn working_files(repo: &Repository, root: &Dir) -> Result<BTreeMap<String, ObjectId>, Refusal> {
    let mut found = BTreeMap::new();
    let mut stack = vec![(root.try_clone().map_err(|e| unreadable(&e))?, String::new())];
    while let Some((dir, at)) = stack.pop() {
        for entry in dir.entries().map_err(|e| unreadable(&e))? {
            let entry = entry.map_err(|e| unreadable(&e))?;
            let Some(name) = entry.file_name().to_str().map(String::from) else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let path = match at.is_empty() {
                true => name,
                false => format!("{at}/{name}"),
            };
            let kind = entry.file_type().map_err(|e| unreadable(&e))?;
            if kind.is_dir() {
                stack.push((entry.open_dir().map_err(|e| unreadable(&e))?, path));
            } else if kind.is_file() {
                if found.len() == MAX_WORK_FILES {
                    return Err(Refusal::new(
                        Rule::TooLarge,
                        format!(
                            "your folder has more than {MAX_WORK_FILES} files; changes compares at most that many"
                        ),
                    ));
                }
                let file = entry.open().map_err(|e| unreadable(&e))?;
                let len = file.metadata().map_err(|e| unreadable(&e))?.len();
                let id = gix::objs::compute_stream_hash(
                    repo.object_hash(),
                    gix::object::Kind::Blob,
                    &mut file.take(len),
                    len,
                    &mut gix::progress::Discard,
                    &AtomicBool::new(false),
                )
                .map_err(|e| unreadable(&e))?;
                found.insert(path, id);
            }
        }
    }
    Ok(found)
}

/// Fills in how many lines `file` gained and lost; a file that is not
/// UTF-8 text (or is over 1 MiB) on either side is counted as binary.
fn count_lines(
    repo: &Repository,
    root: &Dir,
    committed: &BTreeMap<String, ObjectId>,
    file: &mut FileChange,
) -> Result<(), Refusal> {
    if file.kind == ChangeKind::Renamed {
        return Ok(());
    }
    let old = match committed.get(&file.path) {
        Some(id) => text_of(blob(repo, *id)?),
        None => Some(String::new()),
    };
    let new = match file.kind {
        ChangeKind::Removed => Some(String::new()),
        _ => text_of(current(root, &file.path)?),
    };
    match (old, new) {
        (Some(old), Some(new)) => (file.added, file.removed) = diff::line_counts(&old, &new),
        _ => file.binary = true,
    }
    Ok(())
}

fn blob(repo: &Repository, id: ObjectId) -> Result<Option<Vec<u8>>, Refusal> {
    let size = repo.find_header(id).map_err(|e| unreadable(&e))?.size();
    if size > MAX_FILE_BYTES {
        return Ok(None);
    }
    let object = repo.find_object(id).map_err(|e| unreadable(&e))?;
    Ok(Some(object.detach().data))
}

fn current(root: &Dir, path: &str) -> Result<Option<Vec<u8>>, Refusal> {
    let file = root.open(Path::new(path)).map_err(|e| unreadable(&e))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(&e))?;
    Ok((bytes.len() as u64 <= MAX_FILE_BYTES).then_some(bytes))
}

/// UTF-8 text with no NUL byte, or `None` for anything else.
fn text_of(bytes: Option<Vec<u8>>) -> Option<String> {
    let text = String::from_utf8(bytes?).ok()?;
    (!text.contains('\0')).then_some(text)
}
