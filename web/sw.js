// sw.js — the service worker that makes the page installable and lets its
// shell (HTML, CSS, JS, icons, the browser core) open without the server.
// Network first: a running server always serves the page as it is now, and
// each answer refreshes the copy kept here; the copy is used only when the
// server cannot be reached. The API, live voice and the page channel are
// never kept (answers, files and the session live on the server and in the
// page alone). Both pages register it: the main page, and the environment
// page served or exported, which then opens with no server at all.

const SHELL = 'voicebox-shell-v2';
const NEVER = ['/api/', '/live', '/channel', '/mcp'];

// What a shell file names as another file of the shell: an HTML `src`/`href`,
// a CSS `url()`, a module's `import … from`, `new URL(…, import.meta.url)`
// (a worker, the browser core), a manifest's icon `src`.
const NAMED = [
  /\b(?:src|href)="([^"#]+)"/g,
  /\burl\(\s*["']?([^"')]+)["']?\s*\)/g,
  /\b(?:from|import)\s*['"]([^'"]+)['"]/g,
  /\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  /"src"\s*:\s*"([^"]+)"/g,
];

/** The cache key of a same-origin shell address (no query, no fragment), or null. */
function shellKey(address) {
  const url = new URL(address, self.location.href);
  const scope = new URL(self.registration.scope);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(scope.pathname)) return null;
  if (NEVER.some((prefix) => url.pathname.startsWith(prefix))) return null;
  return url.origin + url.pathname;
}

/**
 * Keeps the whole shell of the page at `start`: that page and every file it
 * names, and every file those name, each fetched once if it is not kept yet.
 * A page asks for this once it is loaded, so it opens offline after its
 * first visit, including what only its workers load.
 */
async function keep(start) {
  const cache = await caches.open(SHELL);
  const seen = new Set();
  const queue = [start];
  while (queue.length) {
    const key = shellKey(queue.shift());
    if (!key || seen.has(key)) continue;
    seen.add(key);
    let response = await cache.match(key);
    if (!response) {
      response = await fetch(key).catch(() => null);
      if (!response || !response.ok || response.redirected || response.type !== 'basic') continue;
      await cache.put(key, response.clone());
    }
    if (!/text|javascript|json/.test(response.headers.get('content-type') ?? '')) continue;
    const text = await response.text();
    for (const pattern of NAMED) {
      for (const [, named] of text.matchAll(pattern)) queue.push(new URL(named, key).href);
    }
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.add('./')).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('message', (event) => {
  if (event.data && typeof event.data.keep === 'string') {
    event.waitUntil(keep(event.data.keep));
  }
});

self.addEventListener('fetch', (event) => {
  const key = event.request.method === 'GET' ? shellKey(event.request.url) : null;
  if (!key) return;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok && response.type === 'basic' && !response.redirected) {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL).then((cache) => cache.put(key, copy)));
    }
    return response;
  }, () => caches.open(SHELL)
    .then((cache) => cache.match(key))
    .then((kept) => kept || Response.error())));
});
