//! What an admitted extension may do at call time: its declared bounds, the
//! shelf module its digest pins, redirects, and waiting while a page owns the root.

use super::*;

#[tokio::test]
async fn declared_bounds_hold_at_call_time() {
    let server = start();
    let port = origin_server();
    propose_and_admit(&server, descriptor("weather", "d")).await;
    let url = |path: &str| format!("http://127.0.0.1:{port}{path}");
    let save = |args: Value| call(&server, "weather", "save", args);

    let ok = call(&server, "weather", "fetch", json!({"url": url("/ok")})).await;
    assert_eq!(ok["output"], "hello", "{ok}");
    let other = call(
        &server,
        "weather",
        "fetch",
        json!({"url": format!("http://localhost:{port}/ok")}),
    )
    .await;
    assert_eq!(other["refused"], "host-not-allowed", "a host not declared");
    let away = call(&server, "weather", "fetch", json!({"url": url("/away")})).await;
    assert_eq!(
        away["refused"], "host-not-allowed",
        "a redirect to a host not declared"
    );
    let hop = call(&server, "weather", "fetch", json!({"url": url("/ok")})).await;
    assert_eq!(hop["output"], "hello");
    // Three requests were made (ok, away's first hop, ok): the fourth is over budget.
    let over = call(&server, "weather", "fetch", json!({"url": url("/ok")})).await;
    assert_eq!(over["refused"], "budget-exhausted", "{over}");

    let big = save(json!({"name": "n.txt", "content": "more than ten bytes"})).await;
    assert_eq!(big["refused"], "over-budget");
    assert!(!server.root.join("n.txt").exists());
    let small = save(json!({"name": "n.txt", "content": "ten bytes!"})).await;
    assert_eq!(small["ok"], true);
    let escape = save(json!({"name": "../n.txt", "content": "x"})).await;
    assert_eq!(
        escape["refused"], "outside-root",
        "extensions go through the same containment"
    );
    let entries = server.audit().await;
    assert!(
        entries
            .iter()
            .any(|e| e["turn"] == "ext:weather.fetch" && e["rule"] == "admitted-egress")
    );
}

#[tokio::test]
async fn a_wasm_extension_runs_the_shelf_module_its_digest_pins() {
    let server = start();
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(server.state.join("shelf/manifest.json")).unwrap())
            .unwrap();
    let wc = manifest["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "wc")
        .unwrap()["sha256"]
        .clone();
    let descriptor = json!({
        "id": "counter", "description": "counts words", "capabilities": ["wasm"],
        "tools": [{"name": "count", "primitive": "wasm", "digest": wc}]
    });
    propose_and_admit(&server, descriptor).await;
    let counted = call(
        &server,
        "counter",
        "count",
        json!({"input": "one two three"}),
    )
    .await;
    assert_eq!(
        counted["output"], r#"{"lines":0,"words":3,"bytes":13}"#,
        "{counted}"
    );
    let pinned_to_nothing = json!({
        "id": "ghost", "description": "d", "capabilities": ["wasm"],
        "tools": [{"name": "run", "primitive": "wasm", "digest": "0".repeat(64)}]
    });
    propose_and_admit(&server, pinned_to_nothing).await;
    assert_eq!(refusal(&server, "ghost", "run").await, "tool-unavailable");
}

/// Extensions are audited in, and run on, a folder of this machine: while a
/// page owns the active root they are refused by name (nothing stored), the
/// listing still answers, and declaring a machine folder again lets the same
/// proposal through.
#[tokio::test]
async fn extension_acts_wait_while_a_page_owns_the_root() {
    let server = start();
    let (status, _) = server
        .post("/api/root", json!({"kind": "opfs", "project": "atlas"}))
        .await;
    assert_eq!(status, 200);
    let proposal = json!({"descriptor": descriptor("weather", "reads the weather")});
    for (path, body) in [
        ("/api/extensions/proposals", proposal.clone()),
        ("/api/extensions/revoke", json!({"id": "weather"})),
        (
            "/api/extensions/approve",
            json!({"id": "weather", "code": "000000"}),
        ),
    ] {
        let (status, reply) = server.post(path, body).await;
        assert_eq!(status, 200, "{path}: {reply}");
        assert_eq!(
            reply["result"]["refused"], "root-is-page-owned",
            "{path}: {reply}"
        );
        assert!(
            reply["result"]["why"]
                .as_str()
                .unwrap()
                .contains("the browser's own (opfs v1/projects/atlas)"),
            "{path}: {reply}"
        );
    }
    let (_, asked) = server
        .post("/api/extensions/approval-request", json!({"id": "weather"}))
        .await;
    assert_eq!(asked["refused"], "root-is-page-owned", "{asked}");
    let admitted = admit(&server, "weather").await;
    assert_eq!(
        admitted["result"]["refused"], "root-is-page-owned",
        "{admitted}"
    );
    assert!(
        !server
            .state
            .join("extensions/proposals/weather.json")
            .exists(),
        "nothing was stored"
    );
    let (status, listed) = server.get("/api/extensions").await;
    assert_eq!((status, &listed["ok"]), (200, &json!(true)));

    let (status, _) = server
        .post_with_token("/api/root", json!({"path": server.root.to_string_lossy()}))
        .await;
    assert_eq!(status, 200);
    let (_, reply) = server.post("/api/extensions/proposals", proposal).await;
    assert_eq!(reply["result"]["ok"], true, "{reply}");
    assert_eq!(state_of(&server, "weather").await, "pending");
}

/// A redirect loop stops after the hop limit with its own rule, and a chain
/// within the limit is followed to its end.
#[tokio::test]
async fn a_redirect_loop_stops_by_name_and_a_short_chain_is_followed() {
    let server = start();
    let port = origin_server();
    let mut roomy = descriptor("looper", "follows redirects");
    roomy["bounds"]["maxRequests"] = json!(20);
    propose_and_admit(&server, roomy).await;
    let url = |path: &str| format!("http://127.0.0.1:{port}{path}");
    let looped = call(&server, "looper", "fetch", json!({"url": url("/loop")})).await;
    assert_eq!(looped["refused"], "too-many-redirects", "{looped}");
    let hop = call(&server, "looper", "fetch", json!({"url": url("/hop")})).await;
    assert_eq!(hop["output"], "hello", "{hop}");
}

/// A server on 127.0.0.1 that holds its one answer until the test lets it
/// go: it says on the first channel that the request has come, then waits
/// on the second.
fn held_server() -> (u16, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (came, arrived) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = String::new();
        BufReader::new(&stream).read_line(&mut request).unwrap();
        came.send(()).unwrap();
        let _ = released.recv();
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nheld";
        let _ = stream.write_all(answer.as_bytes());
    });
    (port, arrived, release)
}

/// While an admitted extension's fetch waits on the network, the folder is
/// free: a read and a write answer before the fetch is let go (they would
/// wait for its timeout, and the fetch would then fail, if it held the
/// host), and the fetch then completes and is audited.
#[tokio::test(flavor = "multi_thread")]
async fn a_slow_fetch_does_not_hold_the_folder() {
    let server = start();
    let (port, arrived, release) = held_server();
    propose_and_admit(&server, descriptor("slow", "waits")).await;
    let wrote = server
        .act(json!({"verb": "write", "name": "a.txt", "content": "alpha"}))
        .await;
    assert_eq!(wrote["result"]["ok"], true, "{wrote}");
    let url = format!("http://127.0.0.1:{port}/held");
    let fetch = call(&server, "slow", "fetch", json!({"url": url}));
    let meanwhile = async {
        tokio::task::spawn_blocking(move || arrived.recv().unwrap())
            .await
            .unwrap();
        let turn = |action: Value| server.post("/api/turn", json!({"action": action}));
        let read = turn(json!({"verb": "read", "name": "a.txt"})).await.1;
        let wrote = turn(json!({"verb": "write", "name": "b.txt", "content": "beta"}))
            .await
            .1;
        release.send(()).unwrap();
        (read, wrote)
    };
    let (fetched, (read, wrote)) = tokio::join!(fetch, meanwhile);
    assert_eq!(read["result"]["content"], "alpha", "{read}");
    assert_eq!(wrote["result"]["ok"], true, "{wrote}");
    assert_eq!(
        fetched["output"], "held",
        "the fetch was answered: {fetched}"
    );
    let entries = server.audit().await;
    assert!(
        entries.iter().any(|e| e["turn"] == "ext:slow.fetch"
            && e["act"]["target"] == url.as_str()
            && e["rule"] == "admitted-egress"
            && e["result"] == "ok"),
        "the fetch is audited"
    );
}
