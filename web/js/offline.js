// offline.js — registers the service worker (sw.js, at the top of the site)
// and asks it to keep this page's whole shell, so the page opens when the
// server cannot be reached (or, exported, with no server at all). A browser
// without service workers goes on without them.

/** Registers the worker and asks it to keep the page at this address. */
export function keepForOffline() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(new URL('../sw.js', import.meta.url))
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active.postMessage({ keep: location.href }))
    .catch(() => {});
}
