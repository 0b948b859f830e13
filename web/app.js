// app.js — the entry point: finds the page's parts, wires the modules together
// and runs a turn: send the sentence, show the answer, ask when the server asks,
// then refresh the files and the activity log. It decides nothing: every
// answer, refusal and question is the server's.

import { el, fill, download } from './js/dom.js';
import * as api from './js/api.js';
import { createTranscript, actionWords, transcriptPane } from './js/transcript.js';
import { refusalNode, errorNode } from './js/answer.js';
import { createFiles, serverSource, panelParts } from './js/files.js';
import { createConfirm } from './js/confirm.js';
import { createAudit } from './js/audit.js';
import { setupDictation } from './js/dictation.js';
import { createSettings } from './js/settings.js';
import { setupResolverSetting } from './js/resolver-setting.js';
import { createLive } from './js/live.js';
import { createSpeech } from './js/live-speech.js';
import { setupPip } from './js/pip.js';
import { setupViews } from './js/views.js';
import { createFolders } from './js/folders.js';
import { createExtensions } from './js/extensions.js';
import { createChanges } from './js/changes.js';
import { setupTheme } from './js/theme.js';
import { keepForOffline } from './js/offline.js';

const $ = (id) => document.getElementById(id);

setupTheme($('theme'));

const form = $('composer');
const input = $('utterance');
const send = $('send');
const composerStatus = $('composer-status');
const PLACEHOLDER = input.placeholder;

const views = setupViews($('views'));
const confirmer = createConfirm();
const audit = createAudit($('audit'),
  { page: (cursor) => api.audit(cursor), verify: () => api.verifyAudit() });
const extensions = createExtensions($('extensions'), { onChange: () => audit.refresh() });
const changes = createChanges($('changes'), $('branch'), $('changes-tab'), { act: (action) => api.act(action) });

const pane = transcriptPane($('transcript-pane'), input);
const transcript = createTranscript(pane, {
  storeKey: 'voicebox.transcript.v1',
  hooks: {
    undo: () => runTurn({ label: 'Undo', action: { verb: 'undo' } }),
    again: (turn) => runTurn(turn.input ?? { text: turn.li.querySelector('.said').textContent }),
    read: (name) => api.file(name),
    input,
    openSettings: () => settings.show(),
    showLogged: (seq) => {
      views.show('activity');
      if (!audit.highlight(seq)) audit.refresh().then(() => audit.highlight(seq));
    },
  },
});

const files = createFiles(panelParts(), serverSource(api, (request) => confirmer.ask(request)), { onRead: () => audit.refresh(), onChange: () => audit.refresh() });

function refreshSide() {
  files.refresh();
  changes.refresh().then(() => audit.refresh());
}

function afterTurn() {
  refreshSide();
  loadHealth();
}

function say(message) {
  composerStatus.textContent = message;
}

const folderName = (path) => String(path).split(/[/\\]+/).filter(Boolean).pop() ?? String(path);

let reconnect = 0;
let reconnectTimer = null;

/** Puts the server's description of itself in the header: the folder, who understands, the version. */
async function loadHealth() {
  const chip = $('folder-open');
  const rootName = $('root-name');
  const note = $('health-note');
  let h;
  try {
    h = await api.health();
  } catch (err) {
    // The folder is still the folder; only a page that never heard from the server says so here.
    if (rootName.textContent === '…') rootName.textContent = 'Not connected';
    fill(note, errorNode(err, 'Lost the connection to Voicebox — trying again…'));
    note.hidden = false;
    // One banner, and it clears itself: ask again, waiting longer each time.
    reconnect = Math.min(reconnect * 2 || 1000, 15000);
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(() => { loadHealth().then((back) => { if (back) refreshSide(); }); }, reconnect);
    return null;
  }
  reconnect = 0;
  note.hidden = true;
  const declared = Boolean(h.declared && h.root && h.root.path != null);
  chip.classList.toggle('undeclared', !declared);
  rootName.textContent = declared ? folderName(h.root.path) : 'Choose a folder';
  chip.title = declared ? `${String(h.root.path)} — click to choose another folder` : 'Choose the folder Voicebox works in';
  input.disabled = !declared;
  send.disabled = !declared || busy;
  input.placeholder = declared ? PLACEHOLDER : 'Choose a folder first (the Folder button above)';
  // Live acts in the folder too: it waits for one, saying why.
  if (!live.missing) {
    $('live').disabled = !declared;
    if (!declared) $('live').title = 'Choose a folder first (the Folder button above)';
  }
  const resolvers = Array.isArray(h.resolvers) ? h.resolvers : [];
  const current = resolvers.find((r) => r.name === h.resolver);
  $('resolver').textContent = current ? (current.ready ? current.label : `${current.label} — needs a key`) : String(h.resolver ?? 'unknown');
  $('resolver-chip').classList.toggle('needs-setup', Boolean(current && !current.ready));
  $('version').textContent = h.version != null ? `Voicebox v${String(h.version).replace(/^v/, '')}` : '';
  resolverSetting.show(h);
  if (h.live) {
    live.available(h.live.providers);
    settings.showLive(h.live);
  }
  return h;
}

/**
 * Asks the person, sends exactly one answer, and shows it in place of the
 * pending line. A question that times out is not answered: the card says so
 * and offers to ask again.
 */
async function answerConfirmation(turn, request) {
  const answer = await confirmer.answer(request);
  // Answered by voice: the spoken answer's own call shows what it did.
  if (answer === 'spoken') return;
  // A guess at the person's words that was not what they meant: their
  // sentence goes back into the box to say again (nothing typed is lost).
  if (answer !== 'yes' && request.rephrase && turn.input?.text && !input.value.trim()) {
    input.value = turn.input.text;
  }
  if (answer === 'expired') {
    turn.showTimedOut(request);
    return;
  }
  // The same words heard again asked a newer question: that one is answered.
  if (answer === 'superseded') {
    turn.showSuperseded();
    return;
  }
  let reply;
  try {
    reply = await api.confirm(request.id, answer === 'yes');
  } catch (err) {
    turn.showError(err, 'Your answer could not be sent');
    return;
  }
  const again = turn.showReply(reply);
  if (again) await answerConfirmation(turn, again);
}

let busy = false;

/** One turn: `{text}` (the words) or `{label, action}` (an action the page sends, e.g. Undo). */
async function runTurn(turnInput) {
  busy = true;
  send.disabled = true;
  form.setAttribute('aria-busy', 'true');
  say('');
  const text = turnInput.text;
  const turn = transcript.add(text ?? turnInput.label ?? actionWords(turnInput.action));
  turn.input = turnInput;
  try {
    const data = text != null ? await api.turn(text) : await api.act(turnInput.action);
    // The server answered: the sentence is in the transcript now.
    if (text != null && data.status === 200 && input.value.trim() === text) input.value = '';
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
    send.disabled = input.disabled;
    form.removeAttribute('aria-busy');
    afterTurn();
    if (text != null) input.focus();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  if (live.sendText(text)) {
    input.value = '';
    return;
  }
  if (busy) return;
  runTurn({ text });
});

// Enter sends; Shift+Enter is a new line (and an IME's Enter composes).
input.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  form.requestSubmit();
});

setupDictation($('dictate'), input, {
  onFinal: () => form.requestSubmit(),
  onError: say,
});

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
  live: {
    fieldset: $('live-settings'),
    setup: $('live-setup'),
    voiceRow: $('live-voice-row'),
    voice: $('live-voice'),
    model: $('live-model'),
    note: $('live-note'),
  },
}, { onKeys: loadHealth });
const resolverSetting = setupResolverSetting(
  { select: $('settings-resolver'), note: $('resolver-note') },
  { openKey: (key) => settings.show(key), onChange: loadHealth },
);
$('resolver-chip').addEventListener('click', () => settings.show());

createFolders({
  dialog: $('folders'),
  open: $('folder-open'),
  current: $('folders-current'),
  recent: $('folders-recent'),
  path: $('folders-path'),
  use: $('folders-use'),
  note: $('folders-note'),
}, {
  answer: (request) => confirmer.answer(request),
  onSwitched: (reply) => {
    const said = reply.words ?? reply.action;
    transcript.note('folder-switched', el('span', { class: 'live-text', text: String(said ?? 'Switched folders.') }));
    files.reset?.();
    changes.reset();
    refreshSide();
    extensions.refresh();
    // The request box opens once the server says a folder is chosen.
    loadHealth().then(() => input.focus());
  },
});

/** One call of a live `tool` frame, shown like a typed turn (a delete asks here). */
function showLiveCall(call) {
  // A spoken answer that settled a question closes it (the server says which).
  if (call.answers && call.answers.settled === true) confirmer.settle(String(call.answers.id));
  const said = call.action != null ? actionWords(call.action) : String(call.name);
  const turn = transcript.add(said, 'live');
  const request = turn.showReply(call.result);
  if (request) answerConfirmation(turn, request).finally(afterTurn);
}

const live = createLive({
  button: $('live'),
  stop: $('live-stop'),
  status: $('live-status'),
  transcript,
  provider: settings.provider,
  speech: createSpeech({ toggle: $('live-speak'), note: $('live-speak-note') }),
  onCall: showLiveCall,
  onTool: refreshSide,
  setUp: () => settings.show('live'),
});

/** Typed words go into the live session while one listens, else they are a turn. */
function sendWords(text) {
  if (live.sendText(text)) return true;
  if (busy) return false;
  runTurn({ text });
  return true;
}
setupPip($('pip'), live, { send: sendWords });

// The conversation's own tools: Export, Clear, Settings.
const menu = $('transcript-menu');
const tools = $('transcript-tools');
function toggleTools(open = tools.hidden) {
  tools.hidden = !open;
  menu.setAttribute('aria-expanded', String(open));
}
menu.addEventListener('click', () => toggleTools());
tools.addEventListener('click', () => toggleTools(false));
document.addEventListener('click', (event) => {
  if (!tools.hidden && !tools.contains(event.target) && event.target !== menu) toggleTools(false);
});
$('transcript-clear').addEventListener('click', () => transcript.clear());
$('transcript-export').addEventListener('click', () => download('voicebox-conversation.json', transcript.exported(), 'application/json'));

// What Voicebox can do comes from the phrasings the resolver and the
// offline grammar share; the page's own list stays when they cannot be had.
const help = $('help');
let helpFilled = false;
async function showHelp() {
  help.showModal();
  if (helpFilled) return;
  try {
    const { help: lines } = await api.help();
    fill($('help-list'), lines.map((line) => el('li', { 'data-verb': line.verb },
      el('strong', { text: line.does }), ' — ', line.says.map((said) => `“${said}”`).join(', '))));
    helpFilled = true;
  } catch {
    // The list written in the page is shown instead.
  }
}
$('help-open').addEventListener('click', showHelp);

// Keys outside a text field: "/" goes to the request box, "m" speaks a
// request, "?" shows what Voicebox can do and its shortcuts.
document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const t = event.target;
  if (t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
  if (document.querySelector('dialog[open]')) return;
  if (event.key === '/') {
    event.preventDefault();
    views.show('chat');
    input.focus();
  } else if (event.key === 'm') {
    event.preventDefault();
    const mic = $('dictate');
    if (!mic.disabled) mic.click();
  } else if (event.key === '?') {
    event.preventDefault();
    showHelp();
  }
});

// Installable: the service worker keeps the page's shell for when the
// server cannot be reached (never the API).
keepForOffline();

loadHealth().then((h) => {
  if (h && !h.declared) $('folder-open').click();
});
refreshSide();
extensions.refresh();
input.focus();
