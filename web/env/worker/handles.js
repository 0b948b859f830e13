// handles.js — picked folders: their handles kept in IndexedDB under an id,
// and the permission a handle has now. The worker never asks for access (that
// needs the person's click, on the page).

import { hex } from './words.js';

// Picked folders: { id, handle, label, name } records in IndexedDB. A
// FileSystemDirectoryHandle can be stored there (and nowhere else that lasts).
const HANDLE_DB = 'voicebox';
const HANDLE_STORE = 'handles';

function handleDb() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(HANDLE_DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(HANDLE_STORE, { keyPath: 'id' });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function handleStore(mode, work) {
  const db = await handleDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(HANDLE_STORE, mode);
      const result = work(tx.objectStore(HANDLE_STORE));
      tx.oncomplete = () => resolve(result.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export async function keptHandle(id) {
  const kept = await handleStore('readonly', (store) => store.get(String(id)));
  if (!kept || !kept.handle) {
    const e = new Error(`no picked folder is kept under ${JSON.stringify(id)} in this browser; pick the folder again`);
    e.name = 'NotFoundError';
    throw e;
  }
  return kept.handle;
}

/** The permission a handle has for `mode` now (OPFS handles answer "granted"). */
export async function permission(handle, mode) {
  return typeof handle.queryPermission === 'function' ? handle.queryPermission({ mode }) : 'granted';
}

/**
 * Never touches a root whose permission for `mode` is not granted: on a
 * `prompt` handle some calls wait for ever for an answer no one can give.
 */
export async function guard(handle, mode) {
  if (!mode) return;
  const state = await permission(handle, mode);
  if (state === 'granted') return;
  const e = new Error(`the browser's permission to ${mode === 'read' ? 'read' : 'change'} this folder is "${state}"`);
  e.name = 'NotAllowedError';
  e.permission = state;
  throw e;
}

/** Keeps a picked (or dropped) folder's handle under a fresh id; the page then opens it. */
export async function adopt(request) {
  const handle = request.handle;
  if (!handle || handle.kind !== 'directory' || typeof handle.getDirectoryHandle !== 'function') {
    return { answer: { ok: false, error: { name: 'TypeMismatchError', message: 'adopt takes a folder handle (FileSystemDirectoryHandle)' } } };
  }
  // The same folder picked again is the same project, not a second one.
  const kept = await handleStore('readonly', (store) => store.getAll());
  for (const record of kept || []) {
    if (record.handle && await record.handle.isSameEntry(handle).catch(() => false)) {
      return { answer: { ok: true, id: record.id, name: record.name, label: record.label, again: true } };
    }
  }
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  const id = `h_${hex(bytes)}`;
  const label = String(request.label ?? handle.name);
  const name = String(request.name ?? '');
  await handleStore('readwrite', (store) => store.put({ id, handle, label, name, keptAt: Date.now() }));
  return { answer: { ok: true, id, name, label, again: false } };
}

/** Forgets the handle kept under `id` (the folder itself is not touched). */
export async function dropHandle(id) {
  await handleStore('readwrite', (store) => store.delete(String(id)));
}
