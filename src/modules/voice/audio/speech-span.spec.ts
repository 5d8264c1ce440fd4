import { speechSpan } from './speech-span';

const RATE = 8000;
const silence = (ms: number) => new Int16Array((RATE * ms) / 1000);
const tone = (ms: number, amplitude: number) =>
  Int16Array.from({ length: (RATE * ms) / 1000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 300 * i) / RATE)),
  );
const join = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

describe('speechSpan', () => {
  it('keeps the speech and 250 ms either side of it, dropping the silence around', () => {
    const speech = join(tone(400, 8000), silence(300), tone(300, 6000));
    const span = speechSpan(join(silence(5000), speech, silence(2000)), RATE);
    expect(span.length).toBe(speech.length + 2 * (RATE / 4));
    expect(Array.from(span.subarray(RATE / 4, RATE / 4 + 50))).toEqual(
      Array.from(speech.subarray(0, 50)),
    );
  });

  it('keeps quiet speech near loud speech, and never cuts inside the span', () => {
    const quiet = tone(200, 800); // 20 dB under the loud part: still speech
    const audio = join(silence(1000), quiet, silence(500), tone(200, 8000), silence(1000));
    expect(speechSpan(audio, RATE).length).toBe((RATE * (200 + 500 + 200 + 500)) / 1000);
  });

  it('is empty for line noise and digital silence alone', () => {
    const noise = Int16Array.from({ length: RATE }, (_, i) => ((i * 7919) % 61) - 30);
    expect(speechSpan(noise, RATE)).toHaveLength(0);
    expect(speechSpan(silence(3000), RATE)).toHaveLength(0);
    expect(speechSpan(new Int16Array(0), RATE)).toHaveLength(0);
  });

  it('stays inside the audio when speech touches its edges', () => {
    const audio = tone(500, 5000);
    expect(speechSpan(audio, RATE)).toEqual(audio);
  });
});
