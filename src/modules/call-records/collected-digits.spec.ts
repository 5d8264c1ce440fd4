import type { AppConfig } from '../../config';
import { SecretBox } from '../../common/crypto/secret-box';
import type { SealedDigits } from './call-records.schema';
import { CollectedDigits } from './collected-digits';
import type { PhoneLogsRepository } from './phone-logs.repository';

type Entry = { digits: string } | { sealed: SealedDigits };

function collectedDigits() {
  const written: Array<{ organizationId: string; id: string; name: string; entry: Entry }> = [];
  const logs = {
    recordDigits: (organizationId: string, id: string, name: string, entry: Entry) => {
      written.push({ organizationId, id, name, entry });
      return Promise.resolve();
    },
  } as unknown as PhoneLogsRepository;
  const box = new SecretBox({ crypto: { encryptionKey: Buffer.alloc(32, 7) } } as AppConfig);
  return { digits: new CollectedDigits(logs, box), written };
}

describe('CollectedDigits', () => {
  it('stores the digits of an agent without privateDigits as typed', async () => {
    const { digits, written } = collectedDigits();
    await digits.record('org-a', 'log-1', 'account_number', '12345678', false);
    expect(written).toEqual([
      {
        organizationId: 'org-a',
        id: 'log-1',
        name: 'account_number',
        entry: { digits: '12345678' },
      },
    ]);
  });

  it('seals private digits, keeping only how many were typed in clear', async () => {
    const { digits, written } = collectedDigits();
    await digits.record('org-a', 'log-1', 'pin', '4321', true);
    const [{ entry }] = written;
    expect(JSON.stringify(written)).not.toContain('4321');
    const sealed = (entry as { sealed: SealedDigits }).sealed;
    expect(sealed.length).toBe(4);
    const log = { organizationId: 'org-a', id: 'log-1', sealedDigits: { pin: sealed } };
    expect(digits.openPrivate(log)).toEqual({ pin: '4321' });
  });

  it('opens an entry only on its own organization, phone log and name, leaving out what does not open', async () => {
    const { digits, written } = collectedDigits();
    await digits.record('org-a', 'log-1', 'pin', '4321', true);
    await digits.record('org-a', 'log-1', 'account', '99887766', true);
    const [pin, account] = written.map((w) => (w.entry as { sealed: SealedDigits }).sealed);
    const log = { organizationId: 'org-a', id: 'log-1' };
    expect(digits.openPrivate({ ...log, organizationId: 'org-b', sealedDigits: { pin } })).toEqual(
      {},
    );
    expect(digits.openPrivate({ ...log, id: 'log-2', sealedDigits: { pin } })).toEqual({});
    // Moved to another name, or tampered with: left out, the others still open.
    const tampered = { ...account, sealed: `${account.sealed.slice(0, -4)}AAA=` };
    expect(digits.openPrivate({ ...log, sealedDigits: { other: pin, account } })).toEqual({
      account: '99887766',
    });
    expect(digits.openPrivate({ ...log, sealedDigits: { pin, account: tampered } })).toEqual({
      pin: '4321',
    });
    expect(digits.openPrivate({ ...log, sealedDigits: {} })).toEqual({});
  });
});
