import { prepareContact } from './contact-row';

describe('contact rows', () => {
  it('keeps phoneNumber out of the fields and turns scalars into strings', () => {
    expect(
      prepareContact({ phoneNumber: '14155551234', name: ' Ada ', age: 42, vip: true, note: '' }),
    ).toEqual({
      ok: true,
      phoneNumber: '+14155551234',
      contact: { name: 'Ada', age: '42', vip: 'true' },
    });
  });

  it('finds the number under any letter case, also as a JSON number', () => {
    expect(prepareContact({ PHONENUMBER: 14155551234 })).toMatchObject({
      ok: true,
      phoneNumber: '+14155551234',
    });
  });

  it('reports a missing or invalid number before an invalid field', () => {
    expect(prepareContact({ name: 'Ada' })).toEqual({ ok: false, reason: 'missing_phone_number' });
    expect(prepareContact({ phoneNumber: '  ', _id: 'x' })).toEqual({
      ok: false,
      reason: 'missing_phone_number',
    });
    expect(prepareContact({ phoneNumber: '12', _id: 'x' })).toEqual({
      ok: false,
      reason: 'invalid_number',
      phoneNumber: '12',
    });
  });

  it.each([
    [{ _id: 'x' }, '_id'],
    [{ phoneLogs: 'x' }, 'phoneLogs'],
    [{ createdAt: 'x' }, 'createdAt'],
    [{ 'bad!key': 'x' }, 'bad!key'],
    [{ ['k'.repeat(65)]: 'x' }, 'k'.repeat(65)],
    [{ note: 'x'.repeat(1_001) }, 'note'],
    [{ nested: { a: 1 } }, 'nested'],
    [{ list: ['a'] }, 'list'],
    [{ nul: 'a\u0000b' }, 'nul'],
    [{ surrogate: 'a\ud800b' }, 'surrogate'],
  ])('refuses %j as invalid_field', (fields, field) => {
    expect(prepareContact({ phoneNumber: '+14155551234', ...fields })).toEqual({
      ok: false,
      reason: 'invalid_field',
      phoneNumber: '+14155551234',
      field,
    });
  });

  it('keeps a field named __proto__ as data', () => {
    const row = JSON.parse('{"phoneNumber":"+14155551234","__proto__":"x"}') as object;
    expect(JSON.stringify(prepareContact(row))).toBe(
      '{"ok":true,"phoneNumber":"+14155551234","contact":{"__proto__":"x"}}',
    );
  });

  it('keeps emoji and other paired surrogates', () => {
    expect(prepareContact({ phoneNumber: '+14155551234', note: 'ok 👍' })).toMatchObject({
      ok: true,
      contact: { note: 'ok 👍' },
    });
  });

  it('allows 50 fields and refuses the 51st', () => {
    const fields = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 'v']));
    expect(prepareContact({ phoneNumber: '+14155551234', ...fields }).ok).toBe(true);
    expect(prepareContact({ phoneNumber: '+14155551234', ...fields, f50: 'v' })).toMatchObject({
      ok: false,
      reason: 'invalid_field',
      field: 'f50',
    });
  });
});
