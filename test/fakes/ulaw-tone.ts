import { encodeUlaw } from '../../src/modules/voice/audio/g711';

/** `milliseconds` of a sine at `hz` as 8 kHz μ-law, the audio a media stream carries. */
export function ulawTone(hz: number, milliseconds: number): Buffer {
  return encodeUlaw(
    Int16Array.from({ length: milliseconds * 8 }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 8000)),
    ),
  );
}
