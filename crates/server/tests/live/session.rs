//! A live session's life: who may open one, what it refuses without ending, and
//! what ends it (the upstream, the page, a missing key).

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn a_foreign_origin_is_refused_before_any_upstream_and_the_own_origin_gets_the_rate_first() {
    let (mut fake, server) = gemini_server().await;
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
async fn invalid_audio_frames_are_refused_one_by_one_and_the_session_lives() {
    let (mut fake, server) = gemini_server().await;
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
    let (mut fake, server) = gemini_server().await;
    let (_, health) = server.get("/api/health").await;
    let sessions = |health: &Value| json!([health["live"]["created"], health["live"]["running"]]);
    assert_eq!(sessions(&health), json!([0, 0]));

    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;
    let (_, health) = server.get("/api/health").await;
    assert_eq!(sessions(&health), json!([1, 1]));

    upstream.send(json!({"goAway": {"timeLeft": "1s"}})).await;
    upstream.close(CloseCode::Normal, "").await;
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
    assert_eq!(sessions(&json!({"live": live})), json!([1, 0]));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_leaving_closes_the_upstream() {
    let (mut fake, server) = gemini_server().await;
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
