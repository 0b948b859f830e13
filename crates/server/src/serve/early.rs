//! hyper answers a request it cannot read before any route sees it: a head
//! over its buffer (`431`), a URI too long (`414`), a malformed line or a
//! byte no URI or header may hold (`400`) — with an empty body. [`Named`]
//! gives those answers the body every other refusal has (`{ok: false,
//! refused, why}`, with a rule id): a connection's writes pass through it,
//! and an answer with one of those statuses and an empty body is replaced.
//! The app's own 4xx answers always carry a JSON body, so only hyper's are.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use voicebox_core::{Refusal, Reply, Rule};

/// A connection's socket whose early refusals are named.
pub(crate) struct Named<T> {
    inner: T,
    /// A replacement being written: its bytes, how many are out, and how
    /// many of hyper's bytes it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<T> Named<T> {
    pub fn new(inner: T) -> Named<T> {
        Named {
            inner,
            replacing: None,
        }
    }
}

/// The named answer for hyper's own `head` (a whole response head with an
/// empty body), or `None` for any other write.
fn named(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let (status, rule, why) = match text.get(..13)? {
        "HTTP/1.1 400 " => (
            "400 Bad Request",
            Rule::MalformedRequest,
            "the request line or a header is not valid HTTP (a byte no URI or header may hold must be percent-encoded); nothing was done",
        ),
        "HTTP/1.1 414 " => (
            "414 URI Too Long",
            Rule::HeadTooLarge,
            "the request's URI is too long; nothing was done — send less in the address",
        ),
        "HTTP/1.1 431 " => (
            "431 Request Header Fields Too Large",
            Rule::HeadTooLarge,
            "the request's headers are too large; nothing was done — send fewer or shorter headers",
        ),
        _ => return None,
    };
    let lower = text.to_ascii_lowercase();
    if !lower.ends_with("\r\n\r\n") || !lower.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let body = serde_json::to_vec(&Reply::refusal(Refusal::new(rule, why))).ok()?;
    let mut answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nx-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    Some(answer)
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Named<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.replacing.is_none() {
            match named(buf) {
                Some(answer) => this.replacing = Some((answer, 0, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        let (answer, out, stands_for) = this.replacing.as_mut().expect("set above");
        while *out < answer.len() {
            match ready!(Pin::new(&mut this.inner).poll_write(cx, &answer[*out..])) {
                Ok(0) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Ok(n) => *out += n,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
        let stands_for = *stands_for;
        this.replacing = None;
        Poll::Ready(Ok(stands_for))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Named<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::named;

    #[test]
    fn only_an_empty_early_refusal_is_replaced() {
        let early =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(named(early).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["refused"], "head-too-large");
        // The app's own refusals (a body) and other answers pass as they are.
        assert!(named(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n").is_none());
        assert!(named(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(named(b"{\"a\":1}").is_none());
    }
}
