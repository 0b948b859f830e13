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
    if !browser::available() {
        return;
    }
    let _one = ONE_BROWSER.lock().await;
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
                 return refused || (s.dataset.state === 'listening' && s.dataset.provider === 'local' && s.textContent.includes('local'));",
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
            "return !s.textContent.includes('setting up');",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let refused = browser
            .js("return [...document.querySelectorAll('#transcript .live-error')].map((e) => e.textContent);")
            .await;
        assert_eq!(refused, json!([]), "audio frames were refused");
        browser.screenshot("live-listening").await;

        // A second click stops: the socket closes and the session ends.
        browser.click("live").await;
        wait_status(
            &browser,
            "the session to end",
            "return s.dataset.state === 'ended' && s.textContent.includes('stopped');",
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
    browser.screenshot("settings").await;

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
                 return refused && s.dataset.state === 'ended' && s.textContent.includes('setup-failed') && s.dataset.provider === 'openai';",
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
/// Chromium's fake microphone (so the worklet has to downsample it).
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
    converted.then_some(wav)
}

/// A spoken command through the page: Chromium plays a WAV as the
/// microphone, the worklet downsamples it to 16 kHz PCM16 chunks, the
/// offline recogniser hears it, and the page's dialog shows what it heard:
/// a mishearing is answered No and changes nothing; Yes on the right one writes.
#[tokio::test]
async fn a_spoken_command_from_the_page_is_done() {
    if !browser::available() {
        return;
    }
    let sphinx = Path::new("/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3").exists()
        && Path::new("/usr/share/pocketsphinx/model/en-us/en-us/mdef").exists();
    let dir = tempfile::tempdir().unwrap();
    let wav = spoken_wav("create a file called hello dot txt with hello", dir.path());
    let (true, Some(wav)) = (sphinx, wav) else {
        voicebox_test_support::present_or_skip(
            false,
            "espeak-ng, sox and pocketsphinx",
            "apt-get install -y espeak-ng sox libpocketsphinx3 pocketsphinx-en-us",
        );
        return;
    };
    let _one = ONE_BROWSER.lock().await;
    let server = Server::start_with_env(&[("VOICEBOX_LIVE_PROVIDER", "local")]);
    let capture = format!("--use-file-for-fake-audio-capture={}", wav.display());
    let browser = Browser::start_with_args(&[FAKE_MIC[0], FAKE_MIC[1], &capture]).await;
    browser.client.goto(&server.page_url).await.unwrap();
    wait_status(
        &browser,
        "the page's modules",
        "return s.dataset.state === 'idle';",
    )
    .await;
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
        let shown = browser
            .js("return document.getElementById('transcript').textContent;")
            .await;
        assert!(
            Instant::now() < deadline,
            "the spoken write was not asked and done: {shown}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
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
    browser.close().await;
}
