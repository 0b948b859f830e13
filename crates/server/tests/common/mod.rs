//! A real `voicebox serve` process on 127.0.0.1 and clients that talk to it.
#![allow(dead_code)]

pub mod browser;
pub mod env_checks;
pub mod live_fake;
pub mod page_channel;
pub mod repo;
pub mod spoken;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use tempfile::TempDir;

/// A running server with its own root and state folder; killed on drop.
pub struct Server {
    child: Child,
    pub port: u16,
    pub base: String,
    pub root: PathBuf,
    pub token: String,
    /// The address `serve` printed to open the page (with its secret).
    pub page_url: String,
    /// The page's session, as `page_url` hands it over (the redirect's
    /// fragment); the page sends it as the `x-voicebox-session` header.
    pub session: String,
    pub state: PathBuf,
    /// Every line the server printed on its console (stdout) after the two
    /// it starts with (where it listens, and the address that opens the page).
    pub console: Arc<Mutex<Vec<String>>>,
    /// Every line the server logged (stderr), also echoed to the test's stderr.
    pub logs: Arc<Mutex<Vec<String>>>,
    _dirs: (TempDir, TempDir),
}

impl Server {
    /// Starts a server on a fresh root.
    pub fn start() -> Server {
        Server::start_with(true)
    }

    /// Starts a server, with or without `--root`.
    pub fn start_with(with_root: bool) -> Server {
        Server::launch(with_root, &[])
    }

    /// Starts a server on a fresh root with extra environment variables
    /// (e.g. `VOICEBOX_RESOLVER`, a vendor base URL).
    pub fn start_with_env(env: &[(&str, &str)]) -> Server {
        Server::launch(true, env)
    }

    fn launch(with_root: bool, env: &[(&str, &str)]) -> Server {
        let dirs = (TempDir::new().unwrap(), TempDir::new().unwrap());
        Server::launch_in(dirs, with_root, env)
    }

    /// Kills the server with SIGKILL (no shutdown of any kind) and starts a
    /// new one on the same root and state folder.
    pub fn crash_and_restart(mut self) -> Server {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        let dirs = std::mem::replace(
            &mut self._dirs,
            (TempDir::new().unwrap(), TempDir::new().unwrap()),
        );
        Server::launch_in(dirs, true, &[])
    }

    fn launch_in(dirs: (TempDir, TempDir), with_root: bool, env: &[(&str, &str)]) -> Server {
        let (root_dir, state_dir) = dirs;
        let root = std::fs::canonicalize(root_dir.path()).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_voicebox"));
        command
            .args(["serve", "--port", "0", "--state-dir"])
            .arg(state_dir.path());
        if with_root {
            command.arg("--root").arg(&root);
        }
        clean_env(&mut command);
        let mut child = command
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let logs = Arc::new(Mutex::new(Vec::new()));
        let logged = logs.clone();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                eprintln!("{line}");
                logged.lock().unwrap().push(line);
            }
        });
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        let mut open = String::new();
        stdout.read_line(&mut open).unwrap();
        let page_url = open
            .trim()
            .strip_prefix("open ")
            .unwrap_or_else(|| panic!("unexpected second line {open:?}"))
            .to_string();
        let console = Arc::new(Mutex::new(Vec::new()));
        let lines = console.clone();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let port = base.rsplit(':').next().unwrap().parse().unwrap();
        let token = std::fs::read_to_string(state_dir.path().join("host-token")).unwrap();
        let session = page_session(port, &page_url);
        let state = state_dir.path().to_path_buf();
        Server {
            child,
            port,
            base,
            root,
            token,
            page_url,
            session,
            state,
            console,
            logs,
            _dirs: (root_dir, state_dir),
        }
    }

    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The text of the file `name` in the root (a test's failure if it
    /// cannot be read).
    pub fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.root.join(name))
            .unwrap_or_else(|e| panic!("reading {name}: {e}"))
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The address a browser opens `path` at: with the printed secret, which
    /// sets the page's session and redirects to `path`.
    pub fn opening(&self, path: &str) -> String {
        let secret = self.page_url.split("token=").nth(1).unwrap();
        format!("{}{path}?token={secret}", self.base)
    }

    /// A POST from this server's own page (its session and its Origin).
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(By::Page, reqwest::Method::POST, path, body).await
    }

    /// The page's answer to the question `id` (`POST /api/confirm`).
    pub async fn confirm(&self, id: impl serde::Serialize, approved: bool) -> (u16, Value) {
        self.post("/api/confirm", json!({"id": id, "approved": approved}))
            .await
    }

    /// A PUT from this server's own page (e.g. its settings or keys).
    pub async fn put(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(By::Page, reqwest::Method::PUT, path, body).await
    }

    /// The page un-declares the active root (`DELETE /api/root`); the status.
    pub async fn undeclare(&self) -> u16 {
        reqwest::Client::new()
            .delete(self.url("/api/root"))
            .header("origin", self.origin())
            .header(SESSION, &self.session)
            .header("content-type", "application/json")
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    }

    /// The page un-declares the active root, after which a turn finds no
    /// root at all.
    pub async fn undeclare_to_no_root(&self) {
        assert_eq!(self.undeclare().await, 200);
        assert_eq!(
            self.say("list files").await["result"]["refused"],
            "root-not-declared"
        );
    }

    /// What a WebSocket from the page offers as its subprotocols: the one
    /// the server answers with, and the page's session.
    pub fn socket_protocols(&self) -> String {
        format!("voicebox, voicebox.session.{}", self.session)
    }

    /// A GET from this server's own page (its session).
    pub async fn get(&self, path: &str) -> (u16, Value) {
        answer(
            reqwest::Client::new()
                .get(self.url(path))
                .header(SESSION, &self.session),
        )
        .await
    }

    /// A GET with no authority at all (no session, no token).
    pub async fn get_as_stranger(&self, path: &str) -> (u16, Value) {
        answer(reqwest::Client::new().get(self.url(path))).await
    }

    /// A typed turn from the page.
    pub async fn say(&self, text: &str) -> Value {
        let (status, body) = self
            .post("/api/turn", serde_json::json!({"transcript": text}))
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// Sends `action` as a turn (200 expected) and answers the reply.
    pub async fn act(&self, action: Value) -> Value {
        let (status, body) = self.post("/api/turn", json!({"action": action})).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// The newest page's entries, oldest first (the route pages newest first).
    pub async fn audit(&self) -> Vec<Value> {
        let (_, audit) = self.get("/api/audit?limit=1000").await;
        let mut entries = audit["entries"].as_array().cloned().unwrap_or_default();
        entries.reverse();
        entries
    }

    /// Every extension approval code the console has printed, oldest first.
    pub fn console_codes(&self) -> Vec<String> {
        let console = self.console.lock().unwrap();
        let printed = console.iter().filter(|l| l.contains("approval code"));
        printed
            .filter_map(|l| l.split("): ").nth(1)?.split(' ').next().map(String::from))
            .collect()
    }

    /// Waits for the `n`th approval code (from 0) to be printed on the console.
    pub async fn console_code(&self, n: usize) -> String {
        for _ in 0..300 {
            if let Some(code) = self.console_codes().get(n) {
                return code.clone();
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("no approval code {n} was printed on the console");
    }

    /// A POST with the host token (the person at the host).
    pub async fn post_with_token(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(By::Token, reqwest::Method::POST, path, body)
            .await
    }

    /// A PUT with the host token (e.g. storing a provider key).
    pub async fn put_with_token(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(By::Token, reqwest::Method::PUT, path, body).await
    }

    /// A JSON request with `by`'s authority; the status and the JSON body.
    async fn send(&self, by: By, method: reqwest::Method, path: &str, body: Value) -> (u16, Value) {
        let request = reqwest::Client::new().request(method, self.url(path));
        let request = match by {
            By::Page => request
                .header("origin", self.origin())
                .header(SESSION, &self.session),
            By::Token => request.header("x-voicebox-host-token", &self.token),
        };
        answer(request.json(&body)).await
    }

    /// Waits for the server to exit (after a signal).
    pub fn wait(&mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// Asserts `reply` is refused by `rule` and that its why includes `words`.
#[track_caller]
pub fn assert_refused_saying(reply: &Value, rule: &str, words: &str) {
    assert_eq!(reply["refused"], rule, "{reply}");
    let why = reply["why"].as_str().unwrap_or_default();
    assert!(why.contains(words), "the why says {words:?}: {reply}");
}

/// The string `key` of every element of the array `list`, in order.
pub fn each<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|item| item[key].as_str().unwrap())
        .collect()
}

/// Who a request is from: this server's own page (its session and its
/// Origin), or the person at the host (the host token).
enum By {
    Page,
    Token,
}

/// Sends `request`; the status and the JSON body.
async fn answer(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// The header the page's session rides in.
pub const SESSION: &str = "x-voicebox-session";

/// Opens `page_url` as a browser would and returns the session its redirect
/// hands the page in the fragment (and checks it sets no cookie).
fn page_session(port: u16, page_url: &str) -> String {
    let target = page_url
        .strip_prefix(&format!("http://127.0.0.1:{port}"))
        .unwrap();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(
        !answer.to_ascii_lowercase().contains("set-cookie"),
        "no cookie: {answer}"
    );
    answer
        .lines()
        .find_map(|line| line.strip_prefix("location: /#session="))
        .unwrap_or_else(|| panic!("the page address hands over a session: {answer}"))
        .trim()
        .to_string()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Removes the settings a test must not inherit from the developer's shell:
/// the root, the resolver, the live provider and its endpoints, and provider
/// keys (a test passes the ones it means).
pub fn clean_env(command: &mut Command) {
    for name in [
        "VOICEBOX_ROOT",
        "VOICEBOX_RESOLVER",
        "VOICEBOX_LIVE_PROVIDER",
        "VOICEBOX_GEMINI_LIVE_URL",
        "VOICEBOX_OPENAI_REALTIME_URL",
        "VOICEBOX_GEMINI_LIVE_MODEL",
        "VOICEBOX_OPENAI_REALTIME_MODEL",
        "GEMINI_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "VOICEBOX_SPHINX_MODEL",
    ] {
        command.env_remove(name);
    }
}

/// A folder of the person's outside any server's root, holding `files`
/// (name, text); removed on drop.
pub fn folder_with(files: &[(&str, &str)]) -> TempDir {
    let folder = TempDir::new().unwrap();
    for (name, text) in files {
        voicebox_test_support::put_file(folder.path(), name, text);
    }
    folder
}

/// A raw HTTP/1.1 exchange, for requests a well-behaved client will not send
/// (a foreign Host header). Returns the status and the body.
pub fn raw(port: u16, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}
