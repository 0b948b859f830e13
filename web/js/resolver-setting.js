// resolver-setting.js — the settings dialog's resolver choice: shows the
// server's current resolver (from /api/health) and asks the server to change
// it. Whether a key is missing is the server's answer, shown as it says it.

import { fill } from './dom.js';
import * as api from './api.js';
import { errorNode, refusalNode } from './transcript.js';

/** setupResolverSetting({select, note, open}) — `open` is the settings button. */
export function setupResolverSetting({ select, note, open }) {
  async function load() {
    try {
      const health = await api.health();
      if (health && health.resolver) select.value = String(health.resolver);
    } catch (err) {
      fill(note, errorNode(err, 'Could not read the resolver'));
    }
  }

  select.addEventListener('change', async () => {
    select.disabled = true;
    try {
      const answer = await api.putSettings({ resolver: select.value });
      if (answer && answer.ok === true) {
        note.textContent = answer.ready
          ? `Typed requests now go to ${answer.resolver}.`
          : `Typed requests now go to ${answer.resolver}, but it cannot answer yet: ${answer.why}`;
      } else {
        fill(note, refusalNode(answer, 'Not changed'));
      }
    } catch (err) {
      fill(note, errorNode(err, 'The resolver could not be changed'));
    } finally {
      select.disabled = false;
    }
  });
  open.addEventListener('click', load);
}
