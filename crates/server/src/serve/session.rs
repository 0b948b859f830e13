//! The page's secret and its session. At start `serve` prints `open
//! http://127.0.0.1:<port>/?token=<secret>` (a fresh secret each start, kept
//! 0600 in the state folder for `voicebox url`). Opening that address answers
//! a redirect to the page with the session in the address's fragment, which
//! a browser never sends to a server: the page's script moves it into its
//! origin's storage and out of the address bar. A wrong secret hands over
//! nothing.
//!
//! The session is a header (`x-voicebox-session`) on every API call and a
//! WebSocket subprotocol on every socket, never a cookie: a browser sends a
//! cookie to every port of the host, while what a page's script keeps and
//! sends is bound to its origin (scheme, host and port). No cookie is read.

use super::ApiError;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Redirect, Response};
use subtle::ConstantTimeEq;
use voicebox_core::Rule;
use voicebox_core::platform::Env;
use voicebox_machine::MachineEnv;

/// The header that carries the page's session on API calls.
pub const SESSION_HEADER: &str = "x-voicebox-session";
/// The subprotocol a socket answers with; the page offers it beside the one
/// that carries its session ([`SESSION_PROTOCOL`]), which is never echoed.
pub const SOCKET_PROTOCOL: &str = "voicebox";
/// A socket's session rides in the subprotocol `voicebox.session.<session>`
/// (a browser cannot set other headers on a WebSocket).
pub(crate) const SESSION_PROTOCOL: &str = "voicebox.session.";

/// This start's page secret (for the printed address) and the session the
/// page is handed for it; both random, 64 hex characters, never written in a
/// log.
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

    /// Whether the request carries this start's session: in its header, or
    /// for a WebSocket upgrade (`socket`) in a subprotocol it offers.
    pub(crate) fn in_session(&self, headers: &HeaderMap, socket: bool) -> bool {
        let header = headers
            .get(SESSION_HEADER)
            .is_some_and(|value| same(value.as_bytes(), &self.session));
        let offered = socket
            && headers
                .get_all(header::SEC_WEBSOCKET_PROTOCOL)
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(|value| value.split(','))
                .filter_map(|protocol| protocol.trim().strip_prefix(SESSION_PROTOCOL))
                .any(|given| same(given.as_bytes(), &self.session));
        header || offered
    }

    /// `GET <page>?token=...`: with the right secret, a redirect to the page
    /// without the query, the session in the fragment; with a wrong one, a
    /// named refusal. `None` when the address carries no secret.
    pub fn exchange(&self, uri: &Uri) -> Option<Response> {
        let given = uri
            .query()?
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))?;
        if !same(given.as_bytes(), &self.secret) {
            return Some(
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    Rule::BadPageSecret,
                    "this address's secret is not this server's (it changes at every start); open the address `voicebox serve` printed, or run `voicebox url`",
                )
                .into_response(),
            );
        }
        let to = format!("{}#session={}", landing(uri.path()), self.session);
        let mut response = Redirect::to(&to).into_response();
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        Some(response)
    }
}

/// Where the exchange sends the browser: one of the page's own entry points,
/// never a path the address chose (`//evil.example/` would be another host,
/// and the session rides along in the fragment).
fn landing(path: &str) -> &'static str {
    match path {
        "/env/" | "/env" | "/environment" => "/env/",
        _ => "/",
    }
}

fn same(given: &[u8], known: &str) -> bool {
    bool::from(given.ct_eq(known.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exchange_lands_only_on_the_page_itself() {
        let page = PageSecret::fresh();
        for (path, want) in [
            ("/", "/"),
            ("/env/", "/env/"),
            ("/environment", "/env/"),
            ("//evil.example/", "/"),
            ("/\\evil.example/", "/"),
            ("/favicon.svg", "/"),
            ("/%2F%2Fevil.example/", "/"),
        ] {
            let uri: Uri = format!("{path}?token={}", page.secret()).parse().unwrap();
            let answer = page.exchange(&uri).unwrap();
            let location = answer.headers()[header::LOCATION].to_str().unwrap();
            assert_eq!(
                location,
                format!("{want}#session={}", page.session),
                "{path}"
            );
        }
    }

    #[test]
    fn the_session_counts_as_a_header_or_a_socket_subprotocol_and_never_as_a_cookie() {
        let page = PageSecret::fresh();
        let with = |name: &str, value: String| {
            let mut headers = HeaderMap::new();
            headers.insert(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
            headers
        };
        let session = &page.session;
        let offered = format!("{SOCKET_PROTOCOL}, {SESSION_PROTOCOL}{session}");
        assert!(page.in_session(&with(SESSION_HEADER, session.clone()), false));
        assert!(page.in_session(&with("sec-websocket-protocol", offered.clone()), true));
        assert!(
            !page.in_session(&with("sec-websocket-protocol", offered), false),
            "a subprotocol counts only on a socket"
        );
        for (name, value) in [
            (SESSION_HEADER, format!("{session}0")),
            (SESSION_HEADER, session[1..].to_string()),
            ("cookie", format!("voicebox_session={session}")),
            (
                "sec-websocket-protocol",
                format!("{SOCKET_PROTOCOL}, {SESSION_PROTOCOL}{}", &session[1..]),
            ),
            ("sec-websocket-protocol", session.clone()),
        ] {
            assert!(
                !page.in_session(&with(name, value.clone()), true),
                "{name}: {value}"
            );
        }
    }
}
