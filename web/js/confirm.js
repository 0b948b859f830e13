// confirm.js — the tier-2 question, for the server's page and the environment
// page alike. Shows the core's plan and why (and its rule and expiry where the
// dialog has room for them) in a modal <dialog>; the Yes button is the only
// way to approve. Every other way the dialog closes (No, Escape, a form
// submit) is a No. One answer per request.

/**
 * createConfirm(dialog) → { ask(request) → Promise<boolean> }
 * Requests are asked one at a time, in order.
 */
export function createConfirm(dialog) {
  const plan = dialog.querySelector('#confirm-plan');
  const why = dialog.querySelector('#confirm-why');
  const expiry = dialog.querySelector('#confirm-expiry');
  const rule = dialog.querySelector('#confirm-rule');
  const no = dialog.querySelector('#confirm-no');
  let queue = Promise.resolve();

  function askNow(request) {
    return new Promise((resolve) => {
      let answered = false;
      const finish = () => {
        if (answered) return;
        answered = true;
        dialog.removeEventListener('close', finish);
        resolve(dialog.returnValue === 'yes');
      };
      plan.textContent = String(request.plan ?? '');
      why.textContent = String(request.why ?? '');
      if (rule) rule.textContent = request.rule != null ? `rule: ${request.rule}` : '';
      if (expiry) {
        expiry.textContent = '';
        const at = request.expiresAt ? new Date(request.expiresAt) : null;
        if (at && !Number.isNaN(at.getTime())) {
          expiry.textContent = `This question expires at ${at.toLocaleTimeString()}.`;
        }
      }
      dialog.returnValue = '';
      dialog.addEventListener('close', finish);
      dialog.showModal();
      no.focus();
    });
  }

  // Escape fires `cancel` and then `close` with returnValue still '' — a No.
  dialog.addEventListener('cancel', () => { dialog.returnValue = ''; });

  return {
    ask(request) {
      const answer = queue.then(() => askNow(request));
      queue = answer.catch(() => {});
      return answer;
    },
  };
}
