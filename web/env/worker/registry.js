// registry.js — the project list: the record the core returned for each project,
// kept as text in v1/registry/<name>.json.

import { opfsDir } from './roots.js';
import { writeWhole } from './io.js';

function registryDir(create) {
  return opfsDir(['v1', 'registry'], create);
}

/** Saves the record the core returned, as text, to v1/registry/<name>.json. */
export async function saveRecord(record) {
  const dir = await registryDir(true);
  const file = await dir.getFileHandle(`${record.name}.json`, { create: true });
  await writeWhole(await file.createWritable(), JSON.stringify(record));
}

/** Glue: the registry's records, by file name. */
export async function listProjects() {
  let dir;
  try {
    dir = await registryDir(false);
  } catch (e) {
    if (e.name === 'NotFoundError') return { ok: true, projects: [] };
    throw e;
  }
  const projects = [];
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind !== 'file' || !name.endsWith('.json')) continue;
    let record = null;
    try {
      record = JSON.parse(await (await handle.getFile()).text());
    } catch {
      record = null;
    }
    projects.push({ name: name.slice(0, -'.json'.length), record });
  }
  projects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ok: true, projects };
}

/** The record the registry kept for `name`, or null. */
export async function keptRecord(name) {
  try {
    const dir = await registryDir(false);
    const file = await dir.getFileHandle(`${name}.json`);
    return JSON.parse(await (await file.getFile()).text());
  } catch {
    return null;
  }
}

/** Removes the record kept for `name`. */
export async function removeRecord(name) {
  await (await registryDir(false)).removeEntry(`${name}.json`);
}
