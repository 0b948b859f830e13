//! Commits: the one a moment names, the ones that touched a file, and a
//! file as a commit holds it. Every walk is newest first by commit time and
//! stops at [`MAX_WALK`] commits.

use super::open::unreadable;
use gix::revision::walk::Sorting;
use gix::traverse::commit::simple::CommitTimeOrder;
use gix::{ObjectId, Repository};
use voicebox_core::history::{self, History, MAX_MESSAGE_CHARS, MAX_WALK, Moment};
use voicebox_core::platform::MAX_FILE_BYTES;
use voicebox_core::rule::{Refusal, Rule};

/// The commit checked out, or `None` before the first.
pub fn head(repo: &Repository) -> Result<Option<gix::Commit<'_>>, Refusal> {
    let mut head = repo.head().map_err(|e| unreadable(&e))?;
    if head.is_unborn() {
        return Ok(None);
    }
    head.peel_to_commit().map(Some).map_err(|e| unreadable(&e))
}

/// The commits from HEAD, newest first, at most [`MAX_WALK`] of them; the
/// flag says the walk stopped there with history left.
fn walk<'r>(
    repo: &'r Repository,
    from: ObjectId,
    mut each: impl FnMut(gix::revision::walk::Info<'r>) -> Result<bool, Refusal>,
) -> Result<bool, Refusal> {
    let walk = repo
        .rev_walk([from])
        .sorting(Sorting::ByCommitTime(CommitTimeOrder::NewestFirst))
        .all()
        .map_err(|e| unreadable(&e))?;
    for (n, info) in walk.enumerate() {
        if n == MAX_WALK {
            return Ok(true);
        }
        if !each(info.map_err(|e| unreadable(&e))?)? {
            break;
        }
    }
    Ok(false)
}

/// The commit `moment` names (`None`: there was none yet then), and
/// whether the walk for it stopped at [`MAX_WALK`].
pub fn at<'r>(
    repo: &'r Repository,
    moment: &Moment,
) -> Result<(Option<gix::Commit<'r>>, bool), Refusal> {
    let Some(head) = head(repo)? else {
        return Ok((None, false));
    };
    let mut found: Option<ObjectId> = None;
    let bounded = match moment {
        Moment::Head => return Ok((Some(head), false)),
        Moment::Commit(prefix) => walk(repo, head.id, |info| {
            let hit = info.id.to_hex().to_string().starts_with(prefix.as_str());
            if hit {
                found = Some(info.id);
            }
            Ok(!hit)
        })?,
        Moment::Time(ms) => {
            let seconds = i64::try_from(ms / 1000).unwrap_or(i64::MAX);
            walk(repo, head.id, |info| {
                let time = match info.commit_time {
                    Some(time) => time,
                    None => commit_seconds(&info.object().map_err(|e| unreadable(&e))?)?,
                };
                if time <= seconds {
                    found = Some(info.id);
                }
                Ok(found.is_none())
            })?
        }
    };
    if let (Moment::Commit(prefix), None) = (moment, found) {
        let among = match bounded {
            true => format!(" among the newest {MAX_WALK}"),
            false => String::new(),
        };
        return Err(Refusal::new(
            Rule::NotFound,
            format!(
                "no commit's id starts with `{prefix}`{among}; ask for the history to see the ids"
            ),
        ));
    }
    let commit = found
        .map(|id| repo.find_commit(id).map_err(|e| unreadable(&e)))
        .transpose()?;
    Ok((commit, bounded))
}

/// The newest commits (at most `limit`) that touched `name`, or any.
pub fn history(repo: &Repository, name: Option<&str>, limit: usize) -> Result<History, Refusal> {
    let Some(head) = head(repo)? else {
        return Ok(History::default());
    };
    let (mut commits, mut walked) = (Vec::new(), 0);
    let bounded = walk(repo, head.id, |info| {
        walked += 1;
        let commit = info.object().map_err(|e| unreadable(&e))?;
        let touched = match name {
            None => true,
            Some(name) => {
                let now = entry_id(&commit, name)?;
                let before = match commit.parent_ids().next() {
                    Some(parent) => {
                        let parent = parent.object().map_err(|e| unreadable(&e))?;
                        entry_id(&parent.into_commit(), name)?
                    }
                    None => None,
                };
                now != before
            }
        };
        if touched {
            commits.push(described(&commit)?);
        }
        Ok(commits.len() < limit)
    })?;
    Ok(History {
        commits,
        walked,
        bounded,
    })
}

/// The id of what `commit` holds at `name`, if anything.
fn entry_id(commit: &gix::Commit<'_>, name: &str) -> Result<Option<ObjectId>, Refusal> {
    let tree = commit.tree().map_err(|e| unreadable(&e))?;
    let entry = tree
        .lookup_entry_by_path(name)
        .map_err(|e| unreadable(&e))?;
    Ok(entry.map(|e| e.object_id()))
}

/// The bytes of the file `name` in `commit`; `None` when it holds no file
/// there (nothing, a folder, a link or a submodule).
pub fn blob_at(commit: &gix::Commit<'_>, name: &str) -> Result<Option<Vec<u8>>, Refusal> {
    let tree = commit.tree().map_err(|e| unreadable(&e))?;
    let Some(entry) = tree
        .lookup_entry_by_path(name)
        .map_err(|e| unreadable(&e))?
    else {
        return Ok(None);
    };
    if !entry.mode().is_blob() {
        return Ok(None);
    }
    let repo = commit.repo();
    let size = repo
        .find_header(entry.object_id())
        .map_err(|e| unreadable(&e))?
        .size();
    if size > MAX_FILE_BYTES {
        return Err(Refusal::new(
            Rule::TooLarge,
            format!("`{name}` was {size} bytes then; only files up to 1 MiB are read"),
        ));
    }
    let blob = repo
        .find_object(entry.object_id())
        .map_err(|e| unreadable(&e))?;
    Ok(Some(blob.detach().data))
}

/// A commit as answers show it.
pub fn described(commit: &gix::Commit<'_>) -> Result<history::Commit, Refusal> {
    let author = commit.author().map_err(|e| unreadable(&e))?;
    let message = commit.message_raw_sloppy().to_string();
    let first = message.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    Ok(history::Commit {
        id: commit.id.to_hex().to_string(),
        author: author.name.to_string(),
        time_ms: u64::try_from(commit_seconds(commit)?).unwrap_or(0) * 1000,
        message: first.trim().chars().take(MAX_MESSAGE_CHARS).collect(),
    })
}

fn commit_seconds(commit: &gix::Commit<'_>) -> Result<i64, Refusal> {
    commit.time().map(|t| t.seconds).map_err(|e| unreadable(&e))
}

pub fn no_commit_then() -> Refusal {
    Refusal::new(
        Rule::NotFound,
        "your folder's repository had no commit yet then; ask what changed instead",
    )
}
