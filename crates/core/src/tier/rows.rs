//! The rows of the tier table, as data: each with its decision, its reason and
//! the example acts it must and must not match.

use super::Decision;
use super::act::{Act, ActKind, PersonAct, Place, at};
use crate::rule::Rule;
use ActKind::*;
use Place::*;

/// How a rule recognises an act: data, not a closure, so the table can be shown.
#[derive(Clone, Copy, Debug)]
pub enum Matcher {
    Place(Place),
    Kinds(&'static [ActKind]),
    NotEnforced,
    /// A network act inside an admitted extension's bounds.
    BoundedEgress,
    /// Anything that reaches out, except a network act inside admitted bounds.
    LeavesPlacement,
    /// The person's own decision at the host.
    ByPerson(PersonAct),
    /// A create that would replace an existing file.
    Replaces,
    /// A move or copy that would replace an existing file.
    MovesOver,
    /// A change heard by a recogniser that can mishear.
    HeardChange,
    /// A change the resolver guessed at from words it was not sure of.
    GuessedChange,
}

/// One row of the tier table.
#[derive(Debug)]
pub struct TierRule {
    pub rule: Rule,
    pub decision: Decision,
    pub why: &'static str,
    pub matcher: Matcher,
    /// Acts this rule must match (checked at load).
    pub matches: &'static [Act],
    /// Acts this rule must not match (checked at load).
    pub not_matches: &'static [Act],
}

pub(super) static COMMON_RULES: [TierRule; 16] = [
    TierRule {
        rule: Rule::OutsideRoot,
        decision: Decision::Refuse,
        why: "only the chosen folder may be touched",
        matcher: Matcher::Place(OutsideRoot),
        matches: &[at(Write, OutsideRoot), at(Read, OutsideRoot)],
        not_matches: &[at(Write, Inside), at(Write, LinkOut)],
    },
    TierRule {
        rule: Rule::SymlinkOut,
        decision: Decision::Refuse,
        why: "a link whose target is outside the chosen folder",
        matcher: Matcher::Place(LinkOut),
        matches: &[at(Write, LinkOut), at(Read, LinkOut)],
        not_matches: &[at(Write, Inside)],
    },
    TierRule {
        rule: Rule::EvalPath,
        decision: Decision::Refuse,
        why: "eval is not a tool path",
        matcher: Matcher::Kinds(&[Eval]),
        matches: &[at(Eval, Inside)],
        not_matches: &[at(Exec, Inside), at(Write, Inside)],
    },
    TierRule {
        rule: Rule::AbsentCapability,
        decision: Decision::Refuse,
        why: "this placement has no mechanism for this kind of act",
        matcher: Matcher::NotEnforced,
        matches: &[at(Exec, Inside)],
        not_matches: &[at(Read, Inside), at(Write, Inside), at(Delete, Inside)],
    },
    TierRule {
        rule: Rule::WritesInside,
        decision: Decision::Allow,
        why: "inside the project, reported, revertible",
        matcher: Matcher::Kinds(&[Write]),
        matches: &[at(Write, Inside)],
        not_matches: &[at(Read, Inside), at(Delete, Inside)],
    },
    TierRule {
        rule: Rule::ReadsInside,
        decision: Decision::Allow,
        why: "reading a project's own files",
        matcher: Matcher::Kinds(&[Read]),
        matches: &[at(Read, Inside)],
        not_matches: &[at(Write, Inside)],
    },
    TierRule {
        rule: Rule::AdmittedEgress,
        decision: Decision::Allow,
        why: "inside the hosts and request budget a person admitted for this extension",
        matcher: Matcher::BoundedEgress,
        matches: &[Act::bounded_egress()],
        not_matches: &[at(Network, Inside), at(External, Inside)],
    },
    TierRule {
        rule: Rule::HeardChange,
        decision: Decision::Confirm,
        why: "offline voice heard this change, and it can mishear: check what was heard",
        matcher: Matcher::HeardChange,
        matches: &[Act::heard(Write), Act::heard(Delete)],
        not_matches: &[at(Write, Inside), Act::heard(Read)],
    },
    TierRule {
        rule: Rule::UnsureChange,
        decision: Decision::Confirm,
        why: "the words could mean something else: check the guess before anything changes",
        matcher: Matcher::GuessedChange,
        matches: &[Act::guessed(Write), Act::guessed(Delete)],
        not_matches: &[at(Write, Inside), Act::guessed(Read), Act::heard(Write)],
    },
    TierRule {
        rule: Rule::Delete,
        decision: Decision::Confirm,
        why: "a delete is asked first; undo brings the file back",
        matcher: Matcher::Kinds(&[Delete]),
        matches: &[at(Delete, Inside)],
        not_matches: &[at(Write, Inside), at(Read, Inside)],
    },
    TierRule {
        rule: Rule::CreateOverExisting,
        decision: Decision::Confirm,
        why: "you asked to create it, and a file by that name exists: creating it would replace what it holds",
        matcher: Matcher::Replaces,
        matches: &[Act::replacing()],
        not_matches: &[at(Write, Inside), at(Delete, Inside)],
    },
    TierRule {
        rule: Rule::MoveOverExisting,
        decision: Decision::Confirm,
        why: "a file by the new name exists: moving or copying there would replace what it holds",
        matcher: Matcher::MovesOver,
        matches: &[Act::moving_over()],
        not_matches: &[at(Write, Inside), Act::replacing(), at(Delete, Inside)],
    },
    TierRule {
        rule: Rule::AdmittedByPerson,
        decision: Decision::Allow,
        why: "the person admitted this extension at the host (shell, host token or console code)",
        matcher: Matcher::ByPerson(PersonAct::Admit),
        matches: &[Act::by_person(PersonAct::Admit)],
        not_matches: &[at(Import, Inside), Act::by_person(PersonAct::Revoke)],
    },
    TierRule {
        rule: Rule::RevokedByPerson,
        decision: Decision::Allow,
        why: "the person revoked this extension; it stops running at once",
        matcher: Matcher::ByPerson(PersonAct::Revoke),
        matches: &[Act::by_person(PersonAct::Revoke)],
        not_matches: &[at(Import, Inside), Act::by_person(PersonAct::Admit)],
    },
    TierRule {
        rule: Rule::WithdrawnByPerson,
        decision: Decision::Allow,
        why: "the person removed this proposal; it was never admitted and nothing of it runs",
        matcher: Matcher::ByPerson(PersonAct::Withdraw),
        matches: &[Act::by_person(PersonAct::Withdraw)],
        not_matches: &[at(Import, Inside), Act::by_person(PersonAct::Revoke)],
    },
    TierRule {
        rule: Rule::DeclaredByPerson,
        decision: Decision::Allow,
        why: "the person chose this folder to work in (at the host, or on the page and confirmed)",
        matcher: Matcher::ByPerson(PersonAct::Declare),
        matches: &[Act::by_person(PersonAct::Declare)],
        not_matches: &[at(Declare, Inside), Act::by_person(PersonAct::Admit)],
    },
];

/// The row that asks before an act leaves the placement: the same matcher
/// and examples on every placement, with its own rule and words.
const fn leaves(rule: Rule, why: &'static str) -> TierRule {
    const LEAVING: &[Act] = &[at(Network, Inside), at(External, Inside)];
    const STAYING: &[Act] = &[at(Import, Inside), at(Write, Inside), Act::bounded_egress()];
    TierRule {
        rule,
        decision: Decision::Confirm,
        why,
        matcher: Matcher::LeavesPlacement,
        matches: LEAVING,
        not_matches: STAYING,
    }
}

pub(super) static LEAVES_MACHINE: TierRule = leaves(
    Rule::LeavesMachine,
    "anything that reaches outside this machine",
);

pub(super) static LEAVES_BROWSER: TierRule = leaves(
    Rule::LeavesBrowser,
    "anything that reaches outside the origin",
);
