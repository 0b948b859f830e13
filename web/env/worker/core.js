// core.js — voicebox_web.wasm behind its C-ABI: loaded once (again after a
// trap), driven through one request at a time, every parked I/O performed by
// io.js. The core decides; this file only copies bytes in and out.

import { hex } from './words.js';
import { perform } from './io.js';

const CORE_URL = new URL('../voicebox_web.wasm', import.meta.url);
// A fetch that never answers must not hold the queue for ever.
const CORE_FETCH_TIMEOUT_MS = 30000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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

export function coreReady() {
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
export async function drive(request, root) {
  const c = await coreReady();
  const seed = new Uint8Array(16);
  crypto.getRandomValues(seed);
  const text = encoder.encode(JSON.stringify({ ...request, now: Date.now(), offset: -new Date().getTimezoneOffset() * 60, seed: hex(seed) }));
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

/** Is a core loaded? After a trap it is not, until the next request loads a fresh one. */
export function coreLive() {
  return core !== null;
}
