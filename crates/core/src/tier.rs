//! The tier table, as data: of every rule that matches an act, the strictest
//! decides (the first of them in table order names the rule); no match refuses.
//!
//! Like codex-rs `execpolicy`, the decision enum's ordering is the strictness
//! (`Allow < Confirm < Refuse`) and `decide` takes the `max()` over the
//! matching rows, so adding a row can only make an act stricter, never let
//! one through that another row refuses. Every rule carries example acts that
//! must and must not match it, checked whenever a table is loaded.
//!
//! Rules the design keeps as comments, not code: credentials and
//! system commands are structurally satisfied — there is no process to spawn and
//! no `~/.ssh` inside a root — so nobody should re-add them as rows.

use crate::rule::Rule;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// What an act does to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActKind {
    Read,
    Write,
    Delete,
    Exec,
    Network,
    Import,
    Eval,
    External,
    /// Choosing the root itself (only ever a person's act).
    Declare,
}

impl ActKind {
    pub fn wire(self) -> &'static str {
        match self {
            ActKind::Read => "read",
            ActKind::Write => "write",
            ActKind::Delete => "delete",
            ActKind::Exec => "exec",
            ActKind::Network => "network",
            ActKind::Import => "import",
            ActKind::Eval => "eval",
            ActKind::External => "external",
            ActKind::Declare => "declare",
        }
    }
}

/// Where the act's target lies, as containment found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Inside,
    OutsideRoot,
    LinkOut,
}

/// A decision the person made at the host about an extension, or their
/// choice of the folder to work in, recorded as an act of its own (who
/// vouched is the entry's `tool`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersonAct {
    Admit,
    Revoke,
    /// Removing a proposal that was never admitted.
    Withdraw,
    Declare,
}

/// A resolved act, the input to [`TierTable::decide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Act {
    pub kind: ActKind,
    pub place: Place,
    /// Within the hosts and budget a person admitted for an extension.
    pub bounded: bool,
    /// The person's own decision, when the act is one.
    pub person: Option<PersonAct>,
    /// A write the person asked for as a new file would replace one that exists.
    pub replaces: bool,
    /// A move or copy would replace a file at its new name.
    pub moves_over: bool,
    /// The act was heard by a recogniser that can mishear (offline voice).
    pub heard: bool,
    /// The act is the resolver's best guess at words it was not sure of.
    pub guessed: bool,
}

impl Act {
    pub const fn inside(kind: ActKind) -> Act {
        at(kind, Place::Inside)
    }

    /// A network act within an admitted extension's declared bounds.
    pub const fn bounded_egress() -> Act {
        Act {
            bounded: true,
            ..at(ActKind::Network, Place::Inside)
        }
    }

    /// A move or copy onto a file that exists: it would be replaced.
    pub const fn moving_over() -> Act {
        Act {
            moves_over: true,
            ..at(ActKind::Write, Place::Inside)
        }
    }

    /// Creating a file where one exists: the write would replace it.
    pub const fn replacing() -> Act {
        Act {
            replaces: true,
            ..at(ActKind::Write, Place::Inside)
        }
    }

    /// A change the offline recogniser heard (it may have misheard).
    pub const fn heard(kind: ActKind) -> Act {
        Act {
            heard: true,
            ..at(kind, Place::Inside)
        }
    }

    /// A change read from words the resolver was not sure of.
    pub const fn guessed(kind: ActKind) -> Act {
        Act {
            guessed: true,
            ..at(kind, Place::Inside)
        }
    }

    /// The person admitting or revoking an extension (an import decision),
    /// or choosing the folder to work in.
    pub const fn by_person(act: PersonAct) -> Act {
        let kind = match act {
            PersonAct::Admit | PersonAct::Revoke | PersonAct::Withdraw => ActKind::Import,
            PersonAct::Declare => ActKind::Declare,
        };
        Act {
            person: Some(act),
            ..at(kind, Place::Inside)
        }
    }
}

/// The decision, which is the tier: `Allow` is tier 1 (act and report),
/// `Confirm` tier 2 (ask the person first), `Refuse` tier 0. The ordering is
/// the strictness: the strictest matching rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Confirm,
    Refuse,
}

/// Which placement a table is for; each declares the act kinds it can enforce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    Machine,
    Browser,
}

impl Placement {
    /// The kinds this placement has a mechanism for. `exec` and `eval` are absent
    /// in both: there is no process to spawn and eval is not a tool path.
    pub fn enforces(self, kind: ActKind) -> bool {
        let kinds: &[ActKind] = match self {
            // cap-std handle scope, wasmi import boundary, the egress bounds.
            // Declare: the folder a person chose, opened as the one handle.
            Placement::Machine => &[Read, Write, Delete, Network, Import, External, Declare],
            // OPFS / picked-handle scope, WebAssembly imports, the egress
            // bounds; Declare: the project or folder the person opened.
            Placement::Browser => &[Read, Write, Delete, Network, Import, External, Declare],
        };
        kinds.contains(&kind)
    }

    pub fn wire(self) -> &'static str {
        match self {
            Placement::Machine => "machine",
            Placement::Browser => "browser",
        }
    }
}

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

/// What the table decided, with the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub decision: Decision,
    pub rule: Rule,
    pub why: &'static str,
}

pub const fn at(kind: ActKind, place: Place) -> Act {
    Act {
        kind,
        place,
        bounded: false,
        person: None,
        replaces: false,
        moves_over: false,
        heard: false,
        guessed: false,
    }
}

use ActKind::*;
use Place::*;

static COMMON_RULES: [TierRule; 16] = [
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

static LEAVES_MACHINE: TierRule = leaves(
    Rule::LeavesMachine,
    "anything that reaches outside this machine",
);

static LEAVES_BROWSER: TierRule = leaves(
    Rule::LeavesBrowser,
    "anything that reaches outside the origin",
);

/// The tier table of one placement.
#[derive(Debug)]
pub struct TierTable {
    placement: Placement,
    rules: Vec<&'static TierRule>,
}

impl TierTable {
    /// Loads the table for a placement and checks every rule's examples:
    /// each `matches` act must be matched by that rule, each `not_matches` act
    /// must not be.
    pub fn load(placement: Placement) -> Result<TierTable, String> {
        let mut rules: Vec<&'static TierRule> = COMMON_RULES.iter().collect();
        rules.push(match placement {
            Placement::Machine => &LEAVES_MACHINE,
            Placement::Browser => &LEAVES_BROWSER,
        });
        let table = TierTable { placement, rules };
        table.check_examples()?;
        Ok(table)
    }

    fn check_examples(&self) -> Result<(), String> {
        for row in &self.rules {
            for act in row.matches {
                if !self.row_matches(row, act) {
                    return Err(format!("rule {} must match {act:?}", row.rule));
                }
            }
            for act in row.not_matches {
                if self.row_matches(row, act) {
                    return Err(format!("rule {} must not match {act:?}", row.rule));
                }
            }
        }
        Ok(())
    }

    fn row_matches(&self, row: &TierRule, act: &Act) -> bool {
        match row.matcher {
            Matcher::Place(place) => act.place == place,
            Matcher::Kinds(kinds) => kinds.contains(&act.kind),
            Matcher::NotEnforced => !self.placement.enforces(act.kind),
            Matcher::BoundedEgress => act.kind == ActKind::Network && act.bounded,
            Matcher::LeavesPlacement => {
                act.kind == ActKind::External || (act.kind == ActKind::Network && !act.bounded)
            }
            Matcher::ByPerson(person) => act.person == Some(person),
            Matcher::Replaces => act.replaces,
            Matcher::MovesOver => act.moves_over,
            Matcher::HeardChange => act.heard && matches!(act.kind, Write | Delete),
            Matcher::GuessedChange => act.guessed && matches!(act.kind, Write | Delete),
        }
    }

    /// The strictest matching rule decides (the first of equals in table
    /// order names it); no match refuses with `no-match`.
    pub fn decide(&self, act: &Act) -> Verdict {
        self.rules
            .iter()
            .filter(|row| self.row_matches(row, act))
            .fold(None::<&&TierRule>, |strictest, row| match strictest {
                Some(kept) if kept.decision >= row.decision => Some(kept),
                _ => Some(row),
            })
            .map(|row| Verdict {
                decision: row.decision,
                rule: row.rule,
                why: row.why,
            })
            .unwrap_or(Verdict {
                decision: Decision::Refuse,
                rule: Rule::NoMatch,
                why: "no rule in the tier table allows this act",
            })
    }

    pub fn rules(&self) -> impl Iterator<Item = &TierRule> {
        self.rules.iter().copied()
    }

    pub fn placement(&self) -> Placement {
        self.placement
    }
}

#[cfg(test)]
mod tests;
