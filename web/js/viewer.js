// viewer.js — the file viewer of the folder panel (files.js), the same on the
// server's page and the environment page. It shows what the executor read; Edit
// turns it into a textarea; Save first shows the executor's `diff` (which never
// writes) and only a second Save sends the `write`; Delete sends the `delete`
// verb, which asks first (answered in the shared dialog). Every act is an action
// through the page's source, so the core contains, decides and audits it; this
// file only renders and passes answers on. A picture is shown as
// <img src="blob:…"> (a Blob typed from the name's extension — an image cannot run
// script); everything else is text. Nothing typed in the editor is lost on a
// refusal: the textarea keeps it until the person saves or cancels. Every
// change sends `expect` (the sha256 the read answered), so a Save made on an
// old copy is refused `changed-since-read`: the newer copy and how the editor's
// text differs from it are shown, and the next Save is the person's choice. A
// Markdown checklist shows its items as checkboxes that tick through
// `check_item` (audited, undoable) — the executor finds the item, not this file.

import { el, fill } from './dom.js';
import { refusalNode, errorNode, didNode, pressed } from './answer.js';
import { pictureType } from './picture.js';

const baseName = (name) => String(name).slice(String(name).lastIndexOf('/') + 1);

/**
 * Answers every confirmation a reply carries: the person is asked in the shared
 * dialog (`source.ask`), the answer is sent (`source.answer`), and the reply that
 * ends it is returned. The executor asks; this only relays.
 */
export async function settle(source, reply) {
  let answer = reply;
  while (answer && typeof answer === 'object' && answer.confirm && typeof answer.confirm === 'object') {
    const approved = await source.ask(answer.confirm);
    answer = await source.answer(answer.confirm.id, approved);
  }
  return answer;
}

/** An element with a DOM property set that `el` keeps off its safe list (blob: URLs, `download`, `rows`). */
function withProps(node, props) {
  Object.assign(node, props);
  return node;
}

/**
 * createViewer({viewer, viewerName, viewerBody, viewerClose}, source, {onRead, onChange})
 * → { show(name), close(), get name() }
 * `onRead` runs after each audited read, `onChange` after an act that changed the folder.
 */
export function createViewer(parts, source, hooks = {}) {
  const { viewer, viewerName, viewerBody, viewerClose } = parts;
  const onRead = hooks.onRead || (() => {});
  const onChange = hooks.onChange || (() => {});
  let name = null; // the file shown
  let content = null; // its text as the executor read it
  let sha = null; // the sha256 the read answered: every change sends it as `expect`
  let url = null; // the blob: URL the picture and the download use
  let pendingDiff = false; // the diff of the editor's text is shown; the next Save writes

  const edit = el('button', { type: 'button', id: 'viewer-edit', class: 'ghost', text: 'Edit' });
  const download = withProps(document.createElement('a'), { id: 'viewer-download', className: 'button-link ghost', textContent: 'Download' });
  const remove = el('button', { type: 'button', id: 'viewer-delete', class: 'ghost danger-text', text: 'Delete' });
  const rename = el('button', { type: 'button', id: 'viewer-move', class: 'ghost', text: 'Rename or move' });
  const moveTo = el('input', { id: 'viewer-move-to', type: 'text', spellcheck: 'false', autocomplete: 'off', 'aria-label': 'New name or place' });
  const moveForm = el('form', { id: 'viewer-move-form', class: 'new-file', autocomplete: 'off', hidden: true },
    el('label', { class: 'field' }, el('span', { text: 'New name' }), moveTo),
    el('div', { class: 'new-file-actions' },
      el('button', { type: 'button', id: 'viewer-move-cancel', text: 'Cancel' }),
      el('button', { type: 'submit', id: 'viewer-move-go', class: 'primary', text: 'Move' })));
  const save = el('button', { type: 'button', id: 'viewer-save', class: 'primary', text: 'Save' });
  const cancel = el('button', { type: 'button', id: 'viewer-cancel', text: 'Cancel' });
  const viewTools = el('div', { class: 'viewer-tools', role: 'group', 'aria-label': 'File' }, edit, rename, download, remove);
  const editTools = el('div', { class: 'viewer-tools', role: 'group', 'aria-label': 'Editing', hidden: true }, save, cancel);
  const editor = withProps(el('textarea', { id: 'viewer-editor', class: 'editor', spellcheck: 'false', 'aria-label': 'File content' }), { rows: 8 });
  const answer = el('div', { id: 'viewer-answer', class: 'viewer-answer', 'aria-live': 'polite' });
  viewerBody.before(viewTools, editTools, moveForm);

  function forgetUrl() {
    if (url) URL.revokeObjectURL(url);
    url = null;
    download.removeAttribute('href');
  }

  /** The read content as a blob: URL, for the picture and the download alike. */
  function blobUrl(text, type) {
    forgetUrl();
    url = URL.createObjectURL(new Blob([text], { type }));
    download.href = url;
    download.download = baseName(name);
    return url;
  }

  function setMode(mode) {
    viewer.classList.toggle('has-file', mode !== 'none');
    viewer.classList.toggle('is-editing', mode === 'edit');
    viewTools.hidden = mode !== 'view';
    editTools.hidden = mode !== 'edit';
    moveForm.hidden = true;
  }

  function showContent() {
    const type = pictureType(name);
    if (type) {
      const img = withProps(document.createElement('img'), { className: 'viewer-picture', alt: baseName(name), decoding: 'async' });
      img.src = blobUrl(content, type);
      fill(viewerBody, el('div', { class: 'picture-frame' }, img), fill(answer));
      edit.hidden = type !== 'image/svg+xml'; // an SVG is text too; other pictures are not edited here
    } else {
      blobUrl(content, 'text/plain;charset=utf-8');
      const shown = content === '' ? el('p', { class: 'note', text: '(empty file)' })
        : checklist(content) || el('pre', { class: 'content', tabindex: '0', 'aria-label': 'What the file holds', text: content });
      fill(viewerBody, shown, fill(answer));
      edit.hidden = false;
    }
  }

  /** A Markdown file with `- [ ]` items, each item a checkbox and every other line as it is; null for any other file. */
  function checklist(text) {
    if (!/\.(md|markdown)$/i.test(name)) return null;
    const item = /^(\s*(?:[-*+]|\d{1,9}[.)]) )\[([ xX])\] (.*)$/;
    const lines = text.split('\n');
    if (!lines.some((line) => item.test(line))) return null;
    const box = el('div', { class: 'content checklist', tabindex: '0', 'aria-label': 'What the file holds' });
    for (const line of lines) {
      const m = item.exec(line);
      if (!m) {
        box.append(el('div', { class: 'checklist-line', text: line || ' ' }));
        continue;
      }
      const words = m[3];
      const tick = withProps(el('input', { type: 'checkbox', class: 'checklist-box', 'aria-label': words }), { checked: m[2] !== ' ' });
      tick.addEventListener('change', () => checkItem(words, tick));
      box.append(el('label', { class: 'checklist-line checklist-item' }, tick, el('span', { text: words })));
    }
    return box;
  }

  /** Ticks or un-ticks one item through the executor; the file is read again after. */
  async function checkItem(words, tick) {
    const target = name;
    tick.disabled = true;
    try {
      const reply = await source.act({ verb: 'check_item', name: target, item: words, done: tick.checked, expect: sha });
      onChange();
      if (name !== target) return;
      if (!reply || reply.ok !== true) {
        tick.checked = !tick.checked;
        fill(answer, refusalNode(reply || {}, 'Not ticked'));
        return;
      }
      await show(target);
      fill(answer, didNode(reply));
    } catch (err) {
      tick.checked = !tick.checked;
      fill(answer, errorNode(err, 'Not ticked'));
    } finally {
      tick.disabled = false;
    }
  }

  function close() {
    forgetUrl();
    name = null;
    content = null;
    sha = null;
    pendingDiff = false;
    viewerName.textContent = '';
    setMode('none');
    fill(viewerBody, el('p', { class: 'note', text: 'Choose a file to see what is in it.' }));
  }

  async function show(target) {
    name = target;
    content = null;
    pendingDiff = false;
    forgetUrl();
    setMode('view');
    viewTools.hidden = true;
    viewerName.textContent = target;
    fill(viewerBody, el('p', { class: 'note', text: 'Reading…' }));
    let reply;
    try {
      reply = await source.read(target);
    } catch (err) {
      if (name === target) fill(viewerBody, errorNode(err, 'Could not read the file'));
      return;
    }
    onRead();
    if (name !== target) return; // another file was chosen meanwhile
    if (!reply || reply.ok !== true) {
      fill(viewerBody, refusalNode(reply || {}, 'Cannot read'));
      return;
    }
    content = typeof reply.content === 'string' ? reply.content : '';
    sha = typeof reply.sha256 === 'string' ? reply.sha256 : null;
    viewTools.hidden = false;
    showContent();
  }

  function startEdit() {
    if (name == null || content == null) return;
    editor.value = content;
    pendingDiff = false;
    save.textContent = 'Save';
    fill(answer);
    fill(viewerBody, editor, answer);
    setMode('edit');
    editor.focus();
  }

  /** Back to the file as read; whatever was typed and not saved is discarded (the person chose Cancel). */
  function cancelEdit() {
    pendingDiff = false;
    setMode('view');
    showContent();
  }

  /** The answer to an act, shown under the editor; the editor keeps its text. */
  function sayInEditor(node) {
    fill(answer, node);
  }

  async function saveEdit() {
    const target = name;
    const text = editor.value;
    save.disabled = true;
    try {
      if (!pendingDiff) {
        // First Save: the executor's diff of what would change (a read; it never writes).
        const reply = await source.act({ verb: 'diff', name: target, content: text });
        onRead();
        if (name !== target) return;
        if (!reply || reply.ok !== true) {
          sayInEditor(refusalNode(reply || {}, 'Cannot compare'));
          return;
        }
        sayInEditor(el('div', { class: 'viewer-diff' }, didNode(reply),
          el('p', { class: 'note', text: 'Nothing is written yet. Save again to write it, or Cancel.' })));
        pendingDiff = true;
        save.textContent = 'Save — write it';
        return;
      }
      const write = { verb: 'write', name: target, content: text, mode: 'replace' };
      if (sha) write.expect = sha;
      const reply = await settle(source, await source.act(write));
      onChange();
      if (name !== target) return;
      if (reply && reply.refused === 'changed-since-read') {
        await newerCopy(target, text, reply);
        return;
      }
      if (!reply || reply.ok !== true) {
        // Refused: the text stays in the editor, with the rule and why under it.
        pendingDiff = false;
        save.textContent = 'Save';
        sayInEditor(refusalNode(reply || {}, 'Not saved'));
        return;
      }
      await show(target);
    } catch (err) {
      sayInEditor(errorNode(err, 'Not saved'));
    } finally {
      save.disabled = false;
    }
  }

  /**
   * The file changed since it was read: what it holds now, and how the editor's
   * text differs from that (the executor's diff). The editor keeps its text; the
   * next Save writes it over the newer copy, now that the person has seen it.
   */
  async function newerCopy(target, text, refused) {
    pendingDiff = false;
    save.textContent = 'Save';
    const now = await source.read(target);
    onRead();
    if (name !== target) return;
    if (!now || now.ok !== true) {
      sayInEditor(refusalNode(refused, 'Not saved'));
      return;
    }
    content = typeof now.content === 'string' ? now.content : '';
    sha = typeof now.sha256 === 'string' ? now.sha256 : null;
    const diff = await source.act({ verb: 'diff', name: target, content: text });
    onRead();
    if (name !== target) return;
    sayInEditor(el('div', { id: 'viewer-newer', class: 'viewer-diff' },
      refusalNode(refused, 'Not saved'),
      el('p', { class: 'note', text: 'It holds this now:' }),
      el('pre', { id: 'viewer-newer-copy', class: 'content', text: content }),
      el('p', { class: 'note', text: 'Your text would change it like this — Save again to write it anyway, or Cancel:' }),
      diff && diff.ok === true ? didNode(diff) : refusalNode(diff || {}, 'Cannot compare')));
  }

  /** Rename or move: the executor's `move` (it asks before replacing a file); the viewer follows the file. */
  async function moveFile(event) {
    event.preventDefault();
    const target = name;
    const to = moveTo.value.trim();
    if (!to || to === target) {
      moveForm.hidden = true;
      return;
    }
    await pressed(moveForm.querySelector('#viewer-move-go'), answer, {
      act: async () => {
        const reply = await settle(source, await source.act({ verb: 'move', name: target, to }));
        onChange();
        return name === target ? reply : undefined;
      },
      done: async (reply) => {
        moveForm.hidden = true;
        await show(typeof reply.to === 'string' ? reply.to : to);
        fill(answer, didNode(reply));
      },
      refused: 'Not moved',
    });
  }

  function deleteFile() {
    const target = name;
    // The person's No (declined) or a refusal: the file stays shown, with the answer under it.
    return pressed(remove, answer, {
      act: async () => {
        const reply = await settle(source, await source.act({ verb: 'delete', name: target }));
        onChange();
        return name === target ? reply : undefined;
      },
      done: (reply) => {
        close();
        fill(viewerBody, didNode(reply));
      },
      refused: 'Not deleted',
    });
  }

  edit.addEventListener('click', startEdit);
  cancel.addEventListener('click', cancelEdit);
  save.addEventListener('click', saveEdit);
  remove.addEventListener('click', deleteFile);
  rename.addEventListener('click', () => {
    moveForm.hidden = !moveForm.hidden;
    if (!moveForm.hidden) {
      moveTo.value = name || '';
      moveTo.focus();
    }
  });
  moveForm.querySelector('#viewer-move-cancel').addEventListener('click', () => { moveForm.hidden = true; });
  moveForm.addEventListener('submit', moveFile);
  // A change after the diff was shown makes that diff stale: the next Save shows a new one.
  editor.addEventListener('input', () => {
    if (!pendingDiff) return;
    pendingDiff = false;
    save.textContent = 'Save';
    fill(answer, el('p', { class: 'note', text: 'Changed since the diff; Save shows the new one.' }));
  });
  viewerClose.addEventListener('click', close);
  close();

  return {
    show,
    close,
    get name() { return name; },
  };
}
