//! The exact browser artifact, tested in `cargo test`: `voicebox-web` is built
//! for `wasm32-unknown-unknown`, loaded under wasmi with **no imports**, and
//! driven through its C-ABI by a stand-in for the worker (an in-memory folder
//! tree, and create-asset run with exactly its two imports) against the golden
//! cases in `golden.json`. The stand-in is also the reference for what the
//! JavaScript worker must do for each I/O request.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use wasmi::{Caller, Engine, Instance, Linker, Module, Store, TypedFunc};

/// The browser core built for wasm32; `None` after a loud skip outside CI
/// when the target is not installed.
fn wasm_artifact() -> Option<PathBuf> {
    if !voicebox_test_support::wasm32_or_skip() {
        return None;
    }
    Some(voicebox_test_support::build_browser_core().unwrap_or_else(|why| panic!("{why}")))
}

/// The worker's side: the project's folder tree and the origin's own (for a
/// picked folder's fallback audit) in memory, the root's permission states,
/// and the module's exports.
struct Worker {
    store: Store<()>,
    instance: Instance,
    files: BTreeMap<String, Vec<u8>>,
    /// Folders made on their own (others are implied by the files in them).
    dirs: std::collections::BTreeSet<String>,
    origin: BTreeMap<String, Vec<u8>>,
    /// `read` and `readwrite`: granted, prompt or denied.
    permission: BTreeMap<String, String>,
    /// The project's folder is gone (a picked folder removed from the disk).
    gone: bool,
    io_log: Vec<String>,
}

impl Worker {
    fn new(wasm: &[u8]) -> Worker {
        let engine = Engine::default();
        let module = Module::new(&engine, wasm).unwrap();
        assert_eq!(
            module.imports().count(),
            0,
            "the browser core imports nothing"
        );
        let mut store = Store::new(&engine, ());
        let instance = Linker::new(&engine)
            .instantiate_and_start(&mut store, &module)
            .unwrap();
        Worker {
            store,
            instance,
            files: BTreeMap::new(),
            dirs: Default::default(),
            origin: BTreeMap::new(),
            permission: BTreeMap::new(),
            gone: false,
            io_log: Vec::new(),
        }
    }

    fn func<P: wasmi::WasmParams, R: wasmi::WasmResults>(&self, name: &str) -> TypedFunc<P, R> {
        self.instance
            .get_typed_func::<P, R>(&self.store, name)
            .unwrap()
    }

    fn put(&mut self, bytes: &[u8]) -> (i32, i32) {
        let ptr = self
            .func::<i32, i32>("vb_alloc")
            .call(&mut self.store, bytes.len() as i32)
            .unwrap();
        let memory = self.instance.get_memory(&self.store, "memory").unwrap();
        memory.write(&mut self.store, ptr as usize, bytes).unwrap();
        (ptr, bytes.len() as i32)
    }

    fn take(&mut self, ptr: &str, len: &str) -> Vec<u8> {
        let ptr = self.func::<(), i32>(ptr).call(&mut self.store, ()).unwrap() as usize;
        let len = self.func::<(), i32>(len).call(&mut self.store, ()).unwrap() as usize;
        let memory = self.instance.get_memory(&self.store, "memory").unwrap();
        memory.data(&self.store)[ptr..ptr + len].to_vec()
    }

    /// Sends one request and performs every I/O it asks for; returns the answer.
    fn request(&mut self, request: &Value) -> Value {
        let (ptr, len) = self.put(request.to_string().as_bytes());
        let mut state = self
            .func::<(i32, i32), i32>("vb_begin")
            .call(&mut self.store, (ptr, len))
            .unwrap();
        self.func::<(i32, i32), ()>("vb_free")
            .call(&mut self.store, (ptr, len))
            .unwrap();
        loop {
            let out: Value =
                serde_json::from_slice(&self.take("vb_out_ptr", "vb_out_len")).unwrap();
            if state == 0 {
                return out["done"].clone();
            }
            let data = self.take("vb_data_ptr", "vb_data_len");
            let (answer, bytes) = self.perform(&out["io"], data);
            let (aptr, alen) = self.put(answer.to_string().as_bytes());
            let (dptr, dlen) = self.put(&bytes);
            state = self
                .func::<(i32, i32, i32, i32), i32>("vb_resume")
                .call(&mut self.store, (aptr, alen, dptr, dlen))
                .unwrap();
            self.func::<(i32, i32), ()>("vb_free")
                .call(&mut self.store, (aptr, alen))
                .unwrap();
            self.func::<(i32, i32), ()>("vb_free")
                .call(&mut self.store, (dptr, dlen))
                .unwrap();
        }
    }

    /// The root's permission for a mode (granted unless a case said otherwise).
    fn permitted(&self, mode: &Value) -> String {
        let mode = mode.as_str().expect("every request names its mode");
        self.permission
            .get(mode)
            .cloned()
            .unwrap_or_else(|| "granted".into())
    }

    fn is_dir(&self, path: &str) -> bool {
        let inside = format!("{path}/");
        path.is_empty()
            || self.dirs.contains(path)
            || self
                .files
                .keys()
                .chain(&self.dirs)
                .any(|f| f.starts_with(&inside))
    }

    /// Every entry under `from` (itself too) gets the name under `to`.
    fn rename_tree(&mut self, from: &str, to: &str) {
        let inside = format!("{from}/");
        let moved = |path: &str| match path.strip_prefix(&inside) {
            Some(rest) => format!("{to}/{rest}"),
            None if path == from => to.to_string(),
            None => path.to_string(),
        };
        self.files = std::mem::take(&mut self.files)
            .into_iter()
            .map(|(path, bytes)| (moved(&path), bytes))
            .collect();
        self.dirs = std::mem::take(&mut self.dirs)
            .into_iter()
            .map(|path| moved(&path))
            .collect();
    }

    /// One I/O request, performed as the JavaScript worker does over OPFS.
    fn perform(&mut self, io: &Value, data: Vec<u8>) -> (Value, Vec<u8>) {
        let op = io["op"].as_str().unwrap().to_string();
        let path = io["path"].as_str().unwrap_or("").to_string();
        self.io_log.push(op.clone());
        let not_found = json!({"error": {"name": "NotFoundError", "message": "A requested file or directory could not be found"}});
        let is_dir = json!({"error": {"name": "TypeMismatchError", "message": "The path supplied exists, but was a directory"}});
        let origin = io["root"] == "origin";
        if self.gone && !origin && op != "runTool" {
            return (not_found, vec![]);
        }
        if op == "permit" {
            return (json!({"state": self.permitted(&io["mode"])}), vec![]);
        }
        // The origin's own files (a picked folder's fallback audit).
        if origin {
            return match op.as_str() {
                "append" => {
                    self.origin
                        .entry(path)
                        .or_default()
                        .extend_from_slice(&data);
                    (json!({"ok": true}), vec![])
                }
                "readAudit" => (
                    json!({"ok": true, "files": texts(&self.origin, &path)}),
                    vec![],
                ),
                other => panic!("no origin op {other}"),
            };
        }
        // Asked before anything is touched: never act on a root not granted.
        if io.get("mode").is_some() {
            let state = self.permitted(&io["mode"]);
            if state != "granted" {
                return (
                    json!({"error": {"name": "NotAllowedError", "message": "The request is not allowed by the user agent or the platform in the current context.", "permission": state}}),
                    vec![],
                );
            }
        }
        match op.as_str() {
            "reachable" => (json!({"ok": true}), vec![]),
            "read" if self.is_dir(&path) => (is_dir, vec![]),
            "read" => match self.files.get(&path) {
                Some(bytes)
                    if io["max"]
                        .as_u64()
                        .is_some_and(|max| bytes.len() as u64 > max) =>
                {
                    (json!({"ok": true, "size": bytes.len()}), vec![])
                }
                Some(bytes) => (json!({"ok": true, "size": bytes.len()}), bytes.clone()),
                None => (not_found, vec![]),
            },
            "write" if self.is_dir(&path) => (is_dir, vec![]),
            "write" => {
                self.files.insert(path, data);
                (json!({"ok": true}), vec![])
            }
            "append" => {
                self.files.entry(path).or_default().extend_from_slice(&data);
                (json!({"ok": true}), vec![])
            }
            "remove" => match self.files.remove(&path) {
                Some(_) => (json!({"ok": true}), vec![]),
                None => (not_found, vec![]),
            },
            "rename" => {
                let to = io["to"].as_str().unwrap().to_string();
                let exists = json!({"error": {"name": "ExistsError", "message": "taken"}});
                let from_dir = self.is_dir(&path);
                if self.is_dir(&to) || (from_dir && self.files.contains_key(&to)) {
                    return (exists, vec![]);
                }
                if !from_dir && !self.files.contains_key(&path) {
                    return (not_found, vec![]);
                }
                self.rename_tree(&path, &to);
                if from_dir {
                    self.dirs.insert(to);
                }
                (json!({"ok": true}), vec![])
            }
            "mkdir" if self.files.contains_key(&path) => (
                json!({"error": {"name": "ExistsError", "message": "a file"}}),
                vec![],
            ),
            "mkdir" => {
                let made = !self.is_dir(&path);
                self.dirs.insert(path);
                (json!({"ok": true, "made": made}), vec![])
            }
            "rmdir" if !self.is_dir(&path) => (not_found, vec![]),
            "rmdir" => {
                let inside = format!("{path}/");
                if self
                    .files
                    .keys()
                    .chain(&self.dirs)
                    .any(|f| f.starts_with(&inside))
                {
                    return (
                        json!({"error": {"name": "NotEmptyError", "message": "not empty"}}),
                        vec![],
                    );
                }
                self.dirs.remove(&path);
                (json!({"ok": true}), vec![])
            }
            "observe" => {
                let dir = self.is_dir(&path);
                let bytes = self.files.get(&path).map_or(0, Vec::len);
                let exists = dir || self.files.contains_key(&path);
                (
                    json!({"exists": exists, "dir": dir, "bytes": bytes, "mtime": 1_789_830_000_000u64}),
                    vec![],
                )
            }
            "list" if !self.is_dir(&path) => (not_found, vec![]),
            "list" => {
                let prefix = if path.is_empty() {
                    String::new()
                } else {
                    format!("{path}/")
                };
                let mut entries = BTreeMap::new();
                let empty = Vec::new();
                let dirs = self.dirs.iter().map(|d| (d, &empty));
                for (file, bytes) in self.files.iter().chain(dirs) {
                    if let Some(rest) = file.strip_prefix(&prefix) {
                        let (name, dir) = rest
                            .split_once('/')
                            .map_or((rest, self.dirs.contains(file)), |(n, _)| (n, true));
                        entries.insert(name.to_string(), json!({"name": name, "dir": dir, "bytes": if dir { 0 } else { bytes.len() }}));
                    }
                }
                (
                    json!({"ok": true, "entries": entries.into_values().collect::<Vec<_>>()}),
                    vec![],
                )
            }
            "readAudit" => (
                json!({"ok": true, "files": texts(&self.files, &path)}),
                vec![],
            ),
            "runTool" => {
                // The budget is the core's: the worker terminates the run past it.
                assert!(
                    io["budgetMs"].as_u64().is_some_and(|ms| ms > 0),
                    "runTool names its time budget: {io}"
                );
                run_create_asset(&data)
            }
            other => panic!("unknown io op {other}"),
        }
    }
}

/// The audit files in `folder`, as the worker's `readAudit` answers.
fn texts(files: &BTreeMap<String, Vec<u8>>, folder: &str) -> Vec<Value> {
    files
        .iter()
        .filter_map(|(f, b)| {
            f.strip_prefix(&format!("{folder}/"))
                .map(|n| json!({"name": n, "text": String::from_utf8_lossy(b)}))
        })
        .collect()
}

/// What create-asset asked for: writes `(path, bytes)` and notes.
type ToolState = (Vec<(String, Vec<u8>)>, Vec<String>);

/// create-asset with exactly `writeFile` and `note`, as the worker's
/// `WebAssembly.instantiate` call does.
fn run_create_asset(input: &[u8]) -> (Value, Vec<u8>) {
    let engine = Engine::default();
    let wat = include_str!("../../../tools/create-asset.wat");
    let module = Module::new(&engine, wat.as_bytes()).unwrap();
    let mut store = Store::new(&engine, ToolState::default());
    let mut linker = Linker::new(&engine);
    let read = |caller: &Caller<'_, ToolState>, ptr: i32, len: i32| -> Vec<u8> {
        let memory = caller.get_export("memory").unwrap().into_memory().unwrap();
        memory.data(caller)[ptr as usize..(ptr + len) as usize].to_vec()
    };
    linker
        .func_wrap(
            "env",
            "writeFile",
            move |mut caller: Caller<'_, _>, p: i32, pl: i32, d: i32, dl: i32| {
                let (path, bytes) = (read(&caller, p, pl), read(&caller, d, dl));
                caller
                    .data_mut()
                    .0
                    .push((String::from_utf8(path).unwrap(), bytes));
            },
        )
        .unwrap();
    linker
        .func_wrap(
            "env",
            "note",
            move |mut caller: Caller<'_, _>, p: i32, l: i32| {
                let note = String::from_utf8(read(&caller, p, l)).unwrap();
                caller.data_mut().1.push(note);
            },
        )
        .unwrap();
    let instance = linker.instantiate_and_start(&mut store, &module).unwrap();
    let alloc = instance
        .get_typed_func::<i32, i32>(&store, "alloc")
        .unwrap();
    let ptr = alloc.call(&mut store, input.len() as i32).unwrap();
    instance
        .get_memory(&store, "memory")
        .unwrap()
        .write(&mut store, ptr as usize, input)
        .unwrap();
    instance
        .get_typed_func::<(i32, i32), ()>(&store, "run")
        .unwrap()
        .call(&mut store, (ptr, input.len() as i32))
        .unwrap();
    let (writes, notes) = store.into_data();
    let report: Vec<Value> = writes
        .iter()
        .map(|(p, b)| json!({"path": p, "len": b.len()}))
        .collect();
    let data = writes.into_iter().flat_map(|(_, b)| b).collect();
    (json!({"ok": true, "writes": report, "notes": notes}), data)
}

/// Whether `expected` is contained in `actual` (objects by key, arrays by position).
fn contains(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| contains(av, v))),
        (Value::Array(a), Value::Array(e)) => {
            a.len() == e.len() && a.iter().zip(e).all(|(x, y)| contains(x, y))
        }
        _ => actual == expected,
    }
}

/// Replaces `"$confirm"` in a request with the last confirmation id seen.
fn fill(request: &Value, confirm: &Option<String>) -> Value {
    let text = request
        .to_string()
        .replace("\"$confirm\"", &json!(confirm).to_string());
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_browser_artifact_passes_the_golden_cases() {
    let Some(path) = wasm_artifact() else { return };
    let wasm = std::fs::read(&path).unwrap();
    let golden: Value = serde_json::from_str(include_str!("golden.json")).unwrap();
    let mut worker = Worker::new(&wasm);
    let mut confirm = None;
    for (index, case) in golden["cases"].as_array().unwrap().iter().enumerate() {
        if let Some(folder) = case.get("folder") {
            worker.files = folder
                .as_object()
                .unwrap()
                .iter()
                .map(|(f, text)| (f.clone(), text.as_str().unwrap().as_bytes().to_vec()))
                .collect();
        }
        if let Some(gone) = case.get("gone") {
            worker.gone = gone.as_bool().unwrap();
        }
        if let Some(permission) = case.get("permission") {
            for (mode, state) in permission.as_object().unwrap() {
                worker
                    .permission
                    .insert(mode.clone(), state.as_str().unwrap().into());
            }
        }
        let request = fill(&case["request"], &confirm);
        let answer = worker.request(&request);
        if let Some(id) = answer["result"]["confirm"]["id"].as_str() {
            confirm = Some(id.to_string());
        }
        assert!(
            contains(&answer, &case["expect"]),
            "case {index} ({}):\n request {request}\n answer  {answer}\n expect  {}",
            case["name"],
            case["expect"]
        );
        if let Some(files) = case.get("files") {
            for (file, content) in files.as_object().unwrap() {
                let (tree, file) = match file.strip_prefix("origin:") {
                    Some(file) => (&worker.origin, file),
                    None => (&worker.files, file.as_str()),
                };
                let actual = tree
                    .get(file)
                    .map(|b| String::from_utf8_lossy(b).into_owned());
                assert_eq!(actual.as_deref(), content.as_str(), "case {index}: {file}");
            }
        }
    }
    assert!(worker.io_log.contains(&"runTool".to_string()));
    println!(
        "browser artifact: {} bytes, {} golden cases",
        wasm.len(),
        golden["cases"].as_array().unwrap().len()
    );
}

/// The notes verbs in the browser artifact, over the stand-in for the
/// worker's OPFS: each done with its refused sibling, and the folder and
/// its files observed after each.
#[test]
fn the_browser_artifact_does_the_notes_verbs() {
    let Some(path) = wasm_artifact() else { return };
    let mut worker = Worker::new(&std::fs::read(&path).unwrap());
    let open = json!({"op": "open", "project": {"name": "notes", "kind": "opfs"}, "instance": "phone", "persisted": false, "now": 1_789_830_000_000u64, "seed": "a1b2c3"});
    assert_eq!(worker.request(&open)["ok"], true);
    worker
        .files
        .insert("list.md".into(), b"- [ ] milk\n- [ ] eggs\n".to_vec());
    let act = |worker: &mut Worker, action: Value| {
        worker.request(&json!({"op": "execute", "action": action}))["result"].clone()
    };
    let text = |worker: &Worker, name: &str| {
        worker
            .files
            .get(name)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    };
    let read = act(
        &mut worker,
        json!({"verb": "read", "name": "list.md", "last": 1}),
    );
    assert_eq!(read["content"], "- [ ] eggs\n", "{read}");
    let held = read["sha256"].clone();
    let ticked = act(
        &mut worker,
        json!({"verb": "check_item", "name": "list.md", "item": "eggs", "expect": held}),
    );
    assert_eq!(ticked["ok"], true, "{ticked}");
    assert_eq!(
        text(&worker, "list.md").as_deref(),
        Some("- [ ] milk\n- [x] eggs\n")
    );
    let stale = act(
        &mut worker,
        json!({"verb": "write", "name": "list.md", "content": "old", "expect": held}),
    );
    assert_eq!(stale["refused"], "changed-since-read", "{stale}");

    let made = act(&mut worker, json!({"verb": "mkdir", "name": "archive"}));
    assert_eq!(made["ok"], true, "{made}");
    assert!(worker.dirs.contains("archive"));
    let moved = act(
        &mut worker,
        json!({"verb": "move", "name": "list.md", "to": "archive"}),
    );
    assert_eq!(moved["to"], "archive/list.md", "{moved}");
    assert!(text(&worker, "archive/list.md").is_some() && text(&worker, "list.md").is_none());
    let dot = act(
        &mut worker,
        json!({"verb": "move", "name": "archive", "to": ".hidden"}),
    );
    assert_eq!(dot["refused"], "dotfile-refused");
    let copied = act(
        &mut worker,
        json!({"verb": "copy", "name": "archive/list.md", "to": "copy.md"}),
    );
    assert_eq!(copied["ok"], true, "{copied}");
    let found = act(&mut worker, json!({"verb": "find", "pattern": "list"}));
    assert_eq!(found["total"], 1, "{found}");
    let info = act(&mut worker, json!({"verb": "info", "name": "archive"}));
    assert_eq!(info["info"]["entries"], 1, "{info}");
    let full = act(&mut worker, json!({"verb": "delete", "name": "archive"}));
    assert_eq!(full["refused"], "folder-not-empty");
    let undone = act(
        &mut worker,
        json!({"verb": "undo", "name": "archive/list.md"}),
    );
    assert_eq!(undone["ok"], true, "{undone}");
    assert!(text(&worker, "list.md").is_some(), "moved back");
    let asked = act(&mut worker, json!({"verb": "delete", "name": "archive"}));
    let id = asked["confirm"]["id"].clone();
    assert_eq!(asked["confirm"]["rule"], "delete", "{asked}");
    let yes = worker.request(&json!({"op": "confirm", "id": id, "approved": true}));
    assert_eq!(yes["result"]["ok"], true, "{yes}");
    assert!(!worker.is_dir("archive"));
}
