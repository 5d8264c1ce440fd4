import { OggOpusDecoder } from 'ogg-opus-decoder';
import { encodeUlaw } from '../../voice/audio/g711';
import { resample } from '../../voice/audio/resampler';

/** The rate and encoding every speech-to-text engine of the voice runtime hears: a call's. */
const CALL_RATE = 8000;
/** 20 ms of μ-law at 8 kHz: the frame a call's recognition stream is written in. */
export const CALL_FRAME_BYTES = 160;

/**
 * A voice note (Ogg Opus, as the app records them) as μ-law 8 kHz, its first `maxSeconds` only.
 * Null when nothing could be decoded (another format, a damaged file). The decoder is
 * WebAssembly shipped in the package: nothing outside the process is needed.
 */
export async function voiceNoteToUlaw(ogg: Uint8Array, maxSeconds: number): Promise<Buffer | null> {
  const decoder = new OggOpusDecoder();
  try {
    await decoder.ready;
    const decoded = await decoder.decodeFile(ogg);
    const channels = decoded.channelData;
    if (decoded.samplesDecoded === 0 || channels.length === 0) return null;
    const length = Math.min(decoded.samplesDecoded, maxSeconds * decoded.sampleRate);
    const pcm = new Int16Array(length);
    for (let i = 0; i < length; i++) {
      let sum = 0;
      for (const channel of channels) sum += channel[i];
      const sample = (sum / channels.length) * 32767;
      pcm[i] = Math.max(-32768, Math.min(32767, Math.round(sample)));
    }
    return encodeUlaw(resample(pcm, decoded.sampleRate, CALL_RATE));
  } finally {
    decoder.free();
  }
}
