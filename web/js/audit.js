// audit.js — the audit view, for the server's page and the environment page
// alike (one panel, built here): the core's pages of the log, newest first
// (the (instance, seq) merge reversed; there is no order across writers, and
// the `at` column is a wall-clock hint, never an ordering key) as a table, an
// "Older entries" button that asks for the next page by the core's cursor,
// and per file the verdict the core computed on its chain. Display only:
// every judgement here was made by the core.

import { el, clear, fill, formatBytes } from './dom.js';
import { refusalNode, errorNode } from './transcript.js';

const READING = 'Each writer (one per tab or process) appends to its own file and numbers its own entries. '
  + 'Rows are ordered per writer by (instance, seq), newest first; there is no order across writers, '
  + 'and the clock column is only a hint. Hover a row for its reason.';

const COLUMNS = ['instance', 'seq', 'act', 'target', 'decision', 'rule', 'result', 'observed'];

/** The panel's head, how to read it, the notes the view writes, and the table. */
function buildPanel(section) {
  const refreshButton = el('button', { id: 'audit-refresh', type: 'button', class: 'ghost', text: 'Refresh' });
  const notes = el('div', { id: 'audit-notes', class: 'audit-notes' });
  const body = el('tbody', { id: 'audit-body' });
  const head = el('tr', {},
    COLUMNS.map((name) => el('th', { scope: 'col', text: name })),
    el('th', { scope: 'col', title: 'Wall clock: a hint, never an ordering key', text: 'at' }));
  section.append(
    el('div', { class: 'panel-head' },
      el('h2', { id: 'audit-title', text: 'Audit log' }),
      el('div', { class: 'panel-tools' }, refreshButton)),
    el('p', { class: 'panel-note', text: READING }),
    notes,
    el('div', { class: 'table-scroll' },
      el('table', { id: 'audit-table', class: 'audit-table' }, el('thead', {}, head), body)));
  return { body, notes, refreshButton };
}

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

/** The core's verdict on one file's chain, as a sentence. */
function verdictNote(f) {
  const v = f.verdict;
  if (!v || typeof v !== 'object') return null;
  const name = String(f.name);
  if (v.verdict === 'broken') {
    const seq = v.seq != null ? ` (seq ${v.seq})` : '';
    return el('p', { class: 'warn', text: `${name}: the chain is broken at line ${v.line}${seq}: ${v.kind} — ${v.why}` });
  }
  const parts = [`${v.entries} entries, last seq ${v.last_seq}`];
  if (v.unchained) parts.push(`${v.unchained} unchained (written before the chain)`);
  if (!v.anchored) parts.push('no anchor on this host (lines cut from the end would not show)');
  if (v.verdict === 'torn') return el('p', { class: 'warn', text: `${name}: chain holds up to a torn last line (an interrupted write) — ${parts.join('; ')}` });
  return el('p', { class: 'note', text: `${name}: chain ok — ${parts.join('; ')}` });
}

/** The files the view was read from, their verdicts, and any line skipped in them. */
function fileNotes(files, listFiles) {
  const notes = [];
  if (listFiles) {
    notes.push(el('p', { class: 'audit-where' },
      files.length ? 'Audit files: ' : 'No audit file yet.',
      files.map((f, i) => [i ? ', ' : '', el('code', { text: String(f.name) }),
        typeof f.entries === 'number' ? ` (${f.entries})` : ''])));
  }
  for (const f of files) {
    const verdict = verdictNote(f);
    if (verdict) notes.push(verdict);
    if (f.torn) notes.push(el('p', { class: 'warn', text: `${f.name}: the last line is torn (an interrupted write) and was skipped.` }));
    if (Array.isArray(f.corrupt) && f.corrupt.length) {
      notes.push(el('p', { class: 'warn', text: `${f.name}: unreadable line(s) ${f.corrupt.join(', ')} skipped.` }));
    }
  }
  return notes;
}

/**
 * createAudit(section, {page, verify}, {listFiles}) → { refresh() }
 * Builds the audit panel inside `section`. `page(cursor)` resolves with the core's audit page (`cursor` absent
 * for the newest page); `verify()` with the core's check of every file, which
 * reads the whole log and so is asked for after the page is shown.
 * `listFiles` names the files read.
 */
export function createAudit(section, { page: load, verify }, { listFiles = false } = {}) {
  const { body, notes, refreshButton } = buildPanel(section);
  let generation = 0;
  let next = null;
  const older = el('button', { type: 'button', class: 'ghost', text: 'Older entries', hidden: true });
  (body.closest('table') || body).after(older);

  function showPage(answer) {
    const entries = Array.isArray(answer.entries) ? answer.entries : [];
    const rows = document.createDocumentFragment();
    for (const e of entries) rows.append(row(e));
    body.append(rows);
    next = typeof answer.next === 'string' ? answer.next : null;
    older.hidden = next === null;
    return entries.length;
  }

  async function fetchPage(cursor) {
    const mine = ++generation;
    refreshButton.disabled = true;
    older.disabled = true;
    let answer;
    try {
      answer = await load(cursor);
    } catch (err) {
      if (mine !== generation) return;
      refreshButton.disabled = false;
      older.disabled = false;
      fill(notes, errorNode(err, 'Could not read the audit log'));
      return;
    }
    if (mine !== generation) return;
    refreshButton.disabled = false;
    older.disabled = false;
    if (!answer || answer.ok !== true) {
      if (cursor === undefined) clear(body);
      older.hidden = true;
      fill(notes, refusalNode(answer || {}, 'No audit log'));
      return;
    }
    if (cursor !== undefined) {
      showPage(answer);
      return;
    }
    clear(body);
    fill(notes, el('p', { class: 'note', text: 'Checking the chain of every audit file…' }));
    if (!showPage(answer)) {
      body.append(el('tr', {}, el('td', { colspan: 9, class: 'note', text: 'Nothing recorded yet.' })));
    }
    let check;
    try {
      check = await verify();
    } catch (err) {
      if (mine === generation) fill(notes, errorNode(err, 'Could not check the audit log'));
      return;
    }
    if (mine !== generation) return;
    if (!check || check.ok !== true) {
      fill(notes, refusalNode(check || {}, 'The audit log could not be checked'));
      return;
    }
    fill(notes, fileNotes(Array.isArray(check.files) ? check.files : [], listFiles));
  }

  const refresh = () => fetchPage(undefined);
  refreshButton.addEventListener('click', refresh);
  older.addEventListener('click', () => { if (next !== null) fetchPage(next); });
  return { refresh };
}
