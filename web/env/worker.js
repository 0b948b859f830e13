// worker.js — the host of the browser placement (a dedicated module worker).
//
// It loads the one Voicebox core (voicebox_web.wasm, no imports) and serves the
// page's requests one at a time. The core decides everything: which path, allowed
// or refused, what the audit says. The worker only performs the I/O request the
// core parks ({"io": …}) against the open project's folder, runs the create-asset
// module when asked, and passes answers back. It never checks a path, never
// decides allow/refuse, never builds an audit line.
//
// This file is the message loop and the project glue; the jobs are modules in
// worker/: core.js (the ABI driver), io.js (the I/O ops), roots.js (where I/O
// goes), handles.js (picked folders and permissions), registry.js (the project
// list), tool.js (the tool runner), words.js. See README.md for the protocol.

import { words } from './worker/words.js';
import { coreReady, coreLive, drive } from './worker/core.js';
import { adopt, dropHandle } from './worker/handles.js';
import { NO_ROOT, projectRoot } from './worker/roots.js';
import { keptRecord, listProjects, removeRecord, saveRecord } from './worker/registry.js';

let current = null;       // the open project's root (after a successful open)
let lastOpen = null;      // the open request, replayed if the core has to be reloaded

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
  await dropHandle(location.id);
  await removeRecord(record.name);
  if (current && current.key === `handle:${location.id}`) {
    current = null;
    lastOpen = null;
  }
  return { ok: true, forgotten: String(record.name) };
}

// ---------------------------------------------------------------------------
// Requests from the page, served one at a time.

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
  if (coreLive() || !lastOpen) return;
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
      reply = { error: words(e), restarted: !coreLive() };
    }
    self.postMessage({ id, ...reply });
  });
});

// Start loading the core at once; a failure is reported with the first request.
coreReady().catch(() => {});
