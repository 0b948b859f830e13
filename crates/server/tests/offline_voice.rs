//! Offline voice: `/live?provider=local` recognises speech with pocketsphinx
//! (loaded at run time) against a grammar made from the command list and the
//! root's file names, and acts through the same executor as every tool call.
//! The speech is espeak-ng's, resampled by sox to 16 kHz mono PCM16.
//!
//! Outside CI a missing espeak-ng, sox or pocketsphinx skips LOUDLY; under
//! `CI=true` it fails (`./scripts/test` installs them).
//!
//! The word error rate report is `--ignored`:
//! `cargo test -p voicebox --test offline_voice -- --ignored --nocapture wer`.

mod common;

use common::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The longest one utterance may take to be answered.
const STEP: Duration = Duration::from_secs(30);
const LIBRARY: &str = "/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3";
const MODEL: &str = "/usr/share/pocketsphinx/model/en-us/en-us/mdef";
const PACKAGES: &str = "espeak-ng sox libpocketsphinx3 pocketsphinx-en-us";

/// Whether espeak-ng, sox and pocketsphinx are here; panics under CI if not.
fn available() -> bool {
    let tool = |name: &str| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success() || !o.stdout.is_empty())
    };
    voicebox_test_support::present_or_skip(
        tool("espeak-ng")
            && tool("sox")
            && Path::new(LIBRARY).exists()
            && Path::new(MODEL).exists(),
        &format!("Debian's {PACKAGES}"),
        &format!("apt-get install -y {PACKAGES}"),
    )
}

/// `text` spoken by espeak-ng's `voice`, as 16 kHz mono PCM16 LE.
fn speak(text: &str, voice: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (wav, raw) = (dir.path().join("in.wav"), dir.path().join("out.raw"));
    let spoke = Command::new("espeak-ng")
        .args(["-v", voice, "-w"])
        .arg(&wav)
        .arg(text)
        .status()
        .unwrap();
    assert!(spoke.success(), "espeak-ng -v {voice} {text:?}");
    let converted = Command::new("sox")
        .arg(&wav)
        .args([
            "-r",
            "16000",
            "-c",
            "1",
            "-b",
            "16",
            "-e",
            "signed-integer",
            "-t",
            "raw",
        ])
        .arg(&raw)
        .status()
        .unwrap();
    assert!(converted.success(), "sox {}", wav.display());
    std::fs::read(raw).unwrap()
}

/// A test page on `/live` with the server's own Origin.
struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// What one utterance came to: what was heard, the tool calls, the reply.
#[derive(Debug)]
struct Answer {
    heard: String,
    calls: Vec<Value>,
    reply: String,
}

impl Page {
    async fn open(server: &Server, query: &str) -> Page {
        let url = format!("ws://127.0.0.1:{}/live{query}", server.port);
        let mut request = url.into_client_request().unwrap();
        request
            .headers_mut()
            .insert("origin", server.origin().parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        Page { ws }
    }

    /// The next JSON frame; `None` when the socket closed.
    async fn json(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(STEP, self.ws.next())
                .await
                .expect("the bridge answered in time");
            return match message {
                Some(Ok(Message::Text(text))) => Some(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => None,
                Some(Ok(_)) => continue,
            };
        }
    }

    async fn expect(&mut self, kind: &str) -> Value {
        let frame = self.json().await.expect("the socket is open");
        assert_eq!(frame["type"], kind, "{frame}");
        frame
    }

    /// Streams `pcm` in quarter-second frames, then silence so the
    /// recogniser hears the end, and gathers frames up to the reply.
    async fn say(&mut self, pcm: &[u8]) -> Answer {
        let silence = vec![0u8; 16_000 * 2 / 4];
        let frames = pcm
            .chunks(8_000)
            .chain(std::iter::repeat_n(&silence[..], 6));
        for frame in frames {
            let mut frame = frame.to_vec();
            frame.truncate(frame.len() & !1);
            self.ws.send(Message::binary(frame)).await.unwrap();
        }
        let mut answer = Answer {
            heard: String::new(),
            calls: Vec::new(),
            reply: String::new(),
        };
        loop {
            let frame = self.json().await.expect("the socket is open");
            match frame["type"].as_str() {
                Some("transcript") => answer.heard = frame["text"].as_str().unwrap().into(),
                Some("tool") => answer
                    .calls
                    .extend(frame["calls"].as_array().unwrap().clone()),
                Some("reply") => {
                    answer.reply = frame["text"].as_str().unwrap().into();
                    return answer;
                }
                _ => panic!("unexpected frame {frame}"),
            }
        }
    }
}

/// A server with no provider key, so `/live` defaults to the local provider.
fn server() -> Server {
    tokio::task::block_in_place(|| Server::start_with_env(&[]))
}

#[tokio::test(flavor = "multi_thread")]
async fn four_spoken_commands_act_through_the_executor() {
    if !available() {
        return;
    }
    let server = server();
    // No provider named and no key set: the local one.
    let mut page = Page::open(&server, "").await;
    assert_eq!(
        page.expect("rate").await,
        json!({"type": "rate", "inputRate": 16000, "outputRate": 24000, "provider": "local"})
    );
    page.expect("ready").await;
    drop(page);
    let mut page = Page::open(&server, "?provider=local").await;
    page.expect("rate").await;
    page.expect("ready").await;
    let hello = server.root.join("hello.txt");

    let write = page
        .say(&speak(
            "create a file called hello dot txt with hello",
            "en-us",
        ))
        .await;
    assert_eq!(
        write.heard, "create a file called hello dot txt with hello",
        "{write:?}"
    );
    assert_eq!(write.calls[0]["name"], "write", "{write:?}");
    assert_eq!(write.calls[0]["result"]["ok"], true, "{write:?}");
    assert_eq!(std::fs::read_to_string(&hello).unwrap(), "hello");

    let read = page.say(&speak("read hello dot txt", "en-us")).await;
    assert_eq!(
        read.calls.first().map(|c| &c["action"]),
        Some(&json!({"verb": "read", "name": "hello.txt"})),
        "{read:?}"
    );
    assert_eq!(read.calls[0]["result"]["content"], "hello", "{read:?}");
    assert!(read.reply.contains("hello"), "{read:?}");

    let list = page.say(&speak("list the files", "en-us")).await;
    assert_eq!(list.calls[0]["name"], "list", "{list:?}");
    assert!(list.reply.contains("hello.txt"), "{list:?}");

    let delete = page.say(&speak("delete hello dot txt", "en-us")).await;
    assert_eq!(delete.calls[0]["name"], "delete", "{delete:?}");
    let confirm = &delete.calls[0]["result"]["confirm"];
    assert!(confirm["id"].is_string(), "{delete:?}");
    assert!(delete.reply.contains("Click Yes or No"), "{delete:?}");
    assert!(hello.exists(), "a spoken delete waits for the click");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_model_is_refused_by_name_with_the_packages_to_install() {
    let server = tokio::task::block_in_place(|| {
        Server::start_with_env(&[("VOICEBOX_SPHINX_MODEL", "/nonexistent/model")])
    });
    let mut page = Page::open(&server, "?provider=local").await;
    let error = page.expect("error").await;
    assert_eq!(error["refused"], "offline-voice-unavailable");
    let why = error["why"].as_str().unwrap();
    assert!(
        why.contains("pocketsphinx-en-us") && why.contains("libpocketsphinx3"),
        "{why}"
    );
    let end = page.expect("end").await;
    assert_eq!(end["reason"], "setup-failed");
    assert!(page.json().await.is_none(), "the session ended once");
}

/// Word edits (substitutions, insertions, deletions) from `hyp` to `reference`.
fn edits(reference: &[&str], hyp: &[&str]) -> usize {
    let mut row: Vec<usize> = (0..=hyp.len()).collect();
    for (i, r) in reference.iter().enumerate() {
        let mut next = vec![i + 1];
        for (j, h) in hyp.iter().enumerate() {
            let cost = usize::from(r != h);
            next.push((row[j] + cost).min(row[j + 1] + 1).min(next[j] + 1));
        }
        row = next;
    }
    row[hyp.len()]
}

/// One sentence of each spoken kind of the command list.
const SENTENCES: &[&str] = &[
    "create a file called hello dot txt with hello",
    "write eggs and milk to notes dot md",
    "read hello dot txt",
    "what is in notes dot md",
    "list the files",
    "what files are there",
    "replace eggs with bread in notes dot md",
    "search for milk",
    "diff hello dot txt with goodbye",
    "undo the last change",
    "what tools are there",
    "delete hello dot txt",
];
const VOICES: &[&str] = &["en-us", "en-gb", "en+f3", "en-us+m3"];

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a report: run with --ignored --nocapture to measure the word error rate"]
async fn wer() {
    if !available() {
        return;
    }
    let server = server();
    let mut page = Page::open(&server, "?provider=local").await;
    page.expect("rate").await;
    page.expect("ready").await;
    let (mut errors, mut words, mut acted, mut total) = (0, 0, 0, 0);
    println!("| voice | said | heard | edits |");
    println!("|---|---|---|---|");
    for voice in VOICES {
        for sentence in SENTENCES {
            let answer = page.say(&speak(sentence, voice)).await;
            let reference: Vec<&str> = sentence.split_whitespace().collect();
            let hyp: Vec<&str> = answer.heard.split_whitespace().collect();
            let e = edits(&reference, &hyp);
            errors += e;
            words += reference.len();
            total += 1;
            let wanted = match voicebox_core::resolver::resolve(sentence) {
                voicebox_core::resolver::Resolution::Action(a) => serde_json::to_value(a).ok(),
                _ => None,
            };
            if answer.calls.first().map(|c| &c["action"]) == wanted.as_ref() {
                acted += 1;
            }
            println!("| {voice} | {sentence} | {} | {e} |", answer.heard);
        }
    }
    let wer = 100.0 * errors as f64 / words as f64;
    println!(
        "\nWER {wer:.1}% ({errors} edits / {words} words) over {total} utterances; {acted}/{total} became the intended action"
    );
    assert!(total >= 30);
}
