// tool-worker.js — one run of the create-asset module, in a worker of its own so the
// host can stop a run that never ends (it terminates this worker).
//
// The module is instantiated with EXACTLY { env: { writeFile, note } }. writeFile
// only records what the module asked to write; the host hands the list to the
// core, which re-checks the path and performs the write itself. Failures are
// reported in the platform's own words, with the phase they happened in.

const decoder = new TextDecoder();

self.addEventListener('message', async ({ data }) => {
  const { module, input } = data;
  const writes = [];
  const notes = [];
  let memory = null;

  const bytes = (ptr, len) => {
    if (!memory) throw new RangeError('the module called the host before its memory was exported');
    return new Uint8Array(memory.buffer, ptr >>> 0, len >>> 0).slice();
  };
  const env = {
    writeFile(pathPtr, pathLen, dataPtr, dataLen) {
      writes.push({ path: decoder.decode(bytes(pathPtr, pathLen)), data: bytes(dataPtr, dataLen) });
    },
    note(ptr, len) {
      notes.push(decoder.decode(bytes(ptr, len)));
    },
  };

  let instance;
  try {
    instance = await WebAssembly.instantiate(module, { env });
  } catch (e) {
    self.postMessage({ error: { phase: 'instantiate', name: e.name, message: e.message } });
    return;
  }

  try {
    memory = instance.exports.memory;
    const payload = new Uint8Array(input);
    const ptr = instance.exports.alloc(payload.length) >>> 0;
    new Uint8Array(memory.buffer, ptr, payload.length).set(payload);
    instance.exports.run(ptr, payload.length);
  } catch (e) {
    self.postMessage({ error: { phase: 'run', name: e.name, message: e.message } });
    return;
  }

  // The writes' bytes back to back, in order; the report says how long each is.
  const total = writes.reduce((n, w) => n + w.data.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const w of writes) {
    out.set(w.data, at);
    at += w.data.length;
  }
  self.postMessage({
    report: { ok: true, writes: writes.map((w) => ({ path: w.path, len: w.data.length })), notes },
    bytes: out.buffer,
  }, [out.buffer]);
});
