//! `GET /live` against local fakes that speak each provider's real protocol
//! (as Gemini Live's and OpenAI Realtime's published docs give it): a real `voicebox
//! serve` with the provider's URL pointed at a WebSocket server on
//! 127.0.0.1 that records what it receives, and a test page that connects
//! to `/live` with the server's own Origin.

mod common;

use base64::Engine;
use common::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::server::{
    Callback, ErrorResponse, Request, Response,
};
use tokio_tungstenite::tungstenite::http::HeaderMap;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use voicebox_core::command::COMMANDS;

/// The longest any one step may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(30);
const GEMINI_KEY: &str = "gm-test-key-4321";
const OPENAI_KEY: &str = "sk-test-key-8765";
const GEMINI_PATH: &str =
    "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

/// A fake provider: accepts WebSockets on 127.0.0.1 and hands each
/// connection to the test, counting every TCP connection it sees.
struct Fake {
    port: u16,
    connections: Arc<AtomicUsize>,
    accepted: mpsc::UnboundedReceiver<Upstream>,
}

impl Fake {
    async fn start() -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = Arc::new(AtomicUsize::new(0));
        let (sender, accepted) = mpsc::unbounded_channel();
        let counted = connections.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                let sender = sender.clone();
                tokio::spawn(async move {
                    let mut seen = None;
                    if let Ok(ws) =
                        tokio_tungstenite::accept_hdr_async(stream, Record(&mut seen)).await
                    {
                        let (uri, headers) = seen.unwrap();
                        let _ = sender.send(Upstream { ws, uri, headers });
                    }
                });
            }
        });
        Fake {
            port,
            connections,
            accepted,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("ws://127.0.0.1:{}{path}", self.port)
    }

    /// The next session the bridge opened.
    async fn accept(&mut self) -> Upstream {
        tokio::time::timeout(STEP, self.accepted.recv())
            .await
            .expect("the bridge connected upstream")
            .unwrap()
    }

    /// TCP connections seen so far (after giving a stray one time to arrive).
    async fn connections(&self) -> usize {
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.connections.load(Ordering::SeqCst)
    }
}

/// Keeps the handshake's URI and headers.
struct Record<'a>(&'a mut Option<(String, HeaderMap)>);

impl Callback for Record<'_> {
    fn on_request(self, request: &Request, response: Response) -> Result<Response, ErrorResponse> {
        *self.0 = Some((request.uri().to_string(), request.headers().clone()));
        Ok(response)
    }
}

/// One upstream session as the provider sees it.
struct Upstream {
    ws: WebSocketStream<TcpStream>,
    uri: String,
    headers: HeaderMap,
}

impl Upstream {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The next JSON message the bridge sent, or `None` once it closed.
    async fn next(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(STEP, self.ws.next())
                .await
                .expect("the bridge sent something");
            match message {
                Some(Ok(Message::Text(text))) => return Some(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(other)) => assert!(other.is_ping() || other.is_pong(), "{other:?}"),
            }
        }
    }

    async fn recv(&mut self) -> Value {
        self.next().await.expect("a message, not a close")
    }

    async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .unwrap();
    }

    /// Gemini may send its JSON in binary frames.
    async fn send_binary(&mut self, message: Value) {
        let bytes = message.to_string().into_bytes();
        self.ws.send(Message::binary(bytes)).await.unwrap();
    }
}

/// What the page receives.
#[derive(Debug)]
enum Frame {
    Json(Value),
    Audio(Vec<u8>),
    Closed,
}

/// A test page connected to `/live`.
struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Page {
    /// Opens `/live<query>` with `origin` (the server's own when `None`);
    /// a refused upgrade gives its status and body.
    async fn open_from(
        server: &Server,
        query: &str,
        origin: Option<&str>,
    ) -> Result<Page, (u16, String)> {
        let url = format!("ws://127.0.0.1:{}/live{query}", server.port);
        let mut request = url.into_client_request().unwrap();
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("origin", origin.parse().unwrap());
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((ws, _)) => Ok(Page { ws }),
            Err(Error::Http(response)) => Err((
                response.status().as_u16(),
                String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into(),
            )),
            Err(other) => panic!("{other}"),
        }
    }

    async fn open(server: &Server, query: &str) -> Page {
        Page::open_from(server, query, Some(&server.origin()))
            .await
            .expect("the own origin is let in")
    }

    async fn frame(&mut self) -> Frame {
        loop {
            let message = tokio::time::timeout(STEP, self.ws.next())
                .await
                .expect("the bridge told the page something");
            return match message {
                Some(Ok(Message::Text(text))) => Frame::Json(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Binary(pcm))) => Frame::Audio(pcm.to_vec()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => Frame::Closed,
                Some(Ok(_)) => continue,
            };
        }
    }

    /// The next JSON frame (model audio skipped).
    async fn json(&mut self) -> Value {
        loop {
            match self.frame().await {
                Frame::Json(value) => return value,
                Frame::Audio(_) => continue,
                Frame::Closed => panic!("the page's socket closed"),
            }
        }
    }

    /// The next JSON frame, which must be of `kind`.
    async fn expect(&mut self, kind: &str) -> Value {
        let frame = self.json().await;
        assert_eq!(frame["type"], kind, "{frame}");
        frame
    }

    /// Every JSON frame until the socket closes.
    async fn rest(&mut self) -> Vec<Value> {
        let mut frames = Vec::new();
        loop {
            match self.frame().await {
                Frame::Json(value) => frames.push(value),
                Frame::Audio(_) => {}
                Frame::Closed => return frames,
            }
        }
    }

    async fn audio(&mut self, pcm: &[u8]) {
        self.ws.send(Message::binary(pcm.to_vec())).await.unwrap();
    }

    async fn text(&mut self, frame: Value) {
        self.ws
            .send(Message::text(frame.to_string()))
            .await
            .unwrap();
    }
}

/// `samples` of PCM16 LE, distinct per `seed`.
fn pcm(samples: usize, seed: u8) -> Vec<u8> {
    (0..samples * 2)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

fn unbase64(text: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text.as_str().unwrap())
        .unwrap()
}

fn verbs() -> Vec<&'static str> {
    COMMANDS.iter().map(|c| c.verb).collect()
}

async fn gemini_server(fake: &Fake) -> Server {
    let url = fake.url(GEMINI_PATH);
    tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("VOICEBOX_GEMINI_LIVE_URL", &url),
            ("VOICEBOX_GEMINI_LIVE_MODEL", "gemini-live-test"),
            ("GEMINI_API_KEY", GEMINI_KEY),
        ])
    })
}

async fn openai_server(fake: &Fake) -> Server {
    let url = fake.url("/v1/realtime");
    tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("VOICEBOX_OPENAI_REALTIME_URL", &url),
            ("VOICEBOX_OPENAI_REALTIME_MODEL", "gpt-realtime-test"),
            ("OPENAI_API_KEY", OPENAI_KEY),
        ])
    })
}

/// A Gemini session up to `setupComplete`: the page, the upstream, and the setup it got.
async fn gemini_ready(server: &Server, fake: &mut Fake) -> (Page, Upstream, Value) {
    let mut page = Page::open(server, "?provider=gemini").await;
    page.expect("rate").await;
    let mut upstream = fake.accept().await;
    let setup = upstream.recv().await;
    upstream.send(json!({"setupComplete": {}})).await;
    page.expect("ready").await;
    (page, upstream, setup)
}

/// An OpenAI session up to `session.updated`.
async fn openai_ready(server: &Server, fake: &mut Fake) -> (Page, Upstream, Value) {
    let mut page = Page::open(server, "?provider=openai").await;
    page.expect("rate").await;
    let mut upstream = fake.accept().await;
    upstream
        .send(json!({"type": "session.created", "event_id": "event_1", "session": {"type": "realtime", "id": "sess_1", "tools": []}}))
        .await;
    let update = upstream.recv().await;
    upstream
        .send(
            json!({"type": "session.updated", "event_id": "event_2", "session": update["session"]}),
        )
        .await;
    page.expect("ready").await;
    (page, upstream, update)
}

fn gemini_call(id: &str, name: &str, args: Value) -> Value {
    json!({"id": id, "name": name, "args": args})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_foreign_origin_is_refused_before_any_upstream_and_the_own_origin_gets_the_rate_first() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let other_port = format!("http://127.0.0.1:{}", server.port + 1);
    for origin in [Some("http://evil.example"), Some(other_port.as_str()), None] {
        let Err((status, body)) = Page::open_from(&server, "", origin).await else {
            panic!("{origin:?} was let in");
        };
        assert_eq!(status, 403, "{origin:?}");
        assert!(body.contains("foreign-origin"), "{body}");
    }
    assert_eq!(
        fake.connections().await,
        0,
        "no upstream for a refused peer"
    );

    let mut page = Page::open(&server, "").await;
    assert_eq!(
        page.json().await,
        json!({"type": "rate", "inputRate": 16000, "outputRate": 24000, "provider": "gemini"})
    );
    fake.accept().await;
    assert_eq!(fake.connections().await, 1);

    let (_, doc) = server.get("/api/openapi.json").await;
    assert!(doc["paths"]["/live"]["get"]["responses"]["403"].is_object());

    let Err((status, body)) =
        Page::open_from(&server, "?provider=claude", Some(&server.origin())).await
    else {
        panic!("an unknown provider was let in");
    };
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("malformed-field"), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn gemini_sets_up_forwards_audio_and_answers_a_tool_call_by_id() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let mut page = Page::open(&server, "?provider=gemini").await;
    page.expect("rate").await;
    let mut upstream = fake.accept().await;
    assert!(upstream.uri.starts_with(GEMINI_PATH), "{}", upstream.uri);
    let keyed = upstream.header("x-goog-api-key") == Some(GEMINI_KEY)
        || upstream.uri.contains(&format!("key={GEMINI_KEY}"));
    assert!(keyed, "the key travels as Gemini takes it");

    // Audio before setupComplete is counted and dropped; the refusal of the
    // empty frame after it shows the bridge has read it.
    page.audio(&pcm(160, 1)).await;
    page.audio(&[]).await;
    page.expect("error").await;

    let setup = upstream.recv().await;
    let object = setup.as_object().unwrap();
    assert_eq!(
        object.keys().collect::<Vec<_>>(),
        ["setup"],
        "setup comes first, alone"
    );
    let setup = &setup["setup"];
    assert_eq!(setup["model"], "models/gemini-live-test");
    assert_eq!(
        setup["generationConfig"]["responseModalities"],
        json!(["AUDIO"])
    );
    assert_eq!(setup["outputAudioTranscription"], json!({}));
    let instruction = setup["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        instruction.contains("Voicebox") && instruction.contains("a spoken yes is not consent")
    );
    let declarations = setup["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap();
    let names: Vec<&str> = declarations
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, verbs(), "one function per verb of the command list");
    let write = declarations.iter().find(|d| d["name"] == "write").unwrap();
    assert_eq!(
        write["parametersJsonSchema"]["required"],
        json!(["name", "content"])
    );

    upstream.send_binary(json!({"setupComplete": {}})).await;
    assert_eq!(
        page.expect("ready").await,
        json!({"type": "ready", "droppedBeforeReady": 1})
    );

    let spoken = pcm(320, 2);
    page.audio(&spoken).await;
    let audio = upstream.recv().await;
    assert_eq!(
        audio["realtimeInput"]["audio"]["mimeType"],
        "audio/pcm;rate=16000"
    );
    assert_eq!(unbase64(&audio["realtimeInput"]["audio"]["data"]), spoken);

    let speech = pcm(240, 3);
    let data = base64::engine::general_purpose::STANDARD.encode(&speech);
    upstream
        .send(json!({"serverContent": {"modelTurn": {"parts": [{"inlineData": {"mimeType": "audio/pcm;rate=24000", "data": data}}]}}}))
        .await;
    let Frame::Audio(heard) = page.frame().await else {
        panic!("model audio reaches the page as a binary frame");
    };
    assert_eq!(heard, speech);
    upstream
        .send(json!({"serverContent": {"outputTranscription": {"text": "Writing it now."}}}))
        .await;
    assert_eq!(
        page.expect("transcript").await,
        json!({"type": "transcript", "who": "model", "text": "Writing it now."})
    );

    let call = gemini_call(
        "function-call-1",
        "write",
        json!({"name": "hello.txt", "content": "hi"}),
    );
    upstream
        .send(json!({"toolCall": {"functionCalls": [call]}}))
        .await;
    let answer = upstream.recv().await;
    let responses = answer["toolResponse"]["functionResponses"]
        .as_array()
        .unwrap();
    assert_eq!(responses.len(), 1);
    assert_eq!(responses[0]["id"], "function-call-1");
    assert_eq!(responses[0]["name"], "write");
    let output = &responses[0]["response"]["output"];
    assert_eq!(output["ok"], true, "{answer}");
    assert_eq!(output["action"], "wrote hello.txt (2 bytes)");
    assert!(output.get("root").is_none(), "the host's path stays home");
    assert_eq!(
        std::fs::read_to_string(server.root.join("hello.txt")).unwrap(),
        "hi"
    );

    let tool = page.expect("tool").await;
    let calls = tool["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0]["id"], "function-call-1");
    assert_eq!(calls[0]["name"], "write");
    assert_eq!(
        calls[0]["action"],
        json!({"verb": "write", "name": "hello.txt", "content": "hi"})
    );
    assert_eq!(calls[0]["result"]["ok"], true);
    assert!(calls[0]["ms"].is_u64());
    let audit = server.audit().await;
    assert!(
        audit
            .iter()
            .any(|e| e["turn"] == "live" && e["act"]["kind"] == "write"),
        "the act is audited under turn live: {audit:?}"
    );

    page.text(json!({"type": "interrupt"})).await;
    assert_eq!(
        upstream.recv().await,
        json!({"clientContent": {"turnComplete": false}})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn gemini_answers_every_call_of_a_batch_and_a_cancelled_write_stands() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;

    let calls = [
        gemini_call("a", "write", json!({"name": "notes.md", "content": "milk"})),
        gemini_call("b", "read", json!({"name": "missing.md"})),
    ];
    upstream
        .send(json!({"toolCall": {"functionCalls": calls}}))
        .await;
    let answer = upstream.recv().await;
    let responses = answer["toolResponse"]["functionResponses"]
        .as_array()
        .unwrap();
    let ids: Vec<&str> = responses
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b"], "both calls answered, each by its id");
    assert_eq!(responses[0]["response"]["output"]["ok"], true);
    assert_eq!(responses[1]["response"]["error"]["refused"], "not-found");
    let tool = page.expect("tool").await;
    assert_eq!(tool["calls"].as_array().unwrap().len(), 2);

    upstream
        .send(json!({"toolCallCancellation": {"ids": ["a", "b"]}}))
        .await;
    let write = page.expect("cancelled").await;
    assert_eq!(write["id"], "a");
    assert_eq!(write["name"], "write");
    assert_eq!(write["changed"], true);
    assert!(
        write["why"].as_str().unwrap().contains("the change stands"),
        "{write}"
    );
    let read = page.expect("cancelled").await;
    assert_eq!(
        (read["id"].as_str(), read["changed"].as_bool()),
        (Some("b"), Some(false))
    );
    assert_eq!(
        std::fs::read_to_string(server.root.join("notes.md")).unwrap(),
        "milk",
        "a cancellation never undoes what was done"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn calls_that_do_not_fit_are_refused_by_name_and_calls_before_ready_are_not_run() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let mut page = Page::open(&server, "").await;
    page.expect("rate").await;
    let mut upstream = fake.accept().await;
    upstream.recv().await;

    let early = gemini_call(
        "early",
        "write",
        json!({"name": "early.txt", "content": "x"}),
    );
    upstream
        .send(json!({"toolCall": {"functionCalls": [early]}}))
        .await;
    let answer = upstream.recv().await;
    let response = &answer["toolResponse"]["functionResponses"][0];
    assert_eq!(response["id"], "early");
    assert_eq!(response["response"]["error"]["refused"], "not-ready");
    assert!(!server.root.join("early.txt").exists());
    page.expect("tool").await;

    upstream.send(json!({"setupComplete": {}})).await;
    page.expect("ready").await;
    let misfits = [
        gemini_call("x", "launch_rockets", json!({})),
        gemini_call("y", "read", json!({"verb": "delete", "name": "notes.md"})),
        gemini_call("z", "write", json!({"name": "a.txt"})),
        gemini_call(
            "w",
            "write",
            json!({"name": "../escape.txt", "content": "x"}),
        ),
    ];
    upstream
        .send(json!({"toolCall": {"functionCalls": misfits}}))
        .await;
    let answer = upstream.recv().await;
    let rules: Vec<&str> = answer["toolResponse"]["functionResponses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["response"]["error"]["refused"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "unknown-verb",
            "unknown-field",
            "missing-argument",
            "outside-root"
        ]
    );
    let (_, health) = server.get("/api/health").await;
    assert!(health["refused"].as_u64().unwrap() >= 4, "{health}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delete_waits_for_the_persons_click_not_a_spoken_yes() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    std::fs::write(server.root.join("draft.txt"), "old").unwrap();
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;

    let call = gemini_call("d1", "delete", json!({"name": "draft.txt"}));
    upstream
        .send(json!({"toolCall": {"functionCalls": [call]}}))
        .await;
    let told = upstream.recv().await;
    let tool = page.expect("tool").await;
    let id = tool["calls"][0]["result"]["confirm"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let output = &told["toolResponse"]["functionResponses"][0]["response"]["output"];
    assert!(
        output["pending"]["plan"]
            .as_str()
            .unwrap()
            .contains("draft.txt"),
        "{told}"
    );
    assert!(output["note"].as_str().unwrap().contains("click"));
    assert!(
        !told.to_string().contains(&id),
        "the model never holds the confirmation id"
    );
    assert!(
        server.root.join("draft.txt").exists(),
        "nothing is deleted by the call"
    );

    let (status, answer) = server
        .post("/api/confirm", json!({"id": id, "approved": true}))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["ok"], true, "{answer}");
    assert!(!server.root.join("draft.txt").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn invalid_audio_frames_are_refused_one_by_one_and_the_session_lives() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;

    let one_second = 16_000 * 2;
    for (frame, rule) in [
        (vec![], "audio-empty"),
        (vec![1, 2, 3], "audio-odd-length"),
        (pcm(one_second / 2 + 1, 4), "audio-too-large"),
    ] {
        page.audio(&frame).await;
        let error = page.expect("error").await;
        assert_eq!(error["refused"], rule, "{error}");
        assert!(error["why"].as_str().is_some_and(|w| !w.is_empty()));
    }
    page.text(json!({"type": "shout"})).await;
    assert_eq!(page.expect("error").await["refused"], "unknown-frame");

    let fine = pcm(one_second / 2, 5);
    page.audio(&fine).await;
    let audio = upstream.recv().await;
    assert_eq!(
        unbase64(&audio["realtimeInput"]["audio"]["data"]),
        fine,
        "only the valid frame went up"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_upstream_close_ends_the_session_once_and_health_counts_sessions() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let (_, health) = server.get("/api/health").await;
    assert_eq!(health["live"], json!({"created": 0, "running": 0}));

    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;
    let (_, health) = server.get("/api/health").await;
    assert_eq!(health["live"], json!({"created": 1, "running": 1}));

    upstream.send(json!({"goAway": {"timeLeft": "1s"}})).await;
    upstream
        .ws
        .close(Some(CloseFrame {
            code: CloseCode::Normal,
            reason: "".into(),
        }))
        .await
        .unwrap();
    let frames = page.rest().await;
    assert_eq!(frames[0], json!({"type": "goaway", "timeLeft": "1s"}));
    let ends: Vec<&Value> = frames.iter().filter(|f| f["type"] == "end").collect();
    assert_eq!(ends.len(), 1, "{frames:?}");
    assert_eq!(ends[0]["reason"], "upstream-closed");

    let mut live = Value::Null;
    for _ in 0..50 {
        live = server.get("/api/health").await.1["live"].clone();
        if live["running"] == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(live, json!({"created": 1, "running": 0}));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_leaving_closes_the_upstream() {
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;
    page.ws.close(None).await.unwrap();
    let last = tokio::time::timeout(STEP, upstream.ws.next())
        .await
        .unwrap();
    assert!(
        matches!(last, Some(Ok(Message::Close(_)))),
        "the bridge closed the provider's socket with a close frame: {last:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn no_key_is_a_named_refusal_and_one_end_without_any_upstream() {
    let fake = Fake::start().await;
    let url = fake.url(GEMINI_PATH);
    let server = tokio::task::block_in_place(|| {
        Server::start_with_env(&[("VOICEBOX_GEMINI_LIVE_URL", &url)])
    });
    let mut page = Page::open(&server, "?provider=gemini").await;
    let frames = page.rest().await;
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0]["type"], "error");
    assert_eq!(frames[0]["refused"], "key-missing");
    assert!(
        frames[0]["why"]
            .as_str()
            .unwrap()
            .contains("GEMINI_API_KEY")
    );
    assert_eq!(frames[1]["type"], "end");
    assert_eq!(frames[1]["reason"], "setup-failed");
    assert_eq!(fake.connections().await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn openai_configures_the_session_and_answers_a_batch_with_one_response_create() {
    let mut fake = Fake::start().await;
    let server = openai_server(&fake).await;
    let mut page = Page::open(&server, "?provider=openai").await;
    assert_eq!(
        page.json().await,
        json!({"type": "rate", "inputRate": 24000, "outputRate": 24000, "provider": "openai"})
    );
    let mut upstream = fake.accept().await;
    assert_eq!(upstream.uri, "/v1/realtime?model=gpt-realtime-test");
    assert_eq!(
        upstream.header("authorization"),
        Some(format!("Bearer {OPENAI_KEY}").as_str())
    );
    assert_eq!(
        upstream.header("openai-beta"),
        None,
        "GA takes no beta header"
    );

    upstream
        .send(json!({"type": "session.created", "event_id": "event_1", "session": {"type": "realtime", "tools": []}}))
        .await;
    let update = upstream.recv().await;
    assert_eq!(update["type"], "session.update");
    let session = &update["session"];
    assert_eq!(session["type"], "realtime");
    assert_eq!(
        session["audio"]["input"]["format"],
        json!({"type": "audio/pcm", "rate": 24000})
    );
    assert_eq!(
        session["audio"]["input"]["turn_detection"]["type"],
        "server_vad"
    );
    assert!(
        session["instructions"]
            .as_str()
            .unwrap()
            .contains("Voicebox")
    );
    let tools = session["tools"].as_array().unwrap();
    assert!(tools.iter().all(|t| t["type"] == "function"));
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, verbs());

    page.audio(&pcm(240, 6)).await;
    page.audio(&[0]).await;
    page.expect("error").await;
    upstream
        .send(json!({"type": "session.updated", "session": session}))
        .await;
    assert_eq!(
        page.expect("ready").await,
        json!({"type": "ready", "droppedBeforeReady": 1})
    );
    let spoken = pcm(480, 7);
    page.audio(&spoken).await;
    let append = upstream.recv().await;
    assert_eq!(append["type"], "input_audio_buffer.append");
    assert_eq!(unbase64(&append["audio"]), spoken);

    // One response with two calls: a write, and a read of a missing file.
    for event in [
        json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}}),
        json!({"type": "response.output_item.added", "response_id": "resp_1", "output_index": 0,
               "item": {"id": "item_1", "type": "function_call", "status": "in_progress", "name": "write", "call_id": "call_1", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "call_id": "call_1", "delta": "{\"name\""}),
        json!({"type": "response.function_call_arguments.done", "response_id": "resp_1", "item_id": "item_1", "output_index": 0,
               "call_id": "call_1", "name": "write", "arguments": "{\"name\": \"a.txt\", \"content\": \"A\"}"}),
        json!({"type": "response.function_call_arguments.done", "response_id": "resp_1", "item_id": "item_2", "output_index": 1,
               "call_id": "call_2", "name": "read", "arguments": "{\"name\": \"missing.txt\"}"}),
        json!({"type": "response.output_audio_transcript.delta", "delta": "On it."}),
        json!({"type": "response.done", "response": {"id": "resp_1", "status": "completed", "output": [
            {"id": "item_1", "type": "function_call", "status": "completed", "name": "write", "call_id": "call_1", "arguments": "{\"name\": \"a.txt\", \"content\": \"A\"}"},
            {"id": "item_2", "type": "function_call", "status": "completed", "name": "read", "call_id": "call_2", "arguments": "{\"name\": \"missing.txt\"}"}
        ]}}),
    ] {
        upstream.send(event).await;
    }
    let mut outputs = Vec::new();
    for _ in 0..2 {
        let item = upstream.recv().await;
        assert_eq!(item["type"], "conversation.item.create", "{item}");
        assert_eq!(item["item"]["type"], "function_call_output");
        let output: Value = serde_json::from_str(item["item"]["output"].as_str().unwrap()).unwrap();
        outputs.push((
            item["item"]["call_id"].as_str().unwrap().to_string(),
            output,
        ));
    }
    assert_eq!(outputs[0].0, "call_1");
    assert_eq!(outputs[0].1["ok"], true);
    assert_eq!(outputs[1].0, "call_2");
    assert_eq!(outputs[1].1["refused"], "not-found");
    assert_eq!(upstream.recv().await, json!({"type": "response.create"}));
    // The next thing upstream is the next audio: exactly one response.create.
    page.audio(&spoken).await;
    assert_eq!(upstream.recv().await["type"], "input_audio_buffer.append");
    assert_eq!(
        std::fs::read_to_string(server.root.join("a.txt")).unwrap(),
        "A"
    );

    assert_eq!(
        page.expect("transcript").await,
        json!({"type": "transcript", "who": "model", "text": "On it."})
    );
    let tool = page.expect("tool").await;
    let ids: Vec<&str> = tool["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_1", "call_2"]);

    page.text(json!({"type": "interrupt"})).await;
    assert_eq!(upstream.recv().await, json!({"type": "response.cancel"}));

    // An error after setup is told to the page (key masked) and the session lives.
    upstream
        .send(json!({"type": "error", "error": {"type": "invalid_request_error", "code": "response_cancel_not_active",
            "message": format!("No active response to cancel for key {OPENAI_KEY}."), "param": null, "event_id": null}}))
        .await;
    let error = page.expect("error").await;
    assert_eq!(error["refused"], "vendor-error");
    let why = error["why"].as_str().unwrap();
    assert!(
        why.contains("No active response") && !why.contains(OPENAI_KEY),
        "{why}"
    );
    page.audio(&spoken).await;
    assert_eq!(upstream.recv().await["type"], "input_audio_buffer.append");
}

#[tokio::test(flavor = "multi_thread")]
async fn openai_an_error_before_the_session_is_updated_is_a_failed_setup() {
    let mut fake = Fake::start().await;
    let server = openai_server(&fake).await;
    let mut page = Page::open(&server, "?provider=openai").await;
    page.expect("rate").await;
    let mut upstream = fake.accept().await;
    upstream.recv().await;
    upstream
        .send(json!({"type": "error", "error": {"type": "invalid_request_error", "code": "missing_required_parameter",
            "message": "Missing required parameter: 'session.type'.", "param": "session.type", "event_id": null}}))
        .await;
    let frames = page.rest().await;
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert_eq!(frames[0]["reason"], "setup-failed");
    assert!(frames[0]["why"].as_str().unwrap().contains("session.type"));
    assert_eq!(
        upstream.next().await,
        None,
        "the provider's socket is closed"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn openai_upstream_close_ends_once() {
    let mut fake = Fake::start().await;
    let server = openai_server(&fake).await;
    let (mut page, mut upstream, _) = openai_ready(&server, &mut fake).await;
    upstream
        .ws
        .close(Some(CloseFrame {
            code: CloseCode::Error,
            reason: "Internal error occurred.".into(),
        }))
        .await
        .unwrap();
    let frames = page.rest().await;
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert_eq!(frames[0]["type"], "end");
    assert_eq!(frames[0]["reason"], "upstream-error");
    assert!(frames[0]["why"].as_str().unwrap().contains("1011"));
}

/// With a page's project as the active root, a live tool call runs in that
/// page (relayed over `/channel` as turn `live`) and this machine's disk is
/// not touched; with no page connected the call is answered `no-page`.
#[tokio::test(flavor = "multi_thread")]
async fn live_tool_calls_run_in_the_page_that_owns_the_root() {
    use common::page_channel::{channel, declare_opfs, frame, send};
    let mut fake = Fake::start().await;
    let server = gemini_server(&fake).await;
    declare_opfs(&server, "atlas").await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;
    let write = json!({"name": "notes.md", "content": "milk"});

    upstream
        .send(json!({"toolCall": {"functionCalls": [gemini_call("a", "write", write.clone())]}}))
        .await;
    let answer = upstream.recv().await;
    let response = &answer["toolResponse"]["functionResponses"][0];
    assert_eq!(
        response["response"]["error"]["refused"], "no-page",
        "{answer}"
    );
    page.expect("tool").await;

    // The page that owns the root connects and answers what it is sent.
    let mut owner = channel(&server, &server.origin()).await.unwrap();
    upstream
        .send(json!({"toolCall": {"functionCalls": [gemini_call("b", "write", write.clone())]}}))
        .await;
    let act = frame(&mut owner).await;
    assert_eq!(act["type"], "act");
    assert_eq!(
        act["request"],
        json!({"op": "execute", "action": {"verb": "write", "name": "notes.md", "content": "milk"}, "turn": "live"}),
        "the call as an action, for the page's worker"
    );
    let done = json!({"ok": true, "action": "wrote notes.md (4 bytes)", "file": "notes.md", "bytes": 4, "root": {"kind": "opfs", "path": "v1/projects/atlas"}, "logged": 7});
    send(
        &mut owner,
        json!({"type": "result", "id": act["id"], "answer": {"result": done}}),
    )
    .await;
    let answer = upstream.recv().await;
    let output = &answer["toolResponse"]["functionResponses"][0]["response"]["output"];
    assert_eq!(output["ok"], true, "{answer}");
    assert_eq!(output["via"], "page", "{answer}");
    assert!(
        output.get("root").is_none(),
        "the model is not told the root"
    );
    let tool = page.expect("tool").await;
    assert_eq!(tool["calls"][0]["result"]["via"], "page", "{tool}");
    assert!(
        !server.root.join("notes.md").exists(),
        "nothing was written on this machine"
    );

    // A read is a look, not a change: the cancellation bookkeeping sees the difference.
    upstream
        .send(json!({"toolCall": {"functionCalls": [gemini_call("c", "read", json!({"name": "notes.md"}))]}}))
        .await;
    let act = frame(&mut owner).await;
    send(
        &mut owner,
        json!({"type": "result", "id": act["id"], "answer": {"result": {"ok": true, "content": "milk"}}}),
    )
    .await;
    upstream.recv().await;
    page.expect("tool").await;
    upstream
        .send(json!({"toolCallCancellation": {"ids": ["b", "c"]}}))
        .await;
    let written = page.expect("cancelled").await;
    assert_eq!(
        (written["id"].as_str(), written["changed"].as_bool()),
        (Some("b"), Some(true))
    );
    let read = page.expect("cancelled").await;
    assert_eq!(
        (read["id"].as_str(), read["changed"].as_bool()),
        (Some("c"), Some(false))
    );
}
