//! The page's live voice, settings and widget in real headless Chromium with
//! a fake microphone: the Live button opens `/live` (the offline provider),
//! streams the microphone and shows the session's state; a second click ends
//! it. A provider the page chooses is asked for by name, and its refusal is
//! shown. The settings dialog shows a stored key masked, never the key, and
//! stores one from the page.

mod common;

use common::Server;
use common::browser::{self, Browser};
use fantoccini::Locator;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const FAKE_MIC: [&str; 2] = [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
];

/// One browser at a time: the machine has few cores and the decoder is slow.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// This test's turn with the one browser, held until it is dropped; `None`
/// where the browser is missing (skipped as [`browser::available`] says).
async fn browser_turn() -> Option<tokio::sync::MutexGuard<'static, ()>> {
    if !browser::available() {
        return None;
    }
    Some(ONE_BROWSER.lock().await)
}

const STATUS: &str = "const s = document.getElementById('live-status');";

/// Polls `/api/health` until the open live sessions are `running`.
async fn wait_running(server: &Server, running: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (_, health) = server.get("/api/health").await;
        if health["live"]["running"] == running {
            return health;
        }
        assert!(
            Instant::now() < deadline,
            "live sessions never reached {running}: {health}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until `condition`, a script that may read the live status as `s`,
/// returns true.
async fn wait_status(browser: &Browser, what: &str, condition: &str) {
    browser
        .wait_for(what, &format!("{STATUS} {condition}"))
        .await;
}

/// Chooses `value` in the `<select>` whose id is `id`.
async fn select(browser: &Browser, id: &str, value: &str) {
    browser
        .client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_page_talks_live_and_keeps_keys_masked() {
    let Some(_one) = browser_turn().await else {
        return;
    };
    let server = Server::start_with_env(&[("VOICEBOX_LIVE_PROVIDER", "local")]);
    let key = "AIza-live-page-secret-7q3Z";
    let (status, stored) = server
        .put_with_token("/api/keys", json!({"keys": {"gemini": key}}))
        .await;
    assert_eq!(status, 200, "{stored}");
    let browser = Browser::start_with_args(&FAKE_MIC).await;
    let page = &browser.client;
    page.goto(&server.page_url).await.unwrap();
    wait_status(
        &browser,
        "the page's modules",
        "return s.dataset.state === 'idle' || s.dataset.state === 'unavailable';",
    )
    .await;
    let live = browser
        .js("const b = document.getElementById('live'); return [b.disabled, b.title];")
        .await;
    assert_eq!(live[0], false, "the Live button is disabled: {}", live[1]);

    // The server's provider (local): listening, or refused by name.
    browser.click("live").await;
    wait_status(
        &browser,
        "listening with the local provider, or its named refusal",
        "const refused = [...document.querySelectorAll('#transcript .rule')].some((r) => r.textContent === 'offline-voice-unavailable');
                 return refused || (s.dataset.state === 'listening' && s.dataset.provider === 'local' && s.textContent.includes('Offline'));",
    )
    .await;
    let state = browser
        .js(&format!("{STATUS} return s.dataset.state;"))
        .await;
    if state == "listening" {
        let health = wait_running(&server, 1).await;
        assert_eq!(health["live"]["created"], 1, "{health}");
        // The provider acknowledges the setup; the chunks are whole PCM16
        // frames under a second, so no frame is refused.
        wait_status(
            &browser,
            "the provider to be ready",
            "return !s.textContent.includes('getting ready');",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let refused = browser
            .js("return [...document.querySelectorAll('#transcript .live-error')].map((e) => e.textContent);")
            .await;
        assert_eq!(refused, json!([]), "audio frames were refused");
        browser.photograph("live-listening").await;

        // A second click stops: the socket closes and the session ends.
        browser.click("live").await;
        wait_status(
            &browser,
            "the session to end",
            "return s.dataset.state === 'ended' && s.textContent.includes('you ended the session');",
        )
        .await;
        wait_running(&server, 0).await;
        let pressed = browser
            .js("return document.getElementById('live').getAttribute('aria-pressed');")
            .await;
        assert_eq!(pressed, "false");
    } else {
        voicebox_test_support::missing(
            "pocketsphinx",
            "apt-get install -y libpocketsphinx3 pocketsphinx-en-us",
            "only the refusal (offline-voice-unavailable) is checked",
        );
        wait_status(
            &browser,
            "the end with its reason",
            "return s.dataset.state === 'ended' && s.textContent.includes('setup-failed');",
        )
        .await;
    }

    // Settings: the stored key is shown masked, and never itself.
    browser.click("transcript-menu").await;
    browser.click("settings-open").await;
    browser
        .wait_for(
            "the masked key status",
            "const d = document.getElementById('settings'); const g = d.querySelector('#key-status [data-provider=\"gemini\"]');
             return d.open && !!g && g.textContent.includes('set') && g.textContent.includes('7q3Z');",
        )
        .await;
    let shown = browser
        .js("return [document.getElementById('settings').textContent, document.documentElement.outerHTML];")
        .await;
    for text in shown.as_array().unwrap() {
        assert!(!text.as_str().unwrap().contains(key), "the key is shown");
    }
    let openai = browser
        .js("return document.querySelector('#key-status [data-provider=\"openai\"]').textContent;")
        .await;
    assert!(openai.as_str().unwrap().contains("not set"), "{openai}");
    browser.photograph("settings").await;

    // A key stored from the page (its Origin is accepted); the field empties.
    select(&browser, "key-provider", "anthropic").await;
    page.find(Locator::Id("key-value"))
        .await
        .unwrap()
        .send_keys("sk-ant-from-the-page-Wx9k")
        .await
        .unwrap();
    browser.click("key-store").await;
    browser
        .wait_for(
            "the page's key stored",
            "const a = document.querySelector('#key-status [data-provider=\"anthropic\"]'); return !!a && a.textContent.includes('Wx9k');",
        )
        .await;
    let field = browser
        .js("return document.getElementById('key-value').value;")
        .await;
    assert_eq!(field, "");
    let (_, keys) = server.get("/api/keys").await;
    assert_eq!(keys["keys"]["anthropic"]["last4"], "Wx9k", "{keys}");

    // The provider choice is kept and asked for by name: OpenAI without a
    // key is refused `key-missing`, and the session ends `setup-failed`.
    select(&browser, "live-provider", "openai").await;
    let kept = browser
        .js("return localStorage.getItem('voicebox.liveProvider');")
        .await;
    assert_eq!(kept, "openai");
    browser.click("settings-close").await;
    browser
        .wait_for(
            "the dialog to close",
            "return !document.getElementById('settings').open",
        )
        .await;
    browser.click("live").await;
    wait_status(
        &browser,
        "the named refusal and the end",
        "const refused = [...document.querySelectorAll('#transcript .live-error .rule')].some((r) => r.textContent === 'key-missing');
                 return refused && s.dataset.state === 'ended' && s.dataset.reason === 'setup-failed' && s.dataset.provider === 'openai';",
    )
    .await;

    // The widget: enabled where Document Picture-in-Picture exists, else
    // disabled with a title that says why.
    let pip = browser
        .js("const b = document.getElementById('pip'); return [typeof window.documentPictureInPicture, b.disabled, b.title];")
        .await;
    if pip[0] == "undefined" {
        assert_eq!(pip[1], true, "{pip}");
        assert!(pip[2].as_str().unwrap().contains("not available"), "{pip}");
    } else {
        assert_eq!(pip[1], false, "{pip}");
        // The widget shows the same live status and the last result.
        browser.click("pip").await;
        browser
            .wait_for(
                "the widget window",
                "const w = documentPictureInPicture.window; const s = w && w.document.getElementById('pip-status');
                 return !!s && s.textContent === document.getElementById('live-status').textContent
                   && w.document.getElementById('pip-last').textContent.includes('key-missing');",
            )
            .await;
    }
    browser.close().await;
}

/// `text` spoken by espeak-ng, padded with silence, as a 48 kHz WAV for
/// Chromium's fake microphone (so the worklet has to downsample it); `None`
/// (skipped loudly) where espeak-ng or sox is missing.
fn spoken_wav(text: &str, dir: &Path) -> Option<std::path::PathBuf> {
    let (raw, wav) = (dir.join("said.wav"), dir.join("mic.wav"));
    let spoke = Command::new("espeak-ng")
        .args(["-v", "en-us", "-w"])
        .arg(&raw)
        .arg(text)
        .status()
        .is_ok_and(|s| s.success());
    let converted = spoke
        && Command::new("sox")
            .arg(&raw)
            .args(["-r", "48000", "-c", "1", "-b", "16", "-e", "signed-integer"])
            .arg(&wav)
            .args(["pad", "1", "2"])
            .status()
            .is_ok_and(|s| s.success());
    voicebox_test_support::present_or_skip(
        converted,
        "espeak-ng and sox",
        "apt-get install -y espeak-ng sox",
    )
    .then_some(wav)
}

/// One more turn of waiting for something spoken to be done: fails saying
/// `what` did not happen, with the transcript, once `deadline` has passed;
/// otherwise waits a moment.
async fn still_waiting(browser: &Browser, deadline: Instant, what: &str) {
    let shown = browser
        .js("return document.getElementById('transcript').textContent;")
        .await;
    assert!(Instant::now() < deadline, "{what}: {shown}");
    tokio::time::sleep(Duration::from_millis(250)).await;
}

/// A spoken command through the page: Chromium plays a WAV as the
/// microphone, the worklet downsamples it to 16 kHz PCM16 chunks, the
/// offline recogniser hears it, and the page's dialog shows what it heard:
/// a mishearing is answered No and changes nothing; Yes on the right one writes.
#[tokio::test]
async fn a_spoken_command_from_the_page_is_done() {
    if !browser::available() || !common::spoken::sphinx_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(wav) = spoken_wav("create a file called hello dot txt with hello", dir.path()) else {
        return;
    };
    let _one = ONE_BROWSER.lock().await;
    let server = Server::start_with_env(&[("VOICEBOX_LIVE_PROVIDER", "local")]);
    let browser = with_mic(&server, &wav).await;
    browser.click("live").await;
    wait_status(
        &browser,
        "listening",
        "return s.dataset.state === 'listening';",
    )
    .await;
    let hello = server.root.join("hello.txt");
    let deadline = Instant::now() + Duration::from_secs(90);
    // The fake microphone plays the sentence again and again: answer each
    // ask by what it heard, until the right one is done.
    let asked = "const d = document.getElementById('confirm-dialog');
                 return d && d.open ? document.getElementById('confirm-plan').textContent : null;";
    while std::fs::read_to_string(&hello).ok().as_deref() != Some("hello") {
        if let Value::String(plan) = browser.js(asked).await {
            assert!(plan.starts_with("I heard: "), "{plan}");
            let answer = if plan.contains("with 'hello'") {
                "confirm-yes"
            } else {
                "confirm-no"
            };
            browser.click(answer).await;
        }
        still_waiting(
            &browser,
            deadline,
            "the spoken write was not asked and done",
        )
        .await;
    }
    let shown = "return [...document.querySelectorAll('#transcript .live-person')].some((l) => l.textContent.includes('hello'))
                 && document.querySelectorAll('#transcript .live-reply').length > 0;";
    assert_eq!(
        browser.js(shown).await,
        Value::Bool(true),
        "what was heard and said is shown"
    );
    assert_eq!(std::fs::read_to_string(&hello).unwrap(), "hello");
    browser
        .wait_text("hello.txt in the file list", "files", "hello.txt")
        .await;
    browser.screenshot("live-spoken").await;
    browser.click("live").await;
    wait_status(&browser, "the end", "return s.dataset.state === 'ended';").await;
    // Checked once the session has ended: while it listens, the fake
    // microphone says the sentence again and a new question may open.
    browser
        .assert_accessible_both("a spoken command done, Live ended")
        .await;
    browser.close().await;
}

/// A browser whose microphone plays `wav`, on `server`'s page, once its
/// live voice is idle.
async fn with_mic(server: &Server, wav: &Path) -> Browser {
    let capture = format!("--use-file-for-fake-audio-capture={}", wav.display());
    let browser = Browser::start_with_args(&[FAKE_MIC[0], FAKE_MIC[1], &capture]).await;
    browser.client.goto(&server.page_url).await.unwrap();
    wait_status(
        &browser,
        "the page's modules",
        "return s.dataset.state === 'idle';",
    )
    .await;
    browser
}

/// One second of silence as a 16-bit mono WAV: a microphone in a quiet room.
fn silent_wav(dir: &Path) -> std::path::PathBuf {
    let rate: u32 = 48_000;
    let data = vec![0u8; rate as usize * 2];
    let mut wav = Vec::with_capacity(44 + data.len());
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes());
    wav.extend_from_slice(&rate.to_le_bytes());
    wav.extend_from_slice(&(rate * 2).to_le_bytes());
    wav.extend_from_slice(&2u16.to_le_bytes());
    wav.extend_from_slice(&16u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&(data.len() as u32).to_le_bytes());
    wav.extend_from_slice(&data);
    let path = dir.join("silence.wav");
    std::fs::write(&path, wav).unwrap();
    path
}

/// What an offline-voice page with a silent microphone (a quiet room)
/// holds while it lasts: this file's one browser, and the microphone's file.
struct Quiet {
    _one: tokio::sync::MutexGuard<'static, ()>,
    _dir: tempfile::TempDir,
}

impl Quiet {
    /// A server on offline voice and its page in a quiet room, for what is
    /// typed or stubbed in a live session rather than heard; `None` where
    /// the browser or pocketsphinx is missing.
    async fn offline() -> Option<(Server, Browser, Quiet)> {
        if !browser::available() || !common::spoken::sphinx_here() {
            return None;
        }
        let one = ONE_BROWSER.lock().await;
        let dir = tempfile::tempdir().unwrap();
        let server = Server::start_with_env(&[("VOICEBOX_LIVE_PROVIDER", "local")]);
        let browser = with_mic(&server, &silent_wav(dir.path())).await;
        Some((
            server,
            browser,
            Quiet {
                _one: one,
                _dir: dir,
            },
        ))
    }
}

/// A server whose Gemini Live is `fake`, and a browser whose microphone plays `wav`.
async fn gemini_page(fake: &common::live_fake::Fake, wav: &Path) -> (Server, Browser) {
    let url = fake.url("/ws/live");
    let server = Server::start_with_env(&[
        ("VOICEBOX_GEMINI_LIVE_URL", &url),
        ("GEMINI_API_KEY", "gm-page-key-1234"),
        ("VOICEBOX_LIVE_PROVIDER", "gemini"),
    ]);
    let browser = with_mic(&server, wav).await;
    (server, browser)
}

/// Starts Live and plays the provider's side up to a long reply being spoken:
/// `setupComplete`, then ten seconds of model speech.
async fn speaking(
    browser: &Browser,
    fake: &mut common::live_fake::Fake,
) -> common::live_fake::Upstream {
    browser.click("live").await;
    let mut upstream = fake.accept().await;
    assert!(upstream.recv().await.get("setup").is_some());
    upstream.send(json!({"setupComplete": {}})).await;
    wait_status(
        browser,
        "ready",
        "return s.dataset.state === 'listening' && !s.textContent.includes('getting ready');",
    )
    .await;
    let tone: Vec<u8> = (0..24_000)
        .flat_map(|i: i32| (((i as f32 * 0.05).sin() * 8000.0) as i16).to_le_bytes())
        .collect();
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(&tone);
    for _ in 0..10 {
        upstream
            .send(json!({"serverContent": {"modelTurn": {"parts": [{"inlineData": {"mimeType": "audio/pcm;rate=24000", "data": data}}]}}}))
            .await;
    }
    wait_status(
        browser,
        "the reply being spoken",
        "return Number(s.dataset.queued) > 0;",
    )
    .await;
    upstream
}

/// The next message upstream that is not microphone audio.
async fn next_control(upstream: &mut common::live_fake::Upstream) -> Value {
    loop {
        let message = upstream.recv().await;
        if message.get("realtimeInput").is_none() {
            return message;
        }
    }
}

/// Stop empties the page's queue of model speech at once and tells the
/// provider, in its own format, while the microphone keeps listening.
#[tokio::test]
async fn stop_flushes_the_reply_and_tells_the_provider() {
    let Some(_one) = browser_turn().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut fake = common::live_fake::Fake::start().await;
    let (server, browser) = gemini_page(&fake, &silent_wav(dir.path())).await;
    let mut upstream = speaking(&browser, &mut fake).await;
    // In a quiet room nothing is stopped by itself (the negative control).
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(
        browser
            .js(&format!("{STATUS} return Number(s.dataset.queued) > 0;"))
            .await
            == Value::Bool(true)
    );
    browser.click("live-stop").await;
    wait_status(
        &browser,
        "the queue emptied",
        "return s.dataset.queued === '0';",
    )
    .await;
    assert_eq!(
        next_control(&mut upstream).await,
        json!({"clientContent": {"turnComplete": false}})
    );
    browser
        .wait_for("the stopped line", "return [...document.querySelectorAll('#transcript .live-stopped')].some((l) => l.textContent.includes('Stopped the reply.'));")
        .await;
    // The session lives and the microphone still streams.
    let audio = upstream.recv().await;
    assert!(audio.get("realtimeInput").is_some(), "{audio}");
    assert_eq!(
        browser
            .js(&format!("{STATUS} return s.dataset.state;"))
            .await,
        "listening"
    );
    browser.photograph("live-stopped").await;
    drop(server);
    browser.close().await;
}

/// Speaking over the model stops its reply: the page hears the person's
/// voice above the room's level while the model speaks, and interrupts.
#[tokio::test]
async fn speaking_over_the_reply_interrupts_it() {
    if !browser::available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(wav) = spoken_wav("wait, stop, that is not what I meant", dir.path()) else {
        return;
    };
    let _one = ONE_BROWSER.lock().await;
    let mut fake = common::live_fake::Fake::start().await;
    let (_server, browser) = gemini_page(&fake, &wav).await;
    let mut upstream = speaking(&browser, &mut fake).await;
    assert_eq!(
        next_control(&mut upstream).await,
        json!({"clientContent": {"turnComplete": false}})
    );
    wait_status(
        &browser,
        "the queue emptied",
        "return s.dataset.queued === '0';",
    )
    .await;
    browser.close().await;
}

/// Nothing can start here (no key, no offline voice): the button says
/// "Set up voice…" and opens Settings, which says the ways in one line
/// each; no session is attempted.
#[tokio::test]
async fn with_nothing_to_talk_to_live_offers_to_set_up_voice() {
    let Some(_one) = browser_turn().await else {
        return;
    };
    let server = Server::start_with_env(&[(
        "VOICEBOX_SPHINX_LIBRARY",
        "/nonexistent/libpocketsphinx.so.3",
    )]);
    let browser = Browser::start_with_args(&FAKE_MIC).await;
    browser.client.goto(&server.page_url).await.unwrap();
    browser
        .wait_text("the button", "live", "Set up voice…")
        .await;
    browser.click("live").await;
    browser
        .wait_for(
            "Settings",
            "return document.getElementById('settings').open",
        )
        .await;
    let ways = browser
        .js("return [...document.querySelectorAll('#live-setup li')].map((l) => l.textContent)")
        .await;
    let ways: Vec<String> = ways
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect();
    assert!(
        ways.iter()
            .any(|w| w.starts_with("Gemini Live") && w.contains("key in Settings")),
        "{ways:?}"
    );
    assert!(
        ways.iter().any(|w| w.starts_with("Offline (pocketsphinx)")
            && w.contains("apt-get install -y libpocketsphinx3")),
        "{ways:?}"
    );
    browser.photograph("live-set-up-voice").await;
    assert_eq!(
        server.get("/api/health").await.1["live"]["created"],
        0,
        "no session was tried"
    );
    browser.close().await;
}

/// Typed words in a live session become an act, the same as spoken ones
/// (offline voice: through the resolver and the executor).
#[tokio::test]
async fn typed_words_in_a_live_session_are_done() {
    let Some((server, browser, _quiet)) = Quiet::offline().await else {
        return;
    };
    browser.click("live").await;
    wait_status(
        &browser,
        "ready",
        "return s.dataset.state === 'listening' && !s.textContent.includes('getting ready');",
    )
    .await;
    browser
        .say("create a file called typed.txt with hello")
        .await;
    let typed = server.root.join("typed.txt");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(&typed).ok().as_deref() != Some("hello") {
        assert!(Instant::now() < deadline, "the typed write was not done");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    browser
        .wait_for("the typed line and its act", "return !!document.querySelector('#transcript .live-typed') && [...document.querySelectorAll('#transcript .turn.via-live')].some((t) => t.textContent.includes('wrote typed.txt'));")
        .await;
    // Typed into the session, not a turn of its own: no typed turn was sent.
    assert_eq!(
        browser
            .js("return [...document.querySelectorAll('#transcript .turn:not(.via-live)')].length")
            .await,
        0
    );
    browser.click("live").await;
    browser.close().await;
}

/// Offline voice's answers are spoken by the browser (observed by stubbing
/// `speechSynthesis`: the test fails if nothing is spoken), short, in a voice
/// the page names; Stop cancels the speech, and the setting turns it off.
#[tokio::test]
async fn offline_answers_are_spoken_short_and_stop_cancels_them() {
    let Some((_server, browser, _quiet)) = Quiet::offline().await else {
        return;
    };
    browser
        .js("window.__spoken = []; window.__cancelled = 0;
             speechSynthesis.speak = (u) => { window.__spoken.push(u.text); };
             speechSynthesis.cancel = () => { window.__cancelled += 1; };
             return true;")
        .await;
    browser.click("live").await;
    wait_status(
        &browser,
        "ready, naming the voice",
        "return s.dataset.state === 'listening' && !s.textContent.includes('getting ready') && s.textContent.includes('answers spoken by');",
    )
    .await;
    browser
        .say("create a file called spoken.txt with hello")
        .await;
    browser
        .wait_for("the answer spoken", "return window.__spoken.length > 0;")
        .await;
    let spoken = browser.js("return window.__spoken;").await;
    let said = spoken[0].as_str().unwrap();
    assert!(said.contains("spoken.txt"), "{spoken}");
    assert!(
        said.len() < 60 && !said.contains("bytes"),
        "a short sentence, no sizes: {said}"
    );

    let before = browser.js("return window.__cancelled;").await;
    browser.click("live-stop").await;
    let after = browser.js("return window.__cancelled;").await;
    assert!(
        after.as_u64() > before.as_u64(),
        "Stop cancels: {before} → {after}"
    );

    // Off: the next answer is shown, not spoken.
    browser
        .js(
            "const t = document.getElementById('live-speak'); t.checked = false;
             t.dispatchEvent(new Event('change')); return true;",
        )
        .await;
    browser.say("read spoken.txt").await;
    browser
        .wait_for(
            "the read shown",
            "return [...document.querySelectorAll('#transcript .live-reply')].some((l) => l.textContent.includes('hello'));",
        )
        .await;
    assert_eq!(browser.js("return window.__spoken.length;").await, 1);
    browser.click("live").await;
    browser.close().await;
}

/// A heard change answered by voice through the page: the fake microphone
/// says the request and then the question's words; the question closes as
/// answered by voice (no click is sent) and the change is done.
#[tokio::test]
async fn a_question_answered_by_voice_closes_on_the_page() {
    if !browser::available() || !common::spoken::available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The answer is one word: said a little slower, as a person says a
    // name they are asked for.
    let part = |text: &str, name: &str, voice: &[&str]| {
        let (raw, wav) = (
            dir.path().join(format!("{name}.raw.wav")),
            dir.path().join(format!("{name}.wav")),
        );
        let spoke = Command::new("espeak-ng")
            .args(voice)
            .arg("-w")
            .arg(&raw)
            .arg(text)
            .status();
        assert!(spoke.is_ok_and(|s| s.success()));
        let made = Command::new("sox")
            .arg(&raw)
            .args(["-r", "48000", "-c", "1", "-b", "16", "-e", "signed-integer"])
            .arg(&wav)
            .args(["pad", "1", "2"])
            .status();
        assert!(made.is_ok_and(|s| s.success()));
        wav
    };
    let (ask, answer) = (
        part("append milk to groceries dot md", "ask", &["-v", "en-gb"]),
        part("groceries", "answer", &["-v", "en-us", "-s", "140"]),
    );
    let mic = dir.path().join("mic.wav");
    let joined = Command::new("sox")
        .arg(&ask)
        .arg(&answer)
        .arg(&mic)
        .status();
    assert!(joined.is_ok_and(|s| s.success()));
    let _one = ONE_BROWSER.lock().await;
    let server = Server::start_with_env(&[("VOICEBOX_LIVE_PROVIDER", "local")]);
    let groceries = server.root.join("groceries.md");
    std::fs::write(&groceries, "eggs\n").unwrap();
    let browser = with_mic(&server, &mic).await;
    browser
        .js("window.__closes = [];
             document.getElementById('confirm-dialog').addEventListener('close', (e) => window.__closes.push(e.target.returnValue));
             return true;")
        .await;
    browser.click("live").await;
    let deadline = Instant::now() + Duration::from_secs(120);
    // No click: only the spoken words can do it.
    while !std::fs::read_to_string(&groceries)
        .unwrap()
        .contains("milk")
    {
        still_waiting(&browser, deadline, "the spoken answer never did the append").await;
    }
    // Closed as answered by voice, or, when the answer came before the
    // question's turn on screen (a mishearing's question was showing),
    // never shown at all: either way the question about this append is not
    // left waiting. The microphone says both again meanwhile, so its next
    // question may open and close by voice the same way, and a question
    // heard again replaces the older one on screen.
    let waiting = "const d = document.getElementById('confirm-dialog');
                   const plan = document.getElementById('confirm-plan').textContent;
                   return !window.__closes.includes('spoken')
                       && d.open && plan.includes('milk') && plan.includes('groceries.md');";
    let deadline = Instant::now() + Duration::from_secs(60);
    while browser.js(waiting).await == Value::Bool(true) {
        assert!(
            Instant::now() < deadline,
            "the question about the append was left waiting"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // Nothing closed a question but voice, or a newer heard question taking
    // an older one's place (the microphone says the request again).
    let closes = browser.js("return window.__closes;").await;
    assert!(
        closes
            .as_array()
            .unwrap()
            .iter()
            .all(|how| how == "spoken" || how == "superseded"),
        "{closes}"
    );
    browser.click("live").await;
    browser.close().await;
}
