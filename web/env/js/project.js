// project.js — the header's project facts, all from the record the core returned
// with `open`, and the list of projects this browser has (the registry the worker
// keeps). Display only.

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

/**
 * The open project's facts: the record, the permission the core found at
 * open (`access`: read/write states) and where this tab's audit goes.
 */
export function showProject(record, access = null, auditAt = null) {
  const accessText = access
    ? (access.read === 'granted' && access.write === 'granted'
      ? 'read and write'
      : `read ${ACCESS_WORDS[access.read] ?? String(access.read)}, write ${ACCESS_WORDS[access.write] ?? String(access.write)}`)
    : '—';
  $('project-access').textContent = record ? accessText : '—';
  $('project-allow').hidden = !(record && record.location && record.location.kind === 'handle'
    && access && !(access.read === 'granted' && access.write === 'granted'));
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
  $('project-persist').hidden = !(d && !d.persisted && navigator.storage && navigator.storage.persist);
}

/**
 * The registry's projects as buttons; `onPick(project)` opens one and
 * `onForget(project)` forgets a picked folder (the folder is not touched).
 */
export function showProjects(list, projects, current, onPick, onForget) {
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
      text: p.record && p.record.location && p.record.location.kind === 'handle'
        ? `${p.name} (${String(p.record.location.label ?? 'picked folder')})`
        : String(p.name),
    });
    button.addEventListener('click', () => onPick(p));
    if (!(p.record && p.record.location && p.record.location.kind === 'handle')) return el('li', {}, button);
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
