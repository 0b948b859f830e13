// folders.js — the folder switcher: the folder Voicebox works in now, the
// folders used lately, and a path to type. Choosing one only asks the
// server; the server answers with a question (the shared confirmation
// dialog), and only the person's yes there switches — the server declares
// the folder, audits the choice in it and keeps it in the recent list.

import { el, fill } from './dom.js';
import * as api from './api.js';
import { refusalNode, errorNode } from './answer.js';

const name = (path) => String(path).split(/[/\\]+/).filter(Boolean).pop() ?? String(path);

/**
 * createFolders({dialog, open, current, recent, path, use, note}, {answer, onSwitched})
 * `answer(request)` is the shared dialog's ('yes' | 'no' | 'expired');
 * `onSwitched(reply)` runs once a folder is the root. Returns { show() }.
 */
export function createFolders(parts, { answer, onSwitched }) {
  const { dialog, open, current, recent, path, use, note } = parts;

  async function load() {
    note.textContent = '';
    let root;
    try {
      root = await api.root();
    } catch (err) {
      fill(note, errorNode(err, 'Could not read the folder'));
      return;
    }
    const here = root && root.root ? root.root : null;
    fill(current, here
      ? ['Working in ', el('strong', { text: name(here.path) }), ' ', el('span', { class: 'mono', text: String(here.path) })]
      : 'No folder is chosen yet: type one below, or pick one you used before.');
    const folders = Array.isArray(root && root.recent) ? root.recent.map(String) : [];
    fill(recent, folders.map((folder) => {
      const pick = el('button', { type: 'button', class: 'ghost', title: folder },
        el('strong', { text: name(folder) }), ' ', el('span', { class: 'mono', text: folder }));
      pick.addEventListener('click', () => {
        path.value = folder;
        choose();
      });
      return el('li', {}, pick);
    }));
  }

  async function choose() {
    const wanted = path.value.trim();
    if (!wanted) {
      note.textContent = 'Type a folder first, like ~/notes.';
      path.focus();
      return;
    }
    use.disabled = true;
    note.textContent = '';
    try {
      let reply = await api.chooseFolder(wanted);
      if (reply && reply.confirm) {
        // One question at a time: the switcher steps aside while it is asked.
        dialog.close();
        const said = await answer(reply.confirm);
        if (said === 'expired') {
          reopen();
          note.textContent = 'The question timed out and nothing changed; choose the folder again.';
          return;
        }
        reply = await api.confirm(reply.confirm.id, said === 'yes');
      }
      if (reply && reply.ok === true) {
        dialog.close();
        onSwitched(reply);
      } else {
        reopen();
        fill(note, refusalNode(reply || {}, 'Not switched'));
      }
    } catch (err) {
      fill(note, errorNode(err, 'The folder could not be chosen'));
    } finally {
      use.disabled = false;
    }
  }

  use.addEventListener('click', choose);
  path.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      choose();
    }
  });
  function show() {
    load();
    if (!dialog.open) dialog.showModal();
    path.focus();
  }
  /** Back after a No or a refusal: the typed folder kept, the note set after. */
  function reopen() {
    if (!dialog.open) dialog.showModal();
    path.focus();
  }
  open.addEventListener('click', show);
  return { show };
}
