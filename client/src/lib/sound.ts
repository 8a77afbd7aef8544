import { settings } from './settings.svelte.js';

/**
 * Short generated sounds (WebAudio oscillators, nothing fetched): a tick for a move, a low buzz
 * for a refusal, a sweep for a redeal, a rising arpeggio for a win. Silent unless sound is on.
 */
export type Cue = 'move' | 'refusal' | 'redeal' | 'win';

/** Each note: frequency (Hz), start and length (s), waveform. */
const CUES: { readonly [cue in Cue]: readonly (readonly [number, number, number, OscillatorType])[] } = {
  move: [[660, 0, 0.05, 'triangle']],
  refusal: [[150, 0, 0.12, 'square']],
  redeal: [
    [392, 0, 0.06, 'triangle'],
    [330, 0.06, 0.06, 'triangle'],
    [262, 0.12, 0.09, 'triangle'],
  ],
  win: [
    [523, 0, 0.12, 'triangle'],
    [659, 0.12, 0.12, 'triangle'],
    [784, 0.24, 0.12, 'triangle'],
    [1047, 0.36, 0.3, 'triangle'],
  ],
};

let context: AudioContext | null = null;

export function play(cue: Cue): void {
  if (!settings.sound || typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  const now = context.currentTime;
  for (const [frequency, start, length, type] of CUES[cue]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = type;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.12, now + start);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length);
  }
}
