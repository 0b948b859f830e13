// live-worklet.js — runs in the audio thread: mixes the microphone to mono,
// brings it to the rate the server announced (a box average per output
// sample, so downsampling does not alias much) and posts PCM16 LE chunks of
// about 100 ms to the page, which sends each as one binary frame.

class Pcm16Chunker extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const { targetRate, chunkMs } = options.processorOptions;
    // `sampleRate` is the context's rate, a global of this scope.
    this.step = sampleRate / targetRate; // input samples per output sample
    this.samples = Math.max(1, Math.round((targetRate * chunkMs) / 1000));
    this.fresh();
    this.pos = 0;
    this.sum = 0;
    this.count = 0;
    this.last = 0;
    this.stopped = false;
    this.port.onmessage = (event) => {
      if (event.data === 'stop') this.stopped = true;
    };
  }

  fresh() {
    this.buffer = new ArrayBuffer(this.samples * 2);
    this.view = new DataView(this.buffer);
    this.filled = 0;
  }

  emit(value) {
    const v = Math.max(-1, Math.min(1, value));
    this.view.setInt16(this.filled * 2, v < 0 ? v * 0x8000 : v * 0x7fff, true);
    this.filled += 1;
    if (this.filled === this.samples) {
      this.port.postMessage(this.buffer, [this.buffer]);
      this.fresh();
    }
  }

  process(inputs) {
    if (this.stopped) return false;
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const channels = input.length;
    const frames = input[0].length;
    for (let i = 0; i < frames; i += 1) {
      let s = 0;
      for (let c = 0; c < channels; c += 1) s += input[c][i];
      this.sum += s / channels;
      this.count += 1;
      this.pos += 1;
      while (this.pos >= this.step) {
        this.pos -= this.step;
        if (this.count) this.last = this.sum / this.count;
        this.sum = 0;
        this.count = 0;
        this.emit(this.last);
      }
    }
    return true;
  }
}

registerProcessor('voicebox-pcm16', Pcm16Chunker);
