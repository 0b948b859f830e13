use super::*;
use serde_json::json;

fn session() -> Session {
    Session::new(Provider::Gemini, &Choice::default())
}

fn frames(outbox: &Outbox) -> Vec<Value> {
    outbox
        .page
        .iter()
        .filter_map(|f| match f {
            PageFrame::Json(frame) => Some(json!(frame)),
            PageFrame::Audio(_) => None,
        })
        .collect()
}

#[test]
fn audio_is_checked_then_dropped_until_ready_then_forwarded() {
    let mut session = session();
    for (pcm, rule) in [
        (vec![], "audio-empty"),
        (vec![0; 3], "audio-odd-length"),
        (vec![0; 32_002], "audio-too-large"),
    ] {
        let outbox = session.page_audio(&pcm);
        assert_eq!(frames(&outbox)[0]["refused"], rule);
        assert!(outbox.upstream.is_empty());
    }
    assert!(session.page_audio(&[0; 32_000]).is_empty());
    assert!(session.page_audio(&[1, 0]).is_empty());
    let ready = session.upstream(&json!({"setupComplete": {}}));
    assert_eq!(
        frames(&ready)[0],
        json!({"type": "ready", "droppedBeforeReady": 2})
    );
    let forwarded = session.page_audio(&[1, 0]);
    assert_eq!(
        forwarded.upstream[0]["realtimeInput"]["audio"]["data"],
        "AQA="
    );
}

#[test]
fn calls_before_ready_are_refused_unrun() {
    let mut session = session();
    let early = json!({"toolCall": {"functionCalls": [{"id": "x", "name": "write", "args": {"name": "a", "content": "b"}}]}});
    let outbox = session.upstream(&early);
    assert!(outbox.run.is_empty());
    let response = &outbox.upstream[0]["toolResponse"]["functionResponses"][0];
    assert_eq!(response["id"], "x");
    assert_eq!(response["response"]["error"]["refused"], "not-ready");
}

#[test]
fn a_text_frame_is_read_strictly_and_a_key_said_twice_is_named() {
    let mut session = session();
    session.upstream(&json!({"setupComplete": {}}));
    for (text, rule) in [
        (r#"{"type":"text","type":"interrupt"}"#, "duplicate-key"),
        (r#"{"type":"interrupt","extra":1}"#, "unknown-frame"),
        (r#"{"type":"hello"}"#, "unknown-frame"),
        (r#"{"type":"text","text":3}"#, "malformed-frame"),
        ("not json", "malformed-frame"),
    ] {
        let outbox = session.page_text(text);
        assert_eq!(frames(&outbox)[0]["refused"], rule, "{text}");
        assert!(outbox.upstream.is_empty(), "{text} went nowhere");
    }
    let stopped = session.page_text(r#"{"type":"interrupt"}"#);
    assert_eq!(frames(&stopped)[0]["type"], "stopped");
    let typed = session.page_text(r#"{"type":"text","text":"list the files"}"#);
    assert_eq!(typed.upstream.len(), 1);
}

#[test]
fn a_session_ends_once() {
    let mut session = session();
    session.upstream(&json!({"setupComplete": {}}));
    let first = session.upstream_closed(Some(1000), "");
    assert_eq!(frames(&first)[0]["reason"], "upstream-closed");
    assert!(session.end(Reason::PageClosed, "gone").is_empty());
    assert!(session.page_audio(&[0, 0]).is_empty());
    assert_eq!(session.ended(), Some(Reason::UpstreamClosed));
}

#[test]
fn a_close_before_ready_is_a_failed_setup() {
    let mut session = session();
    let outbox = session.upstream_closed(Some(1007), "API key not valid");
    let end = frames(&outbox)[0].clone();
    assert_eq!(end["reason"], "setup-failed");
    assert!(end["why"].as_str().unwrap().contains("1007"));
}
