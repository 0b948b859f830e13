// roots.js — where a request's I/O goes: an OPFS project folder under
// v1/projects/<name>/ (re-resolved from navigator.storage.getDirectory() at every
// open, no user gesture needed), a picked folder's kept handle, the origin's own
// files (a picked folder's fallback audit), or no root when no project is open.

import { keptHandle, permission } from './handles.js';

/** The origin's private file system, walked by entry names (OPFS refuses "/", "." and ".."). */
export async function opfsDir(names, create) {
  let dir = await navigator.storage.getDirectory();
  for (const name of names) dir = await dir.getDirectoryHandle(String(name), { create });
  return dir;
}

/** A project's root: the handle is resolved on first use and refreshed by `reachable`. */
export function projectRoot(project, create) {
  const kind = project.kind ?? 'opfs';
  return {
    project,
    key: kind === 'handle' ? `handle:${project.id}` : `opfs:${project.name}`,
    handle: null,
    // `fresh` re-resolves (a handle from IndexedDB, a folder re-walked from the
    // OPFS root) and never creates: a folder that is gone stays gone.
    async resolve(fresh = false) {
      if (this.handle && !fresh) return this.handle;
      if (kind === 'handle') {
        this.handle = await keptHandle(project.id);
      } else if (kind === 'opfs') {
        this.handle = await opfsDir(['v1', 'projects', project.name], create && !fresh);
      } else {
        const e = new Error(`this worker resolves OPFS and picked-folder roots, not ${JSON.stringify(kind)}`);
        e.name = 'NotSupportedError';
        throw e;
      }
      return this.handle;
    },
    /**
     * Is the folder still there? An OPFS folder is re-walked from the origin's
     * root (NotFoundError if gone); a kept handle cannot be re-walked, so its
     * first entry is read — only where reading is permitted (else `permit` says so).
     */
    async reachable() {
      const handle = await this.resolve(true);
      if (kind !== 'handle' || (await permission(handle, 'read')) !== 'granted') return;
      for await (const _ of handle.keys()) break; // NotFoundError if the folder is gone
    },
  };
}

/** The origin's own files (a picked folder's fallback audit): append and read only. */
export const ORIGIN = {
  key: 'origin',
  async resolve() {
    return navigator.storage.getDirectory();
  },
};

/** The root I/O goes to when no project is open (the core refuses before asking). */
export const NO_ROOT = {
  key: 'none',
  async resolve() {
    const e = new Error('no project is open');
    e.name = 'InvalidStateError';
    throw e;
  },
  async reachable() {
    await this.resolve();
  },
};
