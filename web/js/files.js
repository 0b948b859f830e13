// files.js — the folder panel: lists the declared root (or a subfolder) as the
// server reports it, and shows a file's content in the viewer. Names are shown
// and sent back exactly as the server gave them.

import { el, clear, fill, formatBytes } from './dom.js';
import * as api from './api.js';
import { refusalNode, errorNode } from './transcript.js';

/**
 * createFiles({list, crumbs, up, status, viewer, viewerName, viewerBody, viewerClose}, onRead)
 * `onRead` is called after a file was read (the read is audited).
 */
export function createFiles(parts, onRead = () => {}) {
  const { list, crumbs, up, status, viewer, viewerName, viewerBody, viewerClose } = parts;
  let dir = '';
  let generation = 0;

  const join = (a, b) => (a ? `${a}/${b}` : b);
  const parent = (d) => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '');

  function renderCrumbs() {
    clear(crumbs);
    const segments = dir ? dir.split('/') : [];
    const rootBtn = el('button', { type: 'button', class: 'crumb', text: 'root' });
    rootBtn.addEventListener('click', () => open(''));
    crumbs.append(rootBtn);
    segments.forEach((seg, i) => {
      const target = segments.slice(0, i + 1).join('/');
      crumbs.append(el('span', { class: 'crumb-sep', 'aria-hidden': 'true', text: '/' }));
      if (i === segments.length - 1) {
        crumbs.append(el('span', { class: 'crumb current', 'aria-current': 'location', text: seg }));
      } else {
        const b = el('button', { type: 'button', class: 'crumb', text: seg });
        b.addEventListener('click', () => open(target));
        crumbs.append(b);
      }
    });
    up.disabled = dir === '';
  }

  function entryNode(entry) {
    const name = String(entry.name);
    const btn = el('button', {
      type: 'button',
      class: 'file-button',
      title: entry.dir ? `Open folder ${name}` : `Show ${name}`,
    },
    el('span', { class: ['file-icon', entry.dir ? 'icon-dir' : 'icon-file'], 'aria-hidden': 'true' }),
    el('span', { class: 'file-name', text: name }),
    el('span', { class: 'file-size', text: entry.dir ? 'folder' : formatBytes(entry.bytes) }));
    const path = join(dir, name);
    btn.addEventListener('click', () => (entry.dir ? open(path) : show(path)));
    return el('li', { class: ['file', entry.dir ? 'is-dir' : 'is-file'], 'data-name': name }, btn);
  }

  async function refresh() {
    const mine = ++generation;
    renderCrumbs();
    list.setAttribute('aria-busy', 'true');
    let reply;
    try {
      reply = await api.files(dir);
    } catch (err) {
      if (mine !== generation) return;
      list.removeAttribute('aria-busy');
      clear(list);
      fill(status, errorNode(err, 'Could not list the folder'));
      status.hidden = false;
      return;
    }
    if (mine !== generation) return;
    list.removeAttribute('aria-busy');
    clear(list);
    if (!reply || reply.ok !== true) {
      fill(status, refusalNode(reply || {}, 'Cannot list'));
      status.hidden = false;
      return;
    }
    const files = Array.isArray(reply.files) ? reply.files : [];
    if (!files.length) {
      fill(status, el('p', { class: 'note', text: dir ? 'This folder is empty.' : 'The folder is empty. Ask Voicebox to create a file.' }));
      status.hidden = false;
    } else {
      clear(status);
      status.hidden = true;
    }
    for (const entry of files) list.append(entryNode(entry));
  }

  function open(target) {
    dir = target;
    return refresh();
  }

  async function show(name) {
    viewer.classList.add('has-file');
    viewerName.textContent = name;
    fill(viewerBody, el('p', { class: 'note', text: 'Reading…' }));
    let reply;
    try {
      reply = await api.file(name);
    } catch (err) {
      fill(viewerBody, errorNode(err, 'Could not read the file'));
      return;
    }
    if (viewerName.textContent !== name) return; // another file was chosen meanwhile
    if (!reply || reply.ok !== true) {
      fill(viewerBody, refusalNode(reply || {}, 'Cannot read'));
    } else if (typeof reply.content === 'string' && reply.content !== '') {
      fill(viewerBody, el('pre', { class: 'content', text: reply.content }));
    } else {
      fill(viewerBody, el('p', { class: 'note', text: '(empty file)' }));
    }
    onRead();
  }

  up.addEventListener('click', () => open(parent(dir)));
  function closeViewer() {
    viewer.classList.remove('has-file');
    viewerName.textContent = '';
    fill(viewerBody, el('p', { class: 'note', text: 'Choose a file to see what is in it.' }));
  }
  viewerClose.addEventListener('click', closeViewer);
  closeViewer();

  return { refresh, open, show };
}
