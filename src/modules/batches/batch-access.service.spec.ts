import type { Principal } from '../../auth/access';
import { mayAccessBatch } from './batch-access.service';

const caller = (overrides: Partial<Principal>): Principal => ({
  kind: 'user',
  organizationId: 'o',
  userId: 'me',
  role: 'member',
  permissions: ['calls'],
  ...overrides,
});

describe('mayAccessBatch', () => {
  it('lets a member reach only their own batches', () => {
    expect(mayAccessBatch(caller({}), { userId: 'me' })).toBe(true);
    expect(mayAccessBatch(caller({}), { userId: 'someone else' })).toBe(false);
  });

  it('lets an admin and an API key reach every batch', () => {
    expect(mayAccessBatch(caller({ role: 'admin' }), { userId: 'someone else' })).toBe(true);
    const apiKey = caller({ kind: 'apiKey', role: 'admin', apiKeyId: 'k' });
    expect(mayAccessBatch(apiKey, { userId: 'someone else' })).toBe(true);
  });
});
