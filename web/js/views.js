// views.js — on a phone one part of the page shows at a time (the chat, the
// files, the activity, the extensions); the tabs choose which. Wider screens
// show them side by side and hide the tabs (style.css). Which part shows is
// `<body data-view>`; the panels say which view they belong to.

/** setupViews(nav) → { show(view) }: wires the tab buttons (`data-show`). */
export function setupViews(nav) {
  const buttons = [...nav.querySelectorAll('button[data-show]')];
  function show(view) {
    document.body.dataset.view = view;
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.show === view));
  }
  for (const b of buttons) b.addEventListener('click', () => show(b.dataset.show));
  return { show };
}
