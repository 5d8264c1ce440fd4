import { isObjectId, newObjectId } from './object-id';

describe('object ids', () => {
  it('generates distinct 24-hex ids that sort by creation time', () => {
    const ids = Array.from({ length: 1000 }, () => newObjectId());
    expect(new Set(ids).size).toBe(1000);
    expect(ids.every((id) => /^[0-9a-f]{24}$/.test(id))).toBe(true);
    const seconds = parseInt(ids[0].slice(0, 8), 16);
    expect(Math.abs(seconds - Date.now() / 1000)).toBeLessThan(5);
  });

  it('accepts only the lower-case 24-hex form', () => {
    expect(isObjectId('65f1c0ffee0123456789abcd')).toBe(true);
    expect(isObjectId('65F1C0FFEE0123456789ABCD')).toBe(false);
    expect(isObjectId('65f1c0ffee0123456789abc')).toBe(false);
    expect(isObjectId('zzf1c0ffee0123456789abcd')).toBe(false);
    expect(isObjectId(42)).toBe(false);
  });
});
