// env.js — the environment page: wires the parts together and passes messages to
// the worker (worker.js), which runs the Voicebox core. The page renders answers;
// the core decides. Nothing here checks a name, a path or a result.

import { el, fill } from '../js/dom.js';
import { createClient } from './js/client.js';
import { claimInstance } from './js/identity.js';
import { createTranscript, refusalNode, errorNode } from './js/transcript.js';
import { createConfirm } from '../js/confirm.js';
import { createGallery } from './js/gallery.js';
import { createAudit } from './js/audit.js';
import { showProject, showProjects } from './js/project.js';
import { createChannel } from './js/channel.js';

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

/** Sends one request to the worker; resolves with the core's (or the glue's) answer. */
async function request(req) {
  await identity;
  const message = { ...req };
  if (message.op === 'open' && message.instance == null) message.instance = instance;
  const reply = await client.send(message);
  if (message.op === 'open' && reply.answer && reply.answer.ok === true && reply.answer.project) {
    opened(reply.answer.project, reply.registry);
  }
  return reply.answer;
}

// ---------------------------------------------------------------------------
// The parts.

const transcript = createTranscript($('transcript'), $('transcript-empty'));
const confirmer = createConfirm($('confirm-dialog'));
const gallery = createGallery({ root: $('gallery'), refreshButton: $('gallery-refresh') }, request);
const audit = createAudit({ body: $('audit-body'), files: $('audit-files'), refreshButton: $('audit-refresh') }, request);
// Acts the server relays run through the same worker queue as this page's own.
const channel = createChannel({ box: $('server-root'), button: $('server-root-use'), status: $('server-root-status') },
  request, () => refreshSide());

function refreshSide() {
  gallery.refresh();
  audit.refresh();
}

function remember(name) {
  for (const store of [sessionStorage, localStorage]) {
    try { store.setItem(LAST_PROJECT, name); } catch { /* storage unavailable: nothing to remember */ }
  }
}

function recalled() {
  for (const store of [sessionStorage, localStorage]) {
    try {
      const name = store.getItem(LAST_PROJECT);
      if (name) return name;
    } catch { /* unavailable */ }
  }
  return null;
}

function opened(record, registry) {
  current = record;
  showProject(record);
  remember(String(record.name));
  channel.opened(String(record.name));
  $('project-name').value = String(record.name);
  const status = $('project-status');
  fill(status, 'Opened ', el('code', { text: String(record.id) }), '.');
  if (registry && registry.ok === false) {
    status.append(' ', el('span', { class: 'warn', text: `(not saved to this browser’s project list: ${registry.error.name}: ${registry.error.message})` }));
  }
  refreshSide();
  loadProjects();
}

async function loadProjects() {
  try {
    const answer = await request({ op: 'projects' });
    showProjects($('project-list'), answer && Array.isArray(answer.projects) ? answer.projects : [],
      current ? current.name : null, (name) => openProject(name));
  } catch (err) {
    fill($('project-list'), el('li', {}, errorNode(err, 'Could not list the projects')));
  }
}

async function openProject(name) {
  const status = $('project-status');
  fill(status, 'Opening…');
  try {
    const answer = await request({ op: 'open', project: { name, kind: 'opfs' } });
    if (!answer || answer.ok !== true) fill(status, refusalNode(answer || {}, 'Not opened'));
  } catch (err) {
    fill(status, errorNode(err, 'The project could not be opened'));
  }
}

// ---------------------------------------------------------------------------
// Turns: one at a time, in the order they were asked.

let turns = Promise.resolve();

// Verbs that only look: after them the gallery cannot have changed, so it is not re-listed
// (each listing is itself an audited read). A display choice; the core decides what happened.
const LOOKS_ONLY = new Set(['read', 'list', 'diff', 'grep', 'list_extensions']);

function queueTurn(said, req) {
  const turn = transcript.add(said);
  turns = turns.then(() => runTurn(turn, req));
  return turns;
}

async function runTurn(turn, req) {
  let relist = true;
  try {
    const answer = await request(req);
    const action = answer && answer.action ? answer.action : req.action;
    const result = answer && Object.prototype.hasOwnProperty.call(answer, 'result') ? answer.result : answer;
    relist = !!(result && (result.ok === true || result.confirm)) && !(action && LOOKS_ONLY.has(action.verb));
    let ask = turn.showTurn(answer);
    while (ask) {
      audit.refresh(); // the ask is already an entry
      const approved = await confirmer.ask(ask);
      const reply = await request({ op: 'confirm', id: ask.id, approved });
      ask = turn.showReply(reply && Object.prototype.hasOwnProperty.call(reply, 'result') ? reply.result : reply);
    }
  } catch (err) {
    turn.showError(err, 'The worker could not answer');
  } finally {
    if (relist) gallery.refresh();
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
  if (name) openProject(name);
});

$('project-persist').addEventListener('click', async () => {
  const button = $('project-persist');
  button.disabled = true;
  try {
    const granted = await navigator.storage.persist();
    // Re-open so the core records what the browser now says.
    if (current) await openProject(String(current.name));
    if (!granted) $('project-status').append(' ', el('span', { class: 'note', text: 'The browser declined to keep it.' }));
  } finally {
    button.disabled = false;
  }
});

for (const button of document.querySelectorAll('.example')) {
  button.addEventListener('click', () => {
    $('utterance').value = button.textContent;
    $('utterance').focus();
  });
}

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
