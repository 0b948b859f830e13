// files.js — the folder panel, one workspace for both pages: it lists the root
// (or a subfolder), makes a new file, and hands a file to the viewer
// (viewer.js: open, edit with a diff first, save, delete, download, pictures).
// Where the answers come from is injected — the server's JSON API on the main
// page, the worker on the environment page — and every act is an action the
// executor contains, decides and audits; this module only renders and relays.
// Names are shown and sent back exactly as they were given.

import { el, clear, fill, formatBytes } from './dom.js';
import { refusalNode, errorNode, pressed } from './answer.js';
import { createViewer, settle } from './viewer.js';

/**
 * The main page's source over its JSON API (`api.js`), for `createFiles`:
 * `ask(request) → Promise<boolean>` is the shared confirmation dialog's.
 */
/** Opens (focusing `input`, the last answer cleared) or closes `form`, which `button` shows. */
function toggler(form, button, answer, input) {
  return (open) => {
    form.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      fill(answer);
      input.focus();
    }
  };
}

export function serverSource(api, ask) {
  return {
    list: (dir) => api.files(dir),
    read: (name) => api.file(name),
    async act(action) {
      const data = await api.act(action);
      return data && data.result != null ? data.result : data;
    },
    answer: (id, approved) => api.confirm(id, approved),
    ask,
    async root() {
      const r = await api.root();
      return r && r.root && r.root.path != null ? String(r.root.path) : null;
    },
  };
}

/**
 * Builds the folder panel and the viewer, the same on both pages, in their
 * sections (`#files-panel`, `#viewer`), and returns their parts for
 * `createFiles`.
 */
export function panelParts() {
  const $ = (id) => document.getElementById(id);
  const parts = {
    list: el('ul', { id: 'files', class: 'files' }),
    crumbs: el('nav', { id: 'breadcrumb', class: 'breadcrumb', 'aria-label': 'Folder' }),
    up: el('button', { id: 'files-up', type: 'button', class: 'ghost', title: 'Up one folder', disabled: true, text: 'Up' }),
    refresh: el('button', { id: 'files-refresh', type: 'button', class: 'ghost', text: 'Refresh' }),
    status: el('div', { id: 'files-status', class: 'files-status', hidden: true }),
    viewer: $('viewer'),
    viewerName: el('span', { id: 'viewer-name', class: ['viewer-name', 'mono'] }),
    viewerBody: el('div', { id: 'viewer-body', class: 'viewer-body' }),
    viewerClose: el('button', { id: 'viewer-close', type: 'button', class: 'ghost', text: 'Close' }),
  };
  $('files-panel').append(
    el('div', { class: 'panel-head' },
      el('h2', { id: 'files-title', text: 'Files' }),
      el('div', { class: 'panel-tools' }, parts.up, parts.refresh)),
    parts.crumbs, parts.status, parts.list);
  parts.viewer.append(
    el('div', { class: 'panel-head' },
      el('h2', { id: 'viewer-title', text: 'Viewer ' }, parts.viewerName),
      el('div', { class: 'panel-tools' }, parts.viewerClose)),
    parts.viewerBody);
  return parts;
}

/** The folder's own name (its last path segment) for the breadcrumb; the full path is its title. */
function folderName(path) {
  const parts = String(path).split(/[/\\]+/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : String(path);
}

/**
 * createFiles(parts, source, hooks) → { refresh, open, show, reset }
 *
 * parts: {list, crumbs, up, refresh, status, viewer, viewerName, viewerBody, viewerClose}
 *   (the panel's elements; the New file button goes beside `up`, its form above `list`).
 * source: {
 *   list(dir) → Promise<reply>            a list reply {ok, files} or a refusal ('' is the root)
 *   read(name) → Promise<reply>           a read reply {ok, content} or a refusal
 *   act(action) → Promise<reply>          the executor's reply to a structured action; may carry `confirm`
 *   answer(id, approved) → Promise<reply> the reply once a confirmation is answered
 *   ask(request) → Promise<boolean>       the shared dialog (confirm.js)
 *   root() → string | null (or a Promise of it)  the root's path, for the breadcrumb
 * }
 * hooks: {onRead(), onChange()} — after an audited read, after an act that changed the folder.
 */
export function createFiles(parts, source, hooks = {}) {
  const { list, crumbs, up, status } = parts;
  const onChange = hooks.onChange || (() => {});
  const viewer = createViewer(parts, source, {
    onRead: hooks.onRead,
    onChange: () => { refresh(); onChange(); },
  });
  let dir = '';
  let rootPath = null;
  let generation = 0;

  const join = (a, b) => (a ? `${a}/${b}` : b);
  const parent = (d) => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '');

  // ---- New file: a name and its content, written with mode "create" (the core asks before replacing).
  const newButton = el('button', { type: 'button', id: 'files-new', class: 'ghost', 'aria-expanded': 'false', text: 'New file' });
  const newName = el('input', { id: 'new-file-name', type: 'text', spellcheck: 'false', autocomplete: 'off', placeholder: 'name, e.g. notes.txt' });
  const newContent = el('textarea', { id: 'new-file-content', class: 'editor', spellcheck: 'false', placeholder: 'content (optional)' });
  newContent.rows = 4;
  const newAnswer = el('div', { id: 'new-file-answer', class: 'viewer-answer', 'aria-live': 'polite' });
  const newForm = el('form', { id: 'new-file', class: 'new-file', autocomplete: 'off', hidden: true },
    el('label', { class: 'field' }, el('span', { text: 'Name' }), newName),
    el('label', { class: 'field' }, el('span', { text: 'Content' }), newContent),
    newAnswer,
    el('div', { class: 'new-file-actions' },
      el('button', { type: 'button', id: 'new-file-cancel', text: 'Cancel' }),
      el('button', { type: 'submit', id: 'new-file-create', class: 'primary', text: 'Create' })));
  up.parentElement.prepend(newButton);
  list.before(newForm);
  const toggleNew = toggler(newForm, newButton, newAnswer, newName);

  // ---- New folder: `mkdir` in the folder shown (an existing one is fine and said so).
  const folderButton = el('button', { type: 'button', id: 'files-new-folder', class: 'ghost', 'aria-expanded': 'false', text: 'New folder' });
  const newFolderName = el('input', { id: 'new-folder-name', type: 'text', spellcheck: 'false', autocomplete: 'off', placeholder: 'folder name' });
  const folderAnswer = el('div', { id: 'new-folder-answer', class: 'viewer-answer', 'aria-live': 'polite' });
  const folderForm = el('form', { id: 'new-folder', class: 'new-file', autocomplete: 'off', hidden: true },
    el('label', { class: 'field' }, el('span', { text: 'Name' }), newFolderName),
    folderAnswer,
    el('div', { class: 'new-file-actions' },
      el('button', { type: 'button', id: 'new-folder-cancel', text: 'Cancel' }),
      el('button', { type: 'submit', id: 'new-folder-make', class: 'primary', text: 'Make' })));
  newButton.after(folderButton);
  list.before(folderForm);
  const toggleFolder = toggler(folderForm, folderButton, folderAnswer, newFolderName);
  folderButton.addEventListener('click', () => toggleFolder(folderForm.hidden));
  folderForm.querySelector('#new-folder-cancel').addEventListener('click', () => toggleFolder(false));
  folderForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = newFolderName.value.trim();
    if (!name) return;
    try {
      const reply = await source.act({ verb: 'mkdir', name: join(dir, name) });
      onChange();
      if (!reply || reply.ok !== true) {
        fill(folderAnswer, refusalNode(reply || {}, 'Not made'));
        return;
      }
      newFolderName.value = '';
      toggleFolder(false);
      await refresh();
    } catch (err) {
      fill(folderAnswer, errorNode(err, 'Not made'));
    }
  });

  newButton.addEventListener('click', () => toggleNew(newForm.hidden));
  newForm.querySelector('#new-file-cancel').addEventListener('click', () => toggleNew(false));
  newForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = newName.value.trim();
    if (!name) {
      newName.focus();
      return;
    }
    const path = join(dir, name);
    // Refused (or the person said No to replacing): what was typed stays in the form.
    await pressed(newForm.querySelector('#new-file-create'), newAnswer, {
      act: async () => {
        const reply = await settle(source, await source.act({ verb: 'write', name: path, content: newContent.value, mode: 'create' }));
        onChange();
        return reply;
      },
      done: async () => {
        newName.value = '';
        newContent.value = '';
        toggleNew(false);
        await refresh();
        viewer.show(path);
      },
      refused: 'Not created',
    });
  });

  // ---- The listing.

  function renderCrumbs() {
    clear(crumbs);
    const segments = dir ? dir.split('/') : [];
    const rootBtn = el('button', {
      type: 'button',
      class: 'crumb crumb-root',
      title: rootPath != null ? rootPath : 'the folder',
      text: rootPath != null ? folderName(rootPath) : 'root',
    });
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
    btn.addEventListener('click', () => (entry.dir ? open(path) : viewer.show(path)));
    return el('li', { class: ['file', entry.dir ? 'is-dir' : 'is-file'], 'data-name': name }, btn);
  }

  function say(node) {
    fill(status, node);
    status.hidden = false;
  }

  async function refresh() {
    const mine = ++generation;
    list.setAttribute('aria-busy', 'true');
    let reply;
    try {
      const path = await source.root();
      if (mine === generation) rootPath = path;
      renderCrumbs();
      reply = await source.list(dir);
    } catch (err) {
      if (mine !== generation) return;
      list.removeAttribute('aria-busy');
      clear(list);
      say(errorNode(err, 'Could not list the folder'));
      return;
    }
    if (mine !== generation) return;
    list.removeAttribute('aria-busy');
    clear(list);
    if (!reply || reply.ok !== true) {
      say(refusalNode(reply || {}, 'Cannot list'));
      return;
    }
    const files = Array.isArray(reply.files) ? reply.files : [];
    if (!files.length) {
      say(dir ? emptyFolderNode() : el('p', { class: 'note', text: 'The folder is empty. Make a file with New file, or ask Voicebox to.' }));
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

  // ---- An empty folder shown can be deleted: a `delete` of the folder, which the core asks about
  // first (and refuses while anything is in it), then back to the folder above.
  function emptyFolderNode() {
    const target = dir;
    const answer = el('div', { id: 'folder-delete-answer', class: 'viewer-answer', 'aria-live': 'polite' });
    const remove = el('button', { type: 'button', id: 'folder-delete', class: 'ghost danger-text', text: 'Delete this folder' });
    remove.addEventListener('click', () => pressed(remove, answer, {
      act: async () => settle(source, await source.act({ verb: 'delete', name: target })),
      done: async () => {
        onChange();
        if (dir === target) await open(parent(target));
      },
      refused: 'Not deleted',
    }));
    return el('div', {}, el('p', { class: 'note', text: 'This folder is empty.' }), remove, answer);
  }

  /** Another root (the environment page opened another project): back to its top, nothing shown. */
  function reset() {
    dir = '';
    viewer.close();
    toggleNew(false);
    return refresh();
  }

  up.addEventListener('click', () => open(parent(dir)));
  parts.refresh.addEventListener('click', () => refresh());

  return { refresh, open, show: (name) => viewer.show(name), reset };
}
