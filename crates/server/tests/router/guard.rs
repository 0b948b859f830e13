//! The guard in front of every handler: Host, the page's session (with its
//! Origin for a change) or the token, the JSON content type, and the body cap.

use super::*;

#[tokio::test]
async fn host_must_be_loopback_with_our_port() {
    let app = App::new().await;
    for host in [
        "evil.example".to_string(),
        format!("127.0.0.1:{}", PORT + 1),
    ] {
        let turn = app
            .as_page(Request::post("/api/turn").header(header::HOST, &host))
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
        let turn = app
            .as_page(Request::post("/api/turn").header(header::HOST, &host))
            .body(Body::from(LIST))
            .unwrap();
        let answer = app.send(turn).await;
        assert_eq!(answer.status, 200, "{host}: {}", answer.text);
    }
}

#[tokio::test]
async fn the_session_or_the_token_authorizes_and_an_origin_or_a_cookie_alone_does_not() {
    let app = App::new().await;
    let write = r#"{"transcript":"create a file called x.txt with hi"}"#;
    let turn = |headers: &[(&str, &str)]| {
        let mut request =
            request("POST", "/api/turn").header(header::CONTENT_TYPE, "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(Body::from(write)).unwrap()
    };
    let own = own_origin();
    let session = app.session.as_str();
    let as_cookie = format!("voicebox_session={session}");
    let evil = "https://evil.example";
    let (origin, token, site) = ("origin", "x-voicebox-host-token", "sec-fetch-site");
    for (headers, want) in [
        (vec![(origin, own.as_str())], (401, "no-authority")),
        (vec![(origin, evil)], (401, "no-authority")),
        (vec![], (401, "no-authority")),
        (
            vec![(origin, own.as_str()), (SESSION_HEADER, "not-this-start")],
            (401, "no-authority"),
        ),
        // The session as a cookie, the way the browser would send it to
        // every port of the host, is no authority at all.
        (
            vec![(origin, own.as_str()), ("cookie", as_cookie.as_str())],
            (401, "no-authority"),
        ),
        // A WebSocket's subprotocol counts only on a socket.
        (
            vec![
                (origin, own.as_str()),
                (
                    "sec-websocket-protocol",
                    &format!("voicebox.session.{session}"),
                ),
            ],
            (401, "no-authority"),
        ),
        (
            vec![(origin, evil), (SESSION_HEADER, session)],
            (403, "foreign-origin"),
        ),
        (vec![(SESSION_HEADER, session)], (403, "foreign-origin")),
        (
            vec![
                (origin, own.as_str()),
                (SESSION_HEADER, session),
                (site, "same-site"),
            ],
            (403, "foreign-origin"),
        ),
        (
            vec![
                (origin, own.as_str()),
                (SESSION_HEADER, session),
                (site, "cross-site"),
            ],
            (403, "foreign-origin"),
        ),
        (
            vec![
                (origin, own.as_str()),
                (SESSION_HEADER, session),
                (token, "not-the-token"),
            ],
            (403, "bad-host-token"),
        ),
    ] {
        let answer = app.send(turn(&headers)).await;
        assert_eq!(answer.refused(), (want.0, want.1.into()), "{headers:?}");
    }
    assert!(!app.root.join("x.txt").exists(), "no refused request acted");
    for headers in [
        vec![(origin, own.as_str()), (SESSION_HEADER, session)],
        vec![
            (origin, own.as_str()),
            (SESSION_HEADER, session),
            (site, "same-origin"),
        ],
        vec![(token, app.token.as_str())],
    ] {
        let answer = app.send(turn(&headers)).await;
        assert_eq!(answer.status, 200, "{headers:?}: {}", answer.text);
        assert!(app.root.join("x.txt").exists(), "{headers:?}");
        std::fs::remove_file(app.root.join("x.txt")).unwrap();
    }
}

#[tokio::test]
async fn an_audited_read_from_another_site_or_port_does_not_act() {
    let app = App::new().await;
    let read = |site: &str| {
        request("GET", "/api/files")
            .header(SESSION_HEADER, &app.session)
            .header("sec-fetch-site", site)
            .body(Body::empty())
            .unwrap()
    };
    let lines = |app: &App| {
        std::fs::read_dir(app.root.join(".audit"))
            .map(|dir| {
                dir.flatten()
                    .map(|f| {
                        std::fs::read_to_string(f.path())
                            .unwrap_or_default()
                            .lines()
                            .count()
                    })
                    .sum::<usize>()
            })
            .unwrap_or(0)
    };
    let before = lines(&app);
    for site in ["same-site", "cross-site"] {
        assert_eq!(
            app.send(read(site)).await.refused(),
            (403, "foreign-origin".into()),
            "{site}"
        );
    }
    assert_eq!(lines(&app), before, "a refused read is not audited");
    for site in ["same-origin", "none"] {
        assert_eq!(app.send(read(site)).await.status, 200, "{site}");
    }
    assert!(
        lines(&app) > before,
        "the page's own reads act (and are audited)"
    );
}

#[tokio::test]
async fn every_read_needs_authority_and_health_says_only_that_it_is_up() {
    let app = App::new().await;
    for path in [
        "/api/audit", "/api/audit/verify", "/api/files", "/api/file?name=a.txt", "/api/root",
        "/api/keys", "/api/extensions", "/api/openapi.json",
    ] {
        assert_eq!(
            app.get_as_stranger(path).await.refused(),
            (401, "no-authority".into()),
            "{path}"
        );
        let answer = app.get(path).await;
        assert_eq!(answer.status, 200, "{path}: {}", answer.text);
        let with_token = request("GET", path)
            .header("x-voicebox-host-token", &app.token)
            .body(Body::empty())
            .unwrap();
        assert_eq!(app.send(with_token).await.status, 200, "{path}");
    }
    let stranger = app.get_as_stranger("/api/health").await.json();
    assert_eq!(
        stranger,
        json!({"ok": true, "version": env!("CARGO_PKG_VERSION")})
    );
    let page = app.get("/api/health").await.json();
    assert_eq!(page["root"]["path"], app.root.to_str().unwrap());
    // The page's own files stay public: they hold nothing of the person's.
    assert_eq!(app.get_as_stranger("/").await.status, 200);
}

#[tokio::test]
async fn the_printed_secret_hands_the_page_its_session_in_the_fragment_only_on_its_own_pages() {
    let app = App::new().await;
    let wrong = app.get_as_stranger("/?token=0123456789abcdef").await;
    assert_eq!(wrong.refused(), (403, "bad-page-secret".into()));
    assert!(wrong.headers.get(header::LOCATION).is_none());
    assert_ne!(app.session, app.secret, "the session is not the secret");
    for (path, back) in [
        ("/", "/"),
        ("/env/", "/env/"),
        ("/environment", "/env/"),
        ("//evil.example/", "/"),
        ("///evil.example/", "/"),
        ("/style.css", "/"),
    ] {
        let right = app
            .get_as_stranger(&format!("{path}?token={}", app.secret))
            .await;
        assert!(right.status.is_redirection(), "{path}: {}", right.status);
        assert_eq!(
            right.headers[header::LOCATION],
            format!("{back}#session={}", app.session).as_str(),
            "{path}: the secret leaves the address, the session rides in the fragment"
        );
        assert!(right.headers.get(header::SET_COOKIE).is_none(), "no cookie");
        assert_eq!(right.headers[header::CACHE_CONTROL], "no-store");
    }
}

#[tokio::test]
async fn a_cross_site_form_post_reaches_no_handler_and_json_is_required() {
    let app = App::new().await;
    let post = |origin: &str, content_type: &str, body: &'static str| {
        let request = request("POST", "/api/turn")
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, content_type);
        let request = match origin == own_origin() {
            true => request.header(SESSION_HEADER, &app.session),
            false => request,
        };
        request.body(Body::from(body)).unwrap()
    };
    let form = "transcript=create+a+file+called+pwned.txt+with+x";
    // A cross-site page's form carries no session (a form cannot add a header).
    assert_eq!(
        app.send(post("https://evil.example", "text/plain", form))
            .await
            .refused(),
        (401, "no-authority".into())
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
        .header(SESSION_HEADER, &app.session)
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
    let app = App::new().await;
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
