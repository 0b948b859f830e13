//! Speaking to `/live?provider=local` as the page does: espeak-ng's speech,
//! resampled by sox to 16 kHz mono PCM16, streamed in quarter-second frames.
//! Outside CI a missing espeak-ng, sox or pocketsphinx skips LOUDLY; under
//! `CI=true` it fails (`./scripts/test` installs them).

use super::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
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
pub fn available() -> bool {
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

/// Whether pocketsphinx (library and model) is here; panics under CI if not.
pub fn sphinx_here() -> bool {
    voicebox_test_support::present_or_skip(
        Path::new(LIBRARY).exists() && Path::new(MODEL).exists(),
        "Debian's libpocketsphinx3 and pocketsphinx-en-us",
        "apt-get install -y libpocketsphinx3 pocketsphinx-en-us",
    )
}

/// Where `./scripts/test` installs the Whisper-class recogniser.
pub fn moonshine_dir() -> std::path::PathBuf {
    std::env::var_os("VOICEBOX_MOONSHINE_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var_os("HOME").unwrap()).join(".local/share/voicebox/moonshine")
        })
}

/// Whether the Whisper-class recogniser (PyPI moonshine-cpp) is installed
/// where the server looks first; panics under CI if not.
pub fn whisper_available() -> bool {
    voicebox_test_support::present_or_skip(
        moonshine_dir()
            .join("moonshine_cpp/libmoonshine.so")
            .is_file(),
        "PyPI's moonshine-cpp",
        "python3 -m pip install --target ~/.local/share/voicebox/moonshine moonshine-cpp==0.1.4",
    )
}

/// `text` spoken by espeak-ng's `voice`, as 16 kHz mono PCM16 LE.
pub fn speak(text: &str, voice: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (wav, raw) = (dir.path().join("in.wav"), dir.path().join("out.raw"));
    let spoke = Command::new("espeak-ng")
        .args(["-v", voice, "-w"])
        .arg(&wav)
        .arg(text)
        .status()
        .unwrap();
    assert!(spoke.success(), "espeak-ng -v {voice} {text:?}");
    pcm16(&wav, &raw)
}

/// The sound file `wav` converted by sox to 16 kHz mono PCM16 LE, by way of
/// `raw` (a path in the caller's scratch folder).
pub fn pcm16(wav: &Path, raw: &Path) -> Vec<u8> {
    let converted = Command::new("sox")
        .arg(wav)
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
        .arg(raw)
        .status()
        .unwrap();
    assert!(converted.success(), "sox {}", wav.display());
    std::fs::read(raw).unwrap()
}

/// A test page on `/live` with the server's own Origin.
pub struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// What one utterance came to: what was heard, the tool calls, the reply.
#[derive(Debug)]
pub struct Answer {
    pub heard: String,
    pub calls: Vec<Value>,
    pub reply: String,
}

impl Page {
    pub async fn open(server: &Server, query: &str) -> Page {
        let url = format!("ws://127.0.0.1:{}/live{query}", server.port);
        let mut request = url.into_client_request().unwrap();
        let headers = request.headers_mut();
        headers.insert("origin", server.origin().parse().unwrap());
        headers.insert(
            "sec-websocket-protocol",
            server.socket_protocols().parse().unwrap(),
        );
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        Page { ws }
    }

    /// The next JSON frame; `None` when the socket closed.
    pub async fn json(&mut self) -> Option<Value> {
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

    /// Closes the session and waits for the server's own close, which
    /// comes once the session's recogniser is freed.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
        while self.json().await.is_some() {}
    }

    pub async fn expect(&mut self, kind: &str) -> Value {
        let frame = self.json().await.expect("the socket is open");
        assert_eq!(frame["type"], kind, "{frame}");
        frame
    }

    /// Streams `pcm` in quarter-second frames, then silence so the
    /// recogniser hears the end, and gathers frames up to the reply.
    pub async fn say(&mut self, pcm: &[u8]) -> Answer {
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

impl Page {
    /// Says `sentence` and checks it read `name` at once, holding `content`.
    pub async fn reads(
        &mut self,
        sentence: &str,
        voice: &str,
        name: &str,
        content: &str,
    ) -> Answer {
        let read = self.say(&speak(sentence, voice)).await;
        assert_eq!(
            read.calls.first().map(|c| &c["action"]),
            Some(&serde_json::json!({"verb": "read", "name": name})),
            "{read:?}"
        );
        assert_eq!(read.calls[0]["result"]["content"], content, "{read:?}");
        read
    }
}

/// A server with no provider key, so `/live` defaults to the local provider.
pub fn server() -> Server {
    tokio::task::block_in_place(|| Server::start_with_env(&[]))
}

/// Word edits (substitutions, insertions, deletions) from `hyp` to `reference`.
pub fn edits(reference: &[&str], hyp: &[&str]) -> usize {
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
