// transcript.js — one <li class="turn"> per request: what was said (or the action
// sent) and the action the core resolved it to, then exactly what the core
// answered — did, refused (rule and why), not understood (the resolver's note),
// or asks first (pending). The turn and its answer blocks are the server
// page's (../../js/transcript.js); this file adds the resolved action, in
// words ("↳ write hello.txt"), never as JSON.

import { el } from '../../js/dom.js';
import { Turn, actionWords, createTranscript as createShared } from '../../js/transcript.js';

/** The environment page's turn: the shared one, plus the action a sentence resolved to. */
class ActionTurn extends Turn {
  /** The action the core resolved the sentence to, as one short line ("↳ write hello.txt"). */
  showAction(action) {
    if (action == null || this.actionLine) return;
    this.actionLine = actionLine(action, ['resolved', 'meta']);
    this.li.querySelector('.said').after(this.actionLine);
  }

  /** An `execute` answer: {transcript, action, note?, result}, or a request-level refusal. */
  showTurn(answer, restored = false) {
    if (answer && Object.prototype.hasOwnProperty.call(answer, 'result')) {
      if (answer.result === null) {
        if (!restored) this.keep({ turn: answer });
        this.showUnresolved(answer.note);
        return null;
      }
      if (answer.transcript != null) this.showAction(answer.action);
      this.action = answer.action && typeof answer.action === 'object' ? answer.action : null;
      this.verb = this.action ? String(this.action.verb ?? '') : null;
      this.changes = answer.changes === true;
      if (!restored) this.keep({ turn: answer });
      const ask = this.showReply(answer.result, true);
      if (!restored && answer.result && answer.result.ok === true) this.decorate(this.answer, answer.result);
      return ask;
    }
    return this.showReply(answer, restored);
  }
}

/** "↳ write hello.txt" as a line of the turn; `classes` say where it sits. */
function actionLine(action, classes) {
  return el('p', { class: classes }, el('span', { class: 'action-arrow', 'aria-hidden': 'true', text: '↳ ' }),
    el('span', { class: 'action-words', text: actionWords(action) }));
}

/**
 * The environment page's transcript: the shared one (its own scroller, kept
 * across reloads, Clear and Export) with this page's turn. A sentence shows
 * as said; an action sent as data as its words ("write hello.txt").
 */
export function createTranscript(pane, options) {
  const shared = createShared(pane, { ...options, TurnClass: ActionTurn });
  return {
    ...shared,
    /** A turn for a sentence (`text`) or an action sent as data (`action`). */
    add({ text, action }) {
      return shared.add(text != null ? String(text) : actionWords(action), text != null ? '' : 'action');
    },
  };
}
