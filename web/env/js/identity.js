// identity.js — this tab's writer name (`instance`), which the worker passes to the
// core with `open`. Glue, not policy: the core checks the name and owns the audit.
//
// A tab lineage lives in sessionStorage (`tab-<8 hex>`) and is claimed with a Web
// Lock held for the page's life. A reload re-claims its own name (the previous
// document's lock is released as it unloads; we wait briefly for that). A
// duplicated tab inherits sessionStorage, finds the name held by a live tab and
// takes `<name>-2`, `-3`, …. Where Web Locks are missing, a random nonce suffix
// keeps two tabs apart.

const KEY = 'voicebox.env.instance';
const LINEAGE = /^(tab-[0-9a-f]{8})(?:-(\d+))?$/;
const LOCK_PREFIX = 'voicebox-instance:';
const RELOAD_GRACE_MS = 750;

function randomHex(bytes) {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function stored() {
  try {
    const name = sessionStorage.getItem(KEY);
    return name && LINEAGE.test(name) ? name : null;
  } catch {
    return null;
  }
}

function remember(name) {
  try {
    sessionStorage.setItem(KEY, name);
  } catch {
    // No sessionStorage: the name lasts as long as this page.
  }
}

/**
 * Asks for the lock named after `name`; resolves true once held (and keeps it
 * until the page goes away), false if it is not ours. `waitMs` > 0 waits that
 * long for a holder to let go.
 */
function claim(name, waitMs = 0) {
  return new Promise((resolve) => {
    const options = waitMs > 0 ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true };
    navigator.locks.request(LOCK_PREFIX + name, options, (lock) => {
      if (!lock) {
        resolve(false);
        return undefined;
      }
      resolve(true);
      return new Promise(() => {}); // held for the page's life
    }).catch(() => resolve(false));
  });
}

/** Resolves with { instance, how } where how is claimed | suffixed | nonce. */
export async function claimInstance() {
  const own = stored() || `tab-${randomHex(4)}`;
  const lineage = own.match(LINEAGE)[1];
  if (!(navigator.locks && typeof navigator.locks.request === 'function')) {
    const instance = `${lineage}-${randomHex(2)}`;
    return { instance, how: 'nonce' };
  }
  if (await claim(own) || await claim(own, RELOAD_GRACE_MS)) {
    remember(own);
    return { instance: own, how: 'claimed' };
  }
  for (let n = 2; n < 1000; n += 1) {
    const name = `${lineage}-${n}`;
    if (name !== own && await claim(name)) {
      remember(name);
      return { instance: name, how: 'suffixed' };
    }
  }
  return { instance: `${lineage}-${randomHex(2)}`, how: 'nonce' };
}
