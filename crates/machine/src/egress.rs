//! The machine's network, for extensions' `http-get`: one blocking GET per
//! call, redirects off (the core checks each hop against the extension's
//! bounds), a timeout and a cap on what is read.
//!
//! The core judged the URL's spelling; here the address actually connected
//! to is judged. The URL is parsed as the client parses it, a name is
//! resolved once, every address it resolves to must be public
//! ([`address::judge_address`]), and the connection is pinned to those
//! addresses, so a second lookup cannot rebind the name to loopback. No
//! proxy is used: a proxy would resolve the name where this check cannot see.

use std::io::Read;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;
use voicebox_core::extension::{Reach, address};
use voicebox_core::platform::{Egress, Fetched};
use voicebox_core::{Refusal, Rule};

/// The most of an HTTP response `http-get` reads.
const MAX_FETCH_BYTES: u64 = 1 << 20;
/// How long one `http-get` request may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// The operator's opt-in to loopback egress (`1`), for tests whose fake
/// HTTP server listens on 127.0.0.1. Every other private class stays refused.
pub const LOOPBACK_OPT_IN: &str = "VOICEBOX_ALLOW_LOOPBACK_EGRESS";

/// How a name becomes addresses: the system's resolver, or a test's.
pub type Resolver = fn(&str, u16) -> std::io::Result<Vec<SocketAddr>>;

fn system_resolver(name: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
    Ok((name, port).to_socket_addrs()?.collect())
}

/// GETs over `reqwest`, to the addresses `reach` allows.
#[derive(Clone, Copy, Debug)]
pub struct HttpEgress {
    reach: Reach,
    resolve: Resolver,
}

impl HttpEgress {
    pub fn new(reach: Reach) -> HttpEgress {
        HttpEgress {
            reach,
            resolve: system_resolver,
        }
    }

    /// The same egress resolving names with `resolve`: how a test makes a
    /// public-looking name answer with loopback (DNS rebinding).
    pub fn resolving_with(self, resolve: Resolver) -> HttpEgress {
        HttpEgress { resolve, ..self }
    }

    /// Public only, unless [`LOOPBACK_OPT_IN`] is `1`.
    pub fn from_env() -> HttpEgress {
        let opted_in = std::env::var(LOOPBACK_OPT_IN).is_ok_and(|v| v == "1");
        HttpEgress::new(if opted_in {
            Reach::PublicAndLoopback
        } else {
            Reach::Public
        })
    }

    /// The addresses `url` reaches, each judged; for a name, the addresses
    /// the connection is pinned to (`None`: the URL is an address).
    fn destination(&self, url: &str) -> Result<Option<(String, Vec<SocketAddr>)>, Refusal> {
        let refused = |why: String| Refusal::new(Rule::HostNotAllowed, why);
        let parsed =
            reqwest::Url::parse(url).map_err(|e| refused(format!("{url:?} is not a URL: {e}")))?;
        let port = parsed.port_or_known_default().unwrap_or(80);
        // The client's own reading of the host, judged by the core's rules.
        let host = parsed
            .host_str()
            .ok_or_else(|| refused(format!("{url:?} names no host")))?;
        // The name as the client will look it up (trailing dot and all), so
        // the pinned addresses are the ones it uses.
        let name = match address::parse_host(host)? {
            address::Host::Address(ip) => {
                return address::judge_address(ip, self.reach).map(|()| None);
            }
            parsed @ address::Host::Name(_) => {
                address::judge_host(&parsed, self.reach)?;
                host.to_string()
            }
        };
        let addrs = (self.resolve)(&name, port).map_err(|e| {
            Refusal::new(Rule::StorageFailed, format!("{name} does not resolve: {e}"))
        })?;
        if addrs.is_empty() {
            return Err(Refusal::new(
                Rule::StorageFailed,
                format!("{name} resolves to no address; nothing was fetched"),
            ));
        }
        for addr in &addrs {
            address::judge_address(addr.ip(), self.reach).map_err(|refusal| {
                Refusal::new(
                    refusal.rule,
                    format!("{name} resolves to {}: {}", addr.ip(), refusal.why),
                )
            })?;
        }
        Ok(Some((name, addrs)))
    }
}

impl HttpEgress {
    /// One GET on the calling thread (it blocks for up to the timeout), to
    /// the addresses this egress allows; redirects are not followed.
    pub fn get(&self, url: &str) -> Result<Fetched, Refusal> {
        let failed = |e: reqwest::Error| {
            Refusal::new(Rule::StorageFailed, format!("fetching {url} failed: {e}"))
        };
        let mut builder = reqwest::blocking::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(FETCH_TIMEOUT);
        if let Some((name, addrs)) = self.destination(url)? {
            builder = builder.resolve_to_addrs(&name, &addrs);
        }
        let client = builder.build().map_err(failed)?;
        let response = client.get(url).send().map_err(failed)?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|l| l.to_str().ok())
            .map(String::from);
        let mut body = Vec::new();
        response
            .take(MAX_FETCH_BYTES)
            .read_to_end(&mut body)
            .map_err(|e| Refusal::new(Rule::StorageFailed, format!("reading {url} failed: {e}")))?;
        Ok(Fetched {
            status,
            location,
            body,
        })
    }
}

impl Egress for HttpEgress {
    async fn fetch(&self, url: &str) -> Result<Fetched, Refusal> {
        self.get(url)
    }

    fn reach(&self) -> Reach {
        self.reach
    }
}
