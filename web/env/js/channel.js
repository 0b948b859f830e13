// channel.js — lending the open project to `voicebox serve`. When this page is served
// by Voicebox, "Use this project as the server's folder" declares the project as the
// server's active root (POST /api/root {kind: "opfs", project}, or {kind: "handle", label}
// for a picked folder) and keeps /channel open:
// every act the server relays is handed to the worker as it came, and the worker's answer
// goes back as it came. Glue only: nothing here reads, checks or judges a request or an
// answer — the server resolved the words, the core in the worker decides and audits.
// In a static export there is no server, so this does nothing. The page's session
// (session.js) goes with each request and socket.

import { sessionHeaders, socketProtocols } from '../../js/session.js';

/**
 * Whether `voicebox serve` serves this page, asked without any request that can
 * fail: a HEAD of the page itself (there on any static server too) and the
 * server's own Content-Security-Policy, which lets the worker compile
 * WebAssembly and forbids framing. An exported copy on a plain static server
 * sends no such policy, so it never asks for /api/health — a request that is not
 * there would be a failed load in the console.
 */
async function servedByVoicebox() {
  try {
    const response = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
    const csp = response.headers.get('content-security-policy') || '';
    return csp.includes("'wasm-unsafe-eval'") && csp.includes("frame-ancestors 'none'");
  } catch {
    return false;
  }
}

/** The server's health if a Voicebox server serves this page, else null. */
async function health() {
  if (!(await servedByVoicebox())) return null;
  try {
    const response = await fetch('/api/health', { headers: sessionHeaders(), credentials: 'omit', cache: 'no-store' });
    const body = response.ok ? await response.json() : null;
    return body && body.ok === true ? body : null;
  } catch {
    return null;
  }
}

/** How the server names the open project's root (`root` in POST /api/root's answer). */
function rootOf(open) {
  return open.kind === 'handle'
    ? { kind: 'handle', path: open.label, declare: { kind: 'handle', label: open.label } }
    : { kind: 'opfs', path: `v1/projects/${open.name}`, declare: { kind: 'opfs', project: open.name } };
}

/**
 * `parts`: {box, button, status}; `request(req)` sends one request to the worker and
 * resolves with its answer; `onAct()` is called after each relayed act (to refresh views).
 */
export function createChannel({ box, button, status }, request, onAct) {
  let project = null; // the project open in this page: {name, kind, label}
  let lent = null;    // the project this page executes for the server
  let socket = null;
  const served = health();

  function say(state, text) {
    box.dataset.state = state;
    status.textContent = text;
  }

  function relay(frame) {
    request(frame.request).then(
      (answer) => ({ type: 'result', id: frame.id, answer }),
      (err) => ({ type: 'failed', id: frame.id, why: `${err.name}: ${err.message}` }),
    ).then((reply) => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
      onAct();
    });
  }

  function connect(name) {
    if (socket) socket.close();
    lent = name;
    const url = new URL('/channel', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url, socketProtocols());
    socket = ws;
    ws.addEventListener('open', () => say('connected', `The server acts in ${name}, through this tab. Keep it open.`));
    ws.addEventListener('message', ({ data }) => {
      let frame;
      try { frame = JSON.parse(data); } catch { return; }
      if (frame.type === 'act') relay(frame);
      else if (frame.type === 'end') say('ended', `Another page now acts for the server (${frame.reason}).`);
      else if (frame.type === 'error') say('connected', `The server refused a frame: ${frame.refused}: ${frame.why}`);
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      if (box.dataset.state !== 'ended') say('closed', 'Not connected: the server answers no-page until this page is used again.');
    });
  }

  async function use() {
    if (!project) return;
    button.disabled = true;
    try {
      const response = await fetch('/api/root', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...sessionHeaders() },
        credentials: 'omit',
        body: JSON.stringify(rootOf(project).declare),
      });
      const answer = await response.json();
      if (answer.ok === true) connect(project.name);
      else say('refused', `Not declared: ${answer.refused}: ${answer.why}`);
    } catch (err) {
      say('refused', `The server could not be asked: ${err.message}`);
    } finally {
      button.disabled = false;
    }
  }

  button.addEventListener('click', use);

  served.then((h) => {
    box.hidden = false;
    button.hidden = !h;
    if (h) say('idle', 'The server acts in its own folder.');
    else say('static', 'No Voicebox server serves this page; nothing else is needed — everything runs here.');
  });

  return {
    /** The page opened a project ({name, kind, label}); a page that was already the server's folder reconnects. */
    async opened(open) {
      project = open;
      const name = open.name;
      const h = await served;
      if (!h) return;
      if (lent && lent !== name && socket) {
        const ws = socket;
        socket = null; // closed on purpose: the close handler leaves this message
        ws.close();
        say('closed', `This tab opened ${name}; the server's folder is still ${lent}, with no page acting for it.`);
        lent = null;
      }
      const root = h.root;
      const mine = rootOf(open);
      if (!socket && root && root.kind === mine.kind && root.path === mine.path) connect(name);
    },
  };
}
