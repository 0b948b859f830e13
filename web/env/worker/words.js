// words.js — the platform's failures as data, and hex for ids and seeds.

/** The platform's own words for a failure (and a permission state, when that was the reason). */
export function words(e) {
  const said = { name: e && e.name ? String(e.name) : 'Error', message: e && e.message != null ? String(e.message) : String(e) };
  if (e && typeof e.permission === 'string') said.permission = e.permission;
  return said;
}

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
