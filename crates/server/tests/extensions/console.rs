//! Admitting at the console: the code's lifecycle, and the code never leaves the
//! console.

use super::*;

#[tokio::test]
async fn the_console_code_lifecycle_and_the_code_never_leaves_the_console() {
    let server = start();
    let mut bodies: Vec<String> = Vec::new();
    let post = |path: &'static str, body: Value| {
        let server = &server;
        async move { server.post(path, body).await }
    };
    propose(&server, descriptor("notes", "d")).await;
    let console_code = |server: &Server| -> String {
        let lines = server.console.lock().unwrap();
        let line = lines
            .iter()
            .rev()
            .find(|l| l.contains("approval code"))
            .expect("a code on the console");
        line.split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let wait_for_code = |server: &Server, n: usize| {
        for _ in 0..100 {
            if server
                .console
                .lock()
                .unwrap()
                .iter()
                .filter(|l| l.contains("approval code"))
                .count()
                >= n
            {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!("no code printed");
    };

    // Wrong codes count; the fifth burns the code.
    let (_, asked) = post("/api/extensions/approval-request", json!({"id": "notes"})).await;
    bodies.push(asked.to_string());
    assert_eq!(asked["ok"], true);
    wait_for_code(&server, 1);
    let code = console_code(&server);
    assert_eq!(code.len(), 8);
    let wrong = if code == "00000000" {
        "11111111"
    } else {
        "00000000"
    };
    for attempt in 1..=5 {
        let (_, reply) = post(
            "/api/extensions/approve",
            json!({"id": "notes", "code": wrong}),
        )
        .await;
        bodies.push(reply.to_string());
        assert_eq!(
            reply["result"]["refused"], "code-invalid",
            "attempt {attempt}"
        );
    }
    let (_, burned) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(burned.to_string());
    assert_eq!(
        burned["result"]["refused"], "code-invalid",
        "the right code is burned too"
    );

    // The plan changed after the code was issued: refused.
    let (_, asked) = post("/api/extensions/approval-request", json!({"id": "notes"})).await;
    bodies.push(asked.to_string());
    wait_for_code(&server, 2);
    let code = console_code(&server);
    propose(&server, descriptor("notes", "changed")).await;
    let (_, changed) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(changed.to_string());
    assert_eq!(changed["result"]["refused"], "plan-changed");

    // The right code, once: admitted; reused: refused.
    let (_, asked) = post("/api/extensions/approval-request", json!({"id": "notes"})).await;
    bodies.push(asked.to_string());
    wait_for_code(&server, 3);
    let code = console_code(&server);
    let (_, ok) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(ok.to_string());
    assert_eq!(ok["result"]["ok"], true, "{ok}");
    let (_, reused) = post(
        "/api/extensions/approve",
        json!({"id": "notes", "code": code}),
    )
    .await;
    bodies.push(reused.to_string());
    assert_eq!(reused["result"]["refused"], "code-invalid");
    assert_eq!(state_of(&server, "notes").await, "admitted");

    // No HTTP response ever carried a code.
    let codes: Vec<String> = server
        .console
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("approval code"))
        .map(|l| {
            l.split(": ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    let (_, list) = server.get("/api/extensions").await;
    bodies.push(list.to_string());
    bodies.push(serde_json::to_string(&server.audit().await).unwrap());
    for code in &codes {
        for body in &bodies {
            assert!(!body.contains(code.as_str()), "a response carried the code");
        }
    }
}
