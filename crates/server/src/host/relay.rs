//! The page relay: when the active root belongs to a page (an OPFS project,
//! or a folder it picked), [`Channel::relay`] sends the request to the
//! connected page instead of touching any disk, and the page's worker runs it
//! through the same core, with the same audit, in the page's own root. One
//! page executes at a time: a newer page that connects takes over, so a reload
//! or the page that just declared its project is never locked out by a stale
//! socket; the older page is told `taken-over` and closed. The socket itself
//! is the channel route's; this is only the contract it carries.

use super::envelope::{self, FromPage, Refused, ToPage};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use voicebox_core::platform::RootInfo;
use voicebox_core::worker::Relayed;
use voicebox_core::{Refusal, Rule};

/// What the relay sends the page's socket: a text frame, or the close that
/// ends it (with its reason).
#[derive(Debug)]
pub enum Outgoing {
    Text(String),
    Close(&'static str),
}

/// How long an act waits for the page unless `VOICEBOX_PAGE_TIMEOUT_MS` says.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The page-owned root, the connected page, and the acts waiting for it.
pub struct Channel {
    inner: Mutex<Inner>,
    timeout: Duration,
}

#[derive(Default)]
struct Inner {
    root: Option<RootInfo>,
    page: Option<Page>,
    /// Acts sent and not answered, by id, with the page they went to.
    /// Dropping an entry's sender answers its waiter `page-closed`.
    calls: HashMap<u64, (u64, oneshot::Sender<Result<Value, String>>)>,
    next: u64,
}

struct Page {
    serial: u64,
    outbox: mpsc::UnboundedSender<Outgoing>,
}

impl Channel {
    /// Reads `VOICEBOX_PAGE_TIMEOUT_MS` (default 10 s).
    pub(crate) fn from_env() -> Channel {
        let timeout = match std::env::var("VOICEBOX_PAGE_TIMEOUT_MS") {
            Ok(ms) => ms
                .trim()
                .parse()
                .map(Duration::from_millis)
                .unwrap_or_else(|_| {
                    tracing::warn!(
                        "VOICEBOX_PAGE_TIMEOUT_MS is not a number of milliseconds; using 10000"
                    );
                    DEFAULT_TIMEOUT
                }),
            Err(_) => DEFAULT_TIMEOUT,
        };
        Channel {
            inner: Mutex::default(),
            timeout,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The page-owned root, if one is active.
    pub fn root(&self) -> Option<RootInfo> {
        self.lock().root.clone()
    }

    /// Makes a page-owned root active (`None` un-declares it).
    pub(crate) fn set_root(&self, root: Option<RootInfo>) {
        self.lock().root = root;
    }

    /// Sends `request` to the page's worker and waits for its answer, which
    /// comes back untouched; or a refusal naming why there is none.
    pub(crate) async fn relay(&self, request: &Relayed) -> Result<Value, Refusal> {
        let (reply, answer) = oneshot::channel();
        let id = {
            let mut inner = self.lock();
            let Some(serial) = inner.page.as_ref().map(|page| page.serial) else {
                return Err(refusal(
                    Rule::NoPage,
                    "the active root belongs to a page, and no page is connected: open /environment, open the project and use it as the server's folder",
                ));
            };
            inner.next += 1;
            let id = inner.next;
            let frame = Outgoing::Text(ToPage::Act { id, request }.text());
            // A page whose writer is gone drops `reply`: the wait below is `page-closed`.
            if inner
                .page
                .as_ref()
                .is_some_and(|page| page.outbox.send(frame).is_ok())
            {
                inner.calls.insert(id, (serial, reply));
            }
            id
        };
        match tokio::time::timeout(self.timeout, answer).await {
            Ok(Ok(Ok(answer))) => Ok(answer),
            Ok(Ok(Err(why))) => Err(refusal(
                Rule::PageFailed,
                &format!("the page's worker failed and did not answer: {why}"),
            )),
            Ok(Err(_)) => Err(refusal(
                Rule::PageClosed,
                "the page closed before it answered; whether the act happened is in the page's audit log",
            )),
            Err(_) => {
                self.lock().calls.remove(&id);
                Err(refusal(
                    Rule::PageTimeout,
                    &format!(
                        "the page did not answer within {} ms; whether the act happened is in the page's audit log",
                        self.timeout.as_millis()
                    ),
                ))
            }
        }
    }

    /// Makes `outbox` the executing page; an older page is told and closed,
    /// and its unanswered acts answer `page-closed`.
    pub(crate) fn attach(&self, outbox: mpsc::UnboundedSender<Outgoing>) -> u64 {
        let mut inner = self.lock();
        inner.next += 1;
        let serial = inner.next;
        if let Some(old) = inner.page.replace(Page { serial, outbox }) {
            let end = ToPage::End {
                reason: "taken-over",
                why: "another Voicebox page connected and now executes the server's acts",
            };
            let _ = old.outbox.send(Outgoing::Text(end.text()));
            let _ = old.outbox.send(Outgoing::Close("taken-over"));
            inner.calls.retain(|_, (page, _)| *page != old.serial);
        }
        serial
    }

    /// The page `serial` is gone: its unanswered acts answer `page-closed`.
    pub(crate) fn detach(&self, serial: u64) {
        let mut inner = self.lock();
        if inner
            .page
            .as_ref()
            .is_some_and(|page| page.serial == serial)
        {
            inner.page = None;
        }
        inner.calls.retain(|_, (page, _)| *page != serial);
    }

    /// Hands one frame of page `serial` to the act it answers.
    pub fn answer(&self, serial: u64, text: &str) -> Result<(), Refused> {
        let (id, outcome) = match envelope::parse(text)? {
            FromPage::Result { id, answer } => (id, Ok(answer)),
            FromPage::Failed { id, why } => (id, Err(why)),
        };
        let mut inner = self.lock();
        match inner.calls.remove(&id) {
            Some((page, reply)) if page == serial => {
                let _ = reply.send(outcome);
                Ok(())
            }
            Some(call) => {
                inner.calls.insert(id, call);
                Err(unknown_call(id))
            }
            None => Err(unknown_call(id)),
        }
    }
}

fn unknown_call(id: u64) -> Refused {
    (
        Rule::UnknownCall,
        format!("no act {id} is waiting for this page (it timed out, or was never sent here)"),
    )
}

/// A refusal for rules only the relay knows.
fn refusal(rule: Rule, why: &str) -> Refusal {
    Refusal::new(rule, why)
}
