import type { AppConfig } from '../../config';
import { SecretBox } from '../../common/crypto/secret-box';
import { SealedEventData, withSealedFields } from './sealed-event-data';

describe('withSealedFields', () => {
  it('puts the sealed entries of an object field beside its plain ones', () => {
    expect(
      withSealedFields(
        { status: 'completed', collected_digits: { account: '12' } },
        { collected_digits: { pin: '4321' } },
      ),
    ).toEqual({ status: 'completed', collected_digits: { account: '12', pin: '4321' } });
  });

  it('sets a sealed field the data lacks or holds as a non-object, and leaves the data as is', () => {
    const data = { collected_digits: {}, note: null };
    expect(
      withSealedFields(data, { collected_digits: { pin: '1' }, note: 'x', extra: [1] }),
    ).toEqual({ collected_digits: { pin: '1' }, note: 'x', extra: [1] });
    expect(data).toEqual({ collected_digits: {}, note: null });
  });
});

describe('SealedEventData', () => {
  const sealedData = new SealedEventData(
    new SecretBox({ crypto: { encryptionKey: Buffer.alloc(32, 3) } } as AppConfig),
  );
  const event = { id: 'msg_1', organizationId: 'org-a', data: { collected_digits: {} } };

  it('seals the fields out of sight and opens them into the payload', () => {
    const sealed = sealedData.seal('org-a', 'msg_1', { collected_digits: { pin: '4321' } });
    expect(sealed).not.toContain('4321');
    expect(sealedData.payload({ ...event, sealedData: sealed })).toEqual({
      collected_digits: { pin: '4321' },
    });
    expect(sealedData.payload({ ...event, sealedData: null })).toBe(event.data);
  });

  it('opens them only for their own event and organization', () => {
    const sealed = sealedData.seal('org-a', 'msg_1', { collected_digits: { pin: '4321' } });
    expect(() => sealedData.payload({ ...event, id: 'msg_2', sealedData: sealed })).toThrow();
    expect(() =>
      sealedData.payload({ ...event, organizationId: 'org-b', sealedData: sealed }),
    ).toThrow();
  });
});
