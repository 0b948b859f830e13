// client.js — the page's side of the worker protocol: send {id, request}, match the
// worker's {id, answer} to it. Glue only: nothing here reads or judges an answer.

export function createClient(url) {
  const worker = new Worker(url, { type: 'module', name: 'voicebox-host' });
  const pending = new Map();
  let next = 1;

  function fail(id, error) {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    const e = new Error(error && error.message ? String(error.message) : 'the worker failed');
    e.name = error && error.name ? String(error.name) : 'Error';
    p.reject(e);
  }

  worker.addEventListener('message', ({ data }) => {
    if (!data || !pending.has(data.id)) return;
    if (data.error) {
      fail(data.id, data.error);
      return;
    }
    const p = pending.get(data.id);
    pending.delete(data.id);
    p.resolve(data);
  });

  // The worker script itself failed (it did not load, or threw at the top level).
  worker.addEventListener('error', (event) => {
    for (const id of [...pending.keys()]) {
      fail(id, { name: 'WorkerError', message: event.message || 'the Voicebox worker stopped' });
    }
  });

  return {
    /** Sends one request; resolves with the worker's whole reply ({answer, …}). */
    send(request) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, request });
      });
    },
  };
}
