// session.js — the page's session, the authority the server gives this page.
// Opening the address `voicebox serve` printed (`/?token=…`) redirects here with
// the session in the address's fragment, which a browser never sends to a server.
// This module, evaluated before any module that imports it, moves it into this
// origin's localStorage and out of the address bar and the history.
//
// localStorage, not a cookie: a browser sends a cookie for 127.0.0.1 to every
// port of it, while storage belongs to one origin (scheme, host and port), so no
// other local server's page can read or replace it. localStorage, not
// sessionStorage: a second tab of the page (typed, bookmarked, opened from a link)
// shares it and is signed in too; the value dies with the server's start anyway.
//
// Every API call sends it as the x-voicebox-session header, every WebSocket as a
// subprotocol beside `voicebox` (a browser cannot set a socket's headers).

const KEY = 'voicebox.session';
const FRAGMENT = /^#session=([0-9a-f]+)$/;
const SOCKET_PROTOCOL = 'voicebox';

let kept = null; // when storage is unavailable: the session for this page only

function adopt() {
  const found = FRAGMENT.exec(location.hash);
  if (!found) return;
  kept = found[1];
  try { localStorage.setItem(KEY, kept); } catch { /* storage unavailable: this page keeps it */ }
  history.replaceState(history.state, '', location.pathname + location.search);
}
adopt();

/** This page's session, or null when the printed address was never opened here. */
export function session() {
  try {
    return localStorage.getItem(KEY) ?? kept;
  } catch {
    return kept;
  }
}

/** The headers that carry the session on an API call (none without one). */
export function sessionHeaders() {
  const s = session();
  return s ? { 'x-voicebox-session': s } : {};
}

/** The subprotocols a WebSocket offers: the one the server answers, and the session. */
export function socketProtocols() {
  const s = session();
  return s ? [SOCKET_PROTOCOL, `${SOCKET_PROTOCOL}.session.${s}`] : [SOCKET_PROTOCOL];
}
