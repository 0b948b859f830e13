//! The machine's network, for extensions' `http-get`: one blocking GET per
//! call, redirects off (the core checks each hop against the extension's
//! bounds), a timeout and a cap on what is read.

use std::io::Read;
use std::time::Duration;
use voicebox_core::platform::{Egress, Fetched};
use voicebox_core::{Refusal, Rule};

/// The most of an HTTP response `http-get` reads.
const MAX_FETCH_BYTES: u64 = 1 << 20;
/// How long one `http-get` request may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// GETs over `reqwest`.
#[derive(Clone, Copy, Debug, Default)]
pub struct HttpEgress;

impl Egress for HttpEgress {
    async fn fetch(&self, url: &str) -> Result<Fetched, Refusal> {
        let failed = |e: reqwest::Error| {
            Refusal::new(Rule::StorageFailed, format!("fetching {url} failed: {e}"))
        };
        let client = reqwest::blocking::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(FETCH_TIMEOUT)
            .build()
            .map_err(failed)?;
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
