//! `voicebox mcp`'s stdin, read line by line before rmcp sees it, so a
//! message the API would refuse is refused here by name, as a JSON-RPC
//! error the client can read, instead of being dropped in silence:
//!
//! - a line over the API's one body cap ([`MAX_BODY_BYTES`]) is
//!   `body-too-large`; it is skipped as it arrives, never held whole;
//! - an object that names a key twice is `duplicate-key` ([`strict`]).
//!
//! Every other line goes on to rmcp unchanged. One writer puts rmcp's
//! messages and these answers on stdout, a whole line at a time.

use super::McpServer;
use crate::serve::MAX_BODY_BYTES;
use crate::strict::{self, Misfit};
use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use voicebox_core::Rule;

/// How much of a message may be in flight between the gate and rmcp.
const PIPE: usize = 64 << 10;

/// JSON-RPC's code for a message that is not a valid request.
const INVALID_REQUEST: i64 = -32600;

/// Serves `server` on `input` and `output` until the client closes `input`.
pub async fn serve<R, W>(
    server: McpServer,
    input: R,
    output: W,
) -> Result<(), Box<dyn std::error::Error>>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_rmcp, rmcp_in) = tokio::io::duplex(PIPE);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(PIPE);
    let (lines, mut out) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = out.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    let answers = lines.clone();
    tokio::spawn(gate(BufReader::new(input), to_rmcp, answers));
    let pump = tokio::spawn(async move {
        let mut from_rmcp = BufReader::new(from_rmcp);
        loop {
            let mut line = Vec::new();
            match from_rmcp.read_until(b'\n', &mut line).await {
                Ok(1..) if lines.send(line).is_ok() => {}
                _ => break,
            }
        }
    });
    let running = server.serve((rmcp_in, rmcp_out)).await?;
    running.waiting().await?;
    let _ = pump.await;
    let _ = writer.await;
    Ok(())
}

/// One line of input as read: whole, or over the cap and skipped.
enum Line {
    Whole,
    TooLong,
    End,
}

/// Reads the next line into `line` (without its newline), holding at most
/// `cap` bytes of it: past that, the rest is read and dropped.
async fn read_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    line: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<Line> {
    line.clear();
    let mut over = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (over, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Whole,
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let taken = newline.unwrap_or(available.len());
        if !over && line.len() + taken <= cap {
            line.extend_from_slice(&available[..taken]);
        } else if !over {
            over = true;
            line.clear();
        }
        input.consume(newline.map_or(taken, |at| at + 1));
        if newline.is_some() {
            return Ok(if over { Line::TooLong } else { Line::Whole });
        }
    }
}

/// Passes the client's lines on to rmcp, answering those it refuses.
async fn gate<R: AsyncRead + Unpin>(
    mut input: BufReader<R>,
    mut to_rmcp: tokio::io::DuplexStream,
    answers: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut line = Vec::new();
    loop {
        let refusal = match read_line(&mut input, &mut line, MAX_BODY_BYTES).await {
            Ok(Line::End) | Err(_) => return,
            Ok(Line::TooLong) => Some(refuse(
                Value::Null,
                Rule::BodyTooLarge,
                &format!(
                    "a message is at most {} MiB on one line; send less (a write's content is at most 1 MiB)",
                    MAX_BODY_BYTES >> 20
                ),
            )),
            Ok(Line::Whole) => match strict::from_slice::<Value>(&line) {
                Err(Misfit::DuplicateKey(why)) => {
                    let id = serde_json::from_slice::<Value>(&line)
                        .map_or(Value::Null, |m| m["id"].clone());
                    Some(refuse(id, Rule::DuplicateKey, &why))
                }
                _ => None,
            },
        };
        let sent = match refusal {
            Some(answer) => answers.send(answer).is_ok(),
            None => {
                line.push(b'\n');
                to_rmcp.write_all(&line).await.is_ok()
            }
        };
        if !sent {
            return;
        }
    }
}

/// A JSON-RPC error answering `id`, its message starting with the rule id
/// as a refused tool call's text does.
fn refuse(id: Value, rule: Rule, why: &str) -> Vec<u8> {
    let error = json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": INVALID_REQUEST,
        "message": format!("{rule}: {why}"),
        "data": {"refused": rule, "why": why},
    }});
    let mut line = error.to_string().into_bytes();
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_line_over_the_cap_is_skipped_whole_and_the_next_is_read() {
        let input: &[u8] = b"12345\n123456789\n1234\nlast";
        let mut input = BufReader::with_capacity(4, input);
        let mut line = Vec::new();
        let mut seen = Vec::new();
        loop {
            match read_line(&mut input, &mut line, 6).await.unwrap() {
                Line::Whole => seen.push(String::from_utf8(line.clone()).unwrap()),
                Line::TooLong => seen.push("(too long)".into()),
                Line::End => break,
            }
            assert!(line.capacity() <= 16, "never held past the cap");
        }
        assert_eq!(seen, ["12345", "(too long)", "1234", "last"]);
    }
}
