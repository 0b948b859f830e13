// transcript.js — the conversation: one <li class="turn"> per request, showing
// what was said and exactly what was answered (done, refused, not understood,
// or waiting for a confirmation). The answer blocks are shared with the
// environment page's transcript (web/env/js/transcript.js). Every value is text.

import { el, fill, formatBytes } from './dom.js';

/** What the empty transcript offers to try, the same on both pages. */
const EXAMPLES = [
  'create a file called hello.txt with hi',
  "what's in hello.txt",
  'list the files',
  'delete hello.txt',
  'undo',
];

/** Fills `list` with the examples; a click puts one in `input`, ready to send. */
export function showExamples(list, input) {
  fill(list, ...EXAMPLES.map((text) => {
    const button = el('button', { type: 'button', class: 'example', text });
    button.addEventListener('click', () => {
      input.value = text;
      input.focus();
    });
    return el('li', {}, button);
  }));
}

/** The core's sentence with its `code` spans as code (as text nodes, never markup). */
export function prose(text) {
  return String(text).split('`').map((part, i) => (i % 2 === 1 ? el('code', { text: part }) : part));
}

/**
 * A refusal block: the rule id and its sentence, as given. The person's own
 * No is an answer, shown as a neutral line; a file that is not there is
 * information (with the close names the core offers), not a refusal.
 */
export function refusalNode(reply, lead = 'Refused') {
  const rule = reply && reply.refused != null ? String(reply.refused) : '';
  const why = reply && reply.why != null ? String(reply.why) : 'No reason was given.';
  if (rule === 'declined') {
    return el('div', { class: 'declined', role: 'status', 'data-rule': rule }, el('p', { class: 'why' }, prose(why)));
  }
  if (rule === 'not-found') {
    return el('div', { class: 'not-found', role: 'status', 'data-rule': rule },
      el('p', { class: 'not-found-head', text: 'Not found' }),
      el('p', { class: 'why' }, prose(why)));
  }
  return el('div', { class: 'refused', role: 'status', 'data-rule': rule || null },
    el('p', { class: 'refused-head' },
      el('span', { class: 'refused-label', text: lead }),
      rule ? el('code', { class: 'rule', text: rule }) : null),
    el('p', { class: 'why' }, prose(why)));
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

function diffNode(diff) {
  const pre = el('pre', { class: 'diff' });
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
      el('span', { class: 'entry-size', text: f.dir ? 'folder' : formatBytes(f.bytes) }))));
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
      : el('pre', { class: 'content', text: reply.content }));
  }
  if (typeof reply.diff === 'string') {
    out.push(reply.diff === '' ? el('p', { class: 'note', text: 'No differences.' }) : diffNode(reply.diff));
  }
  if (Array.isArray(reply.matches)) out.push(matchesNode(reply.matches));
  if (Array.isArray(reply.files)) out.push(listingNode(reply.files));
  if (Array.isArray(reply.tools)) out.push(toolsNode(reply.tools));
  if (Array.isArray(reply.notes) && reply.notes.length) {
    out.push(el('ul', { class: 'notes' }, reply.notes.map((n) => el('li', { class: 'note', text: String(n) }))));
  }
  if (typeof reply.output === 'string' && reply.output !== '') out.push(el('pre', { class: 'content', text: reply.output }));
  if (reply.truncated) out.push(el('p', { class: 'note', text: 'Only the first results are shown; there are more.' }));
  return out;
}

/** What was done, its details, and that the audit log records it (its seq on hover). */
export function didNode(reply) {
  const summary = reply.action != null ? String(reply.action) : 'Done.';
  return el('div', { class: 'did' },
    el('p', { class: 'summary' }, prose(summary)),
    detailsNodes(reply),
    typeof reply.logged === 'number'
      ? el('p', { class: 'meta logged', title: `audit entry ${reply.logged}`, 'data-seq': reply.logged, text: 'Logged' })
      : null);
}

/** A tier-2 question waiting for the person: the plan, and the rule that asks. */
export function pendingNode(request) {
  return el('div', { class: 'pending' },
    el('p', { class: 'pending-head', text: 'Asks first — waiting for your answer' }),
    el('p', { class: 'plan', text: String(request.plan ?? '') }),
    request.rule ? el('p', { class: 'meta' }, 'rule ', el('code', { class: 'rule', text: String(request.rule) }),
      request.why ? ` — ${request.why}` : '') : null);
}

/** What the resolver said when it found no request in the words. */
function unresolvedNode(note) {
  return el('div', { class: 'unresolved' },
    el('p', {}, el('span', { class: 'unresolved-label', text: 'Not understood: ' }),
      note != null ? String(note) : 'the sentence did not match a request'));
}

/** One turn in the transcript; its answer slot is replaced as answers arrive. */
export class Turn {
  constructor(li) {
    this.li = li;
    this.answer = el('div', { class: 'waiting', text: 'Working…' });
    li.append(this.answer);
  }

  set(node, rule = null) {
    this.answer.replaceWith(node);
    this.answer = node;
    if (rule !== null) this.li.dataset.rule = rule;
    else delete this.li.dataset.rule;
    this.li.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  /** Shows a server reply. Returns the confirm request when it asks first. */
  showReply(reply) {
    if (!reply || typeof reply !== 'object') {
      this.set(errorNode(new Error('the answer was empty'), 'No answer'));
      return null;
    }
    if (reply.confirm && typeof reply.confirm === 'object') {
      this.set(pendingNode(reply.confirm));
      return reply.confirm;
    }
    if (reply.ok === true) this.set(didNode(reply));
    else this.set(refusalNode(reply), reply.refused != null ? String(reply.refused) : '');
    return null;
  }

  /** Shows a /api/turn answer: not understood, or the reply. */
  showTurn(data) {
    if (data.result === null || data.result === undefined) {
      this.set(unresolvedNode(data.note));
      return null;
    }
    return this.showReply(data.result);
  }

  /** Shows that the words were not understood, with the resolver's note. */
  showUnresolved(note) {
    this.set(unresolvedNode(note));
  }

  showError(err, lead) {
    this.set(errorNode(err, lead));
  }
}

/** The transcript list. `empty` is a hint shown until the first turn. */
export function createTranscript(ol, empty) {
  return {
    /** A request and its answer slot; `via` marks where it came from (e.g. 'live'). */
    add(said, via = '') {
      const li = el('li', { class: ['turn', via ? `via-${via}` : ''] },
        el('p', { class: 'said' },
          via ? el('span', { class: 'via', text: via }) : null,
          said));
      ol.append(li);
      if (empty) empty.hidden = true;
      li.scrollIntoView({ block: 'nearest' });
      return new Turn(li);
    },

    /** A line that is not a request (what live voice heard or said, a refusal). */
    line(classes, ...children) {
      const li = el('li', { class: ['live-line', ...[].concat(classes)] }, ...children);
      ol.append(li);
      if (empty) empty.hidden = true;
      li.scrollIntoView({ block: 'nearest' });
      return li;
    },
  };
}
