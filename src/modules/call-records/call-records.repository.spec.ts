import { CONTACT_PAYLOAD_PART_BYTES, ContactPayload } from './call-records.repository';

const record = (index: number) => ({
  id: `id-${index}`,
  phoneNumber: `+1415555${String(index).padStart(4, '0')}`,
  contact: { name: `Name ${index} é`, note: 'x'.repeat(200) },
});

describe('ContactPayload', () => {
  it('has no parts when empty', () => {
    expect(new ContactPayload().toParts()).toEqual([]);
  });

  it('keeps one small chunk in one part', () => {
    const payload = new ContactPayload();
    payload.add(record(1));
    payload.add(record(2));
    const parts = payload.toParts();
    expect(parts).toHaveLength(1);
    expect(JSON.parse(parts[0])).toEqual([
      ['id-1', '+14155550001', record(1).contact],
      ['id-2', '+14155550002', record(2).contact],
    ]);
  });

  it('splits a large chunk into JSON arrays of whole rows, in order, each under the part size plus one row', () => {
    const payload = new ContactPayload();
    for (let index = 0; index < 2_000; index += 1) payload.add(record(index));
    const parts = payload.toParts();
    expect(parts.length).toBeGreaterThan(1);
    const rows = parts.flatMap((part) => JSON.parse(part) as unknown[][]);
    expect(rows.map((row) => row[0])).toEqual(
      Array.from({ length: 2_000 }, (_, index) => `id-${index}`),
    );
    const rowBytes = Buffer.byteLength(JSON.stringify(rows[0])) + 1;
    for (const part of parts) {
      expect(Buffer.byteLength(part)).toBeLessThan(CONTACT_PAYLOAD_PART_BYTES + 2 * rowBytes);
    }
  });

  it('starts over empty after reset', () => {
    const payload = new ContactPayload();
    for (let index = 0; index < 500; index += 1) payload.add(record(index));
    payload.reset().add(record(7));
    expect(payload.count).toBe(1);
    expect(payload.toParts().map((part) => JSON.parse(part) as unknown)).toEqual([
      [['id-7', '+14155550007', record(7).contact]],
    ]);
  });
});
