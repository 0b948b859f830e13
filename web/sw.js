// sw.js — the service worker that makes the page installable and lets its
// shell (HTML, CSS, JS, icons) open without the server. Network first: a
// running server always serves the page as it is now, and each answer
// refreshes the copy kept here; the copy is used only when the server cannot
// be reached. The API, live voice and the page channel are never cached
// (answers, files and the session live on the server and in the page alone).

const SHELL = 'voicebox-shell-v1';
const NEVER = ['/api/', '/live', '/channel', '/mcp'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.add('./')).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== SHELL).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (NEVER.some((prefix) => url.pathname.startsWith(prefix))) return;
  // The address without its query (a `?token=` start) is the shell's key.
  const key = url.origin + url.pathname;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok && response.type === 'basic') {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL).then((cache) => cache.put(key, copy)));
    }
    return response;
  }, () => caches.open(SHELL)
    .then((cache) => cache.match(key))
    .then((kept) => kept || Response.error())));
});
