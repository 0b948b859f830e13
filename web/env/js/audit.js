// audit.js — the core's `audit` answer as a table: entries in the order the core
// merged them, by (instance, seq). There is no global order across writers, and
// the `at` column is a wall-clock hint, never an ordering key. Display only.

import { el, clear, fill, formatBytes } from '../../js/dom.js';
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

function row(e) {
  const decision = String(e.decision ?? '');
  const result = String(e.result ?? '');
  const act = e.act || {};
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
  el('td', { text: String(act.kind ?? '') }),
  el('td', { class: 'mono target', text: act.tool ? `${act.target ?? ''} (tool ${act.tool})` : String(act.target ?? '') }),
  el('td', {}, el('span', { class: 'pill', text: decision })),
  el('td', {}, e.rule ? el('code', { class: 'rule', text: String(e.rule) }) : ''),
  el('td', { text: result }),
  el('td', { class: 'observed', text: observedText(e.observed) }),
  el('td', { class: 'when', text: String(e.at ?? '') }));
}

export function createAudit({ body, files, refreshButton }, request, onFiles) {
  let generation = 0;

  async function refresh() {
    const mine = ++generation;
    refreshButton.disabled = true;
    let answer;
    try {
      answer = await request({ op: 'audit' });
    } catch (err) {
      if (mine !== generation) return;
      refreshButton.disabled = false;
      fill(files, errorNode(err, 'Could not read the audit log'));
      return;
    }
    if (mine !== generation) return;
    refreshButton.disabled = false;
    clear(body);
    clear(files);
    if (!answer || answer.ok !== true) {
      files.append(refusalNode(answer || {}, 'No audit log'));
      if (onFiles) onFiles(null);
      return;
    }
    const list = Array.isArray(answer.files) ? answer.files : [];
    if (onFiles) onFiles(answer);
    files.append(el('p', { class: 'audit-where' },
      list.length ? 'Files in the root’s .audit/ folder: ' : 'No audit file yet.',
      list.map((f, i) => [i ? ', ' : '', el('code', { text: String(f.name) }),
        typeof f.entries === 'number' ? ` (${f.entries})` : ''])));
    for (const f of list) {
      if (f.torn) files.append(el('p', { class: 'warn', text: `${f.name}: the last line is torn (an interrupted write) and was skipped.` }));
      if (Array.isArray(f.corrupt) && f.corrupt.length) {
        files.append(el('p', { class: 'warn', text: `${f.name}: unreadable line(s) ${f.corrupt.join(', ')} skipped.` }));
      }
    }
    const entries = Array.isArray(answer.entries) ? answer.entries : [];
    if (!entries.length) {
      body.append(el('tr', {}, el('td', { colspan: 9, class: 'note', text: 'Nothing recorded yet.' })));
      return;
    }
    const rows = document.createDocumentFragment();
    for (const e of entries) rows.append(row(e));
    body.append(rows);
  }

  refreshButton.addEventListener('click', refresh);
  return { refresh, clear: () => { clear(body); clear(files); } };
}
