// audit.js — the audit view, for the server's page and the environment page
// alike: the core's merged log (entries ordered by (instance, seq); there is no
// order across writers, and the `at` column is a wall-clock hint, never an
// ordering key) as a table, with notes for files that have a torn or
// unreadable line. Display only.

import { el, clear, fill, formatBytes } from './dom.js';
import { refusalNode, errorNode } from './transcript.js';

const KNOWN_DECISIONS = new Set(['attempt', 'allow', 'confirm', 'refuse', 'lost']);
const KNOWN_RESULTS = new Set(['pending', 'ok', 'error', 'refused', 'lost']);

function observedText(o) {
  if (o === null || o === undefined) return '—';
  if (!o.exists) return 'absent';
  const parts = ['exists'];
  if (typeof o.bytes === 'number') parts.push(formatBytes(o.bytes));
  if (o.mtime) parts.push(String(o.mtime));
  return parts.join(' · ');
}

function targetText(act) {
  if (!act) return '';
  const target = act.target == null ? '' : String(act.target);
  return act.tool ? `${target} (tool ${act.tool})` : target;
}

function row(e) {
  const decision = String(e.decision ?? '');
  const result = String(e.result ?? '');
  const title = [
    e.why ? `why: ${e.why}` : '',
    e.turn ? `turn: ${e.turn}` : '',
    e.attempt != null ? `completes seq ${e.attempt}` : '',
    e.project ? `project: ${e.project}` : '',
    Array.isArray(e.read) ? `read: ${e.read.map((r) => `${r.path} (${r.bytes} B)`).join(', ')}` : '',
  ].filter(Boolean).join('\n');
  return el('tr', {
    class: [KNOWN_DECISIONS.has(decision) ? `decision-${decision}` : '', KNOWN_RESULTS.has(result) ? `result-${result}` : ''],
    title: title || null,
    'data-instance': String(e.instance ?? ''),
    'data-seq': String(e.seq ?? ''),
  },
  el('td', { class: 'mono', text: String(e.instance ?? '') }),
  el('td', { class: 'num', text: String(e.seq ?? '') }),
  el('td', { text: e.act ? String(e.act.kind ?? '') : '' }),
  el('td', { class: 'mono target', text: targetText(e.act) }),
  el('td', {}, el('span', { class: 'pill', text: decision })),
  el('td', {}, e.rule ? el('code', { class: 'rule', text: String(e.rule) }) : ''),
  el('td', { text: result }),
  el('td', { class: 'observed', text: observedText(e.observed) }),
  el('td', { class: 'when', text: String(e.at ?? '') }));
}

/** The files the view was merged from, and any line that was skipped in them. */
function fileNotes(files, listFiles) {
  const notes = [];
  if (listFiles) {
    notes.push(el('p', { class: 'audit-where' },
      files.length ? 'Audit files: ' : 'No audit file yet.',
      files.map((f, i) => [i ? ', ' : '', el('code', { text: String(f.name) }),
        typeof f.entries === 'number' ? ` (${f.entries})` : ''])));
  }
  for (const f of files) {
    if (f.torn) notes.push(el('p', { class: 'warn', text: `${f.name}: the last line is torn (an interrupted write) and was skipped.` }));
    if (Array.isArray(f.corrupt) && f.corrupt.length) {
      notes.push(el('p', { class: 'warn', text: `${f.name}: unreadable line(s) ${f.corrupt.join(', ')} skipped.` }));
    }
  }
  return notes;
}

/**
 * createAudit({body, notes, refreshButton}, load, options) → { refresh() }
 * `load()` resolves with the core's audit answer. Options: `listFiles` names
 * the files read; `newestFirst` shows each writer's newest entry first, at
 * most `maxRows` of them.
 */
export function createAudit({ body, notes, refreshButton }, load, { listFiles = false, newestFirst = false, maxRows = Infinity } = {}) {
  let generation = 0;

  async function refresh() {
    const mine = ++generation;
    refreshButton.disabled = true;
    let answer;
    try {
      answer = await load();
    } catch (err) {
      if (mine !== generation) return;
      refreshButton.disabled = false;
      fill(notes, errorNode(err, 'Could not read the audit log'));
      return;
    }
    if (mine !== generation) return;
    refreshButton.disabled = false;
    clear(body);
    if (!answer || answer.ok !== true) {
      fill(notes, refusalNode(answer || {}, 'No audit log'));
      return;
    }
    fill(notes, fileNotes(Array.isArray(answer.files) ? answer.files : [], listFiles));
    const entries = Array.isArray(answer.entries) ? answer.entries : [];
    if (!entries.length) {
      body.append(el('tr', {}, el('td', { colspan: 9, class: 'note', text: 'Nothing recorded yet.' })));
      return;
    }
    const kept = entries.slice(-maxRows);
    const shown = newestFirst ? kept.reverse() : kept;
    const rows = document.createDocumentFragment();
    for (const e of shown) rows.append(row(e));
    body.append(rows);
    if (entries.length > shown.length) {
      notes.append(el('p', { class: 'note', text: `Showing the last ${shown.length} of ${entries.length} entries.` }));
    }
  }

  refreshButton.addEventListener('click', refresh);
  return { refresh };
}
