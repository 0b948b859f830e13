//! Ambiguity and size: a header that decides who asks or what the body is,
//! said twice, is `duplicate-header`; a JSON key said twice is
//! `duplicate-key`; the one body cap answers by name, before reading a body
//! whose declared length is over it, and a 1 MiB write escaped at worst fits
//! under it. Each refusal stands beside the accepted request it differs from.

use super::*;

/// A turn POST from this server's own page (its session and its Origin),
/// with `extra` headers appended.
fn turn(app: &App, body: impl Into<Body>, extra: &[(&str, String)]) -> Request<Body> {
    let mut builder = app.as_page(request("POST", "/api/turn"));
    for (name, value) in extra {
        builder = builder.header(*name, value);
    }
    builder.body(body.into()).unwrap()
}

fn write(content: &str) -> String {
    json!({"action": {"verb": "write", "name": "w.txt", "content": content}}).to_string()
}

#[tokio::test]
async fn each_deciding_header_said_twice_is_refused_and_once_is_read() {
    let app = App::new().await;
    let control = app.send(turn(&app, LIST, &[])).await;
    assert_eq!(control.status, 200, "{}", control.text);
    for (name, second) in [
        ("host", "evil.example".to_string()),
        ("origin", "http://evil.example".to_string()),
        ("content-type", "text/plain".to_string()),
        // The same value twice is still two: which one a check reads must
        // never matter.
        ("content-type", "application/json".to_string()),
        ("x-voicebox-session", app.session.clone()),
    ] {
        let answer = app.send(turn(&app, LIST, &[(name, second.clone())])).await;
        assert_eq!(
            answer.refused(),
            (400, "duplicate-header".into()),
            "{name}: {second}"
        );
        assert!(
            answer.json()["why"].as_str().unwrap().contains(name),
            "{}",
            answer.text
        );
    }
    // The token once (right) is read; twice, right then wrong or even both
    // right, is refused.
    let with_tokens = |tokens: &[&str]| {
        let mut builder =
            request("POST", "/api/turn").header(header::CONTENT_TYPE, "application/json");
        for token in tokens {
            builder = builder.header("x-voicebox-host-token", *token);
        }
        builder.body(Body::from(LIST)).unwrap()
    };
    let token = app.token.as_str();
    assert_eq!(app.send(with_tokens(&[token])).await.status, 200);
    for tokens in [[token, token], [token, "wrong"]] {
        assert_eq!(
            app.send(with_tokens(&tokens)).await.refused(),
            (400, "duplicate-header".into())
        );
    }
    // Reads and WebSocket upgrades pass the same guard.
    let read = request("GET", "/api/health")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.send(read).await.refused(),
        (400, "duplicate-header".into())
    );
    let upgrade = request("GET", "/channel")
        .header(header::ORIGIN, own_origin())
        .header(header::ORIGIN, "http://evil.example")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.send(upgrade).await.refused(),
        (400, "duplicate-header".into())
    );
}

#[tokio::test]
async fn a_json_key_said_twice_is_refused_and_said_once_is_read() {
    let app = App::new().await;
    let twice = r#"{"action":{"verb":"write","name":"a.txt","name":"b.txt","content":"x"}}"#;
    let answer = app.send(turn(&app, twice, &[])).await;
    assert_eq!(
        answer.refused(),
        (400, "duplicate-key".into()),
        "{}",
        answer.text
    );
    assert!(!app.root.join("a.txt").exists() && !app.root.join("b.txt").exists());
    let once = r#"{"action":{"verb":"write","name":"b.txt","content":"x"}}"#;
    let answer = app.send(turn(&app, once, &[])).await;
    assert_eq!(answer.json()["result"]["ok"], true, "{}", answer.text);
    assert!(app.root.join("b.txt").exists());
}

#[tokio::test]
async fn the_one_body_cap_names_what_is_over_it_and_a_worst_case_write_fits() {
    let app = App::new().await;
    // 3 MiB of body: a verb's own limit answers (in JSON), not a framework 413.
    let three = app.send(turn(&app, write(&"z".repeat(3 << 20)), &[])).await;
    assert_eq!(
        (
            three.status.as_u16(),
            three.json()["result"]["refused"].as_str()
        ),
        (200, Some("too-large"))
    );
    // 9 MiB: over the cap.
    let nine = app.send(turn(&app, write(&"x".repeat(9 << 20)), &[])).await;
    assert_eq!(nine.refused(), (413, "body-too-large".into()));
    assert!(
        nine.json()["why"].as_str().unwrap().contains("MiB"),
        "{}",
        nine.text
    );
    // A 1 MiB write survives the worst JSON escaping: every byte `\u0000`
    // (6 MiB of JSON), or every byte a quote (2 MiB).
    let max = 1 << 20;
    for content in ["\u{1}".repeat(max), "\"".repeat(max)] {
        let body = write(&content);
        assert!(body.len() > 2 << 20);
        let answer = app.send(turn(&app, body, &[])).await;
        assert_eq!(
            answer.json()["result"]["ok"],
            true,
            "{}",
            answer.json()["result"]
        );
        assert_eq!(std::fs::read(app.root.join("w.txt")).unwrap().len(), max);
    }
}

#[tokio::test]
async fn a_declared_length_over_the_cap_is_refused_before_any_body_is_read() {
    let app = App::new().await;
    // A body that never yields a byte: only a refusal that does not read it
    // can answer at all.
    let never = || {
        Body::from_stream(futures_util::stream::pending::<
            Result<Vec<u8>, std::io::Error>,
        >())
    };
    let declared = |length: u64| [("content-length", length.to_string())];
    let answer = app.send(turn(&app, never(), &declared(100_000_000))).await;
    assert_eq!(answer.refused(), (413, "body-too-large".into()));
    // The sibling: a declared length under the cap is read (and answered).
    let answer = app
        .send(turn(&app, LIST, &declared(LIST.len() as u64)))
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    // GETs too: a declared body over the cap is refused on every route.
    let read = request("GET", "/api/health")
        .header(header::CONTENT_LENGTH, "100000000")
        .body(never())
        .unwrap();
    assert_eq!(
        app.send(read).await.refused(),
        (413, "body-too-large".into())
    );
}
