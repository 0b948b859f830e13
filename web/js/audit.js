// audit.js — the activity view, for the server's page and the environment page
// alike (one panel, built here): the core's pages of the log, newest first
// (the (instance, seq) merge reversed; there is no order across writers, and
// the time is a wall-clock hint, never an ordering key) as a feed a person
// reads — icon · what happened · file · outcome · time ago — each row opening
// to its rule, why and what storage showed afterwards. The person's own acts
// show by default; the panels' background reads behind a toggle. An "Older"
// button asks for the next page by the core's cursor, Export writes the whole
// log as JSONL, and per file the verdict the core computed on its chain is
// shown. Display only: every judgement here was made by the core.

import { el, clear, fill, formatBytes, download } from './dom.js';
import { refusalNode, errorNode, detailsNode } from './answer.js';

/** Turns the pages' own panels read under (the file list, the viewer, the gallery). */
const BACKGROUND_TURNS = new Set(['page', 'files', 'gallery']);
/** How many pages Export reads at most (1,000 entries each). */
const EXPORT_PAGES = 100;

/** The panel's head and tools, the notes the view writes, and the feed. */
function buildPanel(section) {
  const refreshButton = el('button', { id: 'audit-refresh', type: 'button', class: 'ghost', text: 'Refresh' });
  const exportButton = el('button', { id: 'audit-export', type: 'button', class: 'ghost', text: 'Export' });
  const background = el('input', { id: 'audit-background', type: 'checkbox' });
  const notes = el('div', { id: 'audit-notes', class: 'audit-notes' });
  const banner = el('div', { id: 'audit-banner' });
  const body = el('ol', { id: 'audit-body', class: 'activity', 'aria-label': 'Activity, newest first' });
  section.append(
    el('div', { class: 'panel-head' },
      el('h2', { id: 'audit-title', text: 'Activity' }),
      el('div', { class: 'panel-tools' }, exportButton, refreshButton)),
    banner,
    el('label', { class: 'toggle' }, background, ' Show background reads (the file list and viewer)'),
    body,
    notes);
  return { body, notes, banner, refreshButton, exportButton, background };
}

/** What storage showed after the act, in words ("exists · 3 entries", "2 bytes"). */
function observedText(o) {
  if (o === null || o === undefined) return null;
  if (!o.exists) return 'absent';
  const parts = ['exists'];
  if (o.dir) parts.push(typeof o.entries === 'number' ? `${o.entries} ${o.entries === 1 ? 'entry' : 'entries'}` : 'folder');
  if (typeof o.bytes === 'number') parts.push(formatBytes(o.bytes));
  return parts.join(' · ');
}

/**
 * An icon, a verb and an object for an entry, from its act and rule: the
 * verb is what was done ("Deleted"), or what was asked ("Delete") when the
 * act waited for the person or they said no.
 */
function describe(e) {
  const act = e.act || {};
  const target = act.target == null ? '' : String(act.target);
  const listed = act.kind === 'read' && (target === '.' || (e.observed && e.observed.dir));
  const byRule = {
    'admitted-by-person': ['⧉', 'Admitted'],
    'revoked-by-person': ['⧉', 'Revoked'],
    'withdrawn-by-person': ['⧉', 'Removed proposal'],
    'declared-by-person': ['⌂', 'Chose folder'],
    'create-over-existing': ['✎', 'Replaced', 'Replace'],
  }[e.rule];
  const byKind = {
    read: listed ? ['▤', 'Listed', 'List'] : ['◉', 'Read', 'Read'],
    write: ['✎', 'Wrote', 'Write'],
    delete: ['✕', 'Deleted', 'Delete'],
    declare: ['⌂', 'Chose folder'],
    import: ['⧉', 'Extension'],
    network: ['↗', 'Fetched', 'Fetch'],
    external: ['⚙', 'Ran tool', 'Run tool'],
  }[act.kind] ?? ['•', String(act.kind ?? 'Act')];
  const undone = act.tool === 'undo' ? ['↶', 'Undid', 'Undo'] : null;
  const [icon, done, asked = done] = byRule ?? undone ?? byKind;
  const waited = e.decision === 'confirm' || e.rule === 'declined' || e.decision === 'refuse';
  let object = target === '.' || target === '' ? 'the folder' : target;
  if (act.kind === 'declare' && e.root) object = String(e.root).split(/[/\\]/).filter(Boolean).pop() ?? object;
  return { icon, verb: waited ? asked : done, object };
}

/** The outcome of an entry as a short word and a class. */
function outcome(e) {
  if (e.rule === 'declined') return ['You said no', 'neutral'];
  if (e.decision === 'refuse') return ['Refused', 'refused'];
  if (e.decision === 'confirm') return ['Asked you', 'asked'];
  if (e.decision === 'lost' || e.result === 'lost') return ['Interrupted', 'refused'];
  if (e.result === 'error') return [e.failed === 'not-found' ? 'Not found' : 'Failed', 'refused'];
  if (e.decision === 'attempt') return ['Started', 'asked'];
  return ['Done', 'ok'];
}

/** "just now", "5 min ago", "3 h ago", or the date. */
function ago(at, now = Date.now()) {
  const t = new Date(at).getTime();
  if (Number.isNaN(t)) return '';
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

function detail(term, value) {
  return value == null || value === '' ? null : el('div', {}, el('dt', { text: term }), el('dd', {}, value));
}

function row(e) {
  const { icon, verb, object } = describe(e);
  const [word, tone] = outcome(e);
  const observed = observedText(e.observed);
  const background = BACKGROUND_TURNS.has(String(e.turn ?? '')) && e.act && e.act.kind === 'read' && e.decision === 'allow';
  return el('li', {
    class: ['activity-row', `tone-${tone}`, background ? 'background' : ''],
    'data-instance': String(e.instance ?? ''),
    'data-seq': String(e.seq ?? ''),
  },
  el('details', {},
    el('summary', {},
      el('span', { class: 'act-icon', 'aria-hidden': 'true', text: icon }),
      el('span', { class: 'act-verb', text: verb }),
      el('span', { class: 'act-object mono', text: object }),
      el('span', { class: ['act-outcome', `tone-${tone}`], text: word }),
      el('time', { class: 'act-when', datetime: String(e.at ?? ''), title: String(e.at ?? ''), text: ago(e.at) })),
    el('dl', { class: 'act-details' },
      detail('Rule', e.rule ? el('code', { class: 'rule', text: String(e.rule) }) : null),
      detail('Went wrong', e.failed ? el('code', { class: 'rule', text: String(e.failed) }) : null),
      detail('Why', e.why ? String(e.why) : null),
      detail('Seen after', observed),
      detail('Tool', e.act && e.act.tool ? String(e.act.tool) : null),
      detail('Read', Array.isArray(e.read) && e.read.length ? e.read.map((r) => `${r.path || 'the folder'} (${formatBytes(r.bytes)})`).join(', ') : null),
      detail('Entry', `${e.instance ?? ''} · seq ${e.seq ?? ''}${e.attempt != null ? ` (completes ${e.attempt})` : ''}${e.turn ? ` · turn ${e.turn}` : ''}`))));
}

/** Entries with an attempt's completion in `entries` drop the attempt: one row per act. */
function merged(entries) {
  const completed = new Set(entries.filter((e) => e.attempt != null).map((e) => `${e.instance}:${e.attempt}`));
  return entries.filter((e) => !(e.decision === 'attempt' && completed.has(`${e.instance}:${e.seq}`)));
}

/** The core's verdict on one file's chain, word for word, for the details. */
function verdictText(f) {
  const v = f.verdict;
  const name = String(f.name);
  if (v.verdict === 'broken') {
    const seq = v.seq != null ? ` (seq ${v.seq})` : '';
    return `${name}: the chain is broken at line ${v.line}${seq}: ${v.kind} — ${v.why}`;
  }
  if (v.verdict === 'missing') return `${name}: missing — ${v.why}`;
  if (v.verdict === 'unreadable') return `${name}: not read — ${v.why}`;
  const parts = [];
  if (v.entries != null) parts.push(`${v.entries} entries, last seq ${v.last_seq}`);
  if (v.unchained) parts.push(`${v.unchained} unchained (written before the chain)`);
  if (v.verdict === 'unanchored') return `${name}: not written by this host (it has no anchor for the file) — ${parts.join('; ')}`;
  if (v.verdict === 'unanchored-tail') {
    return `${name}: ${v.after} entries from line ${v.line} follow the host's last line (seq ${v.anchored_seq}); it did not write them — ${parts.join('; ')}`;
  }
  if (v.anchored === false) parts.push('no anchor on this host (lines cut from the end would not show)');
  if (v.why) parts.push(String(v.why));
  return `${name}: ${v.verdict === 'ok' ? 'chain ok' : String(v.verdict)} — ${parts.join('; ')}`;
}

/** What the person is told first about a verdict the core cannot vouch for. */
const BANNER_HEADS = {
  missing: 'A log Voicebox wrote in this folder is missing: it was removed, renamed or replaced.',
  unreadable: 'Part of this activity log cannot be read.',
  unanchored: 'This activity log holds entries Voicebox did not write.',
  'unanchored-tail': 'Entries were added to this activity log after Voicebox\'s last one; Voicebox did not write them.',
};

/**
 * What a verdict means for the person: an intact log is one quiet line; a
 * torn last line (an interrupted write) is a note; any other verdict (the
 * chain broken, or anything the core cannot vouch for) is a banner that
 * says what it means and what to do, with the core's words in its details.
 */
function verdictNote(f) {
  const v = f.verdict;
  if (!v || typeof v !== 'object') return null;
  const exact = detailsNode([['Check', verdictText(f)]]);
  if (v.verdict === 'ok') {
    return el('p', { class: 'note audit-ok', text: `All ${v.entries} ${v.entries === 1 ? 'entry checks' : 'entries check'} out.` });
  }
  if (v.verdict === 'torn') {
    return el('div', { class: 'warn' }, el('p', { text: 'The last entry was cut short (Voicebox stopped while writing it); everything before it checks out.' }), exact);
  }
  const where = v.seq != null ? ` at entry ${v.seq}` : v.line != null ? ` at line ${v.line}` : '';
  const head = v.verdict === 'broken'
    ? `This activity log was changed after it was written${where}.`
    : BANNER_HEADS[v.verdict] || 'This activity log cannot be shown to be complete and unchanged.';
  return el('div', { class: 'audit-banner', role: 'alert' },
    el('p', { class: 'audit-banner-head', text: head }),
    el('p', { text: 'Entries from there on cannot be trusted. Export the log to keep a copy, and find out who else can write to this folder.' }),
    exact);
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
 * createAudit(section, {page, verify}, {listFiles}) → { refresh(), highlight(seq) }
 * Builds the activity panel inside `section`. `page(cursor)` resolves with the
 * core's audit page (`cursor` absent for the newest page); `verify()` with the
 * core's check of every file, which reads the whole log and so is asked for
 * after the page is shown. `listFiles` names the files read.
 */
export function createAudit(section, { page: load, verify }, { listFiles = false } = {}) {
  const { body, notes, banner, refreshButton, exportButton, background } = buildPanel(section);
  let generation = 0;
  let next = null;
  let seen = [];
  const older = el('button', { type: 'button', class: 'ghost', text: 'Older', hidden: true });
  body.after(older);

  const showBackground = () => body.classList.toggle('with-background', background.checked);
  background.addEventListener('change', showBackground);

  function render() {
    const rows = document.createDocumentFragment();
    for (const e of merged(seen)) rows.append(row(e));
    fill(body, rows);
    if (!body.querySelector('.activity-row:not(.background)')) {
      body.append(el('li', { class: 'note empty-activity', text: seen.length ? 'Only background reads so far.' : 'Nothing recorded yet.' }));
    }
  }

  function showPage(answer, more) {
    const entries = Array.isArray(answer.entries) ? answer.entries : [];
    seen = more ? seen.concat(entries) : entries;
    render();
    next = typeof answer.next === 'string' ? answer.next : null;
    older.hidden = next === null;
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
      fill(notes, errorNode(err, 'Could not read the activity log'));
      return;
    }
    if (mine !== generation) return;
    refreshButton.disabled = false;
    older.disabled = false;
    if (!answer || answer.ok !== true) {
      if (cursor === undefined) clear(body);
      older.hidden = true;
      fill(notes, refusalNode(answer || {}, 'No activity log'));
      return;
    }
    if (cursor !== undefined) {
      showPage(answer, true);
      return;
    }
    showPage(answer, false);
    fill(notes, el('p', { class: 'note', text: 'Checking that the log is intact…' }));
    let check;
    try {
      check = await verify();
    } catch (err) {
      if (mine === generation) fill(notes, errorNode(err, 'Could not check the activity log'));
      return;
    }
    if (mine !== generation) return;
    if (!check || check.ok !== true) {
      fill(notes, refusalNode(check || {}, 'The activity log could not be checked'));
      return;
    }
    // A log that cannot be trusted says so above the feed, not under it.
    const found = fileNotes(Array.isArray(check.files) ? check.files : [], listFiles);
    const alarming = (n) => n.classList.contains('audit-banner');
    fill(banner, found.filter(alarming));
    fill(notes, found.filter((n) => !alarming(n)));
  }

  /** Every entry of the log (page by page), one JSON line each, as a download. */
  async function exportAll() {
    exportButton.disabled = true;
    const lines = [];
    try {
      let cursor;
      for (let i = 0; i < EXPORT_PAGES; i += 1) {
        const answer = await load(cursor);
        if (!answer || answer.ok !== true) break;
        for (const e of answer.entries || []) lines.push(JSON.stringify(e));
        if (typeof answer.next !== 'string') break;
        cursor = answer.next;
      }
    } catch (err) {
      fill(notes, errorNode(err, 'Could not export the activity log'));
      return;
    } finally {
      exportButton.disabled = false;
    }
    download('voicebox-activity.jsonl', lines.reverse().join('\n') + (lines.length ? '\n' : ''), 'application/x-ndjson');
  }

  /** Opens and marks the row of `seq` (the newest writer's), scrolling it into view. */
  function highlight(seq) {
    const target = body.querySelector(`.activity-row[data-seq="${CSS.escape(String(seq))}"]`);
    if (!target) return false;
    for (const marked of body.querySelectorAll('.highlight')) marked.classList.remove('highlight');
    target.classList.add('highlight');
    target.querySelector('details').open = true;
    target.scrollIntoView({ block: 'center' });
    return true;
  }

  const refresh = () => fetchPage(undefined);
  refreshButton.addEventListener('click', refresh);
  exportButton.addEventListener('click', exportAll);
  older.addEventListener('click', () => { if (next !== null) fetchPage(next); });
  showBackground();
  return { refresh, highlight };
}
