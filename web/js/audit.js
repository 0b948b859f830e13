// audit.js — the audit view: the server's merged log as a table, plus a note
// for any log file with a torn or unreadable line. Display only.

import { el, clear, fill, formatBytes } from './dom.js';
import * as api from './api.js';
import { refusalNode, errorNode } from './transcript.js';

const MAX_ROWS = 500;
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
  const title = [e.why ? `why: ${e.why}` : '', e.turn ? `turn: ${e.turn}` : '',
    e.attempt != null ? `completes attempt ${e.attempt}` : '',
    Array.isArray(e.read) ? `read: ${e.read.map((r) => `${r.path} (${r.bytes} B)`).join(', ')}` : '',
  ].filter(Boolean).join('\n');
  const tr = el('tr', {
    class: [KNOWN_DECISIONS.has(decision) ? `decision-${decision}` : '', KNOWN_RESULTS.has(result) ? `result-${result}` : ''],
    title: title || null,
  },
  el('td', { class: 'num', text: String(e.seq ?? '') }),
  el('td', { class: 'mono', text: String(e.instance ?? '') }),
  el('td', { class: 'when', text: String(e.at ?? '') }),
  el('td', { text: e.act ? String(e.act.kind ?? '') : '' }),
  el('td', { class: 'mono target', text: targetText(e.act) }),
  el('td', {}, el('span', { class: 'pill', text: decision })),
  el('td', {}, e.rule ? el('code', { class: 'rule', text: String(e.rule) }) : ''),
  el('td', { text: result }),
  el('td', { class: 'observed', text: observedText(e.observed) }));
  return tr;
}

/** createAudit({table, body, notes, refresh}) → { refresh() } */
export function createAudit({ body, notes, refreshButton }) {
  let generation = 0;

  async function refresh() {
    const mine = ++generation;
    refreshButton.disabled = true;
    let data;
    try {
      data = await api.audit();
    } catch (err) {
      if (mine !== generation) return;
      refreshButton.disabled = false;
      fill(notes, errorNode(err, 'Could not load the audit log'));
      return;
    }
    if (mine !== generation) return;
    refreshButton.disabled = false;
    clear(body);
    clear(notes);
    if (!data || data.ok !== true) {
      notes.append(refusalNode(data || {}, 'No audit log'));
      return;
    }
    for (const f of Array.isArray(data.files) ? data.files : []) {
      if (f.torn) {
        notes.append(el('p', { class: 'warn', text: `${f.name}: the last line is torn (an interrupted write) and was skipped.` }));
      }
      if (Array.isArray(f.corrupt) && f.corrupt.length) {
        notes.append(el('p', { class: 'warn', text: `${f.name}: ${f.corrupt.length} unreadable line(s) skipped (lines ${f.corrupt.join(', ')}).` }));
      }
    }
    const entries = Array.isArray(data.entries) ? data.entries : [];
    if (!entries.length) {
      body.append(el('tr', {}, el('td', { colspan: 9, class: 'note', text: 'Nothing recorded yet.' })));
      return;
    }
    // The server orders by (instance, seq); reversed, each writer's newest comes first.
    const shown = entries.slice(-MAX_ROWS).reverse();
    for (const e of shown) body.append(row(e));
    if (entries.length > shown.length) {
      notes.append(el('p', { class: 'note', text: `Showing the last ${shown.length} of ${entries.length} entries.` }));
    }
  }

  refreshButton.addEventListener('click', refresh);
  return { refresh };
}
