//! The guard in front of every handler: Host, Origin or the token, the JSON
//! content type, and the body cap.

use super::*;

#[tokio::test]
async fn host_must_be_loopback_with_our_port() {
    let app = App::new();
    for host in [
        "evil.example".to_string(),
        format!("127.0.0.1:{}", PORT + 1),
    ] {
        let turn = Request::post("/api/turn")
            .header(header::HOST, &host)
            .header(header::ORIGIN, own_origin())
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(LIST))
            .unwrap();
        assert_eq!(
            app.send(turn).await.refused(),
            (403, "foreign-host".into()),
            "{host}"
        );
    }
    let read = Request::get("/api/audit")
        .header(header::HOST, format!("evil.example:{PORT}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.send(read).await.status,
        403,
        "reads are guarded too (DNS rebinding)"
    );
    let no_host = Request::get("/api/health").body(Body::empty()).unwrap();
    assert_eq!(app.send(no_host).await.status, 403, "no Host at all");
    for host in [
        format!("127.0.0.1:{PORT}"),
        format!("localhost:{PORT}"),
        format!("[::1]:{PORT}"),
    ] {
        let turn = Request::post("/api/turn")
            .header(header::HOST, &host)
            .header(header::ORIGIN, own_origin())
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(LIST))
            .unwrap();
        let answer = app.send(turn).await;
        assert_eq!(answer.status, 200, "{host}: {}", answer.text);
    }
}

#[tokio::test]
async fn origin_must_be_our_page_or_the_token() {
    let app = App::new();
    let write = r#"{"transcript":"create a file called x.txt with hi"}"#;
    let turn = |origin: Option<&str>, token: Option<&str>| {
        let mut request =
            request("POST", "/api/turn").header(header::CONTENT_TYPE, "application/json");
        if let Some(origin) = origin {
            request = request.header(header::ORIGIN, origin);
        }
        if let Some(token) = token {
            request = request.header("x-voicebox-host-token", token);
        }
        request.body(Body::from(write)).unwrap()
    };
    assert_eq!(
        app.send(turn(Some("https://evil.example"), None))
            .await
            .refused(),
        (403, "foreign-origin".into())
    );
    assert_eq!(
        app.send(turn(None, None)).await.refused(),
        (403, "foreign-origin".into()),
        "no Origin and no token"
    );
    assert!(!app.root.join("x.txt").exists());
    // A wrong token is named, even beside the page's own Origin.
    assert_eq!(
        app.send(turn(Some(&own_origin()), Some("not-the-token")))
            .await
            .refused(),
        (403, "bad-host-token".into())
    );
    assert_eq!(app.send(turn(Some(&own_origin()), None)).await.status, 200);
    assert_eq!(app.send(turn(None, Some(&app.token))).await.status, 200);
    assert!(app.root.join("x.txt").exists());
}

#[tokio::test]
async fn a_cross_site_form_post_reaches_no_handler_and_json_is_required() {
    let app = App::new();
    let post = |origin: &str, content_type: &str, body: &'static str| {
        request("POST", "/api/turn")
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap()
    };
    let form = "transcript=create+a+file+called+pwned.txt+with+x";
    assert_eq!(
        app.send(post("https://evil.example", "text/plain", form))
            .await
            .status,
        403
    );
    // Even from our own origin, a non-JSON body is 415.
    assert_eq!(
        app.send(post(&own_origin(), "text/plain", LIST))
            .await
            .refused(),
        (415, "unsupported-content-type".into())
    );
    let no_type = request("POST", "/api/turn")
        .header(header::ORIGIN, own_origin())
        .body(Body::from(LIST))
        .unwrap();
    assert_eq!(
        app.send(no_type).await.status,
        415,
        "no Content-Type at all"
    );
    assert_eq!(
        app.send(post(&own_origin(), "application/json; charset=utf-8", LIST))
            .await
            .status,
        200
    );
    assert!(!app.root.join("pwned.txt").exists());
}

#[tokio::test]
async fn oversize_bodies_are_413_and_a_large_legal_write_passes() {
    let app = App::new();
    let write = |content: String| {
        json!({"action": {"verb": "write", "name": "big.txt", "content": content}}).to_string()
    };
    let answer = app.post("/api/turn", &write("x".repeat(9 << 20))).await;
    assert_eq!(answer.refused(), (413, "body-too-large".into()));
    let answer = app.post("/api/turn", &write("y".repeat(1 << 20))).await;
    assert_eq!(
        (
            answer.status.as_u16(),
            answer.json()["result"]["ok"].as_bool()
        ),
        (200, Some(true))
    );
    // Between the content cap and the body cap: the verb's own named refusal,
    // in JSON, never the framework's plain-text 413.
    let answer = app.post("/api/turn", &write("z".repeat(3 << 20))).await;
    assert_eq!(
        (
            answer.status.as_u16(),
            answer.json()["result"]["refused"].as_str()
        ),
        (200, Some("too-large")),
        "{}",
        answer.text
    );
}
