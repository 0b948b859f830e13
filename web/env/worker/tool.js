// tool.js — runs create-asset.wasm in a short-lived worker of its own, for at
// most the time budget the core names in the request.

import { words } from './words.js';

const TOOL_URL = new URL('../create-asset.wasm', import.meta.url);
const TOOL_WORKER_URL = new URL('../tool-worker.js', import.meta.url);

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
export async function opRunTool(io, input) {
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
