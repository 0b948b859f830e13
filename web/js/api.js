// api.js — fetch wrappers for the same-origin JSON API. They return what the
// server said; they decide nothing. Transport failures throw ApiError so the
// page can show them. Each call carries the page's session (session.js) as a
// header; no cookie is sent.

import { sessionHeaders } from './session.js';

const TIMEOUT_MS = 60_000;

/** A failure to get a JSON answer from the server (network, HTTP, bad body). */
export class ApiError extends Error {
  constructor(kind, message, status = 0) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind; // 'network' | 'http' | 'body'
    this.status = status;
  }
}

/** True when `data` is a refusal body `{ok:false, refused, why}`. */
function isRefusal(data) {
  return data !== null && typeof data === 'object' && data.ok === false && 'refused' in data;
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json', ...sessionHeaders() };
  const init = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  init.signal = abort.signal;

  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    const why = abort.signal.aborted
      ? `Voicebox did not answer within ${TIMEOUT_MS / 1000} s.`
      : 'Voicebox could not be reached. Is it still running on this computer?';
    throw new ApiError('network', why);
  } finally {
    clearTimeout(timer);
  }

  const text = await res.text().catch(() => '');
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // A refusal the server explains is an answer, not a transport failure.
    if (isRefusal(data)) return { status: res.status, data };
    const detail = text && text.length < 300 ? `: ${text.trim()}` : '';
    throw new ApiError('http', `Voicebox failed to answer (HTTP ${res.status} ${res.statusText})${detail}`, res.status);
  }
  if (data === null || typeof data !== 'object') {
    throw new ApiError('body', 'Voicebox answered with something the page cannot read.', res.status);
  }
  return { status: res.status, data };
}

/** The body of the server's answer, for the calls that need no status. */
async function answer(method, path, body) {
  const { data } = await request(method, path, body);
  return data;
}

/** The reply inside `{result}`, or the body itself when it is a bare refusal. */
function reply(data) {
  if (data && typeof data === 'object' && data.result && typeof data.result === 'object') return data.result;
  return data;
}

/** POST /api/turn → `{transcript, action, result, note?}`. */
export async function turn(transcript) {
  const { status, data } = await request('POST', '/api/turn', { transcript });
  if (isRefusal(data) && !('result' in data)) {
    return { transcript, action: null, result: data, status };
  }
  return { ...data, status };
}

/** POST /api/turn with a structured `{action}` (the file panel's acts) → the same shape as turn(). */
export async function act(action) {
  const { status, data } = await request('POST', '/api/turn', { action });
  if (isRefusal(data) && !('result' in data)) {
    return { transcript: null, action, result: data, status };
  }
  return { ...data, status };
}

/** POST /api/confirm → the reply that answers the confirmation. */
export async function confirm(id, approved) {
  return reply(await answer('POST', '/api/confirm', { id, approved: approved === true }));
}

/** GET /api/files?dir= → a list reply (or a refusal). `dir` empty means the root. */
export async function files(dir) {
  const q = dir ? `?dir=${encodeURIComponent(dir)}` : '';
  return reply(await answer('GET', `/api/files${q}`));
}

/** GET /api/file?name= → a read reply (or a refusal). */
export async function file(name) {
  return reply(await answer('GET', `/api/file?name=${encodeURIComponent(name)}`));
}

/** GET /api/audit/verify → `{ok, root, files}` (each file's chain verdict) or a refusal. */
export function verifyAudit() {
  return answer('GET', '/api/audit/verify');
}

/** GET /api/audit[?cursor=] → one page `{ok, root, entries, next?}` or a refusal. */
export function audit(cursor) {
  const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
  return answer('GET', `/api/audit${query}`);
}

/** GET /api/health → `{ok, declared, root, refused, resolver, live, version}`. */
export function health() {
  return answer('GET', '/api/health');
}

/** GET /api/help → `{ok, help: [{verb, does, says: [sentence]}]}`. */
export function help() {
  return answer('GET', '/api/help');
}

/** GET /api/root → `{declared, root}`. */
export function root() {
  return answer('GET', '/api/root');
}

/** GET /api/keys → `{ok, keys: {<provider>: {set, last4?}}}` (masked; never a key). */
export function keys() {
  return answer('GET', '/api/keys');
}

/** PUT /api/keys with `{keys: {<provider>: string | null}}`; null removes. Same answer as keys(). */
export function putKeys(changes) {
  return answer('PUT', '/api/keys', { keys: changes });
}

/** PUT /api/settings with `{resolver}` → `{ok, resolver, ready, why?}`. */
export function putSettings(settings) {
  return answer('PUT', '/api/settings', settings);
}

/** POST /api/root `{path}` from the page: `{result: {confirm}}` (a question for the person) or a refusal. */
export async function chooseFolder(path) {
  return reply(await answer('POST', '/api/root', { path }));
}

/** GET /api/extensions → `{ok, extensions: [{id, state, description?, problems?, planDigest?}]}`. */
export function extensions() {
  return answer('GET', '/api/extensions');
}

/** POST /api/extensions/approval-request: the server prints a code on its console (never here). */
export function approvalRequest(id) {
  return answer('POST', '/api/extensions/approval-request', { id });
}

/** POST /api/extensions/approve `{id, code}` → the admission's reply. */
export async function approve(id, code) {
  return reply(await answer('POST', '/api/extensions/approve', { id, code }));
}

/** POST /api/extensions/revoke or /withdraw `{id}` → the reply. */
export async function extensionAct(which, id) {
  return reply(await answer('POST', `/api/extensions/${which === 'revoke' ? 'revoke' : 'withdraw'}`, { id }));
}
