//! The browser placement in real headless Chromium: the environment page's
//! worker runs the core (voicebox_web.wasm) over OPFS with no server call for
//! any act. The acceptance checks, each with its positive control, driven through
//! `window.voicebox.request` (glue that passes a request to the worker), so
//! no user gesture is ever made.

mod common;
mod static_site;

use common::browser::{self, Browser};
use common::env_checks::{self, act, done, holds, no_gesture, open};
use serde_json::json;
use static_site::StaticSite;

#[tokio::test]
async fn the_core_runs_in_the_worker_over_opfs() {
    let Some((_server, browser)) = env_checks::served_page().await else {
        return;
    };

    // Check 1: reopen. Create a project, write, reload, read it back.
    let opened = open(&browser, "atlas").await;
    assert_eq!(opened["ok"], true, "{opened}");
    assert_eq!(opened["project"]["id"], "atlas@browser");
    assert_eq!(
        opened["project"]["root"],
        json!({"kind": "opfs", "path": "v1/projects/atlas"})
    );
    let wrote = browser
        .worker(json!({"op": "execute", "transcript": "create a file called hello.txt with hi"}))
        .await;
    assert_eq!(
        wrote["result"]["action"], "wrote hello.txt (2 bytes)",
        "{wrote}"
    );
    no_gesture(&browser).await;
    browser.client.refresh().await.unwrap();
    let read = act(&browser, json!({"verb": "read", "name": "hello.txt"})).await;
    assert_eq!(
        read["content"], "hi",
        "the page re-opened the project by itself: {read}"
    );
    no_gesture(&browser).await;

    // Checks 2–7 through the worker (the same checks run over a picked folder in picked.rs).
    env_checks::root_injection_checks(&browser, "v1/projects/atlas").await;

    // 40 concurrent appends → 80 audit lines for 40 writes, seq gap-free.
    let before = browser.audit_entries().await.len();
    let burst = browser
        .js_async(
            "const done = arguments[0]; Promise.all([...Array(40).keys()].map((i) => window.voicebox.request({op: 'execute', action: {verb: 'write', name: 'burst/' + i + '.txt', content: String(i)}}))).then((r) => done(r.filter((a) => a.result && a.result.ok).length));",
            vec![],
        )
        .await;
    assert_eq!(burst, 40);
    let entries = browser.audit_entries().await;
    assert_eq!(entries.len(), before + 80);
    let seqs: Vec<u64> = entries.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(
        seqs,
        (1..=seqs.len() as u64).collect::<Vec<_>>(),
        "one writer, gap-free"
    );

    // Check 10: two projects write two audit files.
    assert_eq!(open(&browser, "second").await["ok"], true);
    done(
        &browser,
        json!({"verb": "write", "name": "b.txt", "content": "b"}),
    )
    .await;
    let second = browser.audit().await;
    assert_eq!(second["root"], "v1/projects/second");
    let check = browser.worker(json!({"op": "verifyAudit"})).await;
    assert_eq!(
        check["files"].as_array().unwrap().len(),
        1,
        "its own audit file: {check}"
    );
    let entries = second["entries"].as_array().unwrap();
    assert!(
        entries
            .iter()
            .all(|e| e["root"] == "v1/projects/second" && e["project"] == "second@browser")
    );
    assert!(
        entries
            .iter()
            .any(|e| e["act"]["target"] == "b.txt" && e["result"] == "ok")
    );
    let first = open(&browser, "atlas").await;
    assert_eq!(first["ok"], true);
    assert_eq!(
        first["project"]["createdAt"], opened["project"]["createdAt"],
        "re-opening is not creating"
    );
    assert!(
        browser
            .audit_entries()
            .await
            .iter()
            .all(|e| e["act"]["target"] != "b.txt"),
        "no interleaving"
    );
    // Delete asks in a modal; No keeps the file, and a second question right
    // after is asked afresh: Yes removes it.
    for (answer, kept, said) in [
        ("confirm-no", true, "Kept hello.txt."),
        ("confirm-yes", false, "deleted hello.txt"),
    ] {
        browser.say_and_ask("delete hello.txt").await;
        browser.assert_plan_names("hello.txt").await;
        browser.click(answer).await;
        browser.wait_for_modal(false).await;
        browser.wait_text(said, "transcript", said).await;
        let read = act(&browser, json!({"verb": "read", "name": "hello.txt"})).await;
        if kept {
            assert_eq!(read["content"], "hi", "No keeps the file: {read}");
        } else {
            assert_eq!(read["refused"], "not-found", "Yes removes it: {read}");
        }
    }
    browser.screenshot("environment").await;
    browser.close().await;
}

#[tokio::test]
async fn the_exported_static_folder_works_with_no_voicebox_server() {
    let Some((_site, browser)) = StaticSite::visited().await else {
        return;
    };
    assert_eq!(open(&browser, "offline").await["ok"], true);
    done(
        &browser,
        json!({"verb": "write", "name": "note.txt", "content": "kept"}),
    )
    .await;
    browser.client.refresh().await.unwrap();
    holds(&browser, "note.txt", "kept").await;
    done(&browser, json!({"verb": "create_asset", "name": "dot.svg", "kind": "svg", "body": "<svg xmlns='http://www.w3.org/2000/svg'/>"})).await;
    // Reload: the gallery shows it again, as an image from a blob: URL.
    browser
        .reload_until(
            "the asset in the gallery",
            "return [...document.querySelectorAll('#gallery figure')].some((f) => f.textContent.includes('dot.svg') && f.querySelector('img') && f.querySelector('img').src.startsWith('blob:'))",
        )
        .await;
    // Its bytes came through the executor: an audited read of the gallery's turn.
    let audit = browser.audit().await;
    let entries = audit["entries"].as_array().unwrap();
    assert!(
        entries.iter().any(|e| e["turn"] == "gallery"
            && e["act"]["kind"] == "read"
            && e["act"]["target"] == "assets/dot.svg"),
        "no audited gallery read of assets/dot.svg: {audit}"
    );
    no_gesture(&browser).await;
    browser.close().await;
}

/// Check 5 and 7 through the worker itself: the page's tool module swapped
/// for one that imports `fetch`, one that traps and one that never returns.
/// Each is refused by name with an audit entry, nothing is written, and the
/// worker serves the next request; the real module, put back, works.
#[tokio::test]
async fn a_bad_tool_module_is_named_and_the_worker_serves_the_next_request() {
    if !browser::available() {
        return;
    }
    const ABI: &str = r#"(import "env" "writeFile" (func (param i32 i32 i32 i32))) (import "env" "note" (func (param i32 i32))) (memory (export "memory") 1) (func (export "alloc") (param i32) (result i32) (i32.const 1024))"#;
    let fixtures = [
        (
            format!(
                r#"(module (import "env" "fetch" (func (param i32 i32))) {ABI} (func (export "run") (param i32 i32)))"#
            ),
            "import-undeclared",
            "fetch",
        ),
        (
            format!(r#"(module {ABI} (func (export "run") (param i32 i32) unreachable))"#),
            "wasm-trapped",
            "unreachable",
        ),
        (
            format!(r#"(module {ABI} (func (export "run") (param i32 i32) (loop (br 0))))"#),
            "time-exceeded",
            "5000 ms",
        ),
    ];
    let browser = Browser::start().await;
    let asset = json!({"verb": "create_asset", "name": "a.svg", "kind": "svg", "body": "<svg xmlns='http://www.w3.org/2000/svg'/>"});
    for (wat, rule, words) in fixtures {
        // A site of its own each time: a fresh origin, so no cached module.
        let site = StaticSite::export();
        let module = site.folder.path().join("env/create-asset.wasm");
        std::fs::write(&module, wat::parse_str(&wat).unwrap()).unwrap();
        site.visit(&browser).await;
        assert_eq!(open(&browser, "tools").await["ok"], true);
        let refused = act(&browser, asset.clone()).await;
        assert_eq!(refused["refused"], rule, "{refused}");
        assert!(
            refused["why"].as_str().unwrap().contains(words),
            "the platform's own words: {refused}"
        );
        let entries = browser.audit_entries().await;
        let last = entries.last().unwrap();
        assert_eq!(last["seq"], refused["logged"], "{entries:?}");
        assert_eq!(last["result"], "error", "{last}");
        assert_eq!(
            act(&browser, json!({"verb": "read", "name": "assets/a.svg"})).await["refused"],
            "not-found",
            "nothing was written"
        );
        assert_eq!(
            act(&browser, json!({"verb": "list"})).await["ok"],
            true,
            "the worker serves the next request"
        );

        // The real module, on a fresh origin, works.
        let fresh = StaticSite::export();
        fresh.visit(&browser).await;
        assert_eq!(open(&browser, "tools").await["ok"], true);
        assert_eq!(act(&browser, asset.clone()).await["ok"], true);
    }
    browser.close().await;
}

#[tokio::test]
async fn two_tabs_write_two_files_and_the_reader_merges_them() {
    let Some((server, browser)) = env_checks::served_project("shared").await else {
        return;
    };
    let page = &browser.client;
    let first = browser.js("return window.voicebox.instance").await;
    done(
        &browser,
        json!({"verb": "write", "name": "one.txt", "content": "1"}),
    )
    .await;
    // A second tab of the same origin: its own lineage, so its own writer file.
    let tab = page.new_window(true).await.unwrap();
    page.switch_to_window(tab.handle).await.unwrap();
    browser
        .open_environment(&server.opening("/environment"))
        .await;
    assert_eq!(open(&browser, "shared").await["ok"], true);
    let second = browser.js("return window.voicebox.instance").await;
    assert_ne!(first, second, "each tab writes as its own instance");
    done(
        &browser,
        json!({"verb": "write", "name": "two.txt", "content": "2"}),
    )
    .await;
    let entries = browser.audit_entries().await;
    let check = browser.worker(json!({"op": "verifyAudit"})).await;
    let files = check["files"].as_array().unwrap();
    assert_eq!(files.len(), 2, "two writer files: {files:?}");
    let keys: Vec<(String, u64)> = entries
        .iter()
        .map(|e| {
            (
                e["instance"].as_str().unwrap().to_string(),
                e["seq"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "merged by (instance, seq)");
    for instance in [&first, &second] {
        let seqs: Vec<u64> = keys
            .iter()
            .filter(|(i, _)| Some(i.as_str()) == instance.as_str())
            .map(|(_, s)| *s)
            .collect();
        assert!(!seqs.is_empty(), "{instance} wrote");
        assert_eq!(
            seqs,
            (1..=seqs.len() as u64).collect::<Vec<_>>(),
            "{instance}: nothing lost"
        );
    }
    browser.close().await;
}

/// Measures (does not assert) the worker's latency from message to reply, for
/// the figures in docs/PERFORMANCE.md:
/// `cargo test -p voicebox --test environment -- --ignored --nocapture worker_latency`.
#[tokio::test]
#[ignore = "a measurement, run by hand"]
async fn worker_latency() {
    let Some((_server, browser)) = env_checks::served_project("bench").await else {
        return;
    };
    done(
        &browser,
        json!({"verb": "write", "name": "r.txt", "content": "read me"}),
    )
    .await;
    let script = "const [action, n, done] = arguments; (async () => {
        const times = [];
        for (let i = 0; i < n; i++) {
          const a = JSON.parse(JSON.stringify(action).replaceAll('$i', String(i)));
          const t = performance.now();
          const answer = await window.voicebox.request({op: 'execute', action: a});
          times.push(performance.now() - t);
          if (!answer.result || answer.result.ok !== true) return done({error: answer});
        }
        times.sort((x, y) => x - y);
        done({n, median: times[Math.floor(n / 2)], p95: times[Math.floor(n * 0.95)]});
      })();";
    for (label, action, n) in [
        ("read", json!({"verb": "read", "name": "r.txt"}), 200),
        (
            "create-asset",
            json!({"verb": "create_asset", "name": "a$i.svg", "kind": "svg", "body": "<svg xmlns='http://www.w3.org/2000/svg'/>"}),
            100,
        ),
    ] {
        let figures = browser.js_async(script, vec![action, json!(n)]).await;
        println!("worker {label}: {figures}");
    }
    browser.close().await;
}
