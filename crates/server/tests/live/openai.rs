//! OpenAI Realtime: the session's configuration, a batch of calls answered with
//! one `response.create`, and the ways a session ends.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn openai_configures_the_session_and_answers_a_batch_with_one_response_create() {
    let (mut fake, server) = openai_server().await;
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
    let names = common::each(&session["tools"], "name");
    assert_eq!(names, verbs());

    page.audio(&pcm(240, 6)).await;
    page.audio(&[0]).await;
    page.expect("error").await;
    upstream
        .send(json!({"type": "session.updated", "session": session}))
        .await;
    page.expect_ready(1).await;
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
    let ids = common::each(&tool["calls"], "id");
    assert_eq!(ids, ["call_1", "call_2"]);

    page.text(json!({"type": "interrupt"})).await;
    assert_eq!(upstream.recv().await, json!({"type": "response.cancel"}));
    // The write ran before the reply was stopped: it stands, and the page hears so.
    assert_eq!(
        page.expect("stopped").await,
        json!({"type": "stopped", "stands": ["a.txt"]})
    );

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
    let (mut fake, server) = openai_server().await;
    let (mut page, mut upstream) = connect(&server, &mut fake, "?provider=openai").await;
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
    let (mut fake, server) = openai_server().await;
    let (mut page, mut upstream, _) = openai_ready(&server, &mut fake).await;
    upstream
        .close(CloseCode::Error, "Internal error occurred.")
        .await;
    let frames = page.rest().await;
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert_eq!(frames[0]["type"], "end");
    assert_eq!(frames[0]["reason"], "upstream-error");
    assert!(frames[0]["why"].as_str().unwrap().contains("1011"));
}
