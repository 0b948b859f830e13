// app.js — the entry point: finds the page's parts, wires the modules together
// and runs a turn: send the sentence, show the answer, ask when the server asks,
// then refresh the files and the audit log.

import { el, fill } from './js/dom.js';
import * as api from './js/api.js';
import { createTranscript, refusalNode, errorNode, showExamples } from './js/transcript.js';
import { createFiles, serverSource } from './js/files.js';
import { createConfirm } from './js/confirm.js';
import { createAudit } from './js/audit.js';
import { setupDictation } from './js/dictation.js';
import { createSettings } from './js/settings.js';
import { setupResolverSetting } from './js/resolver-setting.js';
import { createLive } from './js/live.js';
import { setupPip } from './js/pip.js';

const $ = (id) => document.getElementById(id);

const form = $('composer');
const input = $('utterance');
const send = $('send');
const composerStatus = $('composer-status');

const transcript = createTranscript($('transcript'), $('transcript-empty'));
const confirmer = createConfirm();
const audit = createAudit($('audit'),
  { page: (cursor) => api.audit(cursor), verify: () => api.verifyAudit() });
const files = createFiles({
  list: $('files'),
  crumbs: $('breadcrumb'),
  up: $('files-up'),
  status: $('files-status'),
  viewer: $('viewer'),
  viewerName: $('viewer-name'),
  viewerBody: $('viewer-body'),
  viewerClose: $('viewer-close'),
}, serverSource(api, (request) => confirmer.ask(request)), { onRead: () => audit.refresh(), onChange: () => audit.refresh() });
$('files-refresh').addEventListener('click', () => files.refresh());

function refreshSide() {
  files.refresh();
  audit.refresh();
}

function afterTurn() {
  refreshSide();
  loadHealth();
}

function say(message) {
  composerStatus.textContent = message;
}

/** Puts the server's description of itself in the header. */
async function loadHealth() {
  const rootPath = $('root-path');
  const note = $('health-note');
  let h;
  try {
    h = await api.health();
  } catch (err) {
    rootPath.textContent = 'Server not reachable';
    fill(note, errorNode(err, 'Voicebox is not answering'));
    note.hidden = false;
    return;
  }
  if (h.declared && h.root && h.root.path != null) {
    rootPath.textContent = String(h.root.path);
    rootPath.title = h.root.kind ? `${h.root.kind} folder` : '';
    rootPath.classList.remove('undeclared');
  } else {
    fill(rootPath, 'No folder declared — start with ', el('code', { text: 'voicebox serve --root DIR' }));
    rootPath.classList.add('undeclared');
  }
  const resolver = h.resolver && typeof h.resolver === 'object' ? (h.resolver.name ?? h.resolver.kind) : h.resolver;
  $('resolver').textContent = resolver != null ? String(resolver) : 'unknown';
  $('version').textContent = h.version != null ? `v${String(h.version).replace(/^v/, '')}` : '';
  // `refused` is the count of refusals this server has answered so far.
  if (typeof h.refused === 'number') {
    $('refused-count').textContent = String(h.refused);
    $('refused-fact').hidden = false;
  }
  if (h.ok === false && h.refused != null && typeof h.refused !== 'number') {
    fill(note, refusalNode(h, 'Not ready'));
    note.hidden = false;
  } else {
    note.hidden = true;
  }
}

/** Asks the person, sends exactly one answer, and shows it in place of the pending line. */
async function answerConfirmation(turn, request) {
  const approved = await confirmer.ask(request);
  let reply;
  try {
    reply = await api.confirm(request.id, approved);
  } catch (err) {
    turn.showError(err, 'Your answer could not be sent');
    return;
  }
  const again = turn.showReply(reply);
  if (again) await answerConfirmation(turn, again);
}

let busy = false;

async function runTurn(text) {
  busy = true;
  send.disabled = true;
  form.setAttribute('aria-busy', 'true');
  say('');
  const turn = transcript.add(text);
  try {
    const data = await api.turn(text);
    // The server answered: the sentence is in the transcript now.
    if (data.status === 200 && input.value.trim() === text) input.value = '';
    const request = turn.showTurn(data);
    if (request) {
      audit.refresh();
      await answerConfirmation(turn, request);
    }
  } catch (err) {
    // Nothing typed is lost: the text stays in the input.
    turn.showError(err);
  } finally {
    busy = false;
    send.disabled = false;
    form.removeAttribute('aria-busy');
    afterTurn();
    input.focus();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || busy) return;
  runTurn(text);
});

setupDictation($('dictate'), input, {
  onFinal: () => form.requestSubmit(),
  onError: say,
});

setupResolverSetting({ select: $('settings-resolver'), note: $('resolver-note'), open: $('settings-open') });

const settings = createSettings({
  dialog: $('settings'),
  open: $('settings-open'),
  provider: $('live-provider'),
  keyList: $('key-status'),
  keyProvider: $('key-provider'),
  keyValue: $('key-value'),
  store: $('key-store'),
  remove: $('key-remove'),
  note: $('key-note'),
});

/** One call of a live `tool` frame, shown like a typed turn (a delete asks here). */
function showLiveCall(call) {
  const action = call.action != null ? ` ${JSON.stringify(call.action)}` : '';
  const turn = transcript.add(`${call.name}${action}`, 'live');
  const request = turn.showReply(call.result);
  if (request) answerConfirmation(turn, request).finally(afterTurn);
}

const live = createLive({
  button: $('live'),
  status: $('live-status'),
  transcript,
  provider: settings.provider,
  onCall: showLiveCall,
  onTool: refreshSide,
});
setupPip($('pip'), live);

showExamples($('examples'), input);

// "/" jumps to the composer from anywhere outside a text field.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const t = event.target;
  if (t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
  if (document.querySelector('dialog[open]')) return;
  event.preventDefault();
  input.focus();
});

loadHealth();
refreshSide();
input.focus();
