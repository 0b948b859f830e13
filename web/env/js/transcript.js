// transcript.js — one <li class="turn"> per request: what was said (or the action
// sent) and the action the core resolved it to, then exactly what the core
// answered — did, refused (rule and why), not understood (the resolver's note),
// or asks first (pending). The answer blocks are the server page's
// (../../js/transcript.js); this file is the environment page's turn shape.

import { el } from '../../js/dom.js';
import { refusalNode, errorNode, didNode, pendingNode } from '../../js/transcript.js';

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
