// pip.js — the picture-in-picture widget: a small always-on-top window
// (Document Picture-in-Picture) with a mic button that toggles the same live
// session as the page's Live button, the live status and the last result.

import { el } from './dom.js';

/** setupPip(button, live) — `live` is what createLive returned. */
export function setupPip(button, live) {
  const api = window.documentPictureInPicture;
  if (!api || typeof api.requestWindow !== 'function') {
    button.disabled = true;
    button.title = 'The widget is not available in this browser (no Document Picture-in-Picture).';
    return;
  }
  if (live.missing) {
    button.disabled = true;
    button.title = live.missing;
    return;
  }
  button.title = 'Open a small always-on-top window with the microphone button';

  let win = null;
  const mic = el('button', { type: 'button', class: ['pip-mic', 'dictate'], 'aria-pressed': 'false' },
    el('span', { class: 'mic', 'aria-hidden': 'true' }),
    el('span', { class: 'pip-mic-label', text: 'Live' }));
  const status = el('p', { id: 'pip-status', class: 'pip-status', role: 'status' });
  const last = el('p', { id: 'pip-last', class: 'pip-last', 'aria-live': 'polite' });
  const body = el('div', { class: 'pip' }, mic, status, last);
  mic.addEventListener('click', () => live.toggle());

  live.subscribe((view) => {
    const on = view.state === 'connecting' || view.state === 'listening';
    mic.setAttribute('aria-pressed', on ? 'true' : 'false');
    mic.classList.toggle('listening', on);
    mic.lastChild.textContent = on ? 'Stop' : 'Live';
    status.textContent = view.text;
    last.textContent = view.last;
  });

  async function open() {
    if (win) {
      win.focus();
      return;
    }
    try {
      win = await api.requestWindow({ width: 320, height: 200 });
    } catch (err) {
      button.title = `The widget could not open: ${err && err.message ? err.message : err}`;
      return;
    }
    const link = win.document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL('style.css', window.location.href).href;
    win.document.head.append(link);
    win.document.title = 'Voicebox';
    win.document.body.classList.add('pip-body');
    win.document.body.append(body);
    button.setAttribute('aria-pressed', 'true');
    win.addEventListener('pagehide', () => {
      win = null;
      button.setAttribute('aria-pressed', 'false');
    });
  }

  button.addEventListener('click', open);
}
