import { encodeUlaw } from './g711';
import { TONE_SAMPLE_RATE as SAMPLE_RATE, writeDualTone } from './tones';

/** The keys of a telephone keypad (with the A–D column some IVRs still use). */
export const DTMF_KEYS = '0123456789*#ABCD';

/** The keypad: a key sounds its row's frequency and its column's (Hz). */
export const DTMF_ROWS = [697, 770, 852, 941];
export const DTMF_COLUMNS = [1209, 1336, 1477, 1633];
export const DTMF_LAYOUT = ['123A', '456B', '789C', '*0#D'];

/** Each key sounds this long, then this long of silence (ITU-T Q.24 asks for at least 40 ms each). */
export const DTMF_TONE_MS = 100;
export const DTMF_GAP_MS = 100;

/** Each of the two sines at about −10 dBm0: loud enough for any receiver, never clipping. */
const AMPLITUDE = 7_000;

/** The row and column frequency of a key. */
export function dtmfFrequencies(key: string): [number, number] {
  const row = DTMF_LAYOUT.findIndex((keys) => keys.includes(key));
  if (key.length !== 1 || row === -1) throw new RangeError(`"${key}" is not a keypad key`);
  return [DTMF_ROWS[row], DTMF_COLUMNS[DTMF_LAYOUT[row].indexOf(key)]];
}

/**
 * The in-band tones of `keys` as 8 kHz μ-law, the audio a media stream carries: each key's two
 * sines for DTMF_TONE_MS, then DTMF_GAP_MS of silence. Every provider's stream is G.711, which
 * carries DTMF tones intact, and a tone played into the call is what a far-end IVR hears.
 */
export function dtmfTones(keys: string): Buffer {
  const toneSamples = (DTMF_TONE_MS * SAMPLE_RATE) / 1000;
  const keySamples = toneSamples + (DTMF_GAP_MS * SAMPLE_RATE) / 1000;
  const pcm = new Int16Array(keys.length * keySamples);
  [...keys].forEach((key, k) =>
    writeDualTone(pcm, k * keySamples, toneSamples, dtmfFrequencies(key), AMPLITUDE),
  );
  return encodeUlaw(pcm);
}

/** The keys of `text` that are keypad keys, in order (spaces, dashes and the rest dropped). */
export function keypadKeys(text: string): string {
  return [...text.toUpperCase()].filter((key) => DTMF_KEYS.includes(key)).join('');
}
