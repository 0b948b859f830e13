//! `voicebox mcp` driven over stdio by rmcp's own client, as an MCP client
//! app would start it: the tools are the command table, every act goes
//! through the executor (contained, audited as instance `mcp`), and a
//! tier-2 act asks the person through elicitation — or, when the client
//! cannot ask, is refused by name and not done.

mod person;
mod python;
mod verbs;
mod words;

use person::{Person, connect};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ElicitationAction, ReadResourceRequestParams,
};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use voicebox_test_support::{audit_files, put_file};

/// A root and a state folder apart from it.
struct Folder {
    root: PathBuf,
    state: PathBuf,
    _dirs: (TempDir, TempDir),
}

impl Folder {
    fn new() -> Folder {
        let dirs = (TempDir::new().unwrap(), TempDir::new().unwrap());
        Folder {
            root: std::fs::canonicalize(dirs.0.path()).unwrap().join("notes"),
            state: dirs.1.path().to_path_buf(),
            _dirs: dirs,
        }
    }

    /// A folder whose root holds `files` (name, contents), one a row.
    fn holding(files: &[(&str, &str)]) -> Folder {
        let folder = Folder::new();
        for (name, contents) in files {
            put_file(&folder.root, name, contents);
        }
        folder
    }

    /// `voicebox mcp` on this folder, as a client app starts it: its root
    /// and state named, none taken from the environment.
    fn command(&self) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_voicebox"));
        command
            .arg("mcp")
            .arg("--root")
            .arg(&self.root)
            .arg("--state-dir")
            .arg(&self.state)
            .env_remove("VOICEBOX_ROOT")
            .env("RUST_LOG", "warn");
        command
    }

    fn file(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(name)).ok()
    }
}

/// A folder holding `files` and `voicebox mcp` on it, driven by a client
/// that cannot ask the person.
async fn unattended(files: &[(&str, &str)]) -> (Folder, RunningService<RoleClient, Person>) {
    let folder = Folder::holding(files);
    let client = connect(&folder, Person::none()).await;
    (folder, client)
}

/// The URIs of every resource the client lists, in the order listed.
async fn listed_uris<H: ClientHandler>(client: &RunningService<RoleClient, H>) -> Vec<String> {
    let listed = client.list_all_resources().await.unwrap();
    listed.into_iter().map(|r| r.uri).collect()
}

/// One tool call's result: whether it is a tool error, its first line, and
/// the executor's reply (structured content).
struct Called {
    error: bool,
    line: String,
    reply: Value,
}

async fn call<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    tool: &'static str,
    args: Value,
) -> Called {
    let mut request = CallToolRequestParams::new(tool);
    if let Value::Object(args) = args {
        request = request.with_arguments(args);
    }
    let result: CallToolResult = client.call_tool(request).await.unwrap();
    Called {
        error: result.is_error == Some(true),
        line: result.content[0].as_text().unwrap().text.clone(),
        reply: result.structured_content.unwrap_or(Value::Null),
    }
}

/// A call that must be done: a tool error fails with its line.
async fn call_ok<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    tool: &'static str,
    args: Value,
) -> Called {
    let called = call(client, tool, args).await;
    assert!(!called.error, "{tool}: {}", called.line);
    called
}

/// A call that must be refused, by `rule`, as a tool error.
async fn call_refused<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    tool: &'static str,
    args: Value,
    rule: &str,
) -> Called {
    let called = call(client, tool, args).await;
    assert!(called.error, "{tool} is refused: {}", called.line);
    assert_eq!(called.reply["refused"], rule, "{tool}: {}", called.reply);
    called
}

/// `tool` called with `args` by a person who declines, then by one who
/// cancels, each on a new connection: both asked once, in words starting
/// with `question`, and both answered `declined` as a tool error.
async fn declined_each_way(
    folder: &Folder,
    tool: &'static str,
    args: Value,
    question: &str,
) -> Vec<Called> {
    let mut kept = Vec::new();
    for no in [ElicitationAction::Decline, ElicitationAction::Cancel] {
        let person = Person::answering(no);
        let client = connect(folder, person.clone()).await;
        let called = call(&client, tool, args.clone()).await;
        assert!(called.error, "{}", called.line);
        assert!(called.line.starts_with("declined: "), "{}", called.line);
        let asked = person.asked();
        assert_eq!(asked.len(), 1, "{asked:?}");
        assert!(asked[0].starts_with(question), "{}", asked[0]);
        client.cancel().await.unwrap();
        kept.push(called);
    }
    kept
}

/// Every entry of the root's audit files, in file order.
fn audit_entries(root: &Path) -> Vec<Value> {
    let mut entries = Vec::new();
    for file in audit_files(root) {
        let text = std::fs::read_to_string(file).unwrap();
        entries.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    entries
}

/// Whether an act of `kind` was done, as the audit records it.
fn done(entries: &[Value], kind: &str) -> bool {
    entries
        .iter()
        .any(|e| e["act"]["kind"] == kind && e["result"] == "ok")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tools_are_the_command_table_with_its_schemas() {
    let (_folder, client) = unattended(&[]).await;
    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "append", "changes", "check_item", "copy", "create_asset", "delete", "diff", "edit",
            "find", "grep", "history", "info", "list", "list_extensions", "mkdir", "move",
            "propose_extension", "read", "remove_item", "say", "tool", "undo", "write"
        ],
        "call_extension only once an extension is admitted; make-tool is propose_extension; \
         say takes a person's words"
    );
    for command in voicebox_core::command::COMMANDS {
        let Some(tool) = tools.iter().find(|t| t.name == command.verb) else {
            continue;
        };
        assert_eq!(tool.description.as_deref(), Some(command.summary));
        assert_eq!(json!(*tool.input_schema), command.input_schema());
    }
    let looks = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        tool.annotations.as_ref().and_then(|a| a.read_only_hint)
    };
    assert_eq!(
        [
            looks("read"),
            looks("grep"),
            looks("changes"),
            looks("history"),
            looks("write"),
            looks("delete")
        ],
        [
            Some(true),
            Some(true),
            Some(true),
            Some(true),
            Some(false),
            Some(false)
        ]
    );
    // A change that may replace or remove what is there is destructive;
    // one that only adds is not; a look carries no such hint.
    let destroys = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        tool.annotations.as_ref().and_then(|a| a.destructive_hint)
    };
    assert_eq!(
        ["move", "remove_item", "write", "append", "mkdir", "find"].map(destroys),
        [
            Some(true),
            Some(true),
            Some(true),
            Some(false),
            Some(false),
            None
        ]
    );
    let read = tools.iter().find(|t| t.name == "read").unwrap();
    assert_eq!(read.input_schema["properties"]["last"]["type"], "integer");
    let check = tools.iter().find(|t| t.name == "check_item").unwrap();
    assert_eq!(check.input_schema["properties"]["done"]["type"], "boolean");
    let write = tools.iter().find(|t| t.name == "write").unwrap();
    assert_eq!(write.input_schema["required"], json!(["name", "content"]));
    assert_eq!(
        write.input_schema["properties"]["content"]["type"],
        "string"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn write_read_edit_grep_and_undo_land_in_the_folder() {
    let (folder, client) = unattended(&[]).await;
    let wrote = call_ok(
        &client,
        "write",
        json!({"name": "a.txt", "content": "hello world"}),
    )
    .await;
    assert_eq!(wrote.line, "wrote a.txt (11 bytes)");
    assert_eq!(folder.file("a.txt").as_deref(), Some("hello world"));
    let read = call(&client, "read", json!({"name": "a.txt"})).await;
    assert_eq!(read.reply["content"], "hello world");
    call_ok(
        &client,
        "edit",
        json!({"name": "a.txt", "oldText": "world", "newText": "there"}),
    )
    .await;
    assert_eq!(folder.file("a.txt").as_deref(), Some("hello there"));
    let found = call(&client, "grep", json!({"query": "THERE"})).await;
    assert_eq!(found.reply["matches"][0]["file"], "a.txt");
    assert_eq!(found.reply["matches"][0]["line"], 1);
    call_ok(&client, "undo", json!({})).await;
    assert_eq!(folder.file("a.txt").as_deref(), Some("hello world"));
    // Every act is the executor's, written as instance `mcp`.
    let entries = audit_entries(&folder.root);
    assert!(entries.len() >= 6, "{entries:?}");
    assert!(
        entries.iter().all(|e| e["instance"] == "mcp"),
        "{entries:?}"
    );
    assert!(done(&entries, "write"));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_escape_is_refused_by_its_rule_and_an_inside_name_is_not() {
    let (folder, client) = unattended(&[]).await;
    for name in ["../x", "/tmp/x", "a/../../x"] {
        let escaped = call(&client, "write", json!({"name": name, "content": "out"})).await;
        assert!(escaped.error, "{name}");
        assert!(
            escaped.line.starts_with("outside-root: "),
            "{name}: {}",
            escaped.line
        );
        assert_eq!(escaped.reply["refused"], "outside-root");
    }
    assert!(!folder.root.parent().unwrap().join("x").exists());
    let smuggled = call(&client, "read", json!({"verb": "delete", "name": "x"})).await;
    assert!(
        smuggled.line.starts_with("unknown-field: "),
        "{}",
        smuggled.line
    );
    // The control: the same write, inside.
    call_ok(&client, "write", json!({"name": "x", "content": "in"})).await;
    assert_eq!(folder.file("x").as_deref(), Some("in"));
    let refusals = audit_entries(&folder.root);
    assert!(
        refusals
            .iter()
            .any(|e| e["rule"] == "outside-root" && e["decision"] == "refuse")
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delete_asks_the_person_and_is_done_only_if_they_accept() {
    let folder = Folder::holding(&[("draft.txt", "draft")]);
    let question = "Delete draft.txt? You can bring it back with undo.";
    declined_each_way(&folder, "delete", json!({"name": "draft.txt"}), question).await;
    assert_eq!(folder.file("draft.txt").as_deref(), Some("draft"));
    let person = Person::answering(ElicitationAction::Accept);
    let client = connect(&folder, person.clone()).await;
    // A create over a file that exists asks too; accepted, it replaces it.
    call_ok(
        &client,
        "write",
        json!({"name": "draft.txt", "content": "new", "mode": "create"}),
    )
    .await;
    assert!(
        person.asked()[0].starts_with("Replace draft.txt?"),
        "{:?}",
        person.asked()
    );
    assert_eq!(folder.file("draft.txt").as_deref(), Some("new"));
    call_ok(&client, "delete", json!({"name": "draft.txt"})).await;
    assert!(!folder.root.join("draft.txt").exists());
    // Each answer is in the audit: two noes, then the yeses performed.
    let entries = audit_entries(&folder.root);
    let declined = entries.iter().filter(|e| e["rule"] == "declined").count();
    assert_eq!(declined, 2, "{entries:?}");
    assert!(done(&entries, "delete"));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_cannot_ask_is_refused_by_name_and_nothing_is_deleted() {
    let (folder, client) = unattended(&[("keep.txt", "keep")]).await;
    let refused = call(&client, "delete", json!({"name": "keep.txt"})).await;
    assert!(refused.error);
    assert!(
        refused.line.starts_with("confirmation-unavailable: "),
        "{}",
        refused.line
    );
    assert_eq!(refused.reply["refused"], "confirmation-unavailable");
    assert!(
        refused.reply.get("confirm").is_none(),
        "the id never reaches the model"
    );
    assert_eq!(folder.file("keep.txt").as_deref(), Some("keep"));
    let entries = audit_entries(&folder.root);
    assert!(!done(&entries, "delete"));
    client.cancel().await.unwrap();
    // The control: the same delete from a client that can ask, accepted.
    let client = connect(&folder, Person::answering(ElicitationAction::Accept)).await;
    call_ok(&client, "delete", json!({"name": "keep.txt"})).await;
    assert!(!folder.root.join("keep.txt").exists());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_files_are_resources_read_through_the_executor_and_dot_folders_never_appear() {
    let (folder, client) = unattended(&[
        ("a.txt", "alpha"),
        ("sub/my notes.md", "beta"),
        (".hidden/secret.txt", "no"),
        (".env", "KEY=no"),
    ])
    .await;
    assert_eq!(
        listed_uris(&client).await,
        ["voicebox:///a.txt", "voicebox:///sub/my%20notes.md"]
    );
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "voicebox:///sub/my%20notes.md",
        ))
        .await
        .unwrap();
    let text = json!(read.contents[0]);
    assert_eq!(text["text"], "beta");
    // An escape spelled in a URI is refused by the executor, by rule.
    for uri in [
        "voicebox:///..%2Foutside.txt",
        "voicebox:///.hidden/secret.txt",
    ] {
        let refused = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await;
        let error = format!("{:?}", refused.unwrap_err());
        assert!(
            error.contains("outside-root") || error.contains("dotfile-refused"),
            "{uri}: {error}"
        );
    }
    let entries = audit_entries(&folder.root);
    assert!(
        entries
            .iter()
            .any(|e| e["act"]["target"] == "sub/my notes.md" && e["result"] == "ok")
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn links_to_folders_list_each_real_file_once_under_its_own_name() {
    let (folder, client) = unattended(&[
        ("seed.txt", "s"),
        ("docs/a.md", "a"),
        ("docs/deep/b.md", "b"),
    ])
    .await;
    let plain = listed_uris(&client).await;
    assert_eq!(
        plain,
        [
            "voicebox:///docs/a.md",
            "voicebox:///docs/deep/b.md",
            "voicebox:///seed.txt"
        ]
    );
    // Links to the root, to a sibling folder, to a folder deeper down and
    // to a file: each real file still once, under its own name.
    for (link, target) in [
        ("self", "."),
        ("docs/up", ".."),
        ("alias", "docs"),
        ("shortcut", "docs/deep"),
        ("also.txt", "seed.txt"),
    ] {
        std::os::unix::fs::symlink(target, folder.root.join(link)).unwrap();
    }
    assert_eq!(listed_uris(&client).await, plain);
    // No folder is listed through a link: the walk never went through one.
    for entry in audit_entries(&folder.root) {
        let target = entry["act"]["target"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            !["self", "alias", "shortcut", "docs/up"]
                .iter()
                .any(|link| target.starts_with(link)),
            "{entry}"
        );
    }
    client.cancel().await.unwrap();
}

/// A model proposing in a loop through `propose_extension` stops at the
/// host's cap, by name, with nothing stored past it; a proposal gone (as the
/// person's withdrawal removes it, which MCP cannot do) makes room (the control).
#[tokio::test(flavor = "multi_thread")]
async fn proposals_through_mcp_stop_at_the_cap_by_name() {
    let (folder, client) = unattended(&[]).await;
    let descriptor = |id: String| {
        json!({"descriptor": {"id": id, "description": "d", "capabilities": ["read"],
            "tools": [{"name": "r", "primitive": "read-file"}]}})
    };
    let cap = voicebox_machine::extensions::MAX_WAITING_PROPOSALS;
    for n in 0..cap {
        let proposed = call(&client, "propose_extension", descriptor(format!("p{n}"))).await;
        assert!(!proposed.error, "{n}: {}", proposed.line);
    }
    let refused = call(&client, "propose_extension", descriptor("one-more".into())).await;
    assert!(refused.error);
    assert!(
        refused.line.starts_with("too-many-proposals:"),
        "{}",
        refused.line
    );
    let proposals = folder.state.join("extensions/proposals");
    assert_eq!(std::fs::read_dir(&proposals).unwrap().count(), cap);
    std::fs::remove_file(proposals.join("p0.json")).unwrap();
    assert!(
        !folder
            .state
            .join("extensions/proposals/one-more.json")
            .exists()
    );
    let accepted = call(&client, "propose_extension", descriptor("one-more".into())).await;
    assert!(!accepted.error, "{}", accepted.line);
    client.cancel().await.unwrap();
}

/// `voicebox mcp` started by hand, its stdin and stdout raw lines.
struct Raw {
    child: tokio::process::Child,
    input: tokio::process::ChildStdin,
    output: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
}

impl Raw {
    fn start(folder: &Folder) -> Raw {
        let mut child = folder
            .command()
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = tokio::io::BufReader::new(child.stdout.take().unwrap());
        Raw {
            child,
            input,
            output: tokio::io::AsyncBufReadExt::lines(output),
        }
    }

    async fn send(&mut self, line: &[u8]) {
        use tokio::io::AsyncWriteExt;
        self.input.write_all(line).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
        self.input.flush().await.unwrap();
    }

    async fn answer(&mut self) -> Value {
        let line =
            tokio::time::timeout(std::time::Duration::from_secs(60), self.output.next_line())
                .await
                .expect("an answer")
                .unwrap()
                .expect("a line");
        serde_json::from_str(&line).unwrap()
    }

    /// The peak memory of the process, in KiB.
    fn peak_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.child.id().unwrap())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
            .unwrap()
    }
}

/// A line over the API's one body cap, and a key said twice, are answered
/// with named JSON-RPC errors instead of silence, the long line is never
/// held whole, and the server goes on serving (the control).
#[tokio::test]
async fn a_huge_line_and_a_key_said_twice_are_answered_by_name_and_serving_goes_on() {
    let folder = Folder::new();
    let mut raw = Raw::start(&folder);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    raw.send(init.to_string().as_bytes()).await;
    assert_eq!(raw.answer().await["id"], 1);
    raw.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;

    let mut huge = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write","arguments":{"name":"big.txt","content":""#.to_vec();
    huge.resize(huge.len() + (64 << 20), b'a');
    huge.extend_from_slice(br#""}}}"#);
    raw.send(&huge).await;
    drop(huge);
    let refused = raw.answer().await;
    assert_eq!(
        refused["error"]["data"]["refused"], "body-too-large",
        "{refused}"
    );
    assert_eq!(refused["id"], Value::Null);
    let peak = raw.peak_kib();
    eprintln!(
        "voicebox mcp peak RSS after a 64 MiB line: {} MiB",
        peak >> 10
    );
    assert!(peak < 64 << 10, "the line was never held whole: {peak} KiB");

    raw.send(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write","arguments":{"name":"a.txt","name":"b.txt","content":"x"}}}"#).await;
    let twice = raw.answer().await;
    assert_eq!(
        (&twice["id"], &twice["error"]["data"]["refused"]),
        (&json!(3), &json!("duplicate-key")),
        "{twice}"
    );

    let write = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "write", "arguments": {"name": "small.txt", "content": "hi"}}});
    raw.send(write.to_string().as_bytes()).await;
    let wrote = raw.answer().await;
    assert_eq!(wrote["id"], 4);
    assert_eq!(wrote["result"]["structuredContent"]["ok"], true, "{wrote}");
    assert_eq!(folder.file("small.txt").as_deref(), Some("hi"));
    assert!(folder.file("big.txt").is_none() && folder.file("a.txt").is_none());
}

/// Answers sent to a file rather than a pipe (stdout redirected by hand)
/// all arrive, and the messages still come in on the pipe: only where
/// both ends are pipes are they made non-blocking. Every other test here
/// is the control, with both ends pipes.
#[tokio::test]
async fn answers_written_to_a_file_instead_of_a_pipe_all_arrive() {
    use tokio::io::AsyncWriteExt;
    let folder = Folder::new();
    let answers = tempfile::NamedTempFile::new().unwrap();
    let mut child = folder
        .command()
        .stdin(std::process::Stdio::piped())
        .stdout(answers.reopen().unwrap())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "by hand", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let write = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "write", "arguments": {"name": "kept.txt", "content": "hi"}}});
    input
        .write_all(format!("{init}\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(
        lines_in(answers.path(), 1)
            .await
            .first()
            .map(|a| a["id"].clone()),
        Some(json!(1))
    );
    input
        .write_all(format!("{initialized}\n{write}\n").as_bytes())
        .await
        .unwrap();
    let seen = lines_in(answers.path(), 2).await;
    let wrote = seen.get(1).expect("the write's answer");
    assert_eq!(wrote["id"], 2, "{wrote}");
    assert_eq!(wrote["result"]["isError"], false, "{wrote}");
    assert_eq!(folder.file("kept.txt").as_deref(), Some("hi"));
    drop(input);
    assert!(child.wait().await.unwrap().success());
}

/// The JSON lines of the file at `path` once it holds `count` of them (none
/// after a minute).
async fn lines_in(path: &Path, count: usize) -> Vec<Value> {
    for _ in 0..600 {
        let text = std::fs::read_to_string(path).unwrap();
        if text.lines().count() >= count {
            return text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Vec::new()
}
