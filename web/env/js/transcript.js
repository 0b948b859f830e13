// transcript.js — one <li class="turn"> per request: what was said (or the action
// sent) and the action the core resolved it to, then exactly what the core
// answered — did, refused (rule and why), not understood (the resolver's note),
// or asks first (pending). The turn and its answer blocks are the server
// page's (../../js/transcript.js); this file adds the resolved action.

import { el } from '../../js/dom.js';
import { Turn } from '../../js/transcript.js';

/** The environment page's turn: the shared one, plus the action a sentence resolved to. */
class ActionTurn extends Turn {
  /** The action the core resolved the sentence to, shown as sent (JSON text). */
  showAction(action) {
    if (action == null || this.actionLine) return;
    this.actionLine = el('p', { class: 'resolved meta' }, 'as ', el('code', { text: actionText(action) }));
    this.li.querySelector('.said').after(this.actionLine);
  }

  /** An `execute` answer: {transcript, action, note?, result}, or a request-level refusal. */
  showTurn(answer) {
    if (answer && Object.prototype.hasOwnProperty.call(answer, 'result')) {
      if (answer.result === null) {
        this.showUnresolved(answer.note);
        return null;
      }
      if (answer.transcript != null) this.showAction(answer.action);
      return this.showReply(answer.result);
    }
    return this.showReply(answer);
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
      return new ActionTurn(li);
    },
  };
}
