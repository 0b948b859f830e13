// resolver-setting.js — the settings dialog's "Understood by" choice: the
// resolvers the server offers (from /api/health), each marked "needs a key"
// when the server says it cannot work yet. Choosing one that needs a key
// opens its key field at once, so nothing fails later; the header updates as
// soon as the server answers.

import { el, fill } from './dom.js';
import * as api from './api.js';
import { errorNode, refusalNode } from './answer.js';

/** The option's words for a resolver the server describes. */
function optionText(r) {
  const label = String(r.label ?? r.name);
  if (r.name === 'script') return `${label} (no key)`;
  return r.ready ? label : `${label} — needs a key`;
}

/**
 * setupResolverSetting({select, note}, {openKey(keyName), onChange()}) → { show(health) }
 * `show(health)` fills the choice from a /api/health answer.
 */
export function setupResolverSetting({ select, note }, { openKey, onChange }) {
  let resolvers = [];

  function show(health) {
    if (!health || !Array.isArray(health.resolvers)) return;
    resolvers = health.resolvers;
    fill(select, resolvers.map((r) => el('option', { value: String(r.name), text: optionText(r) })));
    if (health.resolver) select.value = String(health.resolver);
  }

  select.addEventListener('change', async () => {
    select.disabled = true;
    const chosen = resolvers.find((r) => r.name === select.value);
    try {
      const answer = await api.putSettings({ resolver: select.value });
      if (answer && answer.ok === true) {
        const label = chosen ? chosen.label : answer.resolver;
        note.textContent = answer.ready
          ? `Your words are now understood by ${label}.`
          : `${label} needs its key before it can answer: paste it below.`;
        if (!answer.ready && chosen && chosen.key) openKey(chosen.key);
        onChange();
      } else {
        fill(note, refusalNode(answer, 'Not changed'));
      }
    } catch (err) {
      fill(note, errorNode(err, 'The choice could not be changed'));
    } finally {
      select.disabled = false;
    }
  });
  return { show };
}
