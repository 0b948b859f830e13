// live.js — the Live button: one `/live` WebSocket per session. It waits for
// the server's `rate` frame, streams the microphone at that rate, and shows
// every frame the server sends as it says it (text nodes only). The server
// decides what was heard and what ran; this module only shows it.

import { el } from './dom.js';
import { socketProtocols } from './session.js';
import { refusalNode } from './answer.js';
import { missingAudio, newContext, capture, player, loudness, bargeIn } from './live-audio.js';

const WHO = { person: 'You', model: 'Model' };
/** The providers with no voice of their own: the page speaks their answers. */
const OFFLINE = new Set(['local', 'whisper']);

/** The one line a call's result comes to, for the picture-in-picture widget. */
function resultText(call) {
  const r = call && call.result;
  if (!r || typeof r !== 'object') return `${call.name}: no result`;
  if (r.confirm && typeof r.confirm === 'object') return `Asks first: ${r.confirm.plan ?? call.name}`;
  if (r.ok === true) return String(r.action ?? `${call.name}: done`);
  return `${r.refused ?? 'refused'}: ${r.why ?? ''}`;
}

/**
 * createLive({button, stop, status, transcript, provider, speech, onCall, onTool, setUp})
 * `provider()` is the page's choice ('' lets the server choose); `onCall(call)`
 * shows one call of a `tool` frame; `onTool()` runs after each `tool` frame;
 * `stop` is the Stop button (it stops the model's reply, not the session);
 * `speech` speaks offline voice's answers (see live-speech.js);
 * `setUp()` opens Settings when no provider can start here.
 * Returns {toggle, stopReply, sendText(text), available(providers), subscribe(fn)}:
 * fn gets {state, provider, text, last, turns}.
 */
export function createLive({ button, stop, status, transcript, provider, speech, onCall, onTool, setUp = () => {} }) {
  const { speak, hush } = speech;
  const label = button.querySelector('.live-label');
  const listeners = new Set();
  const view = { state: 'idle', provider: '', text: 'Live voice is off.', last: '', turns: [] };
  let session = null;
  // What the server said can start here (null until it said).
  let unavailable = null;
  // Each provider's name in words, as the server gives it ("Offline (pocketsphinx)").
  const labels = {};
  const named = (name) => labels[name] ?? name;

  /** The last few lines, for the widget. */
  function remember(line) {
    view.turns = [...view.turns, line].slice(-4);
  }

  function update(changes) {
    Object.assign(view, changes);
    status.textContent = view.text;
    status.dataset.state = view.state;
    if (view.provider) status.dataset.provider = view.provider;
    else delete status.dataset.provider;
    const on = view.state === 'connecting' || view.state === 'listening';
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
    button.classList.toggle('listening', on);
    if (label) label.textContent = on ? 'End live' : unavailable ? 'Set up voice…' : 'Live';
    if (!button.disabled) {
      button.title = on ? 'End the live session' : unavailable || 'Talk to Voicebox live (microphone)';
    }
    if (stop) stop.hidden = !on;
    for (const fn of listeners) fn({ ...view });
  }

  const missing = missingAudio();
  if (missing) {
    button.disabled = true;
    button.title = missing;
    update({ state: 'unavailable', text: missing });
    return {
      toggle() {}, stopReply() {}, sendText: () => false, available() {},
      subscribe(fn) { listeners.add(fn); fn({ ...view }); }, missing,
    };
  }

  /** The status while listening, in words: by whom, and whether it is ready yet. */
  function listening(s) {
    const setup = s.ready ? '' : ' (getting ready)';
    const notes = s.notes ? `, with the folder's ${s.notes}` : '';
    const spoken = OFFLINE.has(s.provider) ? `; answers spoken by ${speech.voiceName()}` : '';
    return `Listening${setup} — ${named(s.provider)}${notes}${spoken}${s.goaway}`;
  }

  function finish(s, why) {
    if (s.ended) return;
    s.ended = true;
    if (s.stopCapture) s.stopCapture();
    if (s.player) s.player.flush();
    s.context.close().catch(() => {});
    if (s.ws && s.ws.readyState <= WebSocket.OPEN) s.ws.close(1000);
    if (session === s) session = null;
    update({ state: 'ended', text: `Ended — ${why}` });
  }

  async function startCapture(s, rate) {
    let stop;
    try {
      stop = await capture(s.context, rate, (chunk) => {
        // The page's own voice is not sent: it must never be heard as the person.
        if (speech.speaking()) return;
        if (s.ws.readyState === WebSocket.OPEN) s.ws.send(chunk);
        // Talking over the model stops its reply, as with a person.
        if (s.hear(loudness(chunk), Boolean(s.player && s.player.queued))) stopReply('you spoke');
      });
    } catch (err) {
      const why = err && err.name === 'NotAllowedError'
        ? 'microphone permission was denied'
        : `the microphone could not start: ${err && err.message ? err.message : err}`;
      finish(s, why);
      return;
    }
    if (s.ended) {
      stop();
      return;
    }
    s.stopCapture = stop;
    update({ state: 'listening', text: listening(s) });
  }

  function heard(s, who, text) {
    if (!s.line || s.lineWho !== who) remember(`${WHO[who] ?? who}: ${text}`);
    else view.turns[view.turns.length - 1] += text;
    if (!s.line || s.lineWho !== who) {
      s.lineText = el('span', { class: 'live-text' });
      s.line = transcript.line(['live-said', `live-${who}`],
        el('span', { class: 'live-who', text: WHO[who] ?? who }), s.lineText);
      s.lineWho = who;
    }
    s.lineText.append(document.createTextNode(text));
  }

  function onFrame(s, data) {
    if (s.ended) return;
    if (typeof data !== 'string') {
      if (s.player) s.player.play(data);
      return;
    }
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      transcript.line('live-error', refusalNode({ refused: 'unreadable-frame', why: 'the server sent a frame that is not JSON' }, 'Live voice'));
      return;
    }
    const type = frame && frame.type;
    if (type !== 'transcript') s.line = null;
    switch (type) {
      case 'rate':
        s.provider = String(frame.provider ?? '');
        // How much model speech is queued shows on the status (what Stop empties).
        s.player = player(s.context, Number(frame.outputRate) || 24000, (n) => { status.dataset.queued = String(n); });
        update({ provider: s.provider, text: `Starting the microphone — ${named(s.provider)}…` });
        startCapture(s, Number(frame.inputRate));
        break;
      case 'ready':
        s.ready = true;
        s.dropped = Number(frame.droppedBeforeReady) || 0;
        s.notes = typeof frame.notes === 'string' ? frame.notes : '';
        if (view.state === 'listening') update({ text: listening(s) });
        break;
      case 'transcript':
        heard(s, String(frame.who ?? ''), String(frame.text ?? ''));
        if (frame.who === 'model') update({ last: s.lineText.textContent });
        break;
      case 'tool': {
        const calls = Array.isArray(frame.calls) ? frame.calls : [];
        for (const call of calls) onCall(call);
        if (calls.length) update({ last: resultText(calls[calls.length - 1]) });
        onTool();
        break;
      }
      case 'reply': {
        const text = String(frame.text ?? '');
        transcript.line('live-reply', el('span', { class: 'live-who', text: 'Voicebox' }), el('span', { class: 'live-text', text }));
        update({ last: text });
        speak(text);
        break;
      }
      case 'cancelled':
        transcript.line('live-cancelled', refusalNode({ refused: frame.name ?? frame.id, why: frame.why }, 'Withdrawn'));
        break;
      case 'interrupted':
        if (s.player) s.player.flush();
        hush();
        break;
      case 'stopped': {
        const stands = Array.isArray(frame.stands) ? frame.stands.map(String) : [];
        const words = stands.length
          ? `Stopped the reply. What was already done stands: ${stands.join(', ')} (say undo to revert it).`
          : 'Stopped the reply.';
        transcript.line('live-stopped', el('span', { class: 'live-who', text: 'Voicebox' }), el('span', { class: 'live-text', text: words }));
        remember(words);
        update({ last: words });
        break;
      }
      case 'goaway':
        s.goaway = '; the connection will close soon';
        if (view.state === 'listening') update({ text: listening(s) });
        break;
      case 'error':
        transcript.line('live-error', refusalNode(frame, 'Live voice refused'));
        update({ last: `${frame.refused}: ${frame.why}` });
        break;
      case 'end':
        // The reason's name is for the record; the person reads why.
        status.dataset.reason = String(frame.reason ?? '');
        finish(s, String(frame.why ?? frame.reason));
        break;
      default:
        break;
    }
  }

  function start() {
    const chosen = provider();
    const s = {
      ws: null, context: newContext(), stopCapture: null, player: null, ended: false,
      provider: chosen, ready: false, dropped: 0, goaway: '', line: null, lineWho: '', lineText: null,
      hear: bargeIn(),
    };
    session = s;
    delete status.dataset.reason;
    update({ state: 'connecting', provider: chosen, text: chosen ? `Connecting — ${named(chosen)}…` : 'Connecting…' });
    const url = new URL('/live', window.location.href);
    url.protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    if (chosen) url.searchParams.set('provider', chosen);
    try {
      s.ws = new WebSocket(url, socketProtocols());
    } catch (err) {
      finish(s, `the live socket could not open: ${err && err.message ? err.message : err}`);
      return;
    }
    s.ws.binaryType = 'arraybuffer';
    s.ws.addEventListener('message', (event) => onFrame(s, event.data));
    s.ws.addEventListener('close', (event) => {
      const words = event.reason ? `: ${event.reason}` : '';
      finish(s, `the live connection closed before the server said why (code ${event.code}${words})`);
    });
  }

  function toggle() {
    if (session) {
      hush();
      finish(session, 'you ended the session');
    } else if (unavailable && !provider()) {
      setUp();
    } else {
      start();
    }
  }

  /** Stops the model's reply at once (the microphone keeps listening) and tells the server. */
  function stopReply(why = 'you pressed Stop') {
    const s = session;
    if (!s) return;
    if (s.player) s.player.flush();
    hush();
    if (s.ws && s.ws.readyState === WebSocket.OPEN) s.ws.send(JSON.stringify({ type: 'interrupt' }));
    update({ last: `Stopped (${why})` });
  }

  /** Sends typed words into the live session; false when there is none to take them. */
  function sendText(text) {
    const s = session;
    if (!s || !s.ready || !s.ws || s.ws.readyState !== WebSocket.OPEN) return false;
    if (s.player) s.player.flush();
    hush();
    s.ws.send(JSON.stringify({ type: 'text', text }));
    s.line = null;
    transcript.line(['live-said', 'live-person', 'live-typed'],
      el('span', { class: 'live-who', text: 'You typed' }), el('span', { class: 'live-text', text }));
    remember(`You: ${text}`);
    update({});
    return true;
  }

  /**
   * What the server says can start here (`health.live.providers`): with
   * none, the button reads "Set up voice…" and opens Settings instead of
   * failing; the reason is said once, in words.
   */
  function available(providers) {
    if (!Array.isArray(providers)) return;
    for (const p of providers) if (p && p.name != null && p.label != null) labels[String(p.name)] = String(p.label);
    const any = providers.some((p) => p.available === true);
    unavailable = any ? null : 'No live voice can start here yet: add a Gemini or OpenAI key, or install offline voice (Settings says how).';
    if (!session && view.state !== 'ended') update({ text: unavailable ? 'Live voice is not set up yet.' : 'Live voice is off.' });
    else update({});
  }

  button.addEventListener('click', toggle);
  if (stop) stop.addEventListener('click', () => stopReply());
  update({});
  return {
    toggle,
    stopReply,
    sendText,
    available,
    listening: () => Boolean(session && session.ready),
    subscribe(fn) {
      listeners.add(fn);
      fn({ ...view });
    },
    missing: '',
  };
}
