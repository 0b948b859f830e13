//! The tier table's rows, decided both ways.
use super::*;
use Place::*;

#[test]
fn both_tables_load_with_their_examples_checked() {
    for placement in [Placement::Machine, Placement::Browser] {
        TierTable::load(placement).unwrap();
    }
}

#[test]
fn write_inside_allows_and_outside_refuses_by_name() {
    let table = TierTable::load(Placement::Machine).unwrap();
    let inside = table.decide(&Act::inside(Write));
    assert_eq!(
        (inside.decision, inside.rule),
        (Decision::Allow, Rule::WritesInside)
    );
    let outside = table.decide(&at(Write, OutsideRoot));
    assert_eq!(
        (outside.decision, outside.rule),
        (Decision::Refuse, Rule::OutsideRoot)
    );
}

#[test]
fn the_strictest_match_decides_and_unmatched_kinds_refuse() {
    let table = TierTable::load(Placement::Browser).unwrap();
    // A delete outside the root matches `delete` (ask) and `outside-root`
    // (refuse): it is refused, not asked.
    assert_eq!(
        table.decide(&at(Delete, OutsideRoot)).rule,
        Rule::OutsideRoot
    );
    assert_eq!(
        table.decide(&Act::inside(Delete)).decision,
        Decision::Confirm
    );
    assert_eq!(
        table.decide(&Act::inside(Exec)).rule,
        Rule::AbsentCapability
    );
    assert_eq!(table.decide(&Act::inside(Eval)).rule, Rule::EvalPath);
    assert_eq!(
        table.decide(&Act::inside(Network)).rule,
        Rule::LeavesBrowser
    );
    // Inside admitted bounds only `admitted-egress` matches; beyond them, leaving asks.
    assert_eq!(
        table.decide(&Act::bounded_egress()).rule,
        Rule::AdmittedEgress
    );
    // Import is enforceable but no row allows it: the default refuses.
    assert_eq!(table.decide(&Act::inside(Import)).rule, Rule::NoMatch);
    assert_eq!(table.decide(&Act::inside(Read)).decision, Decision::Allow);
}

#[test]
fn a_persons_decision_has_its_own_row_and_an_import_without_one_refuses() {
    for placement in [Placement::Machine, Placement::Browser] {
        let table = TierTable::load(placement).unwrap();
        for (person, rule) in [
            (PersonAct::Admit, Rule::AdmittedByPerson),
            (PersonAct::Revoke, Rule::RevokedByPerson),
            (PersonAct::Withdraw, Rule::WithdrawnByPerson),
            (PersonAct::Declare, Rule::DeclaredByPerson),
        ] {
            let verdict = table.decide(&Act::by_person(person));
            assert_eq!((verdict.decision, verdict.rule), (Decision::Allow, rule));
        }
        for unvouched in [Import, Declare] {
            let unvouched = table.decide(&Act::inside(unvouched));
            assert_eq!(
                (unvouched.decision, unvouched.rule),
                (Decision::Refuse, Rule::NoMatch)
            );
        }
    }
}

#[test]
fn decisions_order_by_strictness() {
    assert!(Decision::Allow < Decision::Confirm && Decision::Confirm < Decision::Refuse);
}

#[test]
fn a_permissive_row_cannot_overrule_a_stricter_one_in_any_order() {
    let mut table = TierTable::load(Placement::Machine).unwrap();
    table.rules.reverse();
    assert_eq!(
        table.decide(&at(Write, OutsideRoot)).rule,
        Rule::OutsideRoot
    );
    assert_eq!(table.decide(&at(Delete, LinkOut)).rule, Rule::SymlinkOut);
    assert_eq!(table.decide(&Act::inside(Write)).rule, Rule::WritesInside);
}
