// dictation.js — the microphone button. Uses the browser's SpeechRecognition
// where it exists: interim words appear in the input, the final transcript is
// submitted. Where it does not exist the button is disabled and says why.

/**
 * setupDictation(button, input, {onFinal(text), onError(message)})
 */
export function setupDictation(button, input, { onFinal, onError }) {
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  const label = button.querySelector('.dictate-label');
  if (!Recognition) {
    button.disabled = true;
    button.title = 'Dictation is not available in this browser (no SpeechRecognition). Type your request instead.';
    button.setAttribute('aria-pressed', 'false');
    return;
  }

  let recognition = null;
  let before = '';
  let finalText = '';

  function setListening(on) {
    button.classList.toggle('listening', on);
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
    button.title = on ? 'Listening — click to stop' : 'Speak your request';
    if (label) label.textContent = on ? 'Stop' : 'Speak';
  }

  function show(text) {
    input.value = before ? `${before} ${text}`.trim() : text;
  }

  function start() {
    before = input.value.trim(); // what was typed stays; speech is added after it
    finalText = '';
    recognition = new Recognition();
    recognition.lang = document.documentElement.lang || navigator.language || 'en-US';
    recognition.interimResults = true;
    recognition.continuous = false;
    recognition.maxAlternatives = 1;

    recognition.addEventListener('result', (event) => {
      let interim = '';
      finalText = '';
      for (let i = 0; i < event.results.length; i += 1) {
        const r = event.results[i];
        if (r.isFinal) finalText += r[0].transcript;
        else interim += r[0].transcript;
      }
      show(`${finalText}${interim}`.trim());
    });
    recognition.addEventListener('error', (event) => {
      const why = {
        'not-allowed': 'microphone permission was denied',
        'service-not-allowed': 'speech recognition is not allowed here',
        'no-speech': 'no speech was heard',
        'audio-capture': 'no microphone was found',
        network: 'the speech service could not be reached',
        aborted: '',
      }[event.error] ?? String(event.error || 'unknown error');
      if (why) onError(`Dictation stopped: ${why}.`);
    });
    recognition.addEventListener('end', () => {
      const heard = finalText.trim();
      recognition = null;
      setListening(false);
      if (heard) {
        show(heard);
        onFinal(input.value);
      }
    });

    try {
      recognition.start();
      setListening(true);
    } catch (err) {
      recognition = null;
      setListening(false);
      onError(`Dictation could not start: ${err && err.message ? err.message : err}.`);
    }
  }

  button.addEventListener('click', () => {
    if (recognition) recognition.stop();
    else start();
  });
  setListening(false);
}
