// confirm.js — the tier-2 question, for the server's page and the environment
// page alike (one dialog, built here). Shows the core's words — the question,
// what yes means, the answers' labels — and the expiry in a modal <dialog>,
// with the exact plan and the rule behind "Details"; the yes is red only when
// the core says it loses something. The Yes button is the only
// way to approve. Every other way the dialog closes (No, Escape, a form
// submit) is a No. One answer per request.

import { el } from './dom.js';

/** The one confirmation dialog both pages show: the question, what yes means, the expiry, No and Yes; the plan and rule in its details. */
function buildDialog() {
  const dialog = el('dialog', {
    id: 'confirm-dialog', class: 'confirm',
    'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-why',
  },
  el('form', { method: 'dialog' },
    el('h2', { id: 'confirm-title', text: 'Are you sure?' }),
    el('p', { id: 'confirm-why', class: 'confirm-why' }),
    el('p', { id: 'confirm-say', class: 'confirm-say', hidden: true }),
    el('p', { id: 'confirm-expiry', class: 'confirm-expiry' }),
    el('details', { class: 'answer-details confirm-details' },
      el('summary', { text: 'Details' }),
      el('p', { id: 'confirm-plan', class: 'confirm-plan' }),
      el('p', { id: 'confirm-rule', class: 'confirm-rule' })),
    el('div', { class: 'confirm-actions' },
      el('button', { id: 'confirm-no', type: 'submit', value: 'no', autofocus: true, text: 'No' }),
      el('button', { id: 'confirm-yes', type: 'submit', value: 'yes', class: 'primary', text: 'Yes' }))));
  document.body.append(dialog);
  return dialog;
}

/** "4:59" for a number of milliseconds left. */
function left(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * createConfirm() → { ask(request) → Promise<boolean>, answer(request) → Promise<'yes'|'no'|'expired'|'spoken'|'superseded'>, settle(id) }
 * Builds the page's confirmation dialog; requests are asked one at a time, in
 * order. A question whose time runs out closes itself as 'expired' (nothing is
 * sent: the server's id has stopped working anyway); `ask` reads that as a No.
 * A question answered by voice (`settle`) closes as 'spoken': the answer was
 * the server's already, so nothing is sent. A question that may be answered
 * by voice (`say`) is the only one voice answers: a newer one closes an
 * older one still open or waiting as 'superseded', so the question on screen
 * is always the one the person's words answer, and a click can never do a
 * change twice.
 */
export function createConfirm() {
  const dialog = buildDialog();
  const plan = dialog.querySelector('#confirm-plan');
  const why = dialog.querySelector('#confirm-why');
  const expiry = dialog.querySelector('#confirm-expiry');
  const rule = dialog.querySelector('#confirm-rule');
  const no = dialog.querySelector('#confirm-no');
  const yes = dialog.querySelector('#confirm-yes');
  const title = dialog.querySelector('#confirm-title');
  const say = dialog.querySelector('#confirm-say');
  let queue = Promise.resolve();
  // Questions answered by voice (their ids), the one on screen, the ones
  // voice may answer still open or waiting, and those a newer one replaced.
  const spoken = new Set();
  let showing = null;
  const heard = new Set();
  const superseded = new Set();

  function askNow(request) {
    return new Promise((resolve) => {
      let answered = false;
      let timer = null;
      const finish = () => {
        if (answered) return;
        answered = true;
        clearInterval(timer);
        dialog.removeEventListener('close', finish);
        showing = null;
        heard.delete(request.id);
        const how = dialog.returnValue;
        resolve(how === 'yes' ? 'yes' : ['expired', 'spoken', 'superseded'].includes(how) ? how : 'no');
      };
      if (spoken.has(request.id) || superseded.has(request.id)) {
        // Answered by voice, or asked again, before its turn on screen came.
        heard.delete(request.id);
        resolve(spoken.has(request.id) ? 'spoken' : 'superseded');
        return;
      }
      showing = request.id;
      title.textContent = String(request.question ?? 'Are you sure?');
      plan.textContent = String(request.plan ?? '');
      why.textContent = String(request.consequence ?? request.why ?? '');
      rule.textContent = request.rule != null ? `Rule: ${request.rule}` : '';
      yes.classList.toggle('danger', request.danger === true);
      yes.classList.toggle('primary', request.danger !== true);
      dialog.querySelector('.confirm-details').open = false;
      yes.textContent = String(request.yes ?? 'Yes');
      no.textContent = String(request.no ?? 'No');
      // A heard change may be answered by voice, with the core's words.
      say.hidden = request.say == null;
      say.textContent = request.say == null ? '' : `Or say “${request.say}” to do it; “no” cancels.`;
      expiry.textContent = '';
      const at = request.expiresAt ? new Date(request.expiresAt).getTime() : NaN;
      if (!Number.isNaN(at)) {
        const tick = () => {
          const remaining = at - Date.now();
          if (remaining <= 0) {
            dialog.close('expired');
            return;
          }
          expiry.textContent = `This question expires in ${left(remaining)}.`;
        };
        tick();
        timer = setInterval(tick, 1000);
      }
      dialog.returnValue = '';
      dialog.addEventListener('close', finish);
      if (answered) return;
      dialog.showModal();
      no.focus();
    });
  }

  // Escape fires `cancel` and then `close` with returnValue still '' — a No.
  dialog.addEventListener('cancel', () => { dialog.returnValue = ''; });

  function answer(request) {
    if (request.say != null) {
      for (const older of heard) superseded.add(older);
      if (showing != null && heard.has(showing) && dialog.open) dialog.close('superseded');
      heard.add(request.id);
    }
    const answered = queue.then(() => askNow(request));
    queue = answered.catch(() => {});
    return answered;
  }

  /** The question `id` was answered by voice: it closes, and sends nothing. */
  function settle(id) {
    spoken.add(id);
    if (showing === id && dialog.open) dialog.close('spoken');
  }

  return {
    answer,
    settle,
    ask: (request) => answer(request).then((a) => a === 'yes'),
  };
}
