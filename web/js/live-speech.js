// live-speech.js — the page speaks offline voice's answers with the
// browser's own speech synthesis (nothing leaves the machine): the short
// sentence the server wrote for each answer, in one voice the page names,
// with Stop to cancel it and a setting to turn it off. While it speaks, the
// microphone's audio is not sent, so the page's own voice is never heard as
// the person's words (or as their answer to a question).

const STORE = 'voicebox.speakAnswers';

function stored() {
  try {
    return window.localStorage.getItem(STORE) !== 'off';
  } catch {
    return true;
  }
}

function keep(on) {
  try {
    if (on) window.localStorage.removeItem(STORE);
    else window.localStorage.setItem(STORE, 'off');
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

const supported = () => 'speechSynthesis' in window && typeof window.SpeechSynthesisUtterance === 'function';

/**
 * createSpeech({toggle, note}) → {speak(text), hush(), speaking(), voiceName()}
 * `toggle` is the "Speak answers" checkbox (kept in this browser), `note`
 * where the voice in use is named.
 */
export function createSpeech({ toggle, note }) {
  let on = stored();

  /** The voice answers are spoken in: the browser's default, else its first English one. */
  function voice() {
    if (!supported()) return null;
    const voices = window.speechSynthesis.getVoices() || [];
    return voices.find((v) => v.default) ?? voices.find((v) => String(v.lang).startsWith('en')) ?? voices[0] ?? null;
  }

  function voiceName() {
    if (!supported()) return 'this browser cannot speak';
    const v = voice();
    return v ? `${v.name}${v.lang ? ` (${v.lang})` : ''}` : "the browser's default voice";
  }

  function describe() {
    if (!note) return;
    note.textContent = !supported()
      ? 'This browser has no speech synthesis: answers are shown only.'
      : on ? `Answers are spoken by ${voiceName()}, on this device.` : 'Answers are shown, not spoken.';
  }

  if (toggle) {
    toggle.checked = on;
    toggle.disabled = !supported();
    toggle.addEventListener('change', () => {
      on = toggle.checked;
      keep(on);
      if (!on) hush();
      describe();
    });
  }
  if (supported() && typeof window.speechSynthesis.addEventListener === 'function') {
    window.speechSynthesis.addEventListener('voiceschanged', describe);
  }
  describe();

  function speak(text) {
    if (!on || !text || !supported()) return;
    const utterance = new window.SpeechSynthesisUtterance(text);
    const v = voice();
    if (v) utterance.voice = v;
    window.speechSynthesis.speak(utterance);
  }

  function hush() {
    if (supported()) window.speechSynthesis.cancel();
  }

  return {
    speak,
    hush,
    // Queued or saying: `pending` covers the moment before it starts.
    speaking: () => supported() && Boolean(window.speechSynthesis.speaking || window.speechSynthesis.pending),
    voiceName,
  };
}
