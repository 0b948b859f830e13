//! The folder's own git repository, read without running git: repositories
//! the test builds with gitoxide (commits, a rename, a binary file, a
//! detached HEAD, 10,000 commits), and the controls beside them (no
//! repository; a `.git` that leads outside, or holds a link, refused by
//! name). Every look is audited like any other.

use gix::ObjectId;
use serde_json::{Value, json};
use std::os::unix::fs::symlink;
use std::path::Path;
use tempfile::TempDir;
use voicebox_core::audit::page::PageRequest;
use voicebox_core::history::{ChangeKind, MAX_WALK};
use voicebox_core::tier::ActKind;
use voicebox_core::{Reply, Rule};
use voicebox_machine::Host;

mod repo;
use repo::Repo;

fn now_secs() -> i64 {
    (voicebox_machine::env::now_ms() / 1000) as i64
}

const DAY: i64 = 86_400;

fn host(root: &Path) -> Host {
    let mut host = Host::new("t", ());
    host.declare(root).unwrap();
    host
}

fn run(host: &mut Host, action: Value) -> Reply {
    host.execute(&action, Some("t"))
}

fn refused(reply: &Reply) -> Rule {
    reply
        .refused
        .unwrap_or_else(|| panic!("expected a refusal, got {reply:?}"))
}

/// The audit entry that records `reply`.
fn entry(host: &Host, reply: &Reply) -> voicebox_core::audit::Entry {
    let seq = reply.logged.expect("the answer was logged");
    let page = host.audit(&PageRequest::first(500)).unwrap();
    page.entries.into_iter().find(|e| e.seq == seq).unwrap()
}

/// A repository with one commit of a note, a file to remove, one to
/// rename and a binary file; then the folder changed by hand.
fn changed_folder() -> (TempDir, Repo) {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut repo = Repo::init(root);
    repo.commit(
        root,
        &[
            ("notes.md", b"milk\neggs\n"),
            ("old.md", b"gone soon\n"),
            ("plans/trip.md", b"pack\nfly\n"),
            ("scan.png", &[0x89, b'P', b'N', b'G', 0, 1, 2]),
        ],
        "Start the notes",
        now_secs() - 3 * DAY,
    );
    std::fs::write(root.join("notes.md"), "milk\nbread\nbutter\n").unwrap();
    std::fs::remove_file(root.join("old.md")).unwrap();
    std::fs::rename(root.join("plans/trip.md"), root.join("plans/holiday.md")).unwrap();
    std::fs::write(root.join("ideas.md"), "one\ntwo\n").unwrap();
    std::fs::write(root.join("scan.png"), [0x89, b'P', b'N', b'G', 0, 9]).unwrap();
    (dir, repo)
}

#[test]
fn changes_name_each_file_with_its_lines_and_the_look_is_audited() {
    let (dir, _repo) = changed_folder();
    let mut host = host(dir.path());
    let reply = run(&mut host, json!({"verb": "changes"}));
    assert!(reply.ok, "{reply:?}");
    let files = reply.changes.clone().unwrap();
    let seen: Vec<(&str, ChangeKind, usize, usize, bool)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.kind, f.added, f.removed, f.binary))
        .collect();
    assert_eq!(
        seen,
        [
            ("ideas.md", ChangeKind::Added, 2, 0, false),
            ("notes.md", ChangeKind::Modified, 2, 1, false),
            ("old.md", ChangeKind::Removed, 0, 1, false),
            ("plans/holiday.md", ChangeKind::Renamed, 0, 0, false),
            ("scan.png", ChangeKind::Modified, 0, 0, true),
        ]
    );
    assert_eq!(files[3].from.as_deref(), Some("plans/trip.md"));
    // The host's own folders (.git, .audit, .voicebox) are no change.
    assert_eq!(reply.total, Some(5));
    let said = reply.words.clone().unwrap();
    assert!(
        said.starts_with("5 files changed since the last commit: ideas.md (new, 2 lines added)"),
        "{said}"
    );
    assert_eq!(reply.commit.as_ref().unwrap().message, "Start the notes");
    assert_eq!(reply.branch.as_deref(), Some("main"));

    let look = entry(&host, &reply);
    assert_eq!(look.act.kind, ActKind::Read);
    assert_eq!(look.act.tool.as_deref(), Some("history"));
    assert_eq!(look.rule, Some(Rule::ReadsInside));
    assert!(!dir.path().join(".git/index.lock").exists());
}

#[test]
fn since_a_day_compares_with_the_newest_commit_before_it() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut repo = Repo::init(root);
    repo.commit(root, &[("notes.md", b"one\n")], "Old", now_secs() - 3 * DAY);
    repo.commit(root, &[("notes.md", b"one\ntwo\n")], "Today", now_secs());
    let mut host = host(root);

    // Against the last commit nothing changed; since today, today's commit did.
    let last = run(&mut host, json!({"verb": "changes"}));
    assert_eq!(last.total, Some(0), "{last:?}");
    assert_eq!(
        last.words.as_deref(),
        Some("Nothing has changed since the last commit.")
    );
    let today = run(&mut host, json!({"verb": "changes", "since": "today"}));
    assert_eq!(today.commit.as_ref().unwrap().message, "Old", "{today:?}");
    assert_eq!(today.changes.as_ref().unwrap()[0].added, 1);

    // As it was yesterday: the old commit's copy, with no sha256 to save against.
    let then = run(
        &mut host,
        json!({"verb": "read", "name": "notes.md", "at": "yesterday"}),
    );
    assert_eq!(then.content.as_deref(), Some("one\n"), "{then:?}");
    assert_eq!(then.sha256, None);
    assert!(
        then.words
            .as_deref()
            .unwrap()
            .starts_with("As of “Old” by Ana on ")
    );
    let words = run(
        &mut host,
        json!({"verb": "changes", "since": "next blue moon"}),
    );
    assert_eq!(refused(&words), Rule::MalformedField);
}

#[test]
fn history_names_the_commits_that_touched_a_file_and_a_restore_is_an_undoable_write() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut repo = Repo::init(root);
    let start = now_secs() - 10 * DAY;
    repo.commit(root, &[("notes.md", b"a\n")], "First note", start);
    repo.commit(
        root,
        &[("notes.md", b"a\n"), ("todo.md", b"x\n")],
        "Add a list",
        start + 60,
    );
    repo.commit(
        root,
        &[("notes.md", b"a\nb\n"), ("todo.md", b"x\n")],
        "Second note",
        start + 120,
    );
    std::fs::write(root.join("notes.md"), "a\nB\n").unwrap();
    let mut host = host(root);

    let history = run(&mut host, json!({"verb": "history", "name": "notes.md"}));
    let messages: Vec<&str> = history
        .commits
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| c.message.as_str())
        .collect();
    assert_eq!(messages, ["Second note", "First note"], "{history:?}");
    assert_eq!(history.commits.as_ref().unwrap()[0].author, "Ana");
    let all = run(&mut host, json!({"verb": "history", "limit": 2}));
    assert_eq!(all.commits.as_ref().unwrap().len(), 2);
    assert_eq!(entry(&host, &all).act.tool.as_deref(), Some("history"));

    // What did I change since the last commit.
    let diff = run(
        &mut host,
        json!({"verb": "diff", "name": "notes.md", "against": "last commit"}),
    );
    assert!(
        diff.diff.as_deref().unwrap().contains("-b\n+B\n"),
        "{diff:?}"
    );
    let first = &history.commits.as_ref().unwrap()[1].id[..8];
    let old = run(
        &mut host,
        json!({"verb": "read", "name": "notes.md", "at": first}),
    );
    assert_eq!(old.content.as_deref(), Some("a\n"), "{old:?}");
    let neither = run(&mut host, json!({"verb": "diff", "name": "notes.md"}));
    assert_eq!(refused(&neither), Rule::MissingArgument);

    // Restoring is a write of the old content, checked against the file now.
    let now = run(&mut host, json!({"verb": "read", "name": "notes.md"}));
    let stale = run(
        &mut host,
        json!({"verb": "write", "name": "notes.md", "content": "a\n", "expect": "0".repeat(64)}),
    );
    assert_eq!(refused(&stale), Rule::ChangedSinceRead);
    let restore = run(
        &mut host,
        json!({"verb": "write", "name": "notes.md", "content": "a\n", "expect": now.sha256}),
    );
    assert!(restore.ok, "{restore:?}");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.md")).unwrap(),
        "a\n"
    );
    assert!(run(&mut host, json!({"verb": "undo"})).ok);
    assert_eq!(
        std::fs::read_to_string(root.join("notes.md")).unwrap(),
        "a\nB\n"
    );
}

#[test]
fn a_detached_head_is_read_as_its_commit_with_no_branch() {
    let (dir, repo) = changed_folder();
    let id = repo.parent.unwrap();
    std::fs::write(dir.path().join(".git/HEAD"), format!("{id}\n")).unwrap();
    let mut host = host(dir.path());
    let detached = run(&mut host, json!({"verb": "changes"}));
    assert_eq!(detached.branch, None, "{detached:?}");
    assert_eq!(detached.total, Some(5));
    assert_eq!(detached.commit.unwrap().id, id.to_string());

    // The control: on the branch, the answer names it.
    std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    let on_main = run(&mut host, json!({"verb": "changes"}));
    assert_eq!(on_main.branch.as_deref(), Some("main"));
}

#[test]
fn ten_thousand_commits_are_answered_within_the_bound_and_say_so() {
    let dir = TempDir::new().unwrap();
    let root = dir.path();
    let mut repo = Repo::init(root);
    let tree = repo.tree(&[("notes.md", b"same\n")]);
    std::fs::write(root.join("notes.md"), "same\n").unwrap();
    let start = now_secs() - 20_000;
    let mut last = ObjectId::null(gix::hash::Kind::Sha1);
    for n in 0..10_000 {
        last = repo.commit_tree(tree, &format!("Commit {n}"), start + n);
    }
    repo.point_head(last);
    let mut host = host(root);

    let newest = run(&mut host, json!({"verb": "history"}));
    assert_eq!(newest.commits.as_ref().unwrap().len(), 10, "{newest:?}");
    assert_eq!(newest.commits.as_ref().unwrap()[0].message, "Commit 9999");

    // No commit after the first touched notes.md: the walk stops at the bound.
    let touched = run(&mut host, json!({"verb": "history", "name": "notes.md"}));
    assert_eq!(touched.commits.as_ref().unwrap().len(), 0, "{touched:?}");
    assert_eq!(touched.truncated, Some(true));
    let bound = format!("(looked through the newest {MAX_WALK} commits only)");
    assert!(touched.words.as_deref().unwrap().contains(&bound));
    let first = run(&mut host, json!({"verb": "changes", "since": "0000000"}));
    assert_eq!(refused(&first), Rule::NotFound);
    assert!(
        first.why.as_deref().unwrap().contains("among the newest"),
        "{first:?}"
    );
}

#[test]
fn a_folder_with_no_repository_is_refused_by_name_and_audited() {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("notes.md"), "x\n").unwrap();
    let mut host = host(dir.path());
    let reply = run(&mut host, json!({"verb": "changes"}));
    assert_eq!(refused(&reply), Rule::NotARepository);
    assert!(reply.why.as_deref().unwrap().contains("git init"));
    assert_eq!(entry(&host, &reply).failed, Some(Rule::NotARepository));
    // The control: the same folder made a repository answers.
    Repo::init(dir.path());
    let reply = run(&mut host, json!({"verb": "changes"}));
    assert!(reply.ok, "{reply:?}");
    assert_eq!(reply.changes.unwrap()[0].kind, ChangeKind::Added);
}

#[test]
fn a_git_folder_that_leads_outside_is_refused_and_one_inside_is_read() {
    let parent = TempDir::new().unwrap();
    let elsewhere = parent.path().join("elsewhere");
    let mut outer = Repo::init(&elsewhere);
    outer.commit(
        &elsewhere,
        &[("secret.md", b"not yours\n")],
        "Secret",
        now_secs(),
    );
    let root = parent.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("notes.md"), "x\n").unwrap();
    let mut host = host(&root);
    let changes = json!({"verb": "changes"});

    // `.git` a link to a repository outside.
    symlink(elsewhere.join(".git"), root.join(".git")).unwrap();
    let reply = run(&mut host, changes.clone());
    assert_eq!(refused(&reply), Rule::RepositoryOutside, "{reply:?}");
    std::fs::remove_file(root.join(".git")).unwrap();

    // A `.git` file naming a git folder outside (as a worktree's does).
    for named in ["../elsewhere/.git", "/tmp", "inner/../../elsewhere/.git"] {
        std::fs::write(root.join(".git"), format!("gitdir: {named}\n")).unwrap();
        let reply = run(&mut host, changes.clone());
        assert_eq!(
            refused(&reply),
            Rule::RepositoryOutside,
            "{named}: {reply:?}"
        );
        assert!(!reply.why.unwrap().contains("not yours"));
    }

    // The control: a `.git` file naming a git folder inside the root.
    std::fs::rename(elsewhere.join(".git"), root.join("inner.git")).unwrap();
    std::fs::write(root.join(".git"), "gitdir: inner.git\n").unwrap();
    let reply = run(&mut host, json!({"verb": "history"}));
    assert!(reply.ok, "{reply:?}");
    assert_eq!(reply.commits.unwrap()[0].message, "Secret");

    // A link anywhere inside the git folder refuses the whole repository.
    symlink(&elsewhere, root.join("inner.git/refs/outside")).unwrap();
    let reply = run(&mut host, json!({"verb": "history"}));
    assert_eq!(refused(&reply), Rule::RepositoryOutside);
    std::fs::remove_file(root.join("inner.git/refs/outside")).unwrap();

    // Objects borrowed from another place are refused too.
    std::fs::create_dir_all(root.join("inner.git/objects/info")).unwrap();
    std::fs::write(
        root.join("inner.git/objects/info/alternates"),
        format!("{}\n", elsewhere.display()),
    )
    .unwrap();
    let reply = run(&mut host, json!({"verb": "history"}));
    assert_eq!(refused(&reply), Rule::RepositoryOutside);
}
