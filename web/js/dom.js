// dom.js — the one way this page builds elements: createElement, text nodes and a
// short list of safe attributes. Data never becomes markup here.

const SAFE_ATTRS = new Set([
  'type', 'id', 'for', 'name', 'placeholder', 'autocomplete', 'title', 'value',
  'role', 'tabindex', 'colspan', 'scope', 'datetime', 'lang', 'spellcheck',
  'method', 'hidden', 'disabled', 'open', 'href', 'autofocus',
]);

function checkAttr(name, value) {
  const lower = String(name).toLowerCase();
  if (lower.startsWith('on')) throw new Error(`el: event-handler attribute refused: ${name}`);
  if (lower === 'style') throw new Error('el: style attribute refused; use a class');
  if (lower === 'href') {
    const v = String(value).trim();
    // Only in-page anchors and same-origin paths.
    if (!(v.startsWith('#') || (v.startsWith('/') && !v.startsWith('//')))) {
      throw new Error(`el: href refused: ${v}`);
    }
  }
  if (!(SAFE_ATTRS.has(lower) || lower.startsWith('aria-') || lower.startsWith('data-'))) {
    throw new Error(`el: attribute not on the safe list: ${name}`);
  }
}

function appendChildren(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) appendChildren(node, child);
    else if (child instanceof Node) node.append(child);
    else node.append(document.createTextNode(String(child)));
  }
}

/**
 * el('li', {class: 'file', text: name, 'data-x': 1}, ...children)
 * `class` may be a string or an array; `text` becomes a text node; other keys
 * must be safe attributes. Strings among children become text nodes.
 */
export function el(tag, opts = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(opts || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') {
      const list = Array.isArray(value) ? value : String(value).split(/\s+/);
      for (const c of list) if (c) node.classList.add(c);
    } else if (key === 'text') {
      node.append(document.createTextNode(String(value)));
    } else {
      checkAttr(key, value);
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  appendChildren(node, children);
  return node;
}

/** Removes every child of a node. */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Replaces a node's children with the given ones. */
export function fill(node, ...children) {
  clear(node);
  appendChildren(node, children);
  return node;
}

/** Saves `text` as a file called `name` (a blob: link clicked once, then let go). */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { class: 'visually-hidden' });
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "12 B", "3.4 KB", "1.2 MB" — for display only. */
export function formatBytes(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
