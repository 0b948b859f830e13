//! Wrong console codes count across all codes: a fresh approval-request
//! brings no fresh tries. Under the budget the right code still admits;
//! once it is spent, even the right code and a new request are
//! `approval-locked`.

mod common;

use common::Server;
use serde_json::{Value, json};
use voicebox::approval::{MAX_ATTEMPTS, WRONG_CODE_BUDGET};

fn reader(id: &str) -> Value {
    json!({"id": id, "description": "d", "capabilities": ["read"],
           "tools": [{"name": "r", "primitive": "read-file"}]})
}

/// Asks for a code for `id` and reads it off the console (its `n`th code).
async fn request_code(server: &Server, id: &str, n: usize) -> Result<String, String> {
    let (_, asked) = server
        .post("/api/extensions/approval-request", json!({"id": id}))
        .await;
    if asked["ok"] != true {
        return Err(asked["refused"].as_str().unwrap_or("").to_string());
    }
    Ok(server.console_code(n).await)
}

/// Types `code` for `id`: the refusal's rule, or "" when admitted.
async fn approve(server: &Server, id: &str, code: &str) -> String {
    let (_, reply) = server
        .post("/api/extensions/approve", json!({"id": id, "code": code}))
        .await;
    reply["result"]["refused"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn wrong_for(code: &str) -> &'static str {
    if code == "00000000" {
        "11111111"
    } else {
        "00000000"
    }
}

#[tokio::test]
async fn wrong_codes_count_across_requests_until_approvals_lock() {
    let server = Server::start();
    for id in ["first", "second"] {
        let (_, proposed) = server
            .post(
                "/api/extensions/proposals",
                json!({"descriptor": reader(id)}),
            )
            .await;
        assert_eq!(proposed["result"]["ok"], true, "{proposed}");
    }
    // Wrong tries spread over several codes, each below its own burn limit.
    let per_code = MAX_ATTEMPTS as usize - 1;
    let mut wrong = 0;
    let mut codes = 0;
    while wrong + per_code < WRONG_CODE_BUDGET {
        let code = request_code(&server, "first", codes).await.unwrap();
        codes += 1;
        for _ in 0..per_code {
            assert_eq!(
                approve(&server, "first", wrong_for(&code)).await,
                "code-invalid"
            );
            wrong += 1;
        }
    }
    // The sibling under the budget: the right code admits.
    let code = request_code(&server, "first", codes).await.unwrap();
    codes += 1;
    assert_eq!(approve(&server, "first", &code).await, "", "admitted");
    // Spend the rest of the budget on another extension's codes.
    while wrong < WRONG_CODE_BUDGET {
        let code = request_code(&server, "second", codes).await.unwrap();
        codes += 1;
        assert_eq!(
            approve(&server, "second", wrong_for(&code)).await,
            "code-invalid"
        );
        wrong += 1;
    }
    // Spent: a new request is locked, and so is any code typed.
    assert_eq!(
        request_code(&server, "second", codes).await,
        Err("approval-locked".into())
    );
    assert_eq!(
        approve(&server, "second", "12345678").await,
        "approval-locked"
    );
    let (_, list) = server.get("/api/extensions").await;
    let states: Vec<(&str, &str)> = list["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e["state"].as_str().unwrap()))
        .collect();
    assert_eq!(states, [("first", "admitted"), ("second", "pending")]);
}
