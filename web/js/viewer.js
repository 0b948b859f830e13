// viewer.js — the file viewer of the folder panel (files.js), the same on the
// server's page and the environment page. It shows what the executor read; Edit
// turns it into a textarea; Save first shows the executor's `diff` (which never
// writes) and only a second Save sends the `write`; Delete sends the `delete`
// verb, which asks first (answered in the shared dialog). Every act is an action
// through the page's source, so the core contains, decides and audits it; this
// file only renders and passes answers on. A picture is shown as
// <img src="blob:…"> (a Blob typed from the name's extension — an image cannot run
// script); everything else is text. Nothing typed in the editor is lost on a
// refusal: the textarea keeps it until the person saves or cancels.

import { el, fill } from './dom.js';
import { refusalNode, errorNode, didNode } from './transcript.js';
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
  let url = null; // the blob: URL the picture and the download use
  let pendingDiff = false; // the diff of the editor's text is shown; the next Save writes

  const edit = el('button', { type: 'button', id: 'viewer-edit', class: 'ghost', text: 'Edit' });
  const download = withProps(document.createElement('a'), { id: 'viewer-download', className: 'button-link ghost', textContent: 'Download' });
  const remove = el('button', { type: 'button', id: 'viewer-delete', class: 'ghost danger-text', text: 'Delete' });
  const save = el('button', { type: 'button', id: 'viewer-save', class: 'primary', text: 'Save' });
  const cancel = el('button', { type: 'button', id: 'viewer-cancel', text: 'Cancel' });
  const viewTools = el('div', { class: 'viewer-tools', role: 'group', 'aria-label': 'File' }, edit, download, remove);
  const editTools = el('div', { class: 'viewer-tools', role: 'group', 'aria-label': 'Editing', hidden: true }, save, cancel);
  const editor = withProps(el('textarea', { id: 'viewer-editor', class: 'editor', spellcheck: 'false', 'aria-label': 'File content' }), { rows: 8 });
  const answer = el('div', { id: 'viewer-answer', class: 'viewer-answer', 'aria-live': 'polite' });
  viewerBody.before(viewTools, editTools);

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
      fill(viewerBody, content === '' ? el('p', { class: 'note', text: '(empty file)' }) : el('pre', { class: 'content', tabindex: '0', 'aria-label': 'What the file holds', text: content }),
        fill(answer));
      edit.hidden = false;
    }
  }

  function close() {
    forgetUrl();
    name = null;
    content = null;
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
      const reply = await settle(source, await source.act({ verb: 'write', name: target, content: text, mode: 'replace' }));
      onChange();
      if (name !== target) return;
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

  async function deleteFile() {
    const target = name;
    remove.disabled = true;
    try {
      const reply = await settle(source, await source.act({ verb: 'delete', name: target }));
      onChange();
      if (name !== target) return;
      if (reply && reply.ok === true) {
        close();
        fill(viewerBody, didNode(reply));
      } else {
        // The person's No (declined) or a refusal: the file stays shown, with the answer under it.
        fill(answer, refusalNode(reply || {}, 'Not deleted'));
      }
    } catch (err) {
      fill(answer, errorNode(err, 'Not deleted'));
    } finally {
      remove.disabled = false;
    }
  }

  edit.addEventListener('click', startEdit);
  cancel.addEventListener('click', cancelEdit);
  save.addEventListener('click', saveEdit);
  remove.addEventListener('click', deleteFile);
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
