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

mod act;
mod rows;

pub use act::{Act, ActKind, PersonAct, Place, at};
pub use rows::{Matcher, TierRule};

use crate::rule::Rule;
use ActKind::*;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use rows::{COMMON_RULES, LEAVES_BROWSER, LEAVES_MACHINE};
use serde::Serialize;

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

/// What the table decided, with the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub decision: Decision,
    pub rule: Rule,
    pub why: &'static str,
}

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
