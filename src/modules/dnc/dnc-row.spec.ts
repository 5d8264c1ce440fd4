import { DNC_TEXT_MAX, prepareDncRow } from './dnc-row';

describe('DNC import rows', () => {
  it('reads the number as the contacts import does, and type and source in any letter case', () => {
    expect(
      prepareDncRow({ PhoneNumber: '1.4155551234E+10', TYPE: ' legal ', Source: 'crm' }),
    ).toEqual({ ok: true, phoneNumber: '+14155551234', type: 'legal', source: 'crm' });
    expect(prepareDncRow({ phoneNumber: 14155551234 })).toEqual({
      ok: true,
      phoneNumber: '+14155551234',
      type: null,
      source: null,
    });
  });

  it('takes reason when no type is given, and a bare JSON number or string as the number', () => {
    expect(prepareDncRow({ phoneNumber: '+14155551234', reason: 'asked' })).toMatchObject({
      type: 'asked',
    });
    expect(
      prepareDncRow({ phoneNumber: '+14155551234', type: 'legal', reason: 'asked' }),
    ).toMatchObject({ type: 'legal' });
    expect(prepareDncRow("'+14155551234")).toMatchObject({ ok: true, phoneNumber: '+14155551234' });
    expect(prepareDncRow(14155551234)).toMatchObject({ ok: true, phoneNumber: '+14155551234' });
  });

  it('ignores other fields, whatever their names', () => {
    expect(
      prepareDncRow({ phoneNumber: '+14155551234', _id: 'x', createdAt: 'y', 'bad!': { a: 1 } }),
    ).toEqual({ ok: true, phoneNumber: '+14155551234', type: null, source: null });
  });

  it.each([
    [{}, { reason: 'missing_phone_number' }],
    [{ phoneNumber: '  ' }, { reason: 'missing_phone_number' }],
    [null, { reason: 'missing_phone_number' }],
    [['+14155551234'], { reason: 'missing_phone_number' }],
    [{ phoneNumber: '12' }, { reason: 'invalid_number', phoneNumber: '12' }],
    [{ phoneNumber: true }, { reason: 'invalid_number' }],
    [{ phoneNumber: '1.41556E+10' }, { reason: 'invalid_number', phoneNumber: '1.41556E+10' }],
    [
      { phoneNumber: '+14155551234', type: 'x'.repeat(DNC_TEXT_MAX + 1) },
      { reason: 'invalid_field', phoneNumber: '+14155551234', field: 'type' },
    ],
    [
      { phoneNumber: '+14155551234', Source: 'a\u0000b' },
      { reason: 'invalid_field', phoneNumber: '+14155551234', field: 'Source' },
    ],
    [
      { phoneNumber: '+14155551234', reason: { why: 1 } },
      { reason: 'invalid_field', phoneNumber: '+14155551234', field: 'reason' },
    ],
  ])('refuses %j', (row, expected) => {
    expect(prepareDncRow(row)).toEqual({ ok: false, ...expected });
  });

  it('keeps type and source of exactly the bound', () => {
    const text = 'x'.repeat(DNC_TEXT_MAX);
    expect(prepareDncRow({ phoneNumber: '+14155551234', type: text, source: text })).toMatchObject({
      ok: true,
      type: text,
      source: text,
    });
  });
});
