import { ContactPayload } from './call-records.repository';

const record = (index: number) => ({
  id: `id-${index}`,
  phoneNumber: `+1415555${String(index).padStart(4, '0')}`,
  contact: { name: `Name ${index} é`, note: 'x'.repeat(200) },
});

/** What PostgreSQL reads from the bytes: `[` + rows + `]`. */
const parsed = (payload: ContactPayload): unknown =>
  JSON.parse(`[${payload.toRows().toString('utf8')}]`);

describe('ContactPayload', () => {
  it('has no rows when empty', () => {
    expect(parsed(new ContactPayload())).toEqual([]);
  });

  it('serializes rows in order as [id, phoneNumber, contact], growing its buffer as needed', () => {
    const payload = new ContactPayload();
    for (let index = 0; index < 2_000; index += 1) payload.add(record(index));
    expect(payload.count).toBe(2_000);
    const rows = parsed(payload) as unknown[][];
    expect(rows).toHaveLength(2_000);
    expect(rows[0]).toEqual(['id-0', '+14155550000', record(0).contact]);
    expect(rows[1_999]).toEqual(['id-1999', '+14155551999', record(1_999).contact]);
  });

  it('starts over empty after reset', () => {
    const payload = new ContactPayload();
    for (let index = 0; index < 500; index += 1) payload.add(record(index));
    payload.reset().add(record(7));
    expect(payload.count).toBe(1);
    expect(parsed(payload)).toEqual([['id-7', '+14155550007', record(7).contact]]);
  });
});
