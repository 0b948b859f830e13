// env.js — the environment page: wires the parts together and passes messages to
// the worker (worker.js), which runs the Voicebox core. The page renders answers;
// the core decides. Nothing here checks a name, a path or a result.

import { el, fill, download } from '../js/dom.js';
import { createClient } from './js/client.js';
import { claimInstance } from './js/identity.js';
import { createTranscript } from './js/transcript.js';
import { transcriptPane } from '../js/transcript.js';
import { refusalNode, errorNode } from '../js/answer.js';
import { createConfirm } from '../js/confirm.js';
import { createGallery } from './js/gallery.js';
import { createAudit } from '../js/audit.js';
import { showProject, showProjects } from './js/project.js';
import { createChannel } from './js/channel.js';
import { createFiles, panelParts } from '../js/files.js';
import { keepForOffline } from '../js/offline.js';

const $ = (id) => document.getElementById(id);
const LAST_PROJECT = 'voicebox.env.project';

const client = createClient(new URL('./worker.js', import.meta.url));

// ---------------------------------------------------------------------------
// Identity, then requests. `instance` is this tab's writer name.

let instance = null;
const identity = claimInstance().then((claimed) => {
  instance = claimed.instance;
  $('instance').textContent = instance;
  $('instance').title = {
    claimed: 'This tab’s writer name, held with a Web Lock',
    suffixed: 'Another live tab holds this lineage’s name, so this tab writes under a suffixed one',
    nonce: 'Web Locks are missing here, so the name carries a random suffix',
  }[claimed.how] || '';
  return claimed;
});

let current = null; // the record of the open project, as the core returned it
let currentHandle = null; // a picked folder's handle, for asking the person for access
let known = []; // the registry's project names, so a picked folder takes a free one

/** Sends one request to the worker; resolves with the core's (or the glue's) answer. */
async function request(req) {
  await identity;
  const message = { ...req };
  if (message.op === 'open' && message.instance == null) message.instance = instance;
  const reply = await client.send(message);
  if (message.op === 'open' && reply.answer && reply.answer.ok === true && reply.answer.project) {
    currentHandle = reply.handle || null;
    opened(reply.answer, reply.registry);
  }
  return reply.answer;
}

// ---------------------------------------------------------------------------
// The parts.

const pane = transcriptPane($('transcript-pane'), $('utterance'));
const transcript = createTranscript(pane, {
  storeKey: 'voicebox.env.transcript.v1',
  hooks: {
    read: async (name) => resultOf(await request({ op: 'execute', action: { verb: 'read', name }, turn: 'files' })),
    showLogged: (seq) => { if (!audit.highlight(seq)) audit.refresh().then(() => audit.highlight(seq)); },
  },
});
$('transcript-clear').addEventListener('click', () => transcript.clear());
$('transcript-export').addEventListener('click', () => download('voicebox-conversation.json', transcript.exported(), 'application/json'));
// Enter sends; Shift+Enter is a new line (and an IME's Enter composes).
$('utterance').addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  $('composer').requestSubmit();
});
const confirmer = createConfirm();
/** The result inside an `execute` answer (the core's reply to the action), or the answer itself. */
const resultOf = (answer) => (answer && Object.prototype.hasOwnProperty.call(answer, 'result') ? answer.result : answer);

/**
 * The files panel's source: the worker. Every act is an `execute` of an action
 * (turn "files"), so the core contains, decides and audits it as any turn.
 */
const filesSource = {
  list: async (dir) => resultOf(await request({ op: 'execute', action: dir ? { verb: 'list', dir } : { verb: 'list' }, turn: 'files' })),
  read: async (name) => resultOf(await request({ op: 'execute', action: { verb: 'read', name }, turn: 'files' })),
  act: async (action) => resultOf(await request({ op: 'execute', action, turn: 'files' })),
  answer: async (id, approved) => resultOf(await request({ op: 'confirm', id, approved })),
  ask: (req) => confirmer.ask(req),
  root: () => (current && current.root ? String(current.root.path ?? current.root.label ?? '') : null),
};
const files = createFiles(panelParts(), filesSource, { onRead: () => audit.refresh(), onChange: () => { gallery.refresh(); audit.refresh(); } });
const gallery = createGallery({ root: $('gallery'), refreshButton: $('gallery-refresh') }, request);
const audit = createAudit($('audit'),
  {
    page: (cursor) => request(cursor === undefined ? { op: 'audit' } : { op: 'audit', cursor }),
    verify: () => request({ op: 'verifyAudit' }),
  }, { listFiles: true });
// Acts the server relays run through the same worker queue as this page's own.
const channel = createChannel({ box: $('server-root'), button: $('server-root-use'), status: $('server-root-status') },
  request, () => refreshSide());

function refreshSide() {
  files.refresh();
  gallery.refresh();
  audit.refresh();
}

/** What `open` needs to find a project again: its name, and a picked folder's id and label. */
function specOf(record) {
  const location = record && record.location;
  if (location && location.kind === 'handle') {
    return { name: String(record.name), kind: 'handle', id: String(location.id), label: String(location.label) };
  }
  return { name: String(record.name), kind: 'opfs' };
}

function remember(spec) {
  for (const store of [sessionStorage, localStorage]) {
    try { store.setItem(LAST_PROJECT, JSON.stringify(spec)); } catch { /* storage unavailable: nothing to remember */ }
  }
}

function recalled() {
  for (const store of [sessionStorage, localStorage]) {
    try {
      const saved = store.getItem(LAST_PROJECT);
      if (!saved) continue;
      try {
        const spec = JSON.parse(saved);
        if (spec && typeof spec === 'object' && spec.name) return spec;
      } catch { /* an older page remembered the bare name */ }
      return { name: saved, kind: 'opfs' };
    } catch { /* unavailable */ }
  }
  return null;
}

function opened(answer, registry) {
  const record = answer.project;
  current = record;
  showProject(record, answer.access, answer.audit);
  remember(specOf(record));
  channel.opened(specOf(record));
  $('project-name').value = '';
  $('project-more').open = false;
  const status = $('project-status');
  fill(status, 'Opened ', el('strong', { text: String(record.name) }), '.');
  if (registry && registry.ok === false) {
    status.append(' ', el('span', { class: 'warn', text: `(not saved to this browser’s project list: ${registry.error.name}: ${registry.error.message})` }));
  }
  files.reset();
  gallery.refresh();
  audit.refresh();
  loadProjects();
}

async function loadProjects() {
  try {
    const answer = await request({ op: 'projects' });
    const projects = answer && Array.isArray(answer.projects) ? answer.projects : [];
    known = projects.map((p) => String(p.name));
    showProjects($('project-switch'), $('project-list'), projects, current ? current.name : null,
      (p) => openProject(p.record ? specOf({ ...p.record, name: p.name }) : { name: p.name, kind: 'opfs' }),
      (p) => forgetFolder(p.name));
  } catch (err) {
    fill($('project-list'), el('li', {}, errorNode(err, 'Could not list the projects')));
  }
}

/** Forgets a picked folder here; if it was open, no project is open afterwards. */
async function forgetFolder(name) {
  const status = $('project-status');
  const answer = await request({ op: 'forget', name }).catch((err) => ({ ok: false, error: err }));
  if (!answer || answer.ok !== true) {
    fill(status, errorNode(answer && answer.error ? answer.error : {}, 'Not forgotten'));
    return;
  }
  fill(status, 'Forgot ', el('code', { text: String(answer.forgotten) }), '; its folder and files are untouched.');
  if (current && current.name === answer.forgotten) {
    current = null;
    currentHandle = null;
    for (const store of [sessionStorage, localStorage]) {
      try { store.removeItem(LAST_PROJECT); } catch { /* unavailable */ }
    }
    showProject(null);
    files.reset();
    gallery.refresh();
    audit.refresh();
  }
  loadProjects();
}

async function openProject(spec) {
  const status = $('project-status');
  fill(status, 'Opening…');
  try {
    const answer = await request({ op: 'open', project: spec });
    if (!answer || answer.ok !== true) fill(status, refusalNode(answer || {}, 'Not opened'));
  } catch (err) {
    fill(status, errorNode(err, 'The project could not be opened'));
  }
}

// ---------------------------------------------------------------------------
// Turns: one at a time, in the order they were asked.

let turns = Promise.resolve();

function queueTurn(said, req) {
  const turn = transcript.add(said);
  turns = turns.then(() => runTurn(turn, req));
  return turns;
}

async function runTurn(turn, req) {
  let relist = true;
  try {
    const answer = await request(req);
    // The core says whether the turn changes files (done, or once confirmed); after a turn
    // that does not, the gallery is not re-listed (each listing is itself an audited read).
    relist = !!(answer && answer.changes === true);
    let ask = turn.showTurn(answer);
    while (ask) {
      audit.refresh(); // the ask is already an entry
      const approved = await confirmer.ask(ask);
      // A guess at the person's words that was not what they meant: their
      // sentence goes back into the box to say again (nothing typed is lost).
      const box = $('utterance');
      if (!approved && ask.rephrase && req.transcript && !box.value.trim()) box.value = req.transcript;
      const reply = await request({ op: 'confirm', id: ask.id, approved });
      ask = turn.showReply(resultOf(reply));
    }
  } catch (err) {
    turn.showError(err, 'The worker could not answer');
  } finally {
    if (relist) {
      gallery.refresh();
      files.refresh();
    }
    audit.refresh();
  }
}

$('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('utterance');
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  queueTurn({ text }, { op: 'execute', transcript: text }).then(() => {
    // After a confirmation the focus is back on Send (or nowhere): return it to the composer.
    if (document.activeElement === document.body || document.activeElement === $('send')) input.focus();
  });
  input.focus();
});

$('asset-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const action = {
    verb: 'create_asset',
    name: $('asset-name').value,
    kind: $('asset-kind').value,
    body: $('asset-body').value,
  };
  queueTurn({ action }, { op: 'execute', action });
});

$('project-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = $('project-name').value.trim();
  if (name) openProject({ name, kind: 'opfs' });
});

// ---------------------------------------------------------------------------
// Picked folders: the person picks (or drops) a folder; the worker keeps its
// handle under an id and the core opens it like any root. Asking for access
// needs the person's click, so that happens here, never in the worker.

/** A free project name from a label: a display convenience; the core checks names. */
function nameFor(label) {
  const base = label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'folder';
  let name = base;
  for (let n = 2; known.includes(name); n += 1) name = `${base}-${n}`;
  return name;
}

async function adoptFolder(handle) {
  const status = $('project-status');
  const label = $('pick-label').value.trim() || handle.name;
  const name = nameFor(label);
  try {
    const kept = await request({ op: 'adopt', handle, label, name });
    if (!kept || kept.ok !== true) {
      fill(status, errorNode(kept && kept.error ? kept.error : {}, 'The folder could not be kept'));
      return;
    }
    $('pick-label').value = '';
    // A folder picked before comes back as the project it already is.
    await openProject({ name: String(kept.name || name), kind: 'handle', id: kept.id, label: String(kept.label || label) });
  } catch (err) {
    fill(status, errorNode(err, 'The folder could not be kept'));
  }
}

if (typeof window.showDirectoryPicker !== 'function') {
  $('pick-folder').hidden = true;
  $('drop-hint').textContent = 'drop a folder on this bar to use it';
  // Where a drop cannot happen either (a touch screen), the label has nothing to label: env.css hides it.
  $('pick-form').classList.add('drop-only');
}

$('pick-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  let handle;
  try {
    handle = await window.showDirectoryPicker({ id: 'voicebox', mode: 'readwrite' });
  } catch (err) {
    if (err.name !== 'AbortError') fill($('project-status'), errorNode(err, 'No folder was picked'));
    return;
  }
  await adoptFolder(handle);
});

const projectsBar = document.querySelector('.projects');
projectsBar.addEventListener('dragover', (event) => {
  if (![...event.dataTransfer.items].some((item) => item.kind === 'file')) return;
  event.preventDefault();
  projectsBar.classList.add('dropping');
});
projectsBar.addEventListener('dragleave', () => projectsBar.classList.remove('dropping'));
projectsBar.addEventListener('drop', async (event) => {
  const item = [...event.dataTransfer.items].find((i) => i.kind === 'file');
  if (!item) return;
  event.preventDefault();
  projectsBar.classList.remove('dropping');
  if (typeof item.getAsFileSystemHandle !== 'function') {
    fill($('project-status'), errorNode({ name: 'NotSupportedError', message: 'this browser cannot keep a dropped folder' }, 'Not used'));
    return;
  }
  const handle = await item.getAsFileSystemHandle();
  if (!handle || handle.kind !== 'directory') {
    fill($('project-status'), errorNode({ name: 'TypeMismatchError', message: 'drop a folder, not a file' }, 'Not used'));
    return;
  }
  await adoptFolder(handle);
});

$('project-allow').addEventListener('click', async () => {
  if (!current || !currentHandle) return;
  const spec = specOf(current);
  let state;
  try {
    state = await currentHandle.requestPermission({ mode: 'readwrite' });
  } catch (err) {
    fill($('project-status'), errorNode(err, 'The browser did not ask'));
    return;
  }
  // Re-open so the core asks again and the audit moves to where it may now go.
  await openProject(spec);
  if (state !== 'granted') {
    $('project-status').append(' ', el('span', { class: 'warn', text: `The browser answered “${state}”.` }));
  }
});

$('project-persist').addEventListener('click', async () => {
  const button = $('project-persist');
  button.disabled = true;
  try {
    const granted = await navigator.storage.persist();
    // Re-open so the core records what the browser now says.
    if (current) await openProject(specOf(current));
    if (!granted) $('project-status').append(' ', el('span', { class: 'note', text: 'The browser declined to keep it.' }));
  } finally {
    button.disabled = false;
  }
});


// Once loaded, the page (the core and its workers too) opens with no server.
keepForOffline();

// ---------------------------------------------------------------------------
// Start: claim the writer name, list the projects, re-open the last one (no
// gesture needed: the worker re-resolves it from navigator.storage.getDirectory()).

const ready = (async () => {
  await identity;
  await loadProjects();
  const last = recalled();
  if (last) await openProject(last);
  else showProject(null);
})();

window.voicebox = Object.freeze({
  request,
  ready,
  get instance() { return instance; },
});
