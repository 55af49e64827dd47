// The electronic voice timer (CN2002 12.1): speaks the referee's 12.3 count-out calls with the browser's speech synthesis.

/**
 * The words of a `clock_call` event in `lang` ("zh" or "en"): the referee words every call in both
 * languages (CN2002 12.3: "1 minute used, 3 left" / "还剩3分钟"), so nothing is parsed here.
 */
export function callWords(event, lang) {
  const english = String(event?.call ?? '');
  return lang === 'zh' ? String(event?.call_zh ?? english) : english;
}

/** A flag fall in words. */
export function flagWords(color, lang) {
  if (lang === 'zh') return color === 'black' ? '黑方超时' : '白方超时';
  return `${color} flag fell`;
}

/** Says `words` now, cutting off what was still being said (a count-out must stay on time). */
export function speak(words, lang) {
  if (!('speechSynthesis' in window) || !words) return;
  const utterance = new SpeechSynthesisUtterance(words);
  utterance.lang = lang === 'zh' ? 'zh-CN' : 'en-GB';
  utterance.rate = 1.1;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(utterance);
}

let audio = null;

/** Two short tones for a new alert (Web Audio, no sound file to ship). */
export function chime() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, freq] of [[0, 880], [0.18, 660]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.2, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.17);
    }
  } catch {
    // no audio device: the alert list still shows it
  }
}
