//! Tool calls over a Gemini Live session: answered by id, in batches, refused by
//! name when they do not fit, a delete held for the person's click, and run in
//! the page that owns the root.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn gemini_sets_up_forwards_audio_and_answers_a_tool_call_by_id() {
    let (mut fake, server) = gemini_server().await;
    let (mut page, mut upstream) = connect(&server, &mut fake, "?provider=gemini").await;
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
    let names = common::each(&setup["tools"][0]["functionDeclarations"], "name");
    assert_eq!(names, verbs(), "one function per verb of the command list");
    let write = declarations.iter().find(|d| d["name"] == "write").unwrap();
    assert_eq!(
        write["parametersJsonSchema"]["required"],
        json!(["name", "content"])
    );

    upstream.send_binary(json!({"setupComplete": {}})).await;
    page.expect_ready(1).await;

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
    let answer = upstream.call(&[call]).await;
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
    let (mut fake, server) = gemini_server().await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;

    let calls = [
        gemini_call("a", "write", json!({"name": "notes.md", "content": "milk"})),
        gemini_call("b", "read", json!({"name": "missing.md"})),
    ];
    let answer = upstream.call(&calls).await;
    let responses = answer["toolResponse"]["functionResponses"]
        .as_array()
        .unwrap();
    let ids = common::each(&answer["toolResponse"]["functionResponses"], "id");
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
    let (mut fake, server) = gemini_server().await;
    let (mut page, mut upstream) = connect(&server, &mut fake, "").await;
    upstream.recv().await;

    let early = gemini_call(
        "early",
        "write",
        json!({"name": "early.txt", "content": "x"}),
    );
    let answer = upstream.call(&[early]).await;
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
    let answer = upstream.call(&misfits).await;
    let rules: Vec<&str> = answer["toolResponse"]["functionResponses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["response"]["error"]["refused"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "unknown-verb", "unknown-field", "missing-argument", "outside-root"
        ]
    );
    let (_, health) = server.get("/api/health").await;
    assert!(health["refused"].as_u64().unwrap() >= 4, "{health}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delete_waits_for_the_persons_click_not_a_spoken_yes() {
    let (mut fake, server) = gemini_server().await;
    std::fs::write(server.root.join("draft.txt"), "old").unwrap();
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;

    let call = gemini_call("d1", "delete", json!({"name": "draft.txt"}));
    let told = upstream.call(&[call]).await;
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

    let (status, answer) = server.confirm(&id, true).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["ok"], true, "{answer}");
    assert!(!server.root.join("draft.txt").exists());
}

/// With a page's project as the active root, a live tool call runs in that
/// page (relayed over `/channel` as turn `live`) and this machine's disk is
/// not touched; with no page connected the call is answered `no-page`.
#[tokio::test(flavor = "multi_thread")]
async fn live_tool_calls_run_in_the_page_that_owns_the_root() {
    use common::page_channel::{channel, declare_opfs, frame, send};
    let (mut fake, server) = gemini_server().await;
    declare_opfs(&server, "atlas").await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;
    let write = json!({"name": "notes.md", "content": "milk"});

    let answer = upstream
        .call(&[gemini_call("a", "write", write.clone())])
        .await;
    let response = &answer["toolResponse"]["functionResponses"][0];
    assert_eq!(
        response["response"]["error"]["refused"], "no-page",
        "{answer}"
    );
    page.expect("tool").await;

    // The page that owns the root connects and answers what it is sent.
    let mut owner = channel(&server, &server.origin()).await.unwrap();
    upstream
        .send_calls(&[gemini_call("b", "write", write.clone())])
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
        .send_calls(&[gemini_call("c", "read", json!({"name": "notes.md"}))])
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
