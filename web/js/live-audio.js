// live-audio.js — the microphone in (getUserMedia + an AudioWorklet that posts
// PCM16 LE mono chunks at the server's rate) and the model's speech out
// (PCM16 LE mono buffers played one after another).

const CHUNK_MS = 100;

/** Why live voice cannot run in this browser, or '' when it can. */
export function missingAudio() {
  if (!navigator.mediaDevices || typeof navigator.mediaDevices.getUserMedia !== 'function') {
    return 'Live voice is not available here: this browser has no microphone access (getUserMedia; it needs a secure page such as http://127.0.0.1).';
  }
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context || typeof window.AudioWorkletNode !== 'function') {
    return 'Live voice is not available here: this browser has no AudioWorklet to turn the microphone into PCM16.';
  }
  return '';
}

/** A fresh audio context; made in the click, so the browser lets it run. */
export function newContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  return new Context();
}

/**
 * Captures the microphone into `onChunk(ArrayBuffer)` at `rate` Hz.
 * Returns `stop()`, which ends the tracks and the worklet.
 */
export async function capture(context, rate, onChunk) {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  });
  const stopTracks = () => { for (const track of stream.getTracks()) track.stop(); };
  let node;
  try {
    await context.audioWorklet.addModule(new URL('./live-worklet.js', import.meta.url));
    if (context.state === 'suspended') await context.resume();
    const source = context.createMediaStreamSource(stream);
    node = new AudioWorkletNode(context, 'voicebox-pcm16', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      processorOptions: { targetRate: rate, chunkMs: CHUNK_MS },
    });
    node.port.onmessage = (event) => onChunk(event.data);
    source.connect(node);
    // The worklet writes nothing to its output; connecting it keeps it pulled.
    node.connect(context.destination);
  } catch (err) {
    stopTracks();
    throw err;
  }
  return () => {
    stopTracks();
    node.port.postMessage('stop');
    node.port.onmessage = null;
    node.disconnect();
  };
}

/**
 * How loud a PCM16 LE chunk is (its RMS, 0..1): what the barge-in detector
 * compares with the room's own level.
 */
export function loudness(bytes) {
  const view = new DataView(bytes);
  const n = Math.floor(bytes.byteLength / 2);
  if (!n) return 0;
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    const x = view.getInt16(i * 2, true) / 0x8000;
    sum += x * x;
  }
  return Math.sqrt(sum / n);
}

/**
 * A barge-in detector: the person speaks over the model when a chunk is
 * louder than the room's level (an adaptive floor, learnt while nobody
 * talks over the model) by `ratio`, for `hold` chunks in a row.
 * `hear(level, modelSpeaking)` → true when the person barged in.
 */
export function bargeIn({ ratio = 3, minimum = 0.02, hold = 2 } = {}) {
  let floor = 0.005;
  let loud = 0;
  return function hear(level, modelSpeaking) {
    const threshold = Math.max(minimum, floor * ratio);
    if (level > threshold) {
      loud += 1;
    } else {
      loud = 0;
      // The floor follows the room slowly, and only when it is quiet.
      floor = floor * 0.95 + level * 0.05;
    }
    if (!modelSpeaking) return false;
    if (loud >= hold) {
      loud = 0;
      return true;
    }
    return false;
  };
}

/**
 * Plays PCM16 LE mono buffers at `rate` in order; `flush()` drops what is
 * queued. `onQueue(n)` hears how many buffers are queued whenever it changes.
 */
export function player(context, rate, onQueue = () => {}) {
  let next = 0;
  const playing = new Set();
  return {
    /** How many buffers are queued or playing (0 once flushed). */
    get queued() { return playing.size; },
    play(bytes) {
      const view = new DataView(bytes);
      const n = Math.floor(bytes.byteLength / 2);
      if (!n) return;
      const buffer = context.createBuffer(1, n, rate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < n; i += 1) data[i] = view.getInt16(i * 2, true) / 0x8000;
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(context.destination);
      next = Math.max(next, context.currentTime);
      source.start(next);
      next += buffer.duration;
      playing.add(source);
      onQueue(playing.size);
      source.onended = () => {
        playing.delete(source);
        onQueue(playing.size);
      };
    },
    flush() {
      for (const source of playing) {
        source.onended = null;
        try { source.stop(); } catch { /* already ended */ }
      }
      playing.clear();
      next = 0;
      onQueue(0);
    },
  };
}
