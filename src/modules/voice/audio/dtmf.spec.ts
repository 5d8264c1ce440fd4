import { detectDtmf } from '../../../../test/fakes/dtmf-detector';
import { DTMF_GAP_MS, DTMF_TONE_MS, dtmfFrequencies, dtmfTones, keypadKeys } from './dtmf';

describe('DTMF tones', () => {
  it('maps every key to its row and column frequency', () => {
    expect(dtmfFrequencies('1')).toEqual([697, 1209]);
    expect(dtmfFrequencies('0')).toEqual([941, 1336]);
    expect(dtmfFrequencies('#')).toEqual([941, 1477]);
    expect(dtmfFrequencies('D')).toEqual([941, 1633]);
    expect(() => dtmfFrequencies('x')).toThrow(RangeError);
  });

  it('plays each key for its tone and gap, and a receiver hears the keys in order', () => {
    const tones = dtmfTones('1234567890*#');
    expect(tones.length).toBe(12 * (DTMF_TONE_MS + DTMF_GAP_MS) * 8);
    expect(detectDtmf(tones)).toBe('1234567890*#');
    // The same key twice is heard twice: the gap separates them.
    expect(detectDtmf(dtmfTones('77'))).toBe('77');
  });

  it('keeps only keypad keys of what the model wrote', () => {
    expect(keypadKeys('1, 2 - 3#')).toBe('123#');
    expect(keypadKeys('press one')).toBe('');
    expect(keypadKeys('*9a')).toBe('*9A');
  });
});
