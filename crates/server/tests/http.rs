//! `voicebox serve` over real HTTP: the routes, the failure table of
//! how-a-turn-runs, and concurrency.

mod common;

use common::Server;
use serde_json::json;

#[tokio::test]
async fn the_three_verification_calls() {
    let server = Server::start();
    let (status, health) = server.get("/api/health").await;
    assert_eq!(status, 200);
    assert_eq!(
        (health["ok"].as_bool(), health["declared"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(health["root"]["path"], server.root.to_str().unwrap());
    assert_eq!(health["resolver"], "script");

    assert_eq!(server.say("list files").await["action"]["verb"], "list");
    let wrote = server.say("create a file called hello.txt with hi").await;
    assert_eq!(
        wrote["action"],
        json!({"verb":"write","name":"hello.txt","content":"hi","mode":"create"})
    );
    assert_eq!(wrote["result"]["action"], "wrote hello.txt (2 bytes)");
    assert_eq!(
        std::fs::read_to_string(server.root.join("hello.txt")).unwrap(),
        "hi"
    );
    let flight = server.say("book me a flight to Lisbon").await;
    assert!(flight["action"].is_null() && flight["result"].is_null());
    assert!(flight["note"].as_str().unwrap().len() > 10);

    let (_, audit) = server.get("/api/audit").await;
    assert_eq!(audit["ok"], true);
    let (_, check) = server.get("/api/audit/verify").await;
    assert_eq!(check["files"].as_array().unwrap().len(), 1, "{check}");
    assert_eq!(check["files"][0]["verdict"]["verdict"], "ok", "{check}");
    let entries = audit["entries"].as_array().unwrap();
    let decisions = common::each(&audit["entries"], "decision");
    assert_eq!(
        decisions,
        ["allow", "attempt", "allow"],
        "newest first: the write's outcome and attempt, then the list"
    );
    assert_eq!(entries[0]["observed"]["bytes"], 2);
}

#[tokio::test]
async fn the_failure_table() {
    // No workspace root declared.
    let bare = Server::start_with(false);
    let (_, health) = bare.get("/api/health").await;
    assert_eq!(health["declared"], false);
    let reply = bare.say("list files").await;
    assert_eq!(reply["result"]["refused"], "root-not-declared");
    assert!(reply["result"]["logged"].is_null());

    let server = Server::start();
    // Path escapes the root: refused pre-flight and recorded.
    let (_, escape) = server
        .post(
            "/api/turn",
            json!({"action": {"verb":"write","name":"../escape.txt","content":"x"}}),
        )
        .await;
    assert_eq!(escape["result"]["refused"], "outside-root");
    assert!(!server.root.parent().unwrap().join("escape.txt").exists());
    let entries = server.audit().await;
    let last = entries.last().unwrap();
    assert_eq!(
        (last["decision"].as_str(), last["rule"].as_str()),
        (Some("refuse"), Some("outside-root"))
    );
    // A dotfile, beside its accepted sibling.
    assert_eq!(
        server.say("create a file called .env with x").await["result"]["refused"],
        "dotfile-refused"
    );
    assert_eq!(
        server.say("create a file called env.txt with x").await["result"]["ok"],
        true
    );
    // An utterance that matches no command.
    let none = server.say("what's the weather tomorrow").await;
    assert!(none["action"].is_null());
    // The workspace directory removed mid-session: distinct from undeclared.
    std::fs::remove_dir_all(&server.root).unwrap();
    assert_eq!(
        server.say("list files").await["result"]["refused"],
        "root-unreachable"
    );
    let (_, audit) = server.get("/api/audit").await;
    assert_eq!(audit["refused"], "root-unreachable");
}

#[tokio::test]
async fn delete_asks_and_the_answer_decides() {
    let server = Server::start();
    std::fs::write(server.root.join("notes.md"), "keep").unwrap();
    let ask = server.say("delete notes.md").await;
    let id = ask["result"]["confirm"]["id"].as_str().unwrap().to_string();
    assert!(
        ask["result"]["confirm"]["plan"]
            .as_str()
            .unwrap()
            .contains("notes.md")
    );
    let (_, no) = server.confirm(&id, false).await;
    assert_eq!(no["result"]["refused"], "declined");
    assert!(server.root.join("notes.md").exists());
    let (_, again) = server.confirm(&id, true).await;
    assert_eq!(
        again["result"]["refused"], "confirmation-unknown",
        "an id answers once"
    );
    let ask = server.say("delete notes.md").await;
    let id = ask["result"]["confirm"]["id"].as_str().unwrap();
    let (_, yes) = server.confirm(&id, true).await;
    assert_eq!(yes["result"]["ok"], true);
    assert!(!server.root.join("notes.md").exists());
}

#[tokio::test]
async fn files_and_file_serve_the_page_through_the_executor() {
    let server = Server::start();
    server
        .say("create a file called drafts/plan.md with ship it")
        .await;
    let (_, files) = server.get("/api/files").await;
    assert_eq!(files["result"]["files"][0]["name"], "drafts");
    let (_, sub) = server.get("/api/files?dir=drafts").await;
    assert_eq!(sub["result"]["files"][0]["name"], "plan.md");
    let (_, file) = server.get("/api/file?name=drafts/plan.md").await;
    assert_eq!(file["result"]["content"], "ship it");
    let (_, escape) = server.get("/api/file?name=../../etc/passwd").await;
    assert_eq!(escape["result"]["refused"], "outside-root");
    let (status, bad) = server.get("/api/file?nam=x").await;
    assert_eq!(
        (status, bad["refused"].as_str()),
        (400, Some("malformed-field"))
    );
}

#[tokio::test]
async fn sixty_four_concurrent_writers_lose_nothing() {
    let server = std::sync::Arc::new(Server::start());
    let tasks: Vec<_> = (0..64)
        .map(|i| {
            let server = server.clone();
            tokio::spawn(async move {
                let text = format!("create a file called f{i}.txt with body {i}");
                server.say(&text).await
            })
        })
        .collect();
    for task in tasks {
        let reply = task.await.unwrap();
        assert_eq!(reply["result"]["ok"], true, "{reply}");
    }
    let entries = server.audit().await;
    let seqs: Vec<u64> = entries.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(
        seqs,
        (1..=128).collect::<Vec<u64>>(),
        "every line present, gap-free"
    );
    for i in 0..64 {
        let body = std::fs::read_to_string(server.root.join(format!("f{i}.txt"))).unwrap();
        assert_eq!(body, format!("body {i}"));
    }
}

#[tokio::test]
async fn concurrent_changes_of_one_file_lose_nothing_and_the_undo_index_is_kept_short() {
    let server = std::sync::Arc::new(Server::start());
    std::fs::write(server.root.join("notes.md"), "").unwrap();
    std::os::unix::fs::symlink("notes.md", server.root.join("same.md")).unwrap();
    // Appends to one file by two names, run beside one another.
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            let server = server.clone();
            tokio::spawn(async move {
                let name = if i % 2 == 0 { "notes.md" } else { "same.md" };
                for k in 0..4 {
                    let line = format!("c{i} k{k}");
                    let reply = server
                        .act(json!({"verb": "append", "name": name, "content": line}))
                        .await;
                    assert_eq!(reply["result"]["ok"], true, "{reply}");
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let mut got: Vec<String> = std::fs::read_to_string(server.root.join("notes.md"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    got.sort();
    let mut wanted: Vec<String> = (0..32)
        .flat_map(|i| (0..4).map(move |k| format!("c{i} k{k}")))
        .collect();
    wanted.sort();
    assert_eq!(got, wanted, "every append is in the file, once");

    // The index those changes grow is compacted off their path.
    let index = server.root.join(".voicebox/undo/journal.jsonl");
    let index_lines = || std::fs::read_to_string(&index).unwrap().lines().count();
    let limit = voicebox_core::journal::COMPACT_AFTER_LINES;
    for k in 0..=limit {
        let reply = server
            .act(json!({"verb": "write", "name": "n.md", "content": format!("v{k}")}))
            .await;
        assert_eq!(reply["result"]["ok"], true, "{reply}");
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while index_lines() > limit && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(index_lines() <= limit, "{} lines", index_lines());
    let undone = server.act(json!({"verb": "undo", "name": "n.md"})).await;
    assert_eq!(undone["result"]["ok"], true, "{undone}");
    let prior = std::fs::read_to_string(server.root.join("n.md")).unwrap();
    assert_eq!(prior, format!("v{}", limit - 1));
}

#[tokio::test]
async fn create_asset_and_shelf_tools_over_http() {
    let server = Server::start();
    let (_, reply) = server
        .post("/api/turn", json!({"action": {"verb":"create_asset","name":"logo.svg","kind":"svg","body":"<svg/>"}}))
        .await;
    assert_eq!(reply["result"]["ok"], true, "{reply}");
    assert_eq!(
        reply["result"]["notes"][0],
        "asset created by the create-asset tool"
    );
    assert!(server.root.join("assets/logo.svg").exists());
    let (_, wc) = server
        .post(
            "/api/turn",
            json!({"action": {"verb":"tool","id":"wc","name":"assets/logo.svg"}}),
        )
        .await;
    assert_eq!(wc["result"]["output"], r#"{"lines":0,"words":1,"bytes":6}"#);
    let tools = server.say("what tools do you have").await;
    let ids = common::each(&tools["result"]["tools"], "id");
    assert_eq!(ids, ["create-asset", "wc", "crc32"]);
    let entries = server.audit().await;
    assert_eq!(entries.last().unwrap()["act"]["tool"], "wc");
}

#[tokio::test]
async fn sigterm_shuts_the_server_down_gracefully() {
    let mut server = Server::start();
    assert_eq!(server.say("list files").await["result"]["ok"], true);
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = server.wait();
    assert!(exit.success(), "exits 0 after SIGTERM: {exit:?}");
}

#[tokio::test]
async fn the_environment_page_and_the_browser_core_are_served() {
    let server = Server::start();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let redirect = client.get(server.url("/environment")).send().await.unwrap();
    assert!(redirect.status().is_redirection());
    assert_eq!(redirect.headers()["location"], "/env/");
    for (path, magic) in [
        ("/env/voicebox_web.wasm", b"\0asm"),
        ("/env/create-asset.wasm", b"\0asm"),
    ] {
        let response = reqwest::get(server.url(path)).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], "application/wasm");
        assert_eq!(&response.bytes().await.unwrap()[..4], magic, "{path}");
    }
    let csp = reqwest::get(server.url("/env/")).await.unwrap().headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.contains("'wasm-unsafe-eval'") && !csp.contains("'unsafe-eval'"),
        "{csp}"
    );
}

#[tokio::test]
async fn the_page_chooses_the_resolver() {
    let server = Server::start_with_env(&[("VOICEBOX_ANTHROPIC_BASE_URL", "http://127.0.0.1:9")]);
    let client = reqwest::Client::new();
    let put = |resolver: &str| server.put("/api/settings", json!({"resolver": resolver}));
    let (_, changed) = put("claude").await;
    assert_eq!(
        (changed["resolver"].as_str(), changed["ready"].as_bool()),
        (Some("claude"), Some(false))
    );
    assert!(
        changed["why"]
            .as_str()
            .unwrap()
            .contains("ANTHROPIC_API_KEY"),
        "{changed}"
    );
    let (_, health) = server.get("/api/health").await;
    assert_eq!(health["resolver"], "claude");
    let turn = server.say("list files").await;
    assert_eq!(turn["result"]["refused"], "key-missing", "{turn}");
    assert!(
        turn["action"].is_null()
            && turn["result"]["why"]
                .as_str()
                .unwrap()
                .starts_with("Claude isn't set up yet"),
        "{turn}"
    );
    let (status, bad) = put("telepathy").await;
    assert_eq!(status, 400);
    assert_eq!(bad["refused"], "malformed-field");
    let foreign = client
        .put(server.url("/api/settings"))
        .header("origin", "https://evil.example")
        .json(&json!({"resolver": "script"}))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 401, "a foreign page cannot change it");
    let (_, health) = server.get("/api/health").await;
    assert_eq!(
        health["resolver"], "claude",
        "unchanged by the refused request"
    );
    // The choice outlives a restart (the state folder keeps it).
    let server = server.crash_and_restart();
    assert_eq!(server.get("/api/health").await.1["resolver"], "claude");
    server
        .put("/api/settings", json!({"resolver": "script"}))
        .await;
    assert_eq!(server.say("list files").await["action"]["verb"], "list");
    let server = server.crash_and_restart();
    assert_eq!(server.get("/api/health").await.1["resolver"], "script");
}

/// One 64 MiB line with no newline in the audit folder, and a folder named
/// like a log: the page still answers, passing the line over by its span,
/// and the check names each odd entry on its own while the log shows.
#[tokio::test]
async fn an_over_long_line_and_an_odd_entry_in_the_audit_folder_stay_their_own() {
    let server = Server::start();
    server.say("create a file called a.txt with hi").await;
    let audit = server.root.join(".audit");
    let own = std::fs::read_dir(&audit)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let long = format!("zz-{}", own.to_str().unwrap().split_once('-').unwrap().1);
    const LONG: u64 = 64 << 20;
    let file = std::fs::File::create(audit.join(&long)).unwrap();
    std::io::Write::write_all(&mut &file, &vec![b'x'; LONG as usize]).unwrap();
    std::fs::create_dir(audit.join("trap.jsonl")).unwrap();

    let (status, page) = server.get("/api/audit?limit=5").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["entries"].as_array().unwrap().len(), 2, "{page}");
    assert_eq!(
        page["skipped"],
        json!([{"file": long, "at": 0, "bytes": LONG}])
    );
    let (_, check) = server.get("/api/audit/verify").await;
    let verdict = |name: &str| {
        let files = check["files"].as_array().unwrap();
        let file = files.iter().find(|f| f["name"] == name);
        file.map_or(json!(null), |f| f["verdict"]["verdict"].clone())
    };
    assert_eq!(verdict(own.to_str().unwrap()), "ok", "{check}");
    assert_eq!(verdict("trap.jsonl"), "unreadable", "{check}");
    assert_eq!(verdict(&long), "unanchored", "{check}");
    // Control: once the odd entries are gone, every file passes.
    std::fs::remove_dir(audit.join("trap.jsonl")).unwrap();
    std::fs::remove_file(audit.join(&long)).unwrap();
    let (_, check) = server.get("/api/audit/verify").await;
    let files = check["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{check}");
    let (_, page) = server.get("/api/audit?limit=5").await;
    assert!(page.get("skipped").is_none(), "{page}");
}
