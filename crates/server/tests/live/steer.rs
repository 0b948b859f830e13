//! Steering a live session as one steers a person: a typed turn, a stopped
//! reply (and what stands after it), the person's voice and model in the
//! setup — each in the provider's own wire format — and a choice the
//! provider does not offer refused before any paid session opens. Health
//! says, before anyone presses Live, which providers can start here.

use super::*;

/// Types `text` on the page, and what the server sends up for it.
async fn typed(page: &mut Page, upstream: &mut Upstream, text: &str) -> Value {
    page.text(json!({"type": "text", "text": text})).await;
    upstream.recv().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_typed_turn_is_the_providers_user_turn() {
    let (mut fake, server) = openai_server().await;
    let (mut page, mut upstream, _) = openai_ready(&server, &mut fake).await;
    assert_eq!(
        typed(&mut page, &mut upstream, "what files do I have").await,
        json!({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
               "content": [{"type": "input_text", "text": "what files do I have"}]}})
    );
    assert_eq!(upstream.recv().await, json!({"type": "response.create"}));
    // Nothing typed, or not text: refused by name, and the session lives.
    page.text(json!({"type": "text", "text": "  "})).await;
    assert_eq!(page.expect("error").await["refused"], "malformed-frame");
    page.text(json!({"type": "text", "text": "x".repeat(9 * 1024)}))
        .await;
    assert_eq!(page.expect("error").await["refused"], "too-large");
    assert_eq!(
        typed(&mut page, &mut upstream, "list").await["type"],
        "conversation.item.create"
    );

    let (mut fake, server) = gemini_server().await;
    let (mut page, mut upstream, _) = gemini_ready(&server, &mut fake).await;
    assert_eq!(
        typed(&mut page, &mut upstream, "read notes.md").await,
        json!({"clientContent": {"turns": [{"role": "user", "parts": [{"text": "read notes.md"}]}], "turnComplete": true}})
    );
    // Stopping the reply: Gemini's own way (client content that completes
    // nothing), and nothing had changed, so nothing stands.
    page.text(json!({"type": "interrupt"})).await;
    assert_eq!(
        upstream.recv().await,
        json!({"clientContent": {"turnComplete": false}})
    );
    assert_eq!(
        page.expect("stopped").await,
        json!({"type": "stopped", "stands": []})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn text_before_the_session_is_set_up_is_refused_unsent() {
    let (mut fake, server) = gemini_server().await;
    let (mut page, mut upstream) = connect(&server, &mut fake, "?provider=gemini").await;
    let setup = upstream.recv().await;
    assert!(setup.get("setup").is_some());
    page.text(json!({"type": "text", "text": "list the files"}))
        .await;
    assert_eq!(page.expect("error").await["refused"], "not-ready");
    // The positive control: once ready, the same words go up.
    upstream.send(json!({"setupComplete": {}})).await;
    page.expect("ready").await;
    let sent = typed(&mut page, &mut upstream, "list the files").await;
    assert!(sent.get("clientContent").is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_chosen_voice_and_model_are_in_the_setup_and_a_bad_one_never_reaches_upstream() {
    let (mut fake, server) = openai_server().await;
    let (status, chosen) = server
        .put(
            "/api/settings",
            json!({"live": {"provider": "openai", "voice": "cedar", "model": "gpt-realtime"}}),
        )
        .await;
    assert_eq!(status, 200, "{chosen}");
    let offer = chosen["live"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["provider"] == "openai")
        .unwrap()
        .clone();
    assert_eq!(
        (offer["voice"].as_str(), offer["model"].as_str()),
        (Some("cedar"), Some("gpt-realtime"))
    );
    let (_, mut upstream, update) = openai_ready(&server, &mut fake).await;
    assert_eq!(upstream.uri, "/v1/realtime?model=gpt-realtime");
    assert_eq!(update["session"]["audio"]["output"]["voice"], "cedar");
    let _ = upstream.next().await;

    // A voice the provider does not offer is refused by name, and nothing changed.
    let (status, refused) = server
        .put(
            "/api/settings",
            json!({"live": {"provider": "openai", "voice": "hal9000"}}),
        )
        .await;
    assert_eq!(
        (status, refused["refused"].as_str()),
        (400, Some("malformed-field"))
    );
    assert!(
        refused["why"].as_str().unwrap().contains("marin"),
        "{refused}"
    );
    // One the settings file was edited to by hand: the session ends before any upstream.
    let settings = server.state.join("settings.json");
    let mut saved: Value = serde_json::from_slice(&std::fs::read(&settings).unwrap()).unwrap();
    saved["live"]["openai"]["voice"] = json!("hal9000");
    std::fs::write(&settings, saved.to_string()).unwrap();
    let before = fake.connections().await;
    let mut page = Page::open(&server, "?provider=openai").await;
    let frames = page.rest().await;
    assert_eq!(frames[0]["refused"], "malformed-field", "{frames:?}");
    assert_eq!(frames.last().unwrap()["reason"], "setup-failed");
    assert_eq!(
        fake.connections().await,
        before,
        "no paid session was opened"
    );

    let (mut fake, server) = gemini_server().await;
    server
        .put(
            "/api/settings",
            json!({"live": {"provider": "gemini", "voice": "Kore"}}),
        )
        .await;
    let (_, _, setup) = gemini_ready(&server, &mut fake).await;
    assert_eq!(
        setup["setup"]["generationConfig"]["speechConfig"]["voiceConfig"]["prebuiltVoiceConfig"]["voiceName"],
        "Kore"
    );
    assert_eq!(
        setup["setup"]["model"], "models/gemini-live-test",
        "the model stays the server's"
    );
}

/// Which providers can start, as the page reads it before pressing Live.
fn providers(health: &Value) -> Vec<(String, bool)> {
    health["live"]["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["available"] == true,
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn health_says_which_providers_can_start_before_anyone_presses_live() {
    // No key, and a pocketsphinx that does not load: nothing can start, and each says how to fix it.
    let bare = tokio::task::block_in_place(|| {
        Server::start_with_env(&[(
            "VOICEBOX_SPHINX_LIBRARY",
            "/nonexistent/libpocketsphinx.so.3",
        )])
    });
    let (_, health) = bare.get("/api/health").await;
    assert!(providers(&health).iter().all(|(_, up)| !up), "{health}");
    let each = health["live"]["providers"].as_array().unwrap();
    let fix = |name: &str| {
        each.iter().find(|p| p["name"] == name).unwrap()["fix"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(fix("gemini").contains("Settings"), "{health}");
    assert!(
        fix("local").starts_with("apt-get install -y libpocketsphinx3"),
        "{health}"
    );
    assert!(
        each.iter().find(|p| p["name"] == "local").unwrap()["why"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/libpocketsphinx.so.3")
    );

    // A key set: that provider can start, and it is the default.
    let keyed = tokio::task::block_in_place(|| {
        Server::start_with_env(&[
            ("GEMINI_API_KEY", GEMINI_KEY),
            (
                "VOICEBOX_SPHINX_LIBRARY",
                "/nonexistent/libpocketsphinx.so.3",
            ),
        ])
    });
    let (_, health) = keyed.get("/api/health").await;
    assert_eq!(health["live"]["default"], "gemini");
    let up: Vec<String> = providers(&health)
        .into_iter()
        .filter(|(_, up)| *up)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(up, ["gemini"], "{health}");
    // And the real pocketsphinx, where it is installed (CI installs it).
    if common::spoken::sphinx_here() {
        let real = tokio::task::block_in_place(|| Server::start_with_env(&[]));
        let (_, health) = real.get("/api/health").await;
        assert!(
            providers(&health).contains(&("local".to_string(), true)),
            "{health}"
        );
    }
}

/// The folder's `AGENTS.md` is in the live instruction, under the base,
/// and the page is told it is in use; without one, neither.
#[tokio::test(flavor = "multi_thread")]
async fn the_folders_agents_md_is_in_the_live_instruction() {
    let (mut fake, server) = openai_server().await;
    let (mut page, _upstream, update) = openai_ready_with(&server, &mut fake).await;
    let instruction = update["session"]["instructions"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!instruction.contains("project's own notes"));
    drop(page.ws.close(None).await);

    std::fs::write(server.root.join("AGENTS.md"), "Drafts live in drafts/.").unwrap();
    let (mut page, mut upstream) = connect(&server, &mut fake, "?provider=openai").await;
    upstream
        .send(json!({"type": "session.created", "event_id": "e1", "session": {"type": "realtime", "tools": []}}))
        .await;
    let update = upstream.recv().await;
    let instruction = update["session"]["instructions"].as_str().unwrap();
    let (base, notes) = (
        instruction.find("The actions:"),
        instruction.find("Drafts live in drafts/."),
    );
    assert!(
        base.is_some() && notes.is_some() && base < notes,
        "{instruction}"
    );
    upstream
        .send(json!({"type": "session.updated", "event_id": "e2", "session": update["session"]}))
        .await;
    let ready = page.expect("ready").await;
    assert_eq!(ready["notes"], "AGENTS.md", "{ready}");
}

/// [`openai_ready`], keeping the page's `ready` frame out of the way.
async fn openai_ready_with(server: &Server, fake: &mut Fake) -> (Page, Upstream, Value) {
    openai_ready(server, fake).await
}
