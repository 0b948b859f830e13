// project.js — the header's project: one switcher (the projects this browser
// has, from the registry the worker keeps) and one status chip in plain words
// ("atlas · in this browser · the browser may clear it — Keep"). The record's
// internals (id, placement, root, audit file, undo, writer) are kept behind
// the header's "Projects" <details>. Everything shown comes from the record
// the core returned with `open`; display only.

import { el, fill } from '../../js/dom.js';

const $ = (id) => document.getElementById(id);

function where(location) {
  if (!location || typeof location !== 'object') return '—';
  const kind = { opfs: 'this browser’s private storage', handle: 'a folder you picked' }[location.kind] ?? String(location.kind ?? '');
  const path = location.path ?? location.label ?? location.id;
  return path != null ? `${kind}: ${path}` : kind;
}

const ACCESS_WORDS = {
  granted: 'granted',
  prompt: 'not yet granted (needs your click)',
  denied: 'denied',
  unreachable: 'folder not reachable',
};

const picked = (record) => !!(record && record.location && record.location.kind === 'handle');
const granted = (access) => !!(access && access.read === 'granted' && access.write === 'granted');

/** The chip's words for the open project: its name, where it lives, and what it needs. */
function chipWords(record, access) {
  if (!record) return { state: 'none', text: 'no project open' };
  const name = String(record.name ?? '');
  if (picked(record)) {
    const label = String(record.location.label ?? 'a folder you picked');
    if (granted(access) || !access) return { state: 'ok', text: `${name} · your folder ${label}` };
    const read = access.read === 'granted';
    return { state: 'needs', text: `${name} · your folder ${label} · ${read ? 'read only' : 'no access'}` };
  }
  const d = record.durability;
  if (d && !d.persisted) return { state: 'needs', text: `${name} · in this browser · the browser may clear it` };
  return { state: 'ok', text: `${name} · in this browser${d && d.persisted ? ' · kept' : ''}` };
}

/**
 * The open project: the chip, the Keep and Allow access buttons, and the
 * details. `access` is the permission the core found at open (read/write
 * states) and `auditAt` where this tab's audit goes.
 */
export function showProject(record, access = null, auditAt = null) {
  const chip = chipWords(record, access);
  $('project-chip').dataset.state = chip.state;
  $('project-chip-text').textContent = chip.text;
  $('project-chip').title = record ? `${String(record.id ?? '')} — ${where(record.location)}` : '';

  const accessText = access
    ? (granted(access)
      ? 'read and write'
      : `read ${ACCESS_WORDS[access.read] ?? String(access.read)}, write ${ACCESS_WORDS[access.write] ?? String(access.write)}`)
    : '—';
  $('project-access').textContent = record ? accessText : '—';
  $('project-allow').hidden = !(picked(record) && access && !granted(access));
  $('project-audit').textContent = record && auditAt
    ? `${auditAt.in === 'origin' ? 'this browser (the folder may not be written): ' : 'in the folder: '}${String(auditAt.file ?? '')}`
    : '—';
  $('project-id').textContent = record ? String(record.id ?? '') : 'none open';
  $('project-placement').textContent = record ? String(record.placement ?? '') : '—';
  $('project-location').textContent = record ? where(record.location) : '—';
  $('project-root').textContent = record && record.root ? String(record.root.path ?? record.root.label ?? '') : '—';
  $('project-undo').textContent = record ? String(record.undoKind ?? '') : '—';
  const d = record && record.durability;
  const persisted = $('project-persisted');
  if (d) {
    persisted.textContent = d.persisted ? 'persisted' : 'not persisted (the browser may evict it)';
    persisted.title = d.checkedAt ? `checked ${d.checkedAt}` : '';
    persisted.dataset.persisted = d.persisted ? 'true' : 'false';
  } else {
    persisted.textContent = '—';
    persisted.title = '';
    delete persisted.dataset.persisted;
  }
  $('project-persist').hidden = !(d && !d.persisted && !picked(record) && navigator.storage && navigator.storage.persist);
}

const labelOf = (p) => (picked(p.record)
  ? `${p.name} (${String(p.record.location.label ?? 'picked folder')})`
  : String(p.name));

/**
 * The registry's projects: options of the switcher (choosing one opens it,
 * `onPick(project)`), and the list behind "Projects" where a picked folder can
 * be forgotten (`onForget(project)`; the folder itself is not touched).
 */
export function showProjects(select, list, projects, current, onPick, onForget) {
  const options = projects.map((p) => el('option', { value: String(p.name), text: labelOf(p) }));
  if (current == null) options.unshift(el('option', { value: '', text: projects.length ? 'Choose a project…' : 'No project yet' }));
  fill(select, options);
  select.value = current != null ? String(current) : '';
  select.onchange = () => {
    const p = projects.find((q) => String(q.name) === select.value);
    if (p) onPick(p);
  };

  if (!projects.length) {
    fill(list, el('li', { class: 'note', text: 'none yet' }));
    return;
  }
  fill(list, projects.map((p) => {
    const button = el('button', {
      type: 'button',
      class: ['project-pick', p.name === current ? 'current' : ''],
      title: p.record && p.record.lastUsed ? `last opened ${p.record.lastUsed}` : null,
      'aria-current': p.name === current ? 'true' : null,
      text: labelOf(p),
    });
    button.addEventListener('click', () => onPick(p));
    if (!picked(p.record)) return el('li', {}, button);
    const forget = el('button', {
      type: 'button',
      class: 'project-forget ghost inline',
      title: 'Forget this folder here (its files stay where they are)',
      'aria-label': `Forget ${String(p.name)}`,
      text: '×',
    });
    forget.addEventListener('click', () => onForget(p));
    return el('li', {}, button, forget);
  }));
}
