//! Admitting and revoking extensions on a host: the person decides (at the
//! shell, with the host token, or with a console code), and each decision is
//! audited in the root before it takes effect. The CLI and the HTTP routes
//! both come here, so neither imports the other.

use voicebox_core::tier::PersonAct;
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::env::now_ms;
use voicebox_machine::extensions::Registry;
use voicebox_machine::{Host, MachineAbilities};

/// The host's extension registry; every host this binary makes has one.
pub(crate) fn registry(host: &Host<MachineAbilities>) -> &Registry {
    host.executor()
        .abilities()
        .registry()
        .expect("the binary's hosts take extensions")
}

/// Admits the proposal `id` as it stands now (`how` says who vouched).
pub fn admit(host: &Host<MachineAbilities>, id: &str, how: &str) -> Reply {
    match registry(host).admissible(id) {
        Ok(proposal) => admit_at(host, id, &proposal.plan_digest, how),
        Err(refusal) => Reply::refusal(refusal),
    }
}

/// Admits `id` at `plan_digest` (the plan a console code was bound to),
/// audited first.
pub(crate) fn admit_at(
    host: &Host<MachineAbilities>,
    id: &str,
    plan_digest: &str,
    how: &str,
) -> Reply {
    host.person_act(id, PersonAct::Admit, how, || {
        registry(host).admit(id, plan_digest, now_ms())
    })
}

/// Removes a proposal that was never admitted, audited first.
pub fn withdraw(host: &Host<MachineAbilities>, id: &str, how: &str) -> Reply {
    host.person_act(id, PersonAct::Withdraw, how, || registry(host).withdraw(id))
}

/// Revokes an admitted extension, audited first; it stops running at once.
pub fn revoke(host: &Host<MachineAbilities>, id: &str, how: &str) -> Reply {
    host.person_act(id, PersonAct::Revoke, how, || {
        registry(host).revoke(id).and_then(|was| {
            was.then_some(())
                .ok_or_else(|| Refusal::new(Rule::NotAdmitted, format!("`{id}` was not admitted")))
        })
    })
}
