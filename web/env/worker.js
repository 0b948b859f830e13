// worker.js — the host of the browser placement (a dedicated module worker).
//
// It loads the one Voicebox core (voicebox_web.wasm, no imports) and serves the
// page's requests one at a time. The core decides everything: which path, allowed
// or refused, what the audit says. This file only performs the I/O request the
// core parks ({"io": …}) against the open project's OPFS folder, runs the
// create-asset module when asked, and passes answers back. It never checks a
// path, never decides allow/refuse, never builds an audit line.
//
// The reference for every I/O op is the Rust stand-in `Worker::perform` in
// crates/web/tests/artifact.rs. See README.md in this folder for the protocol.

const CORE_URL = new URL('./voicebox_web.wasm', import.meta.url);
const TOOL_URL = new URL('./create-asset.wasm', import.meta.url);
const TOOL_WORKER_URL = new URL('./tool-worker.js', import.meta.url);

// A fetch that never answers must not hold the queue for ever.
const CORE_FETCH_TIMEOUT_MS = 30000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The platform's own words for a failure (and a permission state, when that was the reason). */
function words(e) {
  const said = { name: e && e.name ? String(e.name) : 'Error', message: e && e.message != null ? String(e.message) : String(e) };
  if (e && typeof e.permission === 'string') said.permission = e.permission;
  return said;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------------------
// The core: voicebox_web.wasm behind its C-ABI.

let core = null;          // { exports, memory }
let coreLoading = null;   // Promise while (re)loading

async function loadCore() {
  const response = await fetch(CORE_URL, { signal: AbortSignal.timeout(CORE_FETCH_TIMEOUT_MS) });
  if (!response.ok) {
    const e = new Error(`${CORE_URL.pathname}: HTTP ${response.status} ${response.statusText}`);
    e.name = 'NetworkError';
    throw e;
  }
  const bytes = await response.arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  return { exports: instance.exports, memory: instance.exports.memory };
}

function coreReady() {
  if (core) return Promise.resolve(core);
  if (!coreLoading) {
    coreLoading = loadCore().then((c) => { core = c; coreLoading = null; return c; },
      (e) => { coreLoading = null; throw e; });
  }
  return coreLoading;
}

/** Copies bytes into a fresh core buffer; returns [ptr, len]. */
function put(c, bytes) {
  const len = bytes.length;
  const ptr = c.exports.vb_alloc(len) >>> 0;
  new Uint8Array(c.memory.buffer, ptr, len).set(bytes);
  return [ptr, len];
}

/** Copies a core buffer out (the view is re-made: memory may have grown). */
function take(c, ptrFn, lenFn) {
  const ptr = c.exports[ptrFn]() >>> 0;
  const len = c.exports[lenFn]() >>> 0;
  return new Uint8Array(c.memory.buffer, ptr, len).slice();
}

/**
 * Runs one request through the core, performing every I/O it parks against
 * `root` (a project root resolver, see below). Resolves with the core's answer.
 */
async function drive(request, root) {
  const c = await coreReady();
  const seed = new Uint8Array(16);
  crypto.getRandomValues(seed);
  const text = encoder.encode(JSON.stringify({ ...request, now: Date.now(), seed: hex(seed) }));
  let state;
  try {
    const [ptr, len] = put(c, text);
    state = c.exports.vb_begin(ptr, len);
    c.exports.vb_free(ptr, len);
    for (;;) {
      const out = JSON.parse(decoder.decode(take(c, 'vb_out_ptr', 'vb_out_len')));
      if (state === 0) return out.done;
      const data = take(c, 'vb_data_ptr', 'vb_data_len');
      // perform() never throws: every failure is reported to the core as data.
      const [answer, bytes] = await perform(out.io, data, root);
      const [aptr, alen] = put(c, encoder.encode(JSON.stringify(answer)));
      const [dptr, dlen] = put(c, bytes);
      state = c.exports.vb_resume(aptr, alen, dptr, dlen);
      c.exports.vb_free(aptr, alen);
      c.exports.vb_free(dptr, dlen);
    }
  } catch (e) {
    // A trap inside the core leaves its state unusable: load a fresh one next time.
    if (e instanceof WebAssembly.RuntimeError) core = null;
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Projects: an OPFS folder under v1/projects/<name>/, re-resolved from
// navigator.storage.getDirectory() at every open (no user gesture needed), or a
// folder the person picked, kept as a handle in IndexedDB under an id.

/** The origin's private file system, walked by entry names (OPFS refuses "/", "." and ".."). */
async function opfsDir(names, create) {
  let dir = await navigator.storage.getDirectory();
  for (const name of names) dir = await dir.getDirectoryHandle(String(name), { create });
  return dir;
}

// Picked folders: { id, handle, label, name } records in IndexedDB. A
// FileSystemDirectoryHandle can be stored there (and nowhere else that lasts).
const HANDLE_DB = 'voicebox';
const HANDLE_STORE = 'handles';

function handleDb() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(HANDLE_DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(HANDLE_STORE, { keyPath: 'id' });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function handleStore(mode, work) {
  const db = await handleDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(HANDLE_STORE, mode);
      const result = work(tx.objectStore(HANDLE_STORE));
      tx.oncomplete = () => resolve(result.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

async function keptHandle(id) {
  const kept = await handleStore('readonly', (store) => store.get(String(id)));
  if (!kept || !kept.handle) {
    const e = new Error(`no picked folder is kept under ${JSON.stringify(id)} in this browser; pick the folder again`);
    e.name = 'NotFoundError';
    throw e;
  }
  return kept.handle;
}

/** The permission a handle has for `mode` now (OPFS handles answer "granted"). */
async function permission(handle, mode) {
  return typeof handle.queryPermission === 'function' ? handle.queryPermission({ mode }) : 'granted';
}

/**
 * Never touches a root whose permission for `mode` is not granted: on a
 * `prompt` handle some calls wait for ever for an answer no one can give.
 */
async function guard(handle, mode) {
  if (!mode) return;
  const state = await permission(handle, mode);
  if (state === 'granted') return;
  const e = new Error(`the browser's permission to ${mode === 'read' ? 'read' : 'change'} this folder is "${state}"`);
  e.name = 'NotAllowedError';
  e.permission = state;
  throw e;
}

/** A project's root: the handle is resolved on first use and refreshed by `reachable`. */
function projectRoot(project, create) {
  const kind = project.kind ?? 'opfs';
  return {
    project,
    key: kind === 'handle' ? `handle:${project.id}` : `opfs:${project.name}`,
    handle: null,
    // `fresh` re-resolves (a handle from IndexedDB, a folder re-walked from the
    // OPFS root) and never creates: a folder that is gone stays gone.
    async resolve(fresh = false) {
      if (this.handle && !fresh) return this.handle;
      if (kind === 'handle') {
        this.handle = await keptHandle(project.id);
      } else if (kind === 'opfs') {
        this.handle = await opfsDir(['v1', 'projects', project.name], create && !fresh);
      } else {
        const e = new Error(`this worker resolves OPFS and picked-folder roots, not ${JSON.stringify(kind)}`);
        e.name = 'NotSupportedError';
        throw e;
      }
      return this.handle;
    },
    /**
     * Is the folder still there? An OPFS folder is re-walked from the origin's
     * root (NotFoundError if gone); a kept handle cannot be re-walked, so its
     * first entry is read — only where reading is permitted (else `permit` says so).
     */
    async reachable() {
      const handle = await this.resolve(true);
      if (kind !== 'handle' || (await permission(handle, 'read')) !== 'granted') return;
      for await (const _ of handle.keys()) break; // NotFoundError if the folder is gone
    },
  };
}

/** Keeps a picked (or dropped) folder's handle under a fresh id; the page then opens it. */
async function adopt(request) {
  const handle = request.handle;
  if (!handle || handle.kind !== 'directory' || typeof handle.getDirectoryHandle !== 'function') {
    return { answer: { ok: false, error: { name: 'TypeMismatchError', message: 'adopt takes a folder handle (FileSystemDirectoryHandle)' } } };
  }
  // The same folder picked again is the same project, not a second one.
  const kept = await handleStore('readonly', (store) => store.getAll());
  for (const record of kept || []) {
    if (record.handle && await record.handle.isSameEntry(handle).catch(() => false)) {
      return { answer: { ok: true, id: record.id, name: record.name, label: record.label, again: true } };
    }
  }
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  const id = `h_${hex(bytes)}`;
  const label = String(request.label ?? handle.name);
  const name = String(request.name ?? '');
  await handleStore('readwrite', (store) => store.put({ id, handle, label, name, keptAt: Date.now() }));
  return { answer: { ok: true, id, name, label, again: false } };
}

let current = null;       // the open project's root (after a successful open)
let lastOpen = null;      // the open request, replayed if the core has to be reloaded

function registryDir(create) {
  return opfsDir(['v1', 'registry'], create);
}

/** Saves the record the core returned, as text, to v1/registry/<name>.json. */
async function saveRecord(record) {
  const dir = await registryDir(true);
  const file = await dir.getFileHandle(`${record.name}.json`, { create: true });
  const writable = await file.createWritable();
  try {
    await writable.write(JSON.stringify(record));
    await writable.close();
  } catch (e) {
    await writable.abort().catch(() => {});
    throw e;
  }
}

/** Glue: the registry's records, by file name. */
async function listProjects() {
  let dir;
  try {
    dir = await registryDir(false);
  } catch (e) {
    if (e.name === 'NotFoundError') return { ok: true, projects: [] };
    throw e;
  }
  const projects = [];
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind !== 'file' || !name.endsWith('.json')) continue;
    let record = null;
    try {
      record = JSON.parse(await (await handle.getFile()).text());
    } catch {
      record = null;
    }
    projects.push({ name: name.slice(0, -'.json'.length), record });
  }
  projects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ok: true, projects };
}

/**
 * Glue: forgets a picked folder — its kept handle and its registry record.
 * The folder itself, its files and its audit are not touched.
 */
async function forget(name) {
  const record = await keptRecord(String(name));
  const location = record && record.location;
  if (!location || location.kind !== 'handle') {
    return { ok: false, error: { name: 'NotFoundError', message: `no picked folder is kept as ${JSON.stringify(String(name))}` } };
  }
  await handleStore('readwrite', (store) => store.delete(String(location.id)));
  await (await registryDir(false)).removeEntry(`${record.name}.json`);
  if (current && current.key === `handle:${location.id}`) {
    current = null;
    lastOpen = null;
  }
  return { ok: true, forgotten: String(record.name) };
}

// ---------------------------------------------------------------------------
// I/O: what the core asks for, performed as `Worker::perform` does.
// Paths are relative to the root, "/"-separated, already contained by the core.

function segments(path) {
  return path === '' ? [] : String(path).split('/');
}

/** The folder holding the path's last segment, and that segment. */
async function parentOf(root, path, create) {
  const parts = segments(path);
  const last = parts.pop();
  let dir = root;
  for (const part of parts) dir = await dir.getDirectoryHandle(part, { create });
  return [dir, last];
}

/** The folder at `path` itself ("" is the root). */
async function folderAt(root, path) {
  let dir = root;
  for (const part of segments(path)) dir = await dir.getDirectoryHandle(part);
  return dir;
}

const ok = () => [{ ok: true }, new Uint8Array(0)];

/**
 * A file's contents. A File is a snapshot: if another tab appends between
 * getFile() and the read, the read fails with NotReadableError — take a new
 * snapshot and read again (a few times), as any reader of a live file must.
 */
async function contents(handle, as = 'bytes') {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const file = await handle.getFile();
      return as === 'text' ? await file.text() : new Uint8Array(await file.arrayBuffer());
    } catch (e) {
      if (e.name !== 'NotReadableError' || attempt >= 5) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

/**
 * Changes to one file are made one at a time across every tab of this origin:
 * OPFS gives a sync access handle to one holder only, and two tabs append to the
 * same undo journal. A Web Lock per file makes the second wait instead of fail.
 */
function oneAtATime(root, path, change) {
  if (!(navigator.locks && typeof navigator.locks.request === 'function')) return busyRetry(change);
  return navigator.locks.request(`voicebox-file:${root.key}:${path}`, () => busyRetry(change));
}

/** Where another holder (outside the lock) has the file open, wait briefly and try again. */
async function busyRetry(change) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await change();
    } catch (e) {
      if (e.name !== 'NoModificationAllowedError' || attempt >= 20) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

/** A file's bytes and size; past `io.max` bytes only the size (the core names the refusal). */
async function opRead(root, io) {
  const [dir, name] = await parentOf(root, io.path, false);
  const handle = await dir.getFileHandle(name);
  const { size } = await handle.getFile();
  if (typeof io.max === 'number' && size > io.max) return [{ ok: true, size }, new Uint8Array(0)];
  const bytes = await contents(handle);
  return [{ ok: true, size: bytes.length }, bytes];
}

async function opWrite(root, io, data) {
  const [dir, name] = await parentOf(root, io.path, true);
  const handle = await dir.getFileHandle(name, { create: true });
  // createWritable writes a swap file and replaces the file on close: never half-written.
  const writable = await handle.createWritable();
  try {
    await writable.write(data);
    await writable.close();
  } catch (e) {
    await writable.abort().catch(() => {});
    throw e;
  }
  return ok();
}

async function opAppend(root, io, data) {
  const [dir, name] = await parentOf(root, io.path, true);
  const handle = await dir.getFileHandle(name, { create: true });
  if (typeof handle.createSyncAccessHandle === 'function') {
    const access = await handle.createSyncAccessHandle();
    try {
      const size = access.getSize();
      try {
        const written = access.write(data, { at: size });
        if (written !== data.length) {
          const e = new Error(`wrote ${written} of ${data.length} bytes`);
          e.name = 'QuotaExceededError';
          throw e;
        }
        access.flush();
      } catch (e) {
        access.truncate(size); // never leave part of a line behind
        throw e;
      }
    } finally {
      access.close();
    }
    return ok();
  }
  const file = await handle.getFile();
  const writable = await handle.createWritable({ keepExistingData: true });
  try {
    await writable.seek(file.size);
    await writable.write(data);
    await writable.close();
  } catch (e) {
    await writable.abort().catch(() => {});
    throw e;
  }
  return ok();
}

async function opRemove(root, io) {
  const [dir, name] = await parentOf(root, io.path, false);
  await dir.getFileHandle(name); // a file, never a folder (TypeMismatchError otherwise)
  await dir.removeEntry(name);
  return ok();
}

async function opObserve(root, io) {
  if (segments(io.path).length === 0) return [{ exists: true, dir: true, bytes: 0 }, new Uint8Array(0)];
  const absent = [{ exists: false, dir: false, bytes: 0 }, new Uint8Array(0)];
  let dir;
  let name;
  try {
    [dir, name] = await parentOf(root, io.path, false);
  } catch (e) {
    if (e.name === 'NotFoundError' || e.name === 'TypeMismatchError') return absent;
    throw e;
  }
  try {
    const file = await (await dir.getFileHandle(name)).getFile();
    return [{ exists: true, dir: false, bytes: file.size, mtime: file.lastModified }, new Uint8Array(0)];
  } catch (e) {
    if (e.name === 'NotFoundError') return absent;
    if (e.name !== 'TypeMismatchError') throw e;
  }
  await dir.getDirectoryHandle(name);
  return [{ exists: true, dir: true, bytes: 0 }, new Uint8Array(0)];
}

async function opList(root, io) {
  const dir = await folderAt(root, io.path);
  const entries = [];
  for await (const [name, handle] of dir.entries()) {
    const isDir = handle.kind === 'directory';
    entries.push({ name, dir: isDir, bytes: isDir ? 0 : (await handle.getFile()).size });
  }
  return [{ ok: true, entries }, new Uint8Array(0)];
}

async function opReadAudit(root, io) {
  let dir;
  try {
    dir = await folderAt(root, io.path);
  } catch (e) {
    if (e.name === 'NotFoundError') return [{ ok: true, files: [] }, new Uint8Array(0)];
    throw e;
  }
  const files = [];
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind !== 'file') continue;
    files.push({ name, text: await contents(handle, 'text') });
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [{ ok: true, files }, new Uint8Array(0)];
}

/** The origin's own files (a picked folder's fallback audit): append and read only. */
const ORIGIN = {
  key: 'origin',
  async resolve() {
    return navigator.storage.getDirectory();
  },
};

// create-asset: compiled once per worker, instantiated fresh for every run in a
// short-lived worker of its own, so a run that never ends can be stopped.
let toolModule = null;

async function compiledTool(budgetMs) {
  if (!toolModule) {
    const response = await fetch(TOOL_URL, { signal: AbortSignal.timeout(budgetMs) });
    if (!response.ok) {
      const e = new Error(`${TOOL_URL.pathname}: HTTP ${response.status} ${response.statusText}`);
      e.name = 'NetworkError';
      throw e;
    }
    toolModule = await WebAssembly.compile(await response.arrayBuffer());
  }
  return toolModule;
}

/**
 * Runs the tool in a worker of its own, terminated past `io.budgetMs` — the
 * core's budget, named in every request (a request without one is refused).
 */
async function opRunTool(io, input) {
  const budgetMs = io.budgetMs;
  if (!Number.isFinite(budgetMs) || budgetMs <= 0) {
    return [{ error: { phase: 'load', name: 'TypeError', message: 'runTool names no time budget (budgetMs)' } }, new Uint8Array(0)];
  }
  let module;
  try {
    module = await compiledTool(budgetMs);
  } catch (e) {
    // A module that does not compile is instantiate's failure; one that cannot be fetched is not.
    const phase = e instanceof WebAssembly.CompileError ? 'instantiate' : 'load';
    return [{ error: { phase, ...words(e) } }, new Uint8Array(0)];
  }
  return new Promise((resolve) => {
    const runner = new Worker(TOOL_WORKER_URL, { type: 'module', name: 'voicebox-tool' });
    let settled = false;
    const finish = (answer, bytes = new Uint8Array(0)) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      runner.terminate();
      resolve([answer, bytes]);
    };
    const timer = setTimeout(() => finish({
      error: { phase: 'timeout', name: 'TimeoutError', message: `the run did not finish within ${budgetMs} ms` },
    }), budgetMs);
    runner.addEventListener('message', ({ data }) => {
      if (data.error) finish({ error: data.error });
      else finish(data.report, new Uint8Array(data.bytes));
    });
    runner.addEventListener('error', (event) => {
      event.preventDefault();
      finish({ error: { phase: 'load', name: 'Error', message: event.message || 'the tool worker failed to start' } });
    });
    runner.addEventListener('messageerror', () => {
      finish({ error: { phase: 'load', name: 'DataCloneError', message: 'the tool module could not be passed to its worker' } });
    });
    const copy = input.slice();
    runner.postMessage({ module, input: copy.buffer }, [copy.buffer]);
  });
}

/** Performs one I/O request; never throws — failures are the platform's own words. */
async function perform(io, data, root) {
  try {
    if (io.op === 'runTool') return await opRunTool(io, data);
    if (io.op === 'reachable') {
      await root.reachable();
      return ok();
    }
    if (io.op === 'permit') {
      return [{ state: await permission(await root.resolve(), io.mode) }, new Uint8Array(0)];
    }
    const on = io.root === 'origin' ? ORIGIN : root;
    const folder = async () => {
      const handle = await on.resolve();
      await guard(handle, io.mode); // asked before every touch, as the core asked before the act
      return handle;
    };
    switch (io.op) {
      case 'read':
        return await opRead(await folder(), io);
      case 'write':
        return await oneAtATime(on, io.path, async () => opWrite(await folder(), io, data));
      case 'append':
        return await oneAtATime(on, io.path, async () => opAppend(await folder(), io, data));
      case 'remove':
        return await oneAtATime(on, io.path, async () => opRemove(await folder(), io));
      case 'observe':
        return await opObserve(await folder(), io);
      case 'list':
        return await opList(await folder(), io);
      case 'readAudit':
        return await opReadAudit(await folder(), io);
      default: {
        const e = new Error(`this worker performs no I/O op ${JSON.stringify(io.op)}`);
        e.name = 'NotSupportedError';
        throw e;
      }
    }
  } catch (e) {
    return [{ error: words(e) }, new Uint8Array(0)];
  }
}

/** The root I/O goes to when no project is open (the core refuses before asking). */
const NO_ROOT = {
  key: 'none',
  async resolve() {
    const e = new Error('no project is open');
    e.name = 'InvalidStateError';
    throw e;
  },
  async reachable() {
    await this.resolve();
  },
};

// ---------------------------------------------------------------------------
// Requests from the page, served one at a time.

/** The record the registry kept for `name`, or null. */
async function keptRecord(name) {
  try {
    const dir = await registryDir(false);
    const file = await dir.getFileHandle(`${name}.json`);
    return JSON.parse(await (await file.getFile()).text());
  } catch {
    return null;
  }
}

async function open(request) {
  const persisted = await navigator.storage.persisted().catch(() => false);
  const project = request.project && typeof request.project === 'object' ? request.project : {};
  const root = projectRoot(project, true);
  // An open is not a creation: the core keeps the time the registry recorded.
  const kept = typeof project.name === 'string' ? await keptRecord(project.name) : null;
  const coreRequest = { ...request, persisted };
  if (kept && typeof kept.createdAt === 'string') coreRequest.createdAt = kept.createdAt;
  const answer = await drive(coreRequest, root);
  const reply = { answer };
  if (answer && answer.ok === true && answer.project) {
    current = root;
    lastOpen = { request: { ...coreRequest, project } };
    // The page asks the person for access with this handle (a gesture is the page's).
    if (project.kind === 'handle') reply.handle = await root.resolve().catch(() => null);
    try {
      await saveRecord(answer.project);
      reply.registry = { ok: true };
    } catch (e) {
      reply.registry = { ok: false, error: words(e) };
    }
  }
  return reply;
}

async function serve(request) {
  if (!request || typeof request !== 'object') {
    return { error: { name: 'TypeError', message: 'a request is an object with an `op`' } };
  }
  switch (request.op) {
    case 'open':
      return open(request);
    case 'projects':
      return { answer: await listProjects() };
    case 'adopt':
      return adopt(request);
    case 'forget':
      return { answer: await forget(request.name).catch((e) => ({ ok: false, error: words(e) })) };
    default:
      // execute, confirm, audit, resolve and anything else: the core answers.
      return { answer: await drive(request, current || NO_ROOT) };
  }
}

/** After a trap, a fresh core: re-open the project so the next request finds it. */
async function recover() {
  if (core || !lastOpen) return;
  current = null;
  try {
    const root = projectRoot(lastOpen.request.project, true); // re-resolved, as at every open
    const answer = await drive(lastOpen.request, root);
    if (answer && answer.ok === true) current = root;
  } catch {
    current = null;
  }
}

let queue = Promise.resolve();

self.addEventListener('message', ({ data }) => {
  const id = data ? data.id : undefined;
  const request = data ? data.request : undefined;
  queue = queue.then(async () => {
    let reply;
    try {
      await recover();
      reply = await serve(request);
    } catch (e) {
      reply = { error: words(e), restarted: core === null };
    }
    self.postMessage({ id, ...reply });
  });
});

// Start loading the core at once; a failure is reported with the first request.
coreReady().catch(() => {});
