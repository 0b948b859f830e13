// changes.js — the Changes view: what changed in the folder since its last
// commit, as the server's `changes` answer says it, with a badge naming the
// branch and whether anything is uncommitted. A file opens its diff against
// the last commit. The server reads the repository and decides everything
// (which files, their counts, the refusals); this only shows and relays.
// A folder with no repository, or a page with no reader for one, shows
// neither the badge nor the view, and is not asked again (each ask is an
// audited look) until the page loads or the folder is switched.

import { el, fill } from './dom.js';
import { refusalNode, errorNode, prose } from './answer.js';

/** The rules that mean "no history to show here". */
const ABSENT = ['not-a-repository', 'absent-capability', 'root-not-declared'];

const KINDS = { added: 'new', modified: 'changed', removed: 'removed', renamed: 'renamed' };

/** createChanges(section, badge, tab, {act}) → { refresh(), reset() } */
export function createChanges(section, badge, tab, { act }) {
  const refreshButton = el('button', { id: 'changes-refresh', type: 'button', class: 'ghost', text: 'Refresh' });
  const note = el('div', { id: 'changes-note', class: 'audit-notes', role: 'status' });
  const list = el('ul', { id: 'changes-list', class: 'files' });
  const diff = el('pre', { id: 'changes-diff', class: 'changes-diff', hidden: true });
  section.append(
    el('div', { class: 'panel-head' },
      el('h2', { id: 'changes-title', text: 'Changes' }),
      el('div', { class: 'panel-tools' }, refreshButton)),
    note, list, diff);
  refreshButton.addEventListener('click', () => refresh());

  function shown(yes) {
    section.hidden = !yes;
    badge.hidden = !yes;
    tab.hidden = !yes;
  }

  async function ask(action) {
    try {
      return (await act(action)).result || {};
    } catch (err) {
      fill(note, errorNode(err, 'The server did not answer'));
      return null;
    }
  }

  async function open(change) {
    const reply = await ask({ verb: 'diff', name: change.path, against: 'last commit' });
    if (!reply) return;
    if (reply.ok !== true) {
      fill(note, refusalNode(reply, 'Not shown'));
      return;
    }
    fill(note, el('p', { class: 'note' }, prose(String(reply.words ?? ''))));
    diff.textContent = reply.diff || '';
    diff.hidden = !reply.diff;
  }

  function item(change) {
    const counts = change.binary ? 'binary' : `+${change.added} −${change.removed}`;
    const from = change.from ? ` (from ${change.from})` : '';
    const button = el('button', { type: 'button', class: 'file-button', title: `What changed in ${change.path}` },
      el('span', { class: 'file-name', text: `${change.path}${from}` }),
      el('span', { class: 'file-size', text: `${KINDS[change.kind] ?? change.kind} · ${counts}` }));
    button.addEventListener('click', () => open(change));
    return el('li', { class: 'file is-file', 'data-kind': change.kind }, button);
  }

  let absent = false;

  async function refresh() {
    if (absent) return;
    const reply = await ask({ verb: 'changes' });
    if (!reply) return;
    if (reply.ok !== true) {
      absent = ABSENT.includes(String(reply.refused));
      shown(!absent);
      fill(note, refusalNode(reply, 'Not read'));
      return;
    }
    shown(true);
    const changed = reply.total ?? 0;
    badge.textContent = `${reply.branch ?? 'detached'} · ${changed ? `${changed} uncommitted` : 'all committed'}`;
    badge.dataset.dirty = String(changed > 0);
    badge.title = reply.words ?? '';
    fill(note, el('p', { class: 'note' }, prose(String(reply.words ?? ''))));
    fill(list, ...(reply.changes ?? []).map(item));
    diff.hidden = true;
  }

  /** Another folder: ask it afresh. */
  function reset() {
    absent = false;
    shown(false);
  }

  shown(false);
  return { refresh, reset };
}
