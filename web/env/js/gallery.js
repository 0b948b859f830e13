// gallery.js — the project's assets/ folder. The listing is the core's answer to
// an `execute` of {"verb":"list","dir":"assets"}, and each file's text the core's
// answer to an `execute` of {"verb":"read","name":"assets/<name>"}: both contained
// and audited by the executor, as any turn. An SVG is shown only through
// <img src="blob:…"> (a Blob typed image/svg+xml: an image cannot run script); text
// and HTML are shown as text in a <pre>. Names are text nodes.

import { el, fill } from '../../js/dom.js';
import { errorNode, refusalNode } from '../../js/answer.js';

const MAX_TEXT = 64 * 1024;

/** Display choice only: a name ending in .svg is drawn as an image, anything else as text. */
function looksLikeSvg(name) {
  return String(name).toLowerCase().endsWith('.svg');
}

export function createGallery({ root, refreshButton }, request) {
  let urls = [];
  let generation = 0;

  function forget() {
    for (const url of urls) URL.revokeObjectURL(url);
    urls = [];
  }

  function picture(name, text, made) {
    if (looksLikeSvg(name)) {
      const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
      made.push(url);
      const img = document.createElement('img');
      img.className = 'asset-image';
      img.alt = String(name);
      img.decoding = 'async';
      img.src = url;
      return el('div', { class: 'asset-frame' }, img);
    }
    return el('pre', { class: 'asset-text', text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n…` : text });
  }

  async function figure(entry, made) {
    const caption = el('figcaption', { text: String(entry.name) });
    let body;
    try {
      const answer = await request({ op: 'execute', action: { verb: 'read', name: `assets/${entry.name}` }, turn: 'gallery' });
      const result = answer && Object.prototype.hasOwnProperty.call(answer, 'result') ? answer.result : answer;
      body = result && result.ok === true
        ? picture(entry.name, String(result.content), made)
        : refusalNode(result || {}, 'Not shown');
    } catch (err) {
      body = errorNode(err, 'Not shown');
    }
    return el('figure', { class: 'asset' }, body, caption);
  }

  async function refresh() {
    const mine = ++generation;
    refreshButton.disabled = true;
    let answer;
    try {
      answer = await request({ op: 'execute', action: { verb: 'list', dir: 'assets' }, turn: 'gallery' });
    } catch (err) {
      if (mine === generation) fill(root, errorNode(err, 'Could not list the assets'));
      refreshButton.disabled = false;
      return;
    }
    if (mine !== generation) return;
    const result = answer && Object.prototype.hasOwnProperty.call(answer, 'result') ? answer.result : answer;
    if (!result || result.ok !== true) {
      refreshButton.disabled = false;
      forget();
      // The core's own answer, as given (e.g. no assets folder yet, or no project open).
      fill(root, el('p', { class: ['note', 'gallery-refusal'] }, 'No assets to show — ',
        result && result.refused != null ? el('code', { class: 'rule', text: String(result.refused) }) : null,
        result && result.why != null ? String(result.why) : ''));
      return;
    }
    const files = (Array.isArray(result.files) ? result.files : []).filter((f) => !f.dir);
    const figures = [];
    const made = [];
    for (const f of files) figures.push(await figure(f, made));
    if (mine !== generation) {
      for (const url of made) URL.revokeObjectURL(url);
      return;
    }
    forget();
    urls = made;
    refreshButton.disabled = false;
    fill(root, figures.length ? figures : el('p', { class: 'note', text: 'No assets yet.' }));
  }

  refreshButton.addEventListener('click', refresh);
  return { refresh, clear: () => { forget(); fill(root); } };
}
