// settings.js — the settings dialog: which live provider the Live button asks
// for (kept in this browser's localStorage), and the provider keys as the
// server reports them (set or not, and the last 4 characters; the page never
// reads a key back). A key typed here is sent once with PUT /api/keys and the
// field is emptied.

import { el, fill } from './dom.js';
import * as api from './api.js';
import { refusalNode, errorNode } from './transcript.js';

const STORE = 'voicebox.liveProvider';
const KEY_PROVIDERS = ['gemini', 'openai', 'anthropic'];

function stored() {
  try {
    return window.localStorage.getItem(STORE) ?? '';
  } catch {
    return '';
  }
}

function keep(value) {
  try {
    if (value) window.localStorage.setItem(STORE, value);
    else window.localStorage.removeItem(STORE);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

/**
 * createSettings({dialog, open, provider, keyList, keyProvider, keyValue, store, remove, note})
 * Returns {provider()}: the chosen live provider, '' for the server's choice.
 */
export function createSettings(parts) {
  const { dialog, open, provider, keyList, keyProvider, keyValue, store, remove, note } = parts;
  let chosen = stored();
  provider.value = chosen;
  if (provider.value !== chosen) { // a value this page no longer offers
    chosen = '';
    provider.value = '';
  }
  provider.addEventListener('change', () => {
    chosen = provider.value;
    keep(chosen);
  });

  function showKeys(data) {
    if (!data || data.ok !== true || !data.keys || typeof data.keys !== 'object') {
      fill(keyList, el('li', {}, refusalNode(data || {}, 'Key status unavailable')));
      return;
    }
    const names = [...new Set([...KEY_PROVIDERS, ...Object.keys(data.keys)])];
    fill(keyList, names.map((name) => {
      const status = data.keys[name] || {};
      const text = status.set
        ? (status.last4 != null ? `set — ends in ${status.last4}` : 'set')
        : 'not set';
      return el('li', { class: ['key', status.set ? 'key-set' : 'key-unset'], 'data-provider': name },
        el('code', { class: 'key-name', text: name }),
        el('span', { class: 'key-state', text }));
    }));
  }

  async function load() {
    fill(keyList, el('li', { class: 'note', text: 'Reading the key status…' }));
    try {
      showKeys(await api.keys());
    } catch (err) {
      fill(keyList, el('li', {}, errorNode(err, 'Could not read the key status')));
    }
  }

  async function change(value) {
    const name = keyProvider.value;
    store.disabled = true;
    remove.disabled = true;
    note.textContent = '';
    try {
      const data = await api.putKeys({ [name]: value });
      showKeys(data);
      if (data && data.ok === true) note.textContent = value === null ? `The ${name} key was removed.` : `The ${name} key was stored.`;
    } catch (err) {
      fill(note, errorNode(err, 'The key could not be changed'));
    } finally {
      store.disabled = false;
      remove.disabled = false;
    }
  }

  store.addEventListener('click', () => {
    const value = keyValue.value.trim();
    keyValue.value = ''; // the key stays in the page no longer than it takes to send it
    if (!value) {
      note.textContent = 'Type a key first (Remove deletes a stored one).';
      return;
    }
    change(value);
  });
  keyValue.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      store.click();
    }
  });
  remove.addEventListener('click', () => {
    keyValue.value = '';
    change(null);
  });
  open.addEventListener('click', () => {
    note.textContent = '';
    load();
    dialog.showModal();
  });
  dialog.addEventListener('close', () => { keyValue.value = ''; });

  return { provider: () => chosen };
}
