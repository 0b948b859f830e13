// theme.js — the person's choice of look: the system's (the default), light
// or dark, kept in this browser. The choice is `data-theme` on <html>; the
// stylesheet's colours follow it (color-scheme and light-dark()).

const KEY = 'voicebox.theme';
const CHOICES = ['system', 'light', 'dark'];

function stored() {
  try {
    const kept = window.localStorage.getItem(KEY);
    return CHOICES.includes(kept) ? kept : 'system';
  } catch {
    return 'system';
  }
}

function apply(choice) {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** Applies the kept choice now, and lets `select` change it. */
export function setupTheme(select) {
  apply(stored());
  if (!select) return;
  select.value = stored();
  select.addEventListener('change', () => {
    const choice = CHOICES.includes(select.value) ? select.value : 'system';
    apply(choice);
    try {
      window.localStorage.setItem(KEY, choice);
    } catch {
      // Storage refused: the look lasts for this page only.
    }
  });
}
