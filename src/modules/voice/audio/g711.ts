/**
 * G.711 μ-law and A-law (ITU-T G.711), the telephone codecs every provider streams. Decoding is
 * a 256-entry table; encoding is the segment search of the reference implementation, computed once
 * for every 16-bit sample into a 64 KiB table, since every outbound frame of every call encodes.
 */
const BIAS = 0x84;
const CLIP = 32635;

function decodeUlawByte(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = (((u & 0x0f) << 3) + BIAS) << exponent;
  return u & 0x80 ? BIAS - magnitude : magnitude - BIAS;
}

function decodeAlawByte(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  const mantissa = a & 0x0f;
  const magnitude =
    exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function encodeUlawSample(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = sign | (exponent << 4) | mantissa;
  return ~magnitude & 0xff;
}

const ULAW_TO_LINEAR = Int16Array.from({ length: 256 }, (_, byte) => decodeUlawByte(byte));
const ALAW_TO_LINEAR = Int16Array.from({ length: 256 }, (_, byte) => decodeAlawByte(byte));
const ALAW_TO_ULAW = Uint8Array.from(ALAW_TO_LINEAR, (sample) => encodeUlawSample(sample));
/** Indexed by the sample's 16-bit pattern (sample & 0xffff). */
const LINEAR_TO_ULAW = Uint8Array.from({ length: 65_536 }, (_, bits) =>
  encodeUlawSample((bits << 16) >> 16),
);
/** Each μ-law byte's decoded sample scaled to [-1, 1), as the VAD model takes it. */
const ULAW_TO_FLOAT = Float32Array.from(ULAW_TO_LINEAR, (sample) => sample / 32_768);
/** Each μ-law byte's decoded sample squared, for a frame's level without decoding it. */
const ULAW_ENERGY = Float64Array.from(ULAW_TO_LINEAR, (sample) => sample * sample);

/** μ-law bytes → 16-bit linear samples. */
export function decodeUlaw(ulaw: Uint8Array): Int16Array {
  const out = new Int16Array(ulaw.length);
  for (let i = 0; i < ulaw.length; i++) out[i] = ULAW_TO_LINEAR[ulaw[i]];
  return out;
}

/** μ-law bytes → samples scaled to [-1, 1), into `out` from `offset` (it must have room). */
export function decodeUlawFloatInto(ulaw: Uint8Array, out: Float32Array, offset: number): void {
  for (let i = 0; i < ulaw.length; i++) out[offset + i] = ULAW_TO_FLOAT[ulaw[i]];
}

/** The RMS level of μ-law audio, as `rmsLevel` of its decoded samples would give. */
export function ulawRmsLevel(ulaw: Uint8Array): number {
  if (ulaw.length === 0) return 0;
  let energy = 0;
  for (let i = 0; i < ulaw.length; i++) energy += ULAW_ENERGY[ulaw[i]];
  return Math.sqrt(energy / ulaw.length);
}

/** 16-bit linear samples → μ-law bytes. */
export function encodeUlaw(samples: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = LINEAR_TO_ULAW[samples[i] & 0xffff];
  return out;
}

/** A-law bytes → 16-bit linear samples. */
export function decodeAlaw(alaw: Uint8Array): Int16Array {
  const out = new Int16Array(alaw.length);
  for (let i = 0; i < alaw.length; i++) out[i] = ALAW_TO_LINEAR[alaw[i]];
  return out;
}

/** A-law bytes → μ-law bytes, for a provider leg that streams PCMA. */
export function alawToUlaw(alaw: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(alaw.length);
  for (let i = 0; i < alaw.length; i++) out[i] = ALAW_TO_ULAW[alaw[i]];
  return out;
}
