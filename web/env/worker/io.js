// io.js — the I/O the core parks, performed as the Rust stand-in
// `Worker::perform` (crates/web/tests/artifact.rs) does, against the request's
// root. Paths are relative to the root, "/"-separated, already contained by the
// core; this file never checks, rewrites or normalises one.

import { words } from './words.js';
import { guard, permission } from './handles.js';
import { ORIGIN } from './roots.js';
import { opRunTool } from './tool.js';

function segments(path) {
  return path === '' ? [] : String(path).split('/');
}

/** The folder holding the path's last segment, and that segment. */
async function parentOf(root, path, create) {
  const parts = segments(path);
  const last = parts.pop();
  let dir = root;
  for (const part of parts) dir = await dir.getDirectoryHandle(part, { create });
  return [dir, last];
}

/** The folder at `path` itself ("" is the root). */
async function folderAt(root, path) {
  let dir = root;
  for (const part of segments(path)) dir = await dir.getDirectoryHandle(part);
  return dir;
}

const ok = () => [{ ok: true }, new Uint8Array(0)];

/**
 * A file's contents. A File is a snapshot: if another tab appends between
 * getFile() and the read, the read fails with NotReadableError — take a new
 * snapshot and read again (a few times), as any reader of a live file must.
 */
async function contents(handle, as = 'bytes') {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const file = await handle.getFile();
      return as === 'text' ? await file.text() : new Uint8Array(await file.arrayBuffer());
    } catch (e) {
      if (e.name !== 'NotReadableError' || attempt >= 5) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

/**
 * Changes to one file are made one at a time across every tab of this origin:
 * OPFS gives a sync access handle to one holder only, and two tabs append to the
 * same undo journal. A Web Lock per file makes the second wait instead of fail.
 */
function oneAtATime(root, path, change) {
  if (!(navigator.locks && typeof navigator.locks.request === 'function')) return busyRetry(change);
  return navigator.locks.request(`voicebox-file:${root.key}:${path}`, () => busyRetry(change));
}

/** Where another holder (outside the lock) has the file open, wait briefly and try again. */
async function busyRetry(change) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await change();
    } catch (e) {
      if (e.name !== 'NoModificationAllowedError' || attempt >= 20) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

/** A file's bytes and size; past `io.max` bytes only the size (the core names the refusal). */
async function opRead(root, io) {
  const [dir, name] = await parentOf(root, io.path, false);
  const handle = await dir.getFileHandle(name);
  const { size } = await handle.getFile();
  if (typeof io.max === 'number' && size > io.max) return [{ ok: true, size }, new Uint8Array(0)];
  const bytes = await contents(handle);
  return [{ ok: true, size: bytes.length }, bytes];
}

async function opWrite(root, io, data) {
  const [dir, name] = await parentOf(root, io.path, true);
  const handle = await dir.getFileHandle(name, { create: true });
  // createWritable writes a swap file and replaces the file on close: never half-written.
  await writeWhole(await handle.createWritable(), data);
  return ok();
}

/** Writes `data` through `writable` and closes it; on failure aborts, so nothing half-written lands. */
export async function writeWhole(writable, data, at) {
  try {
    if (at !== undefined) await writable.seek(at);
    await writable.write(data);
    await writable.close();
  } catch (e) {
    await writable.abort().catch(() => {});
    throw e;
  }
}

async function opAppend(root, io, data) {
  const [dir, name] = await parentOf(root, io.path, true);
  const handle = await dir.getFileHandle(name, { create: true });
  if (typeof handle.createSyncAccessHandle === 'function') {
    const access = await handle.createSyncAccessHandle();
    try {
      const size = access.getSize();
      try {
        const written = access.write(data, { at: size });
        if (written !== data.length) {
          const e = new Error(`wrote ${written} of ${data.length} bytes`);
          e.name = 'QuotaExceededError';
          throw e;
        }
        access.flush();
      } catch (e) {
        access.truncate(size); // never leave part of a line behind
        throw e;
      }
    } finally {
      access.close();
    }
    return ok();
  }
  const file = await handle.getFile();
  await writeWhole(await handle.createWritable({ keepExistingData: true }), data, file.size);
  return ok();
}

async function opRemove(root, io) {
  const [dir, name] = await parentOf(root, io.path, false);
  await dir.getFileHandle(name); // a file, never a folder (TypeMismatchError otherwise)
  await dir.removeEntry(name);
  return ok();
}

/** An error named as the core reads it (crates/web/src/storage.rs). */
function named(name, message) {
  const e = new Error(message);
  e.name = name;
  return e;
}

/** The entry `name` of `dir`: its handle, or null when there is none. */
async function entryOf(dir, name) {
  for (const kind of ['file', 'directory']) {
    try {
      return kind === 'file' ? await dir.getFileHandle(name) : await dir.getDirectoryHandle(name);
    } catch (e) {
      if (e.name !== 'NotFoundError' && e.name !== 'TypeMismatchError') throw e;
    }
  }
  return null;
}

/** Copies a file or a folder's whole tree into `dir` as `name`. */
async function copyInto(handle, dir, name) {
  if (handle.kind === 'file') {
    const target = await dir.getFileHandle(name, { create: true });
    await writeWhole(await target.createWritable(), await contents(handle));
    return;
  }
  const folder = await dir.getDirectoryHandle(name, { create: true });
  for await (const [child, entry] of handle.entries()) await copyInto(entry, folder, child);
}

/**
 * Gives a file or folder a new name (the core asked the person before a file
 * is replaced): the platform's own move where it has one, else a copy and a
 * removal. A folder never replaces anything (ExistsError).
 */
async function opRename(root, io) {
  const [from, name] = await parentOf(root, io.path, false);
  const handle = await entryOf(from, name);
  if (handle === null) throw named('NotFoundError', `${io.path} is not there`);
  const [to, newName] = await parentOf(root, io.to, true);
  const there = await entryOf(to, newName);
  if (there !== null && (there.kind === 'directory' || handle.kind === 'directory')) {
    throw named('ExistsError', `${io.to} is taken`);
  }
  if (there !== null) await to.removeEntry(newName);
  if (typeof handle.move === 'function') {
    try {
      await handle.move(to, newName);
      return ok();
    } catch (e) {
      if (e.name !== 'NotSupportedError' && !(e instanceof TypeError)) throw e;
    }
  }
  await copyInto(handle, to, newName);
  await from.removeEntry(name, { recursive: handle.kind === 'directory' });
  return ok();
}

/** Makes a folder and the folders above it; `made: false` when it was there. */
async function opMkdir(root, io) {
  const [dir, name] = await parentOf(root, io.path, true);
  const there = await entryOf(dir, name);
  if (there !== null && there.kind === 'file') throw named('ExistsError', `${io.path} is a file`);
  if (there === null) await dir.getDirectoryHandle(name, { create: true });
  return [{ ok: true, made: there === null }, new Uint8Array(0)];
}

/** Removes an empty folder; anything in it (hidden files too) is NotEmptyError. */
async function opRmdir(root, io) {
  const [dir, name] = await parentOf(root, io.path, false);
  const folder = await dir.getDirectoryHandle(name);
  for await (const _ of folder.keys()) throw named('NotEmptyError', `${io.path} is not empty`);
  await dir.removeEntry(name);
  return ok();
}

async function opObserve(root, io) {
  if (segments(io.path).length === 0) return [{ exists: true, dir: true, bytes: 0 }, new Uint8Array(0)];
  const absent = [{ exists: false, dir: false, bytes: 0 }, new Uint8Array(0)];
  let dir;
  let name;
  try {
    [dir, name] = await parentOf(root, io.path, false);
  } catch (e) {
    if (e.name === 'NotFoundError' || e.name === 'TypeMismatchError') return absent;
    throw e;
  }
  try {
    const file = await (await dir.getFileHandle(name)).getFile();
    return [{ exists: true, dir: false, bytes: file.size, mtime: file.lastModified }, new Uint8Array(0)];
  } catch (e) {
    if (e.name === 'NotFoundError') return absent;
    if (e.name !== 'TypeMismatchError') throw e;
  }
  await dir.getDirectoryHandle(name);
  return [{ exists: true, dir: true, bytes: 0 }, new Uint8Array(0)];
}

async function opList(root, io) {
  const dir = await folderAt(root, io.path);
  const entries = [];
  for await (const [name, handle] of dir.entries()) {
    const isDir = handle.kind === 'directory';
    entries.push({ name, dir: isDir, bytes: isDir ? 0 : (await handle.getFile()).size });
  }
  return [{ ok: true, entries }, new Uint8Array(0)];
}

async function opReadAudit(root, io) {
  let dir;
  try {
    dir = await folderAt(root, io.path);
  } catch (e) {
    if (e.name === 'NotFoundError') return [{ ok: true, files: [] }, new Uint8Array(0)];
    throw e;
  }
  const files = [];
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind !== 'file') continue;
    files.push({ name, text: await contents(handle, 'text') });
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [{ ok: true, files }, new Uint8Array(0)];
}

/** Performs one I/O request; never throws — failures are the platform's own words. */
export async function perform(io, data, root) {
  try {
    if (io.op === 'runTool') return await opRunTool(io, data);
    if (io.op === 'reachable') {
      await root.reachable();
      return ok();
    }
    if (io.op === 'permit') {
      return [{ state: await permission(await root.resolve(), io.mode) }, new Uint8Array(0)];
    }
    const on = io.root === 'origin' ? ORIGIN : root;
    const folder = async () => {
      const handle = await on.resolve();
      await guard(handle, io.mode); // asked before every touch, as the core asked before the act
      return handle;
    };
    switch (io.op) {
      case 'read':
        return await opRead(await folder(), io);
      case 'write':
        return await oneAtATime(on, io.path, async () => opWrite(await folder(), io, data));
      case 'append':
        return await oneAtATime(on, io.path, async () => opAppend(await folder(), io, data));
      case 'remove':
        return await oneAtATime(on, io.path, async () => opRemove(await folder(), io));
      case 'rename':
        return await oneAtATime(on, io.path, async () => opRename(await folder(), io));
      case 'mkdir':
        return await opMkdir(await folder(), io);
      case 'rmdir':
        return await oneAtATime(on, io.path, async () => opRmdir(await folder(), io));
      case 'observe':
        return await opObserve(await folder(), io);
      case 'list':
        return await opList(await folder(), io);
      case 'readAudit':
        return await opReadAudit(await folder(), io);
      default: {
        const e = new Error(`this worker performs no I/O op ${JSON.stringify(io.op)}`);
        e.name = 'NotSupportedError';
        throw e;
      }
    }
  } catch (e) {
    return [{ error: words(e) }, new Uint8Array(0)];
  }
}
