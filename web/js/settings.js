// settings.js — the settings dialog: which live provider the Live button asks
// for (kept in this browser's localStorage), and the provider keys as the
// server reports them (set or not, and the last 4 characters; the page never
// reads a key back). A key typed here is sent once with PUT /api/keys and the
// field is emptied.

import { el, fill } from './dom.js';
import * as api from './api.js';
import { refusalNode, errorNode } from './answer.js';

const STORE = 'voicebox.liveProvider';
const KEY_PROVIDERS = ['gemini', 'openai', 'anthropic'];
/** One name per provider, the same everywhere on the page (the key's wire name stays `anthropic`). */
export const PROVIDER_LABELS = { gemini: 'Gemini', openai: 'OpenAI', anthropic: 'Claude' };

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
 * createSettings({dialog, open, provider, keyList, keyProvider, keyValue, store, remove, note}, {onKeys})
 * Returns {provider(), show(keyFor)}: the chosen live provider ('' for the
 * server's choice), and a way to open the dialog at a provider's key field.
 * `onKeys()` runs after a key is stored or removed.
 */
export function createSettings(parts, { onKeys = () => {} } = {}) {
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
        el('span', { class: 'key-name', text: PROVIDER_LABELS[name] ?? name }),
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
      const label = PROVIDER_LABELS[name] ?? name;
      if (data && data.ok === true) note.textContent = value === null ? `The ${label} key was removed.` : `The ${label} key was stored.`;
      if (data && data.ok === true) onKeys();
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
  /** Opens the dialog; with `keyFor`, at the key field for that provider (or 'live', at live voice). */
  function show(keyFor = null) {
    note.textContent = '';
    load();
    if (!dialog.open) dialog.showModal();
    if (keyFor && KEY_PROVIDERS.includes(keyFor)) {
      keyProvider.value = keyFor;
      keyValue.focus();
      keyValue.scrollIntoView({ block: 'center' });
    } else if (keyFor === 'live' && parts.live) {
      parts.live.fieldset.scrollIntoView({ block: 'start' });
      provider.focus();
    }
  }

  let liveView = null;
  /** What each live provider needs, and the chosen provider's voice and model (from /api/health's `live`). */
  function showLive(live) {
    if (!parts.live || !live) return;
    liveView = live;
    const { setup, voiceRow, voice, model } = parts.live;
    const providers = Array.isArray(live.providers) ? live.providers : [];
    for (const option of provider.options) {
      const p = providers.find((x) => x.name === option.value);
      if (p) option.textContent = p.available ? String(p.label) : `${p.label} — not set up`;
    }
    // What each provider needs in a sentence; the steps (commands) one tap away.
    fill(setup, providers.filter((p) => !p.available).map((p) => el('li', {},
      el('strong', { text: String(p.label) }), ': ', String(p.why ?? 'not available here'),
      p.fix != null ? el('details', { class: 'answer-details' },
        el('summary', { text: `How do I set up ${p.label}?` }),
        el('p', { class: 'mono', text: String(p.fix) })) : null)));
    const offer = (Array.isArray(live.voices) ? live.voices : []).find((o) => o.provider === (chosen || live.default));
    voiceRow.hidden = !offer;
    if (!offer) return;
    fill(voice, offer.voices.map((v) => el('option', { value: String(v), text: String(v) })));
    fill(model, offer.models.map((m) => el('option', { value: String(m), text: String(m) })));
    voice.value = String(offer.voice);
    model.value = String(offer.model);
  }

  async function chooseVoice() {
    const { voice, model, note: liveNote } = parts.live;
    const name = chosen || (liveView && liveView.default);
    try {
      const answer = await api.putSettings({ live: { provider: name, voice: voice.value, model: model.value } });
      if (answer && answer.ok === true) {
        liveNote.textContent = `The next live session uses the voice ${voice.value} and the model ${model.value}.`;
        if (liveView) showLive({ ...liveView, voices: answer.live });
      } else {
        fill(liveNote, refusalNode(answer || {}, 'Not changed'));
      }
    } catch (err) {
      fill(liveNote, errorNode(err, 'The voice could not be changed'));
    }
  }
  if (parts.live) {
    parts.live.voice.addEventListener('change', chooseVoice);
    parts.live.model.addEventListener('change', chooseVoice);
    provider.addEventListener('change', () => { if (liveView) showLive(liveView); });
  }
  open.addEventListener('click', () => show());
  dialog.addEventListener('close', () => { keyValue.value = ''; });

  return { provider: () => chosen, show, showLive };
}
