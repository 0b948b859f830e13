// confirm.js — the tier-2 question the core asks (a delete). Shows its plan, rule
// and why in a modal <dialog>. Only the Yes button approves; every other way the
// dialog closes (No, Escape, closing it any other way) is a No. Each question
// resolves exactly once, so exactly one answer is sent for it.

export function createConfirm(dialog) {
  const plan = dialog.querySelector('#confirm-plan');
  const why = dialog.querySelector('#confirm-why');
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
      rule.textContent = request.rule != null ? `rule: ${request.rule}` : '';
      dialog.returnValue = '';
      dialog.addEventListener('close', finish);
      dialog.showModal();
      no.focus();
    });
  }

  // Escape fires `cancel`, then `close` with returnValue still '' — a No.
  dialog.addEventListener('cancel', () => { dialog.returnValue = ''; });

  return {
    /** Resolves true only when the Yes button closed the dialog. One question at a time. */
    ask(request) {
      const answer = queue.then(() => askNow(request));
      queue = answer.catch(() => {});
      return answer;
    },
  };
}
