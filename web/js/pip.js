// pip.js — the picture-in-picture widget, a small remote for the live
// session in an always-on-top window (Document Picture-in-Picture): the mic
// button (the same session as the page's Live button), Stop for the model's
// reply, the live status, the last few lines said, and a one-line box whose
// words go where the page's composer sends them.

import { el } from './dom.js';

/** setupPip(button, live, {send(text)}) — `live` is what createLive returned. */
export function setupPip(button, live, { send }) {
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
  button.title = 'Open a small always-on-top window: the microphone, Stop, the last lines and a box to type in';

  let win = null;
  const mic = el('button', { type: 'button', id: 'pip-mic', class: ['pip-mic', 'dictate'], 'aria-pressed': 'false' },
    el('span', { class: 'mic', 'aria-hidden': 'true' }),
    el('span', { class: 'pip-mic-label', text: 'Live' }));
  const stop = el('button', { type: 'button', id: 'pip-stop', class: 'ghost', text: 'Stop', hidden: true });
  const status = el('p', { id: 'pip-status', class: 'pip-status', role: 'status' });
  const last = el('p', { id: 'pip-last', class: 'pip-last', 'aria-live': 'polite' });
  const turns = el('ol', { id: 'pip-turns', class: 'pip-turns' });
  const input = el('input', { type: 'text', id: 'pip-input', placeholder: 'Type to Voicebox', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Type to Voicebox' });
  const form = el('form', { class: 'pip-form' }, input, el('button', { type: 'submit', class: 'primary', text: 'Send' }));
  const body = el('div', { class: 'pip' }, el('div', { class: 'pip-controls' }, mic, stop), status, turns, last, form);
  mic.addEventListener('click', () => live.toggle());
  stop.addEventListener('click', () => live.stopReply());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    send(text);
  });

  live.subscribe((view) => {
    const on = view.state === 'connecting' || view.state === 'listening';
    mic.setAttribute('aria-pressed', on ? 'true' : 'false');
    mic.classList.toggle('listening', on);
    mic.lastChild.textContent = on ? 'End' : 'Live';
    stop.hidden = !on;
    status.textContent = view.text;
    last.textContent = view.last;
    turns.replaceChildren(...(view.turns || []).map((line) => el('li', { text: line })));
  });

  async function open() {
    if (win) {
      win.focus();
      return;
    }
    try {
      win = await api.requestWindow({ width: 340, height: 320 });
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
