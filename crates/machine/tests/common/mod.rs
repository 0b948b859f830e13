//! The executor checks that must hold over every storage adapter (the root
//! is an injected interface). `adapter_checks!` stamps them out as
//! tests for one adapter; each test asserts on rule ids and on the world.
#![allow(dead_code)]

mod heard;
pub mod payloads;
mod verbs;

#[allow(unused_imports)] // used by `adapter_checks!`, not by every test crate
pub use heard::heard_changes_are_asked_first;
#[allow(unused_imports)] // used by `adapter_checks!`, not by every test crate
pub use verbs::*;

use serde_json::{Value, json};
use voicebox_core::audit::page::{MAX_LIMIT, PageRequest};
use voicebox_core::audit::{Entry, EntryDecision, EntryResult};
use voicebox_core::executor::Executor;
use voicebox_core::platform::Storage;
use voicebox_core::{Reply, Rule};
use voicebox_machine::MachineEnv;

/// An executor over one adapter, and a way to look at that adapter's world
/// without going through the executor.
pub struct Rig<S: Storage> {
    pub ex: Executor<S, MachineEnv>,
    pub world: fn(&S, &str) -> Option<Vec<u8>>,
}

impl<S: Storage> Rig<S> {
    pub fn run(&mut self, action: Value) -> Reply {
        pollster::block_on(self.ex.execute(&action, Some("t")))
    }

    /// Runs `action` and asserts it was done; answers the reply.
    pub fn done(&mut self, action: Value) -> Reply {
        let reply = self.run(action);
        assert!(reply.ok, "{reply:?}");
        reply
    }

    /// Runs `action` and asserts it is refused by `rule`.
    pub fn assert_refused(&mut self, action: Value, rule: Rule) {
        let reply = self.run(action.clone());
        assert_eq!(refused(&reply), rule, "{action}");
    }

    pub fn confirm(&mut self, id: &str, yes: bool) -> Reply {
        pollster::block_on(self.ex.confirm(id, yes))
    }

    /// Every entry, oldest first (the audit pages newest first).
    pub fn entries(&self) -> Vec<Entry> {
        let page = PageRequest::first(MAX_LIMIT);
        let mut entries = pollster::block_on(self.ex.audit(&page)).unwrap().entries;
        entries.reverse();
        entries
    }

    pub fn entry(&self, seq: Option<u64>) -> Entry {
        let seq = seq.expect("the answer was logged");
        self.entries().into_iter().find(|e| e.seq == seq).unwrap()
    }

    /// Says yes to the ask `asked` and checks the act it does names that ask.
    pub fn yes_to(&mut self, asked: &Reply) -> Reply {
        let id = asked.confirm.as_ref().expect("an ask").id.clone();
        let yes = self.confirm(&id, true);
        assert!(yes.ok, "{yes:?}");
        assert_eq!(
            self.entry(self.entry(yes.logged).attempt).attempt,
            asked.logged,
            "the attempt names the ask"
        );
        yes
    }

    pub fn file(&self, path: &str) -> Option<String> {
        let storage = self.ex.storage().expect("a declared root");
        (self.world)(storage, path).map(|b| String::from_utf8(b).unwrap())
    }
}

pub fn write(name: &str, content: &str) -> Value {
    json!({"verb": "write", "name": name, "content": content})
}

pub fn refused(reply: &Reply) -> Rule {
    reply
        .refused
        .unwrap_or_else(|| panic!("expected a refusal, got {reply:?}"))
}

/// A host called `name` on the folder `root`.
pub fn host_on(name: &str, root: &std::path::Path) -> voicebox_machine::Host {
    let mut host = voicebox_machine::Host::new(name, ());
    host.declare(root).unwrap();
    host
}

/// Writes `content` to `name`, a path through a link in the root, and reads
/// it back by the same name: it lands in `real`, where the link leads.
pub fn written_through(
    host: &mut voicebox_machine::Host,
    name: &str,
    real: &std::path::Path,
    content: &str,
) {
    let wrote = host.execute(&write(name, content), None);
    assert!(wrote.ok, "{wrote:?}");
    assert_eq!(std::fs::read_to_string(real).unwrap(), content);
    let read = host.execute(&json!({"verb": "read", "name": name}), None);
    assert_eq!(read.content.as_deref(), Some(content));
}

/// Check 2: the tier table both ways, as audit entries.
pub fn tier_table_both_ways<S: Storage>(rig: &mut Rig<S>) {
    let ok = rig.done(write("inside.txt", "hi"));
    assert_eq!(ok.action.as_deref(), Some("wrote inside.txt (2 bytes)"));
    let outcome = rig.entry(ok.logged);
    assert_eq!(
        (outcome.decision, outcome.result),
        (EntryDecision::Allow, EntryResult::Ok)
    );
    assert_eq!(outcome.rule, Some(voicebox_core::Rule::WritesInside));
    let observed = outcome.observed.unwrap();
    assert!(observed.exists && observed.bytes == Some(2));
    let attempt = rig.entry(outcome.attempt);
    assert_eq!(
        (attempt.decision, attempt.result),
        (EntryDecision::Attempt, EntryResult::Pending)
    );

    let out = rig.run(write("../outside.txt", "hi"));
    assert_eq!(refused(&out), Rule::OutsideRoot);
    let entry = rig.entry(out.logged);
    assert_eq!(
        (entry.decision, entry.result),
        (EntryDecision::Refuse, EntryResult::Refused)
    );
    assert_eq!(entry.rule, Some(voicebox_core::Rule::OutsideRoot));
    assert_eq!(rig.file("inside.txt").as_deref(), Some("hi"));
}

/// Check 3: refusals carry the rule and a why that says what to do; the
/// allowed case sits beside them.
pub fn refusals_are_named<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("notes.md", "a")).ok);
    let cases = [
        (
            write("../../evil.sh", "x"),
            Rule::OutsideRoot,
            "outside your folder",
        ),
        (write(".env", "x"), Rule::DotfileRefused, "dot"),
        (write(".audit/x.jsonl", "x"), Rule::ProtectedAudit, "audit"),
        (
            json!({"verb":"write","name":"a.txt"}),
            Rule::MissingArgument,
            "content",
        ),
        (
            json!({"verb":"write","name":"a","content":"x","force":"w"}),
            Rule::UnknownField,
            "force",
        ),
        (
            json!({"verb":"write","name":"a","content":"x","mode":"w"}),
            Rule::MalformedField,
            "create",
        ),
        (
            json!({"verb":"read","name":"missing.txt"}),
            Rule::NotFound,
            "list the files",
        ),
    ];
    for (action, rule, words) in cases {
        let reply = rig.run(action.clone());
        assert_eq!(refused(&reply), rule, "{action}");
        let why = reply.why.clone().unwrap();
        assert!(why.contains(words), "{action}: {why}");
        assert_eq!(rig.entry(reply.logged).why.as_deref(), Some(why.as_str()));
    }
    assert!(rig.file(".env").is_none());
}

/// Check 4: `..` as a name is refused while a sibling name is accepted.
pub fn dot_dot_refused_sibling_accepted<S: Storage>(rig: &mut Rig<S>) {
    rig.assert_refused(write("..", "x"), Rule::OutsideRoot);
    rig.assert_refused(write("a/..", "x"), Rule::OutsideRoot);
    let sibling = rig.run(write("..a", "x"));
    assert_eq!(
        refused(&sibling),
        Rule::DotfileRefused,
        "a leading dot is a dotfile"
    );
    rig.done(write("a..", "x"));
    assert_eq!(rig.file("a..").as_deref(), Some("x"));
}

/// Reads, lists, edits, diffs and greps do what they say.
pub fn verbs_do_what_they_say<S: Storage>(rig: &mut Rig<S>) {
    assert!(
        rig.run(write("drafts/plan.md", "Buy milk\nTODO call Ann\n"))
            .ok
    );
    assert!(rig.run(write("empty.txt", "")).ok);
    assert_eq!(rig.file("empty.txt").as_deref(), Some(""));
    let read = rig.run(json!({"verb":"read","name":"drafts/plan.md"}));
    assert_eq!(read.content.as_deref(), Some("Buy milk\nTODO call Ann\n"));
    let entry = rig.entry(read.logged);
    assert_eq!(entry.read.unwrap()[0].bytes, 23);

    let list = rig.run(json!({"verb":"list"}));
    let names: Vec<String> = list.files.unwrap().into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["drafts", "empty.txt"], "dot entries are hidden");
    let sub = rig.run(json!({"verb":"list","dir":"drafts"}));
    assert_eq!(sub.files.unwrap()[0].name, "plan.md");
    rig.assert_refused(json!({"verb":"list","dir":"nope"}), Rule::NotFound);

    rig.done(json!({"verb":"edit","name":"drafts/plan.md","oldText":"milk","newText":"bread"}));
    assert_eq!(
        rig.file("drafts/plan.md").as_deref(),
        Some("Buy bread\nTODO call Ann\n")
    );
    let missing =
        rig.run(json!({"verb":"edit","name":"drafts/plan.md","oldText":"milk","newText":"x"}));
    assert_eq!(refused(&missing), Rule::PatternNotFound);
    assert!(rig.run(write("twice.txt", "a a")).ok);
    let twice = rig.run(json!({"verb":"edit","name":"twice.txt","oldText":"a","newText":"b"}));
    assert_eq!(refused(&twice), Rule::PatternNotUnique);
    assert_eq!(rig.file("twice.txt").as_deref(), Some("a a"));

    let diff = rig.run(json!({"verb":"diff","name":"twice.txt","content":"a b"}));
    assert_eq!(
        diff.diff.as_deref(),
        Some(
            "--- a/twice.txt\n+++ b/twice.txt\n@@ -1,1 +1,1 @@\n-a a\n\\ No newline at end of file\n+a b\n\\ No newline at end of file\n"
        )
    );
    assert_eq!(
        rig.file("twice.txt").as_deref(),
        Some("a a"),
        "diff never writes"
    );

    let grep = rig.run(json!({"verb":"grep","query":"todo"}));
    let matches = grep.matches.unwrap();
    assert_eq!(matches.len(), 1);
    assert_eq!(
        (matches[0].file.as_str(), matches[0].line),
        ("drafts/plan.md", 2)
    );
    assert_eq!(grep.truncated, Some(false));
    let none = rig.run(json!({"verb":"grep","query":"todo","dir":"nope"}));
    assert_eq!(refused(&none), Rule::NotFound);
}

/// Delete asks first; no keeps the file, yes removes it; ids answer once.
pub fn delete_asks_first<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("old.txt", "bye")).ok);
    let ask = rig.run(json!({"verb":"delete","name":"old.txt"}));
    assert!(!ask.ok);
    let request = ask.confirm.clone().expect("a pending confirmation");
    assert_eq!(request.rule, Rule::Delete);
    assert!(request.plan.contains("old.txt"));
    // The question in a person's words, whatever is answered or not.
    assert_eq!(
        [
            &request.question, &request.yes, &request.no, &request.expired
        ],
        [
            "Delete old.txt?",
            "Delete",
            "Cancel",
            "Timed out — nothing deleted."
        ]
    );
    let asked = rig.entry(ask.logged);
    assert_eq!(
        (asked.decision, asked.result),
        (EntryDecision::Confirm, EntryResult::Pending)
    );
    assert!(rig.file("old.txt").is_some(), "asking deletes nothing");

    let no = rig.confirm(&request.id, false);
    assert_eq!(refused(&no), Rule::Declined);
    assert_eq!(rig.entry(no.logged).attempt, ask.logged);
    assert_eq!(rig.file("old.txt").as_deref(), Some("bye"));
    assert_eq!(
        refused(&rig.confirm(&request.id, true)),
        Rule::ConfirmationUnknown
    );

    let again = rig.run(json!({"verb":"delete","name":"old.txt"}));
    let yes = rig.confirm(&again.confirm.unwrap().id, true);
    assert!(yes.ok, "{yes:?}");
    assert!(rig.file("old.txt").is_none());
    let outcome = rig.entry(yes.logged);
    assert!(!outcome.observed.unwrap().exists);
    assert_eq!(
        rig.entry(outcome.attempt).attempt,
        again.logged,
        "the attempt names the ask"
    );

    rig.assert_refused(json!({"verb":"delete","name":"old.txt"}), Rule::NotFound);
    // A folder is deleted only when empty (the notes verbs check the yes).
    assert!(rig.run(write("dir/x.txt", "x")).ok);
    rig.assert_refused(json!({"verb":"delete","name":"dir"}), Rule::FolderNotEmpty);
    assert_eq!(rig.file("dir/x.txt").as_deref(), Some("x"));
}

/// A write phrased as a create asks before replacing a file that exists (no
/// keeps it, yes replaces it); on a new file, and as a replace, it writes at
/// once, and the replace says what it replaced.
pub fn create_never_replaces_silently<S: Storage>(rig: &mut Rig<S>) {
    let create = |content: &str| json!({"verb": "write", "name": "notes.txt", "content": content, "mode": "create"});
    let made = rig.run(create("keep me"));
    assert_eq!(made.action.as_deref(), Some("wrote notes.txt (7 bytes)"));

    let ask = rig.run(create(""));
    let request = ask.confirm.clone().expect("a create over a file asks");
    assert_eq!(request.rule, Rule::CreateOverExisting);
    assert!(
        request.plan.contains("7 bytes") && request.plan.contains("undo"),
        "{}",
        request.plan
    );
    assert_eq!(
        rig.file("notes.txt").as_deref(),
        Some("keep me"),
        "asking writes nothing"
    );
    assert_eq!(refused(&rig.confirm(&request.id, false)), Rule::Declined);
    assert_eq!(rig.file("notes.txt").as_deref(), Some("keep me"));

    let again = rig.run(create("new"));
    rig.yes_to(&again);
    assert_eq!(rig.file("notes.txt").as_deref(), Some("new"));

    let replaced = rig.run(write("notes.txt", ""));
    assert_eq!(
        replaced.action.as_deref(),
        Some("replaced notes.txt (3 → 0 bytes); undo restores what it held")
    );
    assert!(rig.run(json!({"verb": "undo"})).ok);
    assert_eq!(rig.file("notes.txt").as_deref(), Some("new"));
}

/// A name that is not there is `not-found` with the close names offered,
/// and a far one with none.
pub fn not_found_offers_close_names<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("notes.txt", "x")).ok);
    let near = rig.run(json!({"verb": "read", "name": "notse.txt"}));
    assert_eq!(refused(&near), Rule::NotFound);
    assert!(
        near.why
            .as_deref()
            .unwrap()
            .contains("did you mean `notes.txt`"),
        "{near:?}"
    );
    let far = rig.run(json!({"verb": "read", "name": "budget.xlsx"}));
    assert_eq!(refused(&far), Rule::NotFound);
    assert!(
        !far.why.as_deref().unwrap().contains("did you mean"),
        "{far:?}"
    );
}

/// What an entry observed is what is there: a listed folder exists with its
/// entries counted (the root too), a read file has its size, a missing one
/// is absent.
pub fn observations_show_what_is_there<S: Storage>(rig: &mut Rig<S>) {
    assert!(rig.run(write("a.txt", "abc")).ok);
    assert!(rig.run(write("docs/b.txt", "b")).ok);
    let listed = rig.run(json!({"verb": "list"}));
    let seen = rig.entry(listed.logged).observed.unwrap();
    assert!(seen.exists && seen.dir, "{seen:?}");
    assert_eq!((seen.entries, seen.bytes), (Some(2), None));
    let sub = rig.run(json!({"verb": "list", "dir": "docs"}));
    assert_eq!(rig.entry(sub.logged).observed.unwrap().entries, Some(1));
    let read = rig.run(json!({"verb": "read", "name": "a.txt"}));
    let seen = rig.entry(read.logged).observed.unwrap();
    assert!(seen.exists && !seen.dir, "{seen:?}");
    assert_eq!((seen.entries, seen.bytes), (None, Some(3)));
    assert_eq!(rig.entry(read.logged).failed, None);
    // What went wrong is named beside the rule that allowed the look.
    let missing = rig.run(json!({"verb": "read", "name": "gone.txt"}));
    let entry = rig.entry(missing.logged);
    assert!(!entry.observed.unwrap().exists);
    assert_eq!(
        (entry.rule, entry.failed),
        (Some(Rule::ReadsInside), Some(Rule::NotFound))
    );
}

/// Append adds a line (making the file when missing), and undo takes it back.
pub fn append_adds_a_line_and_undo_takes_it_back<S: Storage>(rig: &mut Rig<S>) {
    let append = |content: &str| json!({"verb": "append", "name": "todo.txt", "content": content});
    assert!(rig.run(append("eggs")).ok);
    assert_eq!(rig.file("todo.txt").as_deref(), Some("eggs"));
    let added = rig.run(append("oat milk"));
    assert_eq!(
        added.action.as_deref(),
        Some("appended 8 bytes to todo.txt (4 → 13 bytes)")
    );
    assert_eq!(rig.file("todo.txt").as_deref(), Some("eggs\noat milk"));
    assert!(rig.run(json!({"verb": "undo"})).ok);
    assert_eq!(rig.file("todo.txt").as_deref(), Some("eggs"));
    rig.assert_refused(
        json!({"verb": "append", "name": "../x.txt", "content": "x"}),
        Rule::OutsideRoot,
    );
}

/// Undo reverts write, edit and delete, says what it did, and refuses to
/// clobber a file changed since.
pub fn undo_reverts_and_says_what<S: Storage>(rig: &mut Rig<S>) {
    rig.assert_refused(json!({"verb":"undo"}), Rule::NothingToUndo);
    assert!(rig.run(write("u.txt", "one")).ok);
    assert!(rig.run(write("u.txt", "two")).ok);
    let undo = rig.run(json!({"verb":"undo"}));
    assert_eq!(
        undo.action.as_deref(),
        Some("undid the write of u.txt: restored the previous content (3 bytes)")
    );
    assert_eq!(rig.file("u.txt").as_deref(), Some("one"));
    let undo = rig.run(json!({"verb":"undo"}));
    assert_eq!(
        undo.action.as_deref(),
        Some("undid the write of u.txt: removed it (it did not exist before)")
    );
    assert!(rig.file("u.txt").is_none());
    rig.assert_refused(json!({"verb":"undo"}), Rule::NothingToUndo);

    assert!(rig.run(write("d.txt", "keep me")).ok);
    let ask = rig.run(json!({"verb":"delete","name":"d.txt"}));
    assert!(rig.confirm(&ask.confirm.unwrap().id, true).ok);
    let undo = rig.run(json!({"verb":"undo"}));
    assert_eq!(
        undo.action.as_deref(),
        Some("undid the delete of d.txt: restored it (7 bytes)")
    );
    assert_eq!(rig.file("d.txt").as_deref(), Some("keep me"));
    let entry = rig.entry(undo.logged);
    assert_eq!(
        (entry.decision, entry.result),
        (EntryDecision::Allow, EntryResult::Ok)
    );

    assert!(rig.run(write("s.txt", "mine")).ok);
    // Someone else changes the file: undo must not overwrite their work.
    assert!(
        rig.run(json!({"verb":"edit","name":"s.txt","oldText":"mine","newText":"theirs"}))
            .ok
    );
    assert!(rig.run(json!({"verb":"undo"})).ok, "undoes the edit");
    assert_eq!(rig.file("s.txt").as_deref(), Some("mine"));
}

/// No root declared: every act answers root-not-declared, nothing is logged.
pub fn no_root_is_named<S: Storage>(rig: &mut Rig<S>) {
    let storage = rig.ex.undeclare().unwrap();
    let reply = rig.run(write("a.txt", "x"));
    assert_eq!(refused(&reply), Rule::RootNotDeclared);
    assert_eq!(reply.logged, None);
    let tools = rig.run(json!({"verb":"list_extensions"}));
    assert!(tools.ok, "answered without a root");
    rig.ex.declare(storage, "p@test");
    assert!(rig.run(write("a.txt", "x")).ok);
}

/// Stamps the adapter checks out as tests; `$make` builds a fresh rig.
#[macro_export]
macro_rules! adapter_checks {
    ($make:expr) => {
        $crate::adapter_checks!(@each $make;
            check_2_tier_table_both_ways => tier_table_both_ways,
            check_3_refusals_are_named => refusals_are_named,
            check_4_dot_dot_refused_sibling_accepted => dot_dot_refused_sibling_accepted,
            verbs_do_what_they_say => verbs_do_what_they_say,
            delete_asks_first => delete_asks_first,
            create_never_replaces_silently => create_never_replaces_silently,
            not_found_offers_close_names => not_found_offers_close_names,
            observations_show_what_is_there => observations_show_what_is_there,
            append_adds_a_line_and_undo_takes_it_back => append_adds_a_line_and_undo_takes_it_back,
            undo_reverts_and_says_what => undo_reverts_and_says_what,
            no_root_is_named => no_root_is_named,
            heard_changes_are_asked_first => heard_changes_are_asked_first,
            move_renames_and_undo_moves_it_back => move_renames_and_undo_moves_it_back,
            move_over_a_file_asks_first_and_undo_restores_both => move_over_a_file_asks_first_and_undo_restores_both,
            folders_move_whole_and_never_into_themselves => folders_move_whole_and_never_into_themselves,
            copy_makes_a_second_file_and_undo_removes_it => copy_makes_a_second_file_and_undo_removes_it,
            mkdir_makes_folders_and_empty_ones_are_deleted_after_asking => mkdir_makes_folders_and_empty_ones_are_deleted_after_asking,
            read_part_says_which_lines_of_how_many => read_part_says_which_lines_of_how_many,
            find_and_info_answer_about_names => find_and_info_answer_about_names,
            list_items_are_ticked_and_removed_by_their_words => list_items_are_ticked_and_removed_by_their_words,
            append_under_a_heading_goes_at_the_end_of_its_section => append_under_a_heading_goes_at_the_end_of_its_section,
            undo_of_one_file_leaves_the_others => undo_of_one_file_leaves_the_others,
            a_change_on_an_old_copy_is_refused => a_change_on_an_old_copy_is_refused,
        );
    };
    (@each $make:expr; $($test:ident => $check:ident,)*) => {
        $(
            #[test]
            fn $test() {
                common::$check(&mut $make());
            }
        )*
    };
}
