import { ProviderError } from '../../telephony/provider-error';
import { GraphError } from './graph-error';

const refused = (httpStatus: number, error?: Record<string, unknown>) =>
  GraphError.from(
    new ProviderError('invalid_request', 'Messaging platform answered', httpStatus, { error }),
  );

describe('GraphError.from', () => {
  it.each([
    [401, { code: 190 }, 'auth'],
    [400, { code: 102 }, 'auth'],
    [403, { code: 10 }, 'permission'],
    [403, { code: 200 }, 'permission'],
    [400, { code: 4 }, 'rate_limited'],
    [400, { code: 80007 }, 'rate_limited'],
    [429, { code: 130429 }, 'rate_limited'],
    [400, { code: 131056 }, 'rate_limited'],
    [400, { code: 131026 }, 'undeliverable'],
    [400, { code: 131047 }, 'needs_template'],
    [400, { code: 100, error_subcode: 33 }, 'not_found'],
    [400, { code: 100 }, 'invalid_request'],
    [500, { code: 1 }, 'upstream'],
    [400, { code: 132001 }, 'invalid_request'],
  ])('HTTP %i with %j is %s (decided on the code, not the status)', (status, error, kind) => {
    expect(refused(status, error).kind).toBe(kind);
  });

  it('keeps the code and fbtrace_id, and falls back to the HTTP kind without a Graph body', () => {
    const error = refused(401, { code: 190, fbtrace_id: 'AbC' });
    expect(error).toMatchObject({ code: 190, fbtraceId: 'AbC', isOutage: false });
    expect(GraphError.from(new ProviderError('unreachable', 'down')).kind).toBe('unreachable');
    expect(GraphError.from(new ProviderError('upstream', 'bad gateway', 502)).isOutage).toBe(true);
    expect(GraphError.from(new ProviderError('not_found', 'no', 404)).kind).toBe('not_found');
  });
});
