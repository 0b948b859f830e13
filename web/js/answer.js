// answer.js — an answer's blocks, the same wherever an answer is shown (the
// conversation, the files panel, the viewer, settings, the audit view, both
// pages): the core's sentence with its code spans, what was done with its
// details one tap away, a refusal in words with its rule behind Details, an
// error, and a button that acts and says how it went. Every value is text.

import { el, fill, formatBytes } from './dom.js';

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
function detailsNodes(reply) {
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
