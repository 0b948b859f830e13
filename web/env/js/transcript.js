// transcript.js — one <li class="turn"> per request: what was said (or the action
// sent), then exactly what the core answered — did, refused (rule and why), not
// understood (the resolver's note), or asks first (pending). Every value is text.

import { el, formatBytes } from '../../js/dom.js';

/** A refusal: the core's rule id and its sentence, as given. */
export function refusalNode(reply, lead = 'Refused') {
  const rule = reply && reply.refused != null ? String(reply.refused) : '';
  const why = reply && reply.why != null ? String(reply.why) : '';
  return el('div', { class: 'refused', role: 'status', 'data-rule': rule || null },
    el('p', { class: 'refused-head' },
      el('span', { class: 'refused-label', text: lead }),
      rule ? el('code', { class: 'rule', text: rule }) : null),
    el('p', { class: 'why', text: why }));
}

/** A failure of the page or the worker (not an answer of the core). */
export function errorNode(err, lead = 'Something failed') {
  const message = err && err.message ? `${err.name ? `${err.name}: ` : ''}${err.message}` : String(err);
  return el('div', { class: 'error', role: 'alert' },
    el('p', { class: 'error-head', text: lead }),
    el('p', { class: 'error-text', text: message }));
}

function listingNode(files) {
  if (!files.length) return el('p', { class: 'note', text: 'This folder is empty.' });
  return el('ul', { class: 'listing' },
    files.map((f) => el('li', { class: f.dir ? 'is-dir' : 'is-file' },
      el('span', { class: 'entry-name', text: f.dir ? `${f.name}/` : String(f.name) }),
      el('span', { class: 'entry-size', text: f.dir ? 'folder' : formatBytes(f.bytes) }))));
}

function detailsNodes(reply) {
  const out = [];
  if (typeof reply.content === 'string') {
    out.push(reply.content === ''
      ? el('p', { class: 'note', text: '(empty file)' })
      : el('pre', { class: 'content', text: reply.content }));
  }
  if (typeof reply.diff === 'string') {
    out.push(reply.diff === '' ? el('p', { class: 'note', text: 'No differences.' }) : el('pre', { class: 'content', text: reply.diff }));
  }
  if (Array.isArray(reply.matches)) {
    out.push(el('ul', { class: 'matches' }, reply.matches.map((m) => el('li', {},
      el('code', { class: 'match-loc', text: `${m.file}:${m.line}` }),
      el('span', { class: 'match-text', text: String(m.text) })))));
  }
  if (Array.isArray(reply.files)) out.push(listingNode(reply.files));
  if (Array.isArray(reply.tools)) {
    out.push(el('ul', { class: 'tools' }, reply.tools.map((t) => el('li', {},
      el('code', { class: 'tool-id', text: String(t.id) }),
      el('span', { class: 'tool-state', text: String(t.state) }),
      el('span', { class: 'tool-desc', text: String(t.description) })))));
  }
  if (Array.isArray(reply.notes) && reply.notes.length) {
    out.push(el('ul', { class: 'notes' }, reply.notes.map((n) => el('li', { class: 'note', text: String(n) }))));
  }
  if (typeof reply.output === 'string' && reply.output !== '') out.push(el('pre', { class: 'content', text: reply.output }));
  if (reply.truncated) out.push(el('p', { class: 'note', text: 'Only the first results are shown; there are more.' }));
  return out;
}

function didNode(reply) {
  return el('div', { class: 'did' },
    el('p', { class: 'summary', text: reply.action != null ? String(reply.action) : 'Done.' }),
    detailsNodes(reply),
    typeof reply.logged === 'number' ? el('p', { class: 'meta', text: `audit seq ${reply.logged}` }) : null);
}

function pendingNode(request) {
  return el('div', { class: 'pending' },
    el('p', { class: 'pending-head', text: 'Asks first — waiting for your answer' }),
    el('p', { class: 'plan', text: String(request.plan ?? '') }),
    request.rule ? el('p', { class: 'meta' }, 'rule ', el('code', { class: 'rule', text: String(request.rule) }),
      request.why ? ` — ${request.why}` : '') : null);
}

function unresolvedNode(note) {
  return el('div', { class: 'unresolved' },
    el('p', {}, el('span', { class: 'unresolved-label', text: 'Not understood: ' }),
      note != null ? String(note) : ''));
}

class Turn {
  constructor(li) {
    this.li = li;
    this.answer = el('div', { class: 'waiting', text: 'Working…' });
    li.append(this.answer);
  }

  set(node) {
    this.answer.replaceWith(node);
    this.answer = node;
    this.li.scrollIntoView({ block: 'nearest' });
  }

  /** The action the core resolved the sentence to, shown as sent (JSON text). */
  showAction(action) {
    if (action == null || this.actionLine) return;
    this.actionLine = el('p', { class: 'resolved meta' }, 'as ', el('code', { text: actionText(action) }));
    this.li.querySelector('.said').after(this.actionLine);
  }

  /** A reply (the `result` of a turn, or a confirm answer). Returns the confirm request if it asks. */
  showReply(reply) {
    if (!reply || typeof reply !== 'object') {
      this.set(errorNode(new Error('the core sent no answer'), 'No answer'));
      return null;
    }
    if (reply.confirm && typeof reply.confirm === 'object') {
      this.set(pendingNode(reply.confirm));
      return reply.confirm;
    }
    this.set(reply.ok === true ? didNode(reply) : refusalNode(reply));
    return null;
  }

  /** An `execute` answer: {transcript, action, note?, result}, or a request-level refusal. */
  showTurn(answer) {
    if (answer && Object.prototype.hasOwnProperty.call(answer, 'result')) {
      if (answer.result === null) {
        this.set(unresolvedNode(answer.note));
        return null;
      }
      if (answer.transcript != null) this.showAction(answer.action);
      return this.showReply(answer.result);
    }
    return this.showReply(answer);
  }

  showError(err, lead) {
    this.set(errorNode(err, lead));
  }
}

/** An action as sent, for display: JSON text, cut short if long. */
function actionText(action) {
  const text = JSON.stringify(action);
  return text.length > 240 ? `${text.slice(0, 239)}…` : text;
}

export function createTranscript(ol, empty) {
  return {
    /** A turn for a sentence (`text`) or an action sent as data (`action`). */
    add({ text, action }) {
      const said = text != null
        ? el('p', { class: 'said', text: String(text) })
        : el('p', { class: ['said', 'said-action'] }, el('code', { text: actionText(action) }));
      const li = el('li', { class: 'turn' }, said);
      ol.append(li);
      if (empty) empty.hidden = true;
      li.scrollIntoView({ block: 'nearest' });
      return new Turn(li);
    },
  };
}
