// transcript.js — the conversation: one <li class="turn"> per request, showing
// what was said and exactly what was answered (done, refused, not understood,
// or waiting for a confirmation), its answers drawn by answer.js. Shared with
// the environment page's transcript (web/env/js/transcript.js). Every value is text.

import { el, fill, formatBytes } from './dom.js';
import { pictureType, pictureOf } from './picture.js';
import { prose, refusalNode, errorNode, didNode } from './answer.js';

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
