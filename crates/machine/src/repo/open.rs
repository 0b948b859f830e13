//! Finding the root's own repository and judging it before anything of it
//! is read: a `.git` folder, or a `.git` file naming a git folder, inside
//! the root; no link anywhere in it; no objects borrowed from elsewhere.
//! The checks go through the root's cap-std handle, so `..` or a link on
//! the way fails in the kernel as it does for every act.

use cap_std::fs::Dir;
use std::io::{ErrorKind, Read};
use std::path::{Component, Path, PathBuf};
use voicebox_core::rule::{Refusal, Rule};

/// The most entries of a git folder the link check looks through; a
/// repository with more loose files than this is refused as too large
/// (`git gc` packs them).
const MAX_GIT_ENTRIES: usize = 200_000;

/// The largest `.git` file (a `gitdir:` line) read.
const MAX_GITDIR_FILE: u64 = 4096;

/// The git folder of the root, relative to it, once judged.
pub fn git_dir(root: &Dir) -> Result<PathBuf, Refusal> {
    let meta = match root.symlink_metadata(".git") {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Err(not_a_repository()),
        Err(e) => return Err(unreadable(&e)),
    };
    let git = if meta.is_symlink() {
        return Err(outside(".git is a link; links are never followed"));
    } else if meta.is_dir() {
        PathBuf::from(".git")
    } else if meta.is_file() {
        let said = small_file(root, Path::new(".git"))?;
        let named = said
            .trim()
            .strip_prefix("gitdir:")
            .ok_or_else(|| outside(".git is a file that names no git folder"))?;
        inside(Path::new(""), named.trim())?
    } else {
        return Err(outside(".git is neither a folder nor a file"));
    };
    let git_dir = open_nofollow(root, &git)?;
    if let Some(common) = optional_file(&git_dir, "commondir")? {
        // A worktree's git folder borrows the main one's objects and refs.
        let common = inside(&git, common.trim())?;
        open_nofollow(root, &common)?;
        check_links(root, &common)?;
    }
    check_links(root, &git)?;
    Ok(git)
}

/// `said` (absolute, or relative to `base` inside the root) as a path
/// relative to the root, or the refusal of one that leaves it.
fn inside(base: &Path, said: &str) -> Result<PathBuf, Refusal> {
    let leaves = || {
        outside(&format!(
            "the repository's git folder `{said}` is outside your folder"
        ))
    };
    let said = Path::new(said);
    if said.is_absolute() {
        // The root's own real path is not known to its handle; an absolute
        // gitdir is taken as leaving, whatever it names.
        return Err(leaves());
    }
    let mut rel = PathBuf::new();
    for part in base.join(said).components() {
        match part {
            Component::Normal(name) => rel.push(name),
            Component::CurDir => {}
            Component::ParentDir => {
                if !rel.pop() {
                    return Err(leaves());
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err(leaves()),
        }
    }
    match rel.as_os_str().is_empty() {
        true => Err(leaves()),
        false => Ok(rel),
    }
}

/// Opens `rel` as a folder, refusing a link at any step on the way.
fn open_nofollow(root: &Dir, rel: &Path) -> Result<Dir, Refusal> {
    let mut dir = root.try_clone().map_err(|e| unreadable(&e))?;
    for part in rel.components() {
        let meta = dir.symlink_metadata(part).map_err(|e| match e.kind() {
            ErrorKind::NotFound => outside(&format!(
                "the repository's git folder `{}` is missing",
                rel.display()
            )),
            _ => unreadable(&e),
        })?;
        if meta.is_symlink() {
            return Err(outside(&format!(
                "`{}` on the way to the git folder is a link; links are never followed",
                part.as_os_str().to_string_lossy()
            )));
        }
        if !meta.is_dir() {
            return Err(outside(&format!("`{}` is not a git folder", rel.display())));
        }
        dir = dir.open_dir(part).map_err(|e| unreadable(&e))?;
    }
    Ok(dir)
}

/// Walks the git folder: a link anywhere in it, or objects borrowed from
/// another place (`objects/info/alternates`), refuses the whole repository.
fn check_links(root: &Dir, git: &Path) -> Result<(), Refusal> {
    let top = open_nofollow(root, git)?;
    if let Some(alternates) = optional_file(&top, "objects/info/alternates")?
        && !alternates.trim().is_empty()
    {
        return Err(outside(
            "the repository borrows objects from another place (objects/info/alternates)",
        ));
    }
    let mut stack = vec![(top, git.to_path_buf())];
    let mut seen = 0usize;
    while let Some((dir, at)) = stack.pop() {
        for entry in dir.entries().map_err(|e| unreadable(&e))? {
            let entry = entry.map_err(|e| unreadable(&e))?;
            seen += 1;
            if seen > MAX_GIT_ENTRIES {
                return Err(Refusal::new(
                    Rule::TooLarge,
                    format!(
                        "the repository has more than {MAX_GIT_ENTRIES} files in its git folder; pack it (`git gc`) and ask again"
                    ),
                ));
            }
            let kind = entry.file_type().map_err(|e| unreadable(&e))?;
            let name = entry.file_name();
            if kind.is_symlink() {
                return Err(outside(&format!(
                    "`{}` in the git folder is a link; links are never followed",
                    at.join(&name).display()
                )));
            }
            if kind.is_dir() {
                let sub = entry.open_dir().map_err(|e| unreadable(&e))?;
                stack.push((sub, at.join(name)));
            }
        }
    }
    Ok(())
}

/// A small file of `dir`, or `None` when there is none.
fn optional_file(dir: &Dir, name: &str) -> Result<Option<String>, Refusal> {
    match dir.symlink_metadata(name) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(unreadable(&e)),
        Ok(meta) if meta.is_symlink() => Err(outside(&format!(
            "`{name}` in the git folder is a link; links are never followed"
        ))),
        Ok(_) => small_file(dir, Path::new(name)).map(Some),
    }
}

fn small_file(dir: &Dir, name: &Path) -> Result<String, Refusal> {
    let file = dir.open(name).map_err(|e| unreadable(&e))?;
    let mut text = String::new();
    file.take(MAX_GITDIR_FILE)
        .read_to_string(&mut text)
        .map_err(|e| unreadable(&e))?;
    Ok(text)
}

pub fn not_a_repository() -> Refusal {
    Refusal::new(
        Rule::NotARepository,
        "your folder is not a git repository (it has no .git of its own), so it has no history to read; to start one, run `git init` in the folder and commit",
    )
}

fn outside(why: &str) -> Refusal {
    Refusal::new(
        Rule::RepositoryOutside,
        format!("{why}: nothing of the repository was read; keep it inside your folder"),
    )
}

pub fn unreadable(e: &dyn std::fmt::Display) -> Refusal {
    Refusal::new(
        Rule::StorageFailed,
        format!("your folder's git repository could not be read ({e})"),
    )
}
