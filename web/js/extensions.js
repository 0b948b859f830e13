// extensions.js — the extensions panel: every proposal and how it stands
// (waiting for you, admitted, refused by the gate with its problems in
// words). Admitting needs the person at the host: Admit asks the server to
// print a code on its console (never in a response), and the code typed
// here admits the plan it was printed for. Revoke stops an admitted one at
// once; Remove takes away a proposal never admitted. The server decides and
// audits each; this only shows and relays.

import { el, fill } from './dom.js';
import * as api from './api.js';
import { refusalNode, errorNode, prose, pressed } from './answer.js';

const STATES = {
  admitted: 'Admitted',
  pending: 'Waiting for you',
  refused: 'Refused by the gate',
  'present-not-admitted': 'Found, not admitted',
};

/** createExtensions(section, {onChange}) → { refresh() } */
export function createExtensions(section, { onChange = () => {} } = {}) {
  const refreshButton = el('button', { id: 'extensions-refresh', type: 'button', class: 'ghost', text: 'Refresh' });
  const list = el('ul', { id: 'extensions-list', class: 'extensions-list' });
  const note = el('div', { id: 'extensions-note', class: 'audit-notes', role: 'status' });
  section.append(
    el('div', { class: 'panel-head' },
      el('h2', { id: 'extensions-title', text: 'Extensions' }),
      el('div', { class: 'panel-tools' }, refreshButton)),
    el('p', { class: 'panel-note', text: 'Tools someone proposed for Voicebox. Nothing runs until you admit it with the code the server prints on its console.' }),
    note,
    list);

  // A refresh draws the list anew: an admit form the person opened, what
  // they typed in it and where the focus was are kept across it.
  const opened = new Map();

  async function act(run, done) {
    note.replaceChildren();
    try {
      const reply = await run();
      if (reply && reply.ok === true) {
        fill(note, el('p', { class: 'note' }, prose(String(reply.action ?? done))));
        onChange();
      } else {
        fill(note, refusalNode(reply || {}, 'Not done'));
      }
    } catch (err) {
      fill(note, errorNode(err, 'The server did not answer'));
    }
    refresh();
  }

  /** The Admit button and, once the server printed a code, the field to type it. */
  function admitTools(x) {
    const code = el('input', { type: 'text', id: `admit-code-${x.id}`, placeholder: 'code from the console', autocomplete: 'off', spellcheck: 'false', 'aria-label': `Console code for ${x.id}` });
    const confirm = el('button', { type: 'button', class: 'primary', text: 'Admit' });
    const form = el('div', { class: 'admit-form', hidden: true },
      el('span', { class: 'note', text: 'Type the code printed on the server’s console:' }), code, confirm);
    const start = el('button', { type: 'button', class: 'primary admit', text: 'Admit…' });
    start.addEventListener('click', () => pressed(start, note, {
      act: () => api.approvalRequest(x.id),
      done: () => {
        // A new code is printed: the field starts empty for it. A refresh
        // may have drawn the list anew while the server answered, so the
        // field to open is the one on the page now, not this one.
        opened.set(x.id, '');
        const field = code.isConnected ? code : document.getElementById(code.id);
        if (field) {
          field.value = '';
          field.closest('.admit-form').hidden = false;
          field.focus();
        }
      },
      refused: 'No code was printed',
      failed: 'The server did not answer',
    }));
    if (opened.has(x.id)) {
      code.value = opened.get(x.id);
      form.hidden = false;
    }
    code.addEventListener('input', () => opened.set(x.id, code.value));
    const send = () => act(() => api.approve(x.id, code.value.trim()), `admitted ${x.id}`);
    confirm.addEventListener('click', send);
    code.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        send();
      }
    });
    return [start, form];
  }

  function item(x) {
    const state = String(x.state ?? '');
    const tools = el('div', { class: 'extension-tools' });
    if (state === 'pending') tools.append(...admitTools(x));
    if (state === 'admitted') {
      const revoke = el('button', { type: 'button', class: 'danger', text: 'Revoke' });
      revoke.addEventListener('click', () => act(() => api.extensionAct('revoke', x.id), `revoked ${x.id}`));
      tools.append(revoke);
    } else if (state !== 'present-not-admitted') {
      const remove = el('button', { type: 'button', class: 'ghost', text: 'Remove' });
      remove.addEventListener('click', () => act(() => api.extensionAct('withdraw', x.id), `removed ${x.id}`));
      tools.append(remove);
    }
    const problems = Array.isArray(x.problems) ? x.problems : [];
    return el('li', { class: ['extension', `state-${state}`], 'data-id': String(x.id) },
      el('div', { class: 'extension-head' },
        el('code', { class: 'extension-id', text: String(x.id) }),
        el('span', { class: ['extension-state', `state-${state}`], text: STATES[state] ?? state })),
      x.description ? el('p', { class: 'extension-desc', text: String(x.description) }) : null,
      problems.length ? el('ul', { class: 'extension-problems' }, problems.map((p) => el('li', {}, prose(String(p))))) : null,
      tools);
  }

  async function refresh() {
    let data;
    try {
      data = await api.extensions();
    } catch (err) {
      fill(list, el('li', {}, errorNode(err, 'Could not list the extensions')));
      return;
    }
    if (!data || data.ok !== true || !Array.isArray(data.extensions)) {
      fill(list, el('li', {}, refusalNode(data || {}, 'No extensions')));
      return;
    }
    const pending = new Set(data.extensions.filter((x) => x.state === 'pending').map((x) => x.id));
    for (const id of opened.keys()) if (!pending.has(id)) opened.delete(id);
    const focused = list.contains(document.activeElement) ? document.activeElement.id : '';
    fill(list, data.extensions.length
      ? data.extensions.map(item)
      : el('li', { class: 'note', text: 'No extension has been proposed.' }));
    if (focused) document.getElementById(focused)?.focus();
  }

  refreshButton.addEventListener('click', refresh);
  return { refresh };
}
