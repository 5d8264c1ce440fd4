import { createSwitchboardClient, SwitchboardApiError, unwrap } from './index';

/** A fetch that records each request and answers with `status` and `body`. */
function recordingFetch(status = 200, body: unknown = { message: 'ok', status: true, code: 200 }) {
  const requests: Request[] = [];
  const fetch = (request: Request) => {
    requests.push(request);
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  return { requests, fetch };
}

describe('createSwitchboardClient', () => {
  it('sends an API key as x-api-key, and no bearer', async () => {
    const { requests, fetch } = recordingFetch();
    const client = createSwitchboardClient({
      baseUrl: 'https://sb.example.com/',
      apiKey: 'k1',
      fetch,
    });
    await client.GET('/api/agents');
    expect(requests[0].url).toBe('https://sb.example.com/api/agents');
    expect(requests[0].headers.get('x-api-key')).toBe('k1');
    expect(requests[0].headers.get('authorization')).toBeNull();
  });

  it('sends a token as a bearer, reading a token function before each request', async () => {
    const { requests, fetch } = recordingFetch();
    let current = 't1';
    const client = createSwitchboardClient({
      baseUrl: 'https://sb.example.com',
      token: () => Promise.resolve(current),
      fetch,
    });
    await client.GET('/api/agents');
    current = 't2';
    await client.GET('/api/agents');
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer t1',
      'Bearer t2',
    ]);
    expect(requests[0].headers.get('x-api-key')).toBeNull();
  });

  it('sends no credentials when given none', async () => {
    const { requests, fetch } = recordingFetch();
    await createSwitchboardClient({ baseUrl: 'https://sb.example.com', fetch }).GET('/health/live');
    expect(requests[0].headers.get('authorization')).toBeNull();
    expect(requests[0].headers.get('x-api-key')).toBeNull();
  });
});

describe('unwrap', () => {
  it('throws the error envelope as a SwitchboardApiError', async () => {
    const envelope = { message: 'Not found', status: false, code: 404, errorMessage: 'No agent' };
    const { fetch } = recordingFetch(404, envelope);
    const client = createSwitchboardClient({
      baseUrl: 'https://sb.example.com',
      apiKey: 'k',
      fetch,
    });
    const error = await unwrap(
      client.GET('/api/agents/{id}', { params: { path: { id: '65f1c0ffee0123456789abcd' } } }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SwitchboardApiError);
    expect(error).toMatchObject({ status: 404, body: envelope, message: '404 No agent' });
  });

  it('keeps a non-envelope error body out of `body`', async () => {
    const { fetch } = recordingFetch(502, { oops: true });
    const client = createSwitchboardClient({ baseUrl: 'https://sb.example.com', fetch });
    await expect(unwrap(client.GET('/health/ready'))).rejects.toMatchObject({
      status: 502,
      body: undefined,
    });
  });
});
