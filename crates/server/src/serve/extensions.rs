//! Extension routes: proposals are data; only the person at the host admits
//! (with the host token, or with a code printed on this server's console —
//! never in an HTTP response). Every admission and revocation is audited
//! before it takes effect.

use super::answer::{Answer, result};
use super::error::{ReadGuard, StrictJson, WriteBody};
use super::guard::Authority;
use crate::admission::{self, registry};
use crate::approval::Approvals;
use crate::host::Acts;
use axum::extract::State;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use utoipa::ToSchema;
use voicebox_core::{Refusal, Reply, Rule};
use voicebox_machine::env::now_ms;
use voicebox_machine::{Host, MachineAbilities};

/// Proposals, admissions and revocations are audited in the active root, and
/// extensions run only on this machine: while a page owns the active root
/// (its acts run in the browser) they are refused by name, and nothing is
/// stored or changed.
fn page_owns_root(acts: &Acts) -> Option<Refusal> {
    let root = acts.page_root()?;
    Some(Refusal::new(
        Rule::RootIsPageOwned,
        format!(
            "the folder open now is the browser's own ({} {}), and extensions are proposed, admitted, audited and run only in a folder on this computer; switch to one (the folder switcher), then try again",
            root.kind, root.path
        ),
    ))
}

/// A route's `{result}` answer for a refusal made before any executor.
fn refused(refusal: Refusal) -> Answer {
    result(Reply::refusal(refusal))
}

/// `act` on the host, unless a page owns the active root.
async fn on_host(
    acts: &Acts,
    act: impl FnOnce(&mut Host<MachineAbilities>) -> Reply + Send + 'static,
) -> Answer {
    match page_owns_root(acts) {
        Some(refusal) => refused(refusal),
        None => result(acts.with_host(act).await?),
    }
}

/// Every extension and how it stands: admitted, pending, refused, present-not-admitted.
#[utoipa::path(get, path = "/api/extensions",
    responses((status = 200, description = "`{ok, extensions: [{id, state, description?, problems?, planDigest?}]}`", body = Object),
              ReadGuard
            ))]
pub async fn list(State(acts): State<Arc<Acts>>) -> Answer {
    let listing = acts.looking(|host| registry(host).list()).await?;
    Ok(Json(json!({"ok": true, "extensions": listing})))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProposalRequest {
    #[schema(value_type = Object)]
    descriptor: Value,
}

/// Propose an extension (data only; nothing loads). Same as the verb `propose_extension`.
#[utoipa::path(post, path = "/api/extensions/proposals", request_body = ProposalRequest,
    responses((status = 200, description = "`{result}`: stored as pending, or refused by the gate with its rule", body = Object),
              WriteBody
            ))]
pub async fn propose(
    State(acts): State<Arc<Acts>>,
    StrictJson(request): StrictJson<ProposalRequest>,
) -> Answer {
    let action = json!({"verb": "propose_extension", "descriptor": request.descriptor});
    on_host(&acts, move |host| host.execute(&action, Some("page"))).await
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IdRequest {
    id: String,
}

/// Admit a proposed extension with the host token (the person at the host).
#[utoipa::path(post, path = "/api/extensions/admit", request_body = IdRequest,
    responses((status = 200, description = "`{result}`: admitted, or why not (not proposed, refused by the gate, audit unwritable)", body = Object),
              WriteBody,
              (status = 403, description = "no host token (host-token-required), a wrong token, or a foreign Host")
            ))]
pub async fn admit(
    State(acts): State<Arc<Acts>>,
    Extension(authority): Extension<Authority>,
    StrictJson(request): StrictJson<IdRequest>,
) -> Answer {
    authority.need_host_token(
        "admitting an extension needs the person at the host: send the x-voicebox-host-token header, or use the console code (approval-request, then approve)",
    )?;
    on_host(&acts, move |host| {
        admission::admit(host, &request.id, "host-token")
    })
    .await
}

/// Ask for a console code to admit an extension; the code is printed on the
/// server's console only.
#[utoipa::path(post, path = "/api/extensions/approval-request", request_body = IdRequest,
    responses((status = 200, description = "`{ok, id, planDigest, expiresInSeconds}` (never the code), or `{ok:false, refused, why}` (e.g. `approval-locked`)", body = Object),
              WriteBody
            ))]
pub(crate) async fn approval_request(
    State(acts): State<Arc<Acts>>,
    State(approvals): State<Arc<Approvals>>,
    StrictJson(request): StrictJson<IdRequest>,
) -> Answer {
    if let Some(refusal) = page_owns_root(&acts) {
        return Ok(Json(json!(Reply::refusal(refusal))));
    }
    let id = request.id.clone();
    let proposal = acts
        .with_host(move |host| registry(host).admissible(&id))
        .await?;
    let proposal = match proposal {
        Ok(proposal) => proposal,
        Err(refusal) => return Ok(Json(json!(Reply::refusal(refusal)))),
    };
    let code = match approvals.issue(&request.id, &proposal.plan_digest, now_ms()) {
        Ok(code) => code,
        Err(refusal) => return Ok(Json(json!(Reply::refusal(refusal)))),
    };
    // The console is the person at the host; this line is the only place the code appears.
    println!(
        "approval code for extension `{}` (plan {}): {code} — valid {} s, single use",
        request.id,
        &proposal.plan_digest[..12],
        crate::approval::CODE_TTL_MS / 1000
    );
    Ok(Json(json!({
        "ok": true,
        "id": request.id,
        "planDigest": proposal.plan_digest,
        "expiresInSeconds": crate::approval::CODE_TTL_MS / 1000,
        "note": "the code is printed on the server's console; type it to approve",
    })))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ApproveRequest {
    id: String,
    code: String,
}

/// Admit an extension with the console code.
#[utoipa::path(post, path = "/api/extensions/approve", request_body = ApproveRequest,
    responses((status = 200, description = "`{result}`: admitted, or `code-invalid`, `code-expired`, `plan-changed`, `approval-locked` (too many wrong codes across all codes)", body = Object),
              WriteBody
            ))]
pub async fn approve(
    State(acts): State<Arc<Acts>>,
    State(approvals): State<Arc<Approvals>>,
    StrictJson(request): StrictJson<ApproveRequest>,
) -> Answer {
    if let Some(refusal) = page_owns_root(&acts) {
        return refused(refusal);
    }
    let digest = match approvals.consume(&request.id, &request.code, now_ms()) {
        Ok(digest) => digest,
        Err(refusal) => return refused(refusal),
    };
    result(
        acts.with_host(move |host| admission::admit_at(host, &request.id, &digest, "console-code"))
            .await?,
    )
}

/// Remove a proposal that was never admitted (an admitted one is revoked first).
#[utoipa::path(post, path = "/api/extensions/withdraw", request_body = IdRequest,
    responses((status = 200, description = "`{result}`: removed (`withdrawn-by-person`, audited), or `not-found`, or `plan-changed` when it is admitted", body = Object),
              WriteBody
            ))]
pub async fn withdraw(
    State(acts): State<Arc<Acts>>,
    StrictJson(request): StrictJson<IdRequest>,
) -> Answer {
    on_host(&acts, move |host| {
        admission::withdraw(host, &request.id, "page")
    })
    .await
}

/// Revoke an admitted extension; it stops running at once.
#[utoipa::path(post, path = "/api/extensions/revoke", request_body = IdRequest,
    responses((status = 200, description = "`{result}`", body = Object),
              WriteBody
            ))]
pub async fn revoke(
    State(acts): State<Arc<Acts>>,
    StrictJson(request): StrictJson<IdRequest>,
) -> Answer {
    on_host(&acts, move |host| {
        admission::revoke(host, &request.id, "page")
    })
    .await
}
