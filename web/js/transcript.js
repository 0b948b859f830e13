// transcript.js — the conversation: one <li class="turn"> per request, showing
// what was said and exactly what was answered (done, refused, not understood,
// or waiting for a confirmation). The answer blocks are shared with the
// environment page's transcript (web/env/js/transcript.js). Every value is text.

import { el, fill, formatBytes } from './dom.js';
import { pictureType, pictureOf } from './picture.js';

/** What the empty transcript offers to try, the same on both pages. */
const EXAMPLES = [
  'create a file called hello.txt with hi',
  "what's in hello.txt",
  'list the files',
  'delete hello.txt',
  'undo',
];

/** Fills `list` with the examples; a click puts one in `input`, ready to send. */
function showExamples(list, input) {
  fill(list, ...EXAMPLES.map((text) => {
    const button = el('button', { type: 'button', class: 'example', text });
    button.addEventListener('click', () => {
      input.value = text;
      input.focus();
    });
    return el('li', {}, button);
  }));
}

/**
 * Builds the conversation's pane in `pane`, the same on both pages: the
 * scroller with the empty state (the page's own words, the paragraphs `pane`
 * holds, then the examples, which a click puts in `input`) and the
 * transcript, and the Latest button. Returns their parts.
 */
export function transcriptPane(pane, input) {
  const parts = {
    list: el('ol', { id: 'transcript', class: 'transcript', 'aria-label': 'Transcript' }),
    latest: el('button', { id: 'latest', type: 'button', class: 'latest', hidden: true, text: '↓ Latest' }),
  };
  const examples = el('ul', { id: 'examples', class: 'examples' });
  showExamples(examples, input);
  parts.empty = el('div', { id: 'transcript-empty', class: 'empty' },
    ...pane.children,
    el('p', { class: 'examples-label', text: 'Try one:' }),
    examples);
  parts.scroller = el('div', { id: 'transcript-scroll', class: 'transcript-scroll', role: 'log', 'aria-label': 'Conversation' },
    parts.empty, parts.list);
  pane.append(parts.scroller, parts.latest);
  return parts;
}

/** The core's sentence with its `code` spans as code (as text nodes, never markup). */
export function prose(text) {
  return String(text).split('`').map((part, i) => (i % 2 === 1 ? el('code', { text: part }) : part));
}

/**
 * What an answer carries for the curious, one tap away behind "Details":
 * `rows` of [label, value or node], the empty ones left out.
 */
export function detailsNode(rows) {
  const shown = rows.filter(([, value]) => value != null && value !== '');
  if (!shown.length) return null;
  return el('details', { class: 'answer-details' },
    el('summary', { text: 'Details' }),
    el('dl', {}, shown.map(([label, value]) => el('div', {},
      el('dt', { text: label }),
      el('dd', {}, value)))));
}

/**
 * A refusal block: the core's sentence (what to do), with the rule id in its
 * details. The person's own No is an answer, shown as a neutral line; a file
 * that is not there is information (with the close names the core offers),
 * not a refusal; no folder chosen yet is where a first run starts.
 */
export function refusalNode(reply, lead = 'Refused') {
  const rule = reply && reply.refused != null ? String(reply.refused) : '';
  const why = reply && reply.why != null ? String(reply.why) : 'No reason was given.';
  const details = () => detailsNode([['Rule', rule ? el('code', { class: 'rule', text: rule }) : null]]);
  if (rule === 'declined') {
    return el('div', { class: 'declined', role: 'status', 'data-rule': rule }, el('p', { class: 'why' }, prose(why)));
  }
  if (rule === 'root-not-declared') {
    return el('div', { class: 'no-folder', role: 'status', 'data-rule': rule },
      el('p', { class: 'why', text: 'No folder is chosen yet. Choose one with the Folder button at the top.' }),
      details());
  }
  if (rule === 'not-found') {
    return el('div', { class: 'not-found', role: 'status', 'data-rule': rule },
      el('p', { class: 'not-found-head', text: 'Not found' }),
      el('p', { class: 'why' }, prose(why)),
      details());
  }
  return el('div', { class: 'refused', role: 'status', 'data-rule': rule || null },
    el('p', { class: 'refused-head' }, el('span', { class: 'refused-label', text: lead })),
    el('p', { class: 'why' }, prose(why)),
    details());
}

/**
 * A failure that is not an answer: the network or HTTP (an `ApiError`, whose
 * `kind` says which and whose message explains), or the platform (a named
 * DOMException from the worker or the page, shown with its name).
 */
export function errorNode(err, lead) {
  if (!lead) lead = err && err.kind === 'network' ? 'Could not reach Voicebox' : 'The server failed';
  const named = err && err.name && err.kind === undefined && err.name !== 'Error' ? `${err.name}: ` : '';
  const message = err && err.message ? `${named}${err.message}` : String(err);
  return el('div', { class: 'error', role: 'alert' },
    el('p', { class: 'error-head', text: lead }),
    el('p', { class: 'error-text', text: message }));
}

/**
 * A press that asks for something and shows the answer under it: `button`
 * is disabled until the answer is in, so one press is one request. `act`
 * returns the reply (or nothing, when there is no longer anything to show it
 * on); an ok reply goes to `done`, any other is shown in `note` as a refusal
 * under `refused`, and a failure under `failed`.
 */
export async function pressed(button, note, { act, done, refused, failed = refused }) {
  button.disabled = true;
  try {
    const reply = await act();
    if (reply === undefined) return;
    if (reply && reply.ok === true) await done(reply);
    else fill(note, refusalNode(reply || {}, refused));
  } catch (err) {
    fill(note, errorNode(err, failed));
  } finally {
    button.disabled = false;
  }
}

function diffNode(diff) {
  // It may scroll sideways: focusable, so a keyboard can scroll it too.
  const pre = el('pre', { class: 'diff', tabindex: '0', 'aria-label': 'Changes' });
  const lines = String(diff).split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    let cls = 'diff-ctx';
    if (line.startsWith('+++') || line.startsWith('---')) cls = 'diff-meta';
    else if (line.startsWith('@@')) cls = 'diff-hunk';
    else if (line.startsWith('+')) cls = 'diff-add';
    else if (line.startsWith('-')) cls = 'diff-del';
    // Each line is a block-level span (see style.css), so copying keeps the line breaks.
    pre.append(el('span', { class: ['diff-line', cls], text: line }));
  }
  return pre;
}

function matchesNode(matches) {
  if (!matches.length) return el('p', { class: 'note', text: 'No matches.' });
  return el('ul', { class: 'matches' },
    matches.map((m) => el('li', {},
      el('code', { class: 'match-loc', text: `${m.file}:${m.line}` }),
      el('span', { class: 'match-text', text: m.text }))));
}

function listingNode(files) {
  if (!files.length) return el('p', { class: 'note', text: 'This folder is empty.' });
  return el('ul', { class: 'listing' },
    files.map((f) => el('li', { class: f.dir ? 'is-dir' : 'is-file' },
      el('span', { class: 'entry-name', text: f.dir ? `${f.name}/` : f.name }),
      f.dir ? el('span', { class: 'entry-size', text: 'folder' }) : null)));
}

function toolsNode(tools) {
  if (!tools.length) return el('p', { class: 'note', text: 'No tools are available.' });
  return el('ul', { class: 'tools' },
    tools.map((t) => el('li', {},
      el('code', { class: 'tool-id', text: t.id }),
      el('span', { class: 'tool-state', text: t.state }),
      el('span', { class: 'tool-desc', text: t.description }))));
}

/** The details an ok reply carries, each rendered as text. */
export function detailsNodes(reply) {
  const out = [];
  if (typeof reply.content === 'string') {
    out.push(reply.content === ''
      ? el('p', { class: 'note', text: '(empty file)' })
      : el('pre', { class: 'content', tabindex: '0', 'aria-label': 'What the file holds', text: reply.content }));
  }
  if (typeof reply.diff === 'string') {
    out.push(reply.diff === '' ? el('p', { class: 'note', text: 'No differences.' }) : diffNode(reply.diff));
  }
  if (Array.isArray(reply.matches)) out.push(matchesNode(reply.matches));
  if (Array.isArray(reply.files)) out.push(listingNode(reply.files));
  if (Array.isArray(reply.tools)) out.push(toolsNode(reply.tools));
  // A tool's output the core put in words (and its notes) is a detail; any
  // other output is the answer itself.
  if (reply.words == null) {
    if (Array.isArray(reply.notes) && reply.notes.length) out.push(notesNode(reply.notes));
    if (typeof reply.output === 'string' && reply.output !== '') out.push(el('pre', { class: 'content', text: reply.output }));
  }
  if (reply.truncated) out.push(el('p', { class: 'note', text: 'Only the first results are shown; there are more.' }));
  return out;
}

function notesNode(notes) {
  return el('ul', { class: 'notes' }, notes.map((n) => el('li', { class: 'note', text: String(n) })));
}

/** What an ok reply keeps for its details: the exact account, sizes, the tool's own output. */
function replyDetails(reply) {
  const worded = reply.words != null;
  const notes = Array.isArray(reply.notes) && reply.notes.length ? notesNode(reply.notes) : null;
  const output = typeof reply.output === 'string' && reply.output !== ''
    ? el('pre', { class: 'content', text: reply.output }) : null;
  return detailsNode([
    ['What was done', worded && reply.action != null ? el('span', { class: 'mono', text: String(reply.action) }) : null],
    ['Size', typeof reply.bytes === 'number' ? formatBytes(reply.bytes) : null],
    ['Output', worded ? output : null],
    ['Notes', worded ? notes : null],
    ['Activity entry', typeof reply.logged === 'number' ? String(reply.logged) : null],
  ]);
}

/**
 * What was done, its details, and that the activity log records it: "Logged"
 * is a link to its row when the page can show it (`hooks.showLogged(seq)`).
 */
export function didNode(reply, hooks = {}) {
  const summary = reply.words != null ? String(reply.words) : reply.action != null ? String(reply.action) : 'Done.';
  let logged = null;
  if (typeof reply.logged === 'number') {
    logged = hooks.showLogged
      ? el('button', { type: 'button', class: 'meta logged link', title: `activity entry ${reply.logged}`, 'data-seq': reply.logged, text: 'Logged' })
      : el('p', { class: 'meta logged', title: `audit entry ${reply.logged}`, 'data-seq': reply.logged, text: 'Logged' });
    if (hooks.showLogged) logged.addEventListener('click', () => hooks.showLogged(reply.logged));
  }
  return el('div', { class: 'did' },
    el('p', { class: 'summary' }, prose(summary)),
    detailsNodes(reply),
    el('div', { class: 'did-foot' }, logged, replyDetails(reply)));
}

/** A tier-2 question waiting for the person: the question and what yes means. */
export function pendingNode(request) {
  return el('div', { class: 'pending' },
    el('p', { class: 'pending-head', text: String(request.question ?? 'Asks first — waiting for your answer') }),
    el('p', { class: 'plan', text: String(request.consequence ?? request.plan ?? '') }));
}

/** A question that expired unanswered: nothing was done, and it can be asked again. */
function timedOutNode(request, again) {
  const node = el('div', { class: 'declined timed-out', role: 'status', 'data-rule': 'confirmation-expired' },
    el('p', { class: 'why', text: String(request.expired ?? 'Timed out — nothing was done.') }));
  if (again) {
    const button = el('button', { type: 'button', class: 'ghost inline ask-again', text: 'Ask again' });
    button.addEventListener('click', () => { button.disabled = true; again(); });
    node.append(button);
  }
  return node;
}

/**
 * What the resolver said when it found no request in the words (a question
 * back, or what it can do), and the examples to try, one tap each.
 */
function unresolvedNode(note, input) {
  const node = el('div', { class: 'unresolved' },
    el('p', {}, note != null ? prose(String(note)) : 'That did not match a request.'));
  if (input) {
    const list = el('ul', { class: 'examples', 'aria-label': 'Things to try' });
    showExamples(list, input);
    node.append(list);
  }
  return node;
}

/**
 * An action in a person's words: its verb and what it names ("write
 * hello.txt", "list assets"), never its JSON. Display only: the core has
 * already resolved and checked it.
 */
export function actionWords(action) {
  if (!action || typeof action !== 'object') return String(action);
  const verb = String(action.verb ?? 'act').replace(/_/g, ' ');
  const object = action.verb === 'grep' ? action.query : action.name ?? action.dir ?? action.id ?? '';
  return object !== '' && object != null ? `${verb} ${String(object)}` : verb;
}

/**
 * One turn in the transcript; its answer slot is replaced as answers arrive.
 * `context` (from createTranscript) keeps the view on the newest answer and
 * carries the page's hooks: undo(), again(), read(name), openSettings(),
 * showLogged(seq), saved().
 */
export class Turn {
  constructor(li, context = {}) {
    this.li = li;
    this.context = context;
    this.hooks = context.hooks || {};
    this.verb = null;
    this.record = context.record || null;
    this.answer = el('div', { class: 'waiting', text: 'Working…' });
    li.append(this.answer);
  }

  set(node, rule = null) {
    this.answer.replaceWith(node);
    this.answer = node;
    if (rule !== null) this.li.dataset.rule = rule;
    else delete this.li.dataset.rule;
    if (this.context.follow) this.context.follow();
    else this.li.scrollIntoView({ block: 'nearest' });
  }

  /** Remembers what the turn shows now, so a reload shows it again. */
  keep(answer) {
    if (!this.record) return;
    this.record.answer = answer;
    if (this.context.saved) this.context.saved();
  }

  /** Shows a server reply. Returns the confirm request when it asks first. */
  showReply(reply, restored = false) {
    if (!restored) this.keep({ reply });
    if (!reply || typeof reply !== 'object') {
      this.set(errorNode(new Error('the answer was empty'), 'No answer'));
      return null;
    }
    if (reply.confirm && typeof reply.confirm === 'object') {
      this.set(pendingNode(reply.confirm));
      return reply.confirm;
    }
    if (reply.ok === true) {
      const node = didNode(reply, this.hooks);
      this.set(node);
      if (!restored) this.decorate(node, reply);
    } else if (reply.refused === 'confirmation-expired' && this.pending) {
      this.showTimedOut(this.pending);
    } else {
      const node = refusalNode(reply, reply.refused === 'key-missing' ? 'Not set up' : 'Refused');
      if (reply.refused === 'key-missing' && this.hooks.openSettings) {
        const open = el('button', { type: 'button', class: 'ghost inline', text: 'Open Settings' });
        open.addEventListener('click', () => this.hooks.openSettings());
        node.append(open);
      }
      this.set(node, reply.refused != null ? String(reply.refused) : '');
    }
    return null;
  }

  /**
   * What an answer card offers beyond its words: Undo on the newest change
   * (the core says whether the turn changed the folder, and journals every
   * change it makes), a picture.
   */
  decorate(node, reply) {
    const foot = node.querySelector('.did-foot');
    if (this.verb === 'undo' && this.context.undoShown) this.context.undoShown(null);
    if (this.changes && this.verb !== 'undo' && this.hooks.undo) {
      const undo = el('button', { type: 'button', class: 'ghost inline undo', text: 'Undo' });
      undo.addEventListener('click', () => { undo.remove(); this.hooks.undo(); });
      foot.prepend(undo);
      if (this.context.undoShown) this.context.undoShown(undo);
    }
    const name = reply.file ?? (this.action && (this.action.name ?? null));
    const type = name ? pictureType(name) : null;
    if (!type || this.verb === 'delete') return;
    const show = (text) => {
      const { img } = pictureOf(text, type, String(name));
      img.className = 'answer-picture';
      node.insertBefore(el('div', { class: 'picture-frame' }, img), foot);
      if (this.context.follow) this.context.follow();
    };
    if (typeof reply.content === 'string') show(reply.content);
    else if (this.hooks.read) {
      this.hooks.read(String(name)).then((read) => {
        if (read && read.ok === true && typeof read.content === 'string') show(read.content);
      }, () => {});
    }
  }

  /** Shows a /api/turn answer: not understood, or the reply. */
  showTurn(data, restored = false) {
    this.action = data && data.action && typeof data.action === 'object' ? data.action : null;
    this.verb = this.action ? String(this.action.verb ?? '') : null;
    this.changes = data.changes === true;
    if (data.result === null || data.result === undefined) {
      if (!restored) this.keep({ turn: data });
      this.set(unresolvedNode(data.note, restored ? null : this.hooks.input));
      return null;
    }
    if (!restored) this.keep({ turn: data });
    const request = this.showReply(data.result, true);
    if (!restored && data.result && data.result.ok === true) this.decorate(this.answer, data.result);
    if (request) this.pending = request;
    return request;
  }

  /** The question expired unanswered: say so, and offer to ask again. */
  showTimedOut(request) {
    this.keep({ timedOut: request });
    this.set(timedOutNode(request, this.hooks.again ? () => this.hooks.again(this) : null), 'confirmation-expired');
  }

  /** Shows that a newer question, heard after this one, took its place. */
  showSuperseded() {
    this.set(el('div', { class: 'declined', role: 'status' },
      el('p', { class: 'why', text: 'Asked again below — nothing was done here.' })));
  }

  /** Shows that the words were not understood, with the resolver's note. */
  showUnresolved(note) {
    this.set(unresolvedNode(note, this.hooks.input));
  }

  showError(err, lead) {
    this.keep({ error: { lead: lead ?? null, message: err && err.message ? String(err.message) : String(err) } });
    this.set(errorNode(err, lead));
  }
}

/** How many turns a reload keeps. */
const KEPT_TURNS = 200;

function load(key) {
  try {
    const kept = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return Array.isArray(kept) ? kept.slice(-KEPT_TURNS) : [];
  } catch {
    return [];
  }
}

/**
 * The transcript in the parts `transcriptPane` built: the list, the hint
 * (`empty`) shown until the first turn, the transcript's own scroller (kept
 * on the newest answer unless the person scrolled up; then `latest` offers
 * the way back down). options: { storeKey, hooks, TurnClass } — where the
 * conversation is kept across reloads (localStorage), and the turn a page
 * shows (the environment page's adds the resolved action).
 */
export function createTranscript(pane, options = {}) {
  const { list: ol, empty, scroller, latest } = pane;
  const { storeKey, hooks = {}, TurnClass = Turn } = options;
  let records = storeKey ? load(storeKey) : [];
  let pinned = true;
  let undoButton = null;

  const atBottom = () => !scroller || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
  function follow() {
    if (!scroller) return;
    if (pinned) {
      scroller.scrollTop = scroller.scrollHeight;
      if (latest) latest.hidden = true;
    } else if (latest) {
      latest.hidden = false;
    }
  }
  if (scroller) {
    scroller.addEventListener('scroll', () => {
      pinned = atBottom();
      if (pinned && latest) latest.hidden = true;
    }, { passive: true });
    // A picture or a growing answer changes the height after it was shown.
    new ResizeObserver(() => { if (pinned) scroller.scrollTop = scroller.scrollHeight; }).observe(ol);
  }
  if (latest) {
    latest.addEventListener('click', () => {
      pinned = true;
      follow();
    });
  }

  function save() {
    if (!storeKey) return;
    try {
      window.localStorage.setItem(storeKey, JSON.stringify(records.slice(-KEPT_TURNS)));
    } catch {
      // Storage refused or full: the conversation lasts for this page only.
    }
  }

  function undoShown(button) {
    if (undoButton && undoButton !== button) undoButton.remove();
    undoButton = button;
  }

  function item(said, via) {
    const li = el('li', { class: ['turn', via ? `via-${via}` : ''] },
      el('p', { class: 'said' },
        via ? el('span', { class: 'via', text: via }) : null,
        said));
    ol.append(li);
    if (empty) empty.hidden = true;
    return li;
  }

  /** Shows a kept turn as it was answered (no Undo: the folder may have moved on). */
  function restore(record) {
    const turn = new TurnClass(item(record.said, record.via), { follow, hooks: { ...hooks, undo: null, again: null } });
    const answer = record.answer || {};
    if (answer.turn) turn.showTurn(answer.turn, true);
    else if (answer.reply) turn.showReply(answer.reply, true);
    else if (answer.timedOut) turn.set(timedOutNode(answer.timedOut, null), 'confirmation-expired');
    else if (answer.error) turn.set(errorNode(new Error(answer.error.message), answer.error.lead ?? undefined));
    else turn.set(el('div', { class: 'unresolved', text: 'No answer arrived before the page was closed.' }));
    if (turn.answer.classList.contains('pending')) {
      turn.set(el('div', { class: 'declined', text: 'Was waiting for your answer when the page closed; nothing was done without it.' }));
    }
  }
  for (const record of records) restore(record);
  follow();

  return {
    /** A request and its answer slot; `via` marks where it came from (e.g. 'live'). */
    add(said, via = '') {
      const record = { said: String(said), via, at: Date.now() };
      records.push(record);
      save();
      pinned = true;
      const turn = new TurnClass(item(said, via), { follow, hooks, record, saved: save, undoShown });
      follow();
      return turn;
    },

    /** A line that is not a request (what live voice heard or said, a refusal). */
    line(classes, ...children) {
      const li = el('li', { class: ['live-line', ...[].concat(classes)] }, ...children);
      ol.append(li);
      if (empty) empty.hidden = true;
      follow();
      return li;
    },

    /** A line about the page itself (the folder switched): the welcome and examples stay until the first request. */
    note(classes, ...children) {
      const li = el('li', { class: ['live-line', ...[].concat(classes)] }, ...children);
      ol.append(li);
      follow();
      return li;
    },

    /** Forgets the kept conversation and empties the list. */
    clear() {
      records = [];
      save();
      ol.replaceChildren();
      if (empty) empty.hidden = false;
      undoShown(null);
    },

    /** The kept conversation as a JSON file's text. */
    exported() {
      return JSON.stringify(records, null, 2);
    },
  };
}
