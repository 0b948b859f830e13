//! The page's secret and its session, the way Jupyter Server does it: at
//! start `serve` prints `open http://127.0.0.1:<port>/?token=<secret>` (a
//! fresh secret each start, kept 0600 in the state folder for `voicebox
//! url`). Opening that address sets an `HttpOnly; SameSite=Strict` session
//! cookie and redirects to the same page without the secret, so it leaves
//! the address bar and the history; a wrong secret sets nothing.
//!
//! The cookie, not an `Origin` header (which any local process can write),
//! is what makes a request the person's page.

use super::ApiError;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Redirect, Response};
use subtle::ConstantTimeEq;
use voicebox_core::Rule;
use voicebox_core::platform::Env;
use voicebox_machine::MachineEnv;

/// The session cookie's name.
pub const COOKIE: &str = "voicebox_session";

/// This start's page secret (for the printed address) and the session value
/// its cookie carries; both random, 64 hex characters, never written in a log.
#[derive(Clone)]
pub struct PageSecret {
    secret: String,
    session: String,
}

impl PageSecret {
    pub fn fresh() -> PageSecret {
        let random = || format!("{}{}", MachineEnv.random_id(), MachineEnv.random_id());
        PageSecret {
            secret: random(),
            session: random(),
        }
    }

    /// The secret of the printed address.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// The address that opens the page on `port` with its session.
    pub fn url(&self, port: u16) -> String {
        format!("http://127.0.0.1:{port}/?token={}", self.secret)
    }

    /// Whether the request carries this start's session cookie.
    pub fn in_session(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == COOKIE && same(value, &self.session))
    }

    /// `GET <page>?token=...`: with the right secret, the session cookie and
    /// a redirect to the page without the query; with a wrong one, a named
    /// refusal and no cookie. `None` when the address carries no secret.
    pub fn exchange(&self, uri: &Uri) -> Option<Response> {
        let given = uri
            .query()?
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))?;
        if !same(given, &self.secret) {
            return Some(
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    Rule::BadPageSecret,
                    "this address's secret is not this server's (it changes at every start); open the address `voicebox serve` printed, or run `voicebox url`",
                )
                .into_response(),
            );
        }
        let cookie = format!(
            "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
            self.session
        );
        let mut response = Redirect::to(uri.path()).into_response();
        let value = HeaderValue::from_str(&cookie).expect("hex and ASCII make a header value");
        response.headers_mut().insert(header::SET_COOKIE, value);
        Some(response)
    }
}

fn same(given: &str, known: &str) -> bool {
    bool::from(given.as_bytes().ct_eq(known.as_bytes()))
}
