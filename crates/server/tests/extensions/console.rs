//! Admitting at the console: the code's lifecycle, and the code never leaves the
//! console.

use super::*;

/// Talks to the server about the extension `notes`, keeping every body it
/// answers, so the test can show that none carried a code.
struct Exchange<'a> {
    server: &'a Server,
    bodies: Vec<String>,
}

impl Exchange<'_> {
    async fn post(&mut self, path: &str, body: Value) -> Value {
        let (_, reply) = self.server.post(path, body).await;
        self.bodies.push(reply.to_string());
        reply
    }

    /// Asks for a code, and reads the `n`th one off the console once it is printed.
    async fn ask(&mut self, n: usize) -> (Value, String) {
        let asked = self
            .post("/api/extensions/approval-request", json!({"id": "notes"}))
            .await;
        (asked, self.server.console_code(n - 1).await)
    }

    async fn approve(&mut self, code: &str) -> Value {
        let body = json!({"id": "notes", "code": code});
        self.post("/api/extensions/approve", body).await
    }
}

#[tokio::test]
async fn the_console_code_lifecycle_and_the_code_never_leaves_the_console() {
    let server = start();
    let mut exchange = Exchange {
        server: &server,
        bodies: Vec::new(),
    };
    propose(&server, descriptor("notes", "d")).await;

    // Wrong codes count; the fifth burns the code.
    let (asked, code) = exchange.ask(1).await;
    assert_eq!(asked["ok"], true);
    assert_eq!(code.len(), 8);
    let wrong = if code == "00000000" {
        "11111111"
    } else {
        "00000000"
    };
    for attempt in 1..=5 {
        let reply = exchange.approve(wrong).await;
        assert_eq!(
            reply["result"]["refused"], "code-invalid",
            "attempt {attempt}"
        );
    }
    let burned = exchange.approve(&code).await;
    assert_eq!(
        burned["result"]["refused"], "code-invalid",
        "the right code is burned too"
    );

    // The plan changed after the code was issued: refused.
    let (_, code) = exchange.ask(2).await;
    propose(&server, descriptor("notes", "changed")).await;
    let changed = exchange.approve(&code).await;
    assert_eq!(changed["result"]["refused"], "plan-changed");

    // The right code, once: admitted; reused: refused.
    let (_, code) = exchange.ask(3).await;
    let ok = exchange.approve(&code).await;
    assert_eq!(ok["result"]["ok"], true, "{ok}");
    let reused = exchange.approve(&code).await;
    assert_eq!(reused["result"]["refused"], "code-invalid");
    assert_eq!(state_of(&server, "notes").await, "admitted");

    // No HTTP response ever carried a code.
    let (_, list) = server.get("/api/extensions").await;
    let mut bodies = exchange.bodies;
    bodies.push(list.to_string());
    bodies.push(serde_json::to_string(&server.audit().await).unwrap());
    for code in &server.console_codes() {
        for body in &bodies {
            assert!(!body.contains(code.as_str()), "a response carried the code");
        }
    }
}
