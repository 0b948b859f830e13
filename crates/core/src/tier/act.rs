//! What an act is, as the tier table sees it: its kind, where its target
//! lies, and the marks (a person's decision, a replace, a mishearing risk)
//! that the table's rows match on.

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
