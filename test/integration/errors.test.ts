import { registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const ERROR_KEYS = ['code', 'errorMessage', 'message', 'status'];

describe('errors: every kind answers the common envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { JSON_BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('400 for malformed JSON', async () => {
    const response = await t.http
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.c", ')
      .expect(400);
    expect(response.body).toEqual({
      message: 'Bad request',
      status: false,
      code: 400,
      errorMessage: 'Malformed JSON body',
    });
  });

  it('413 for a body over the limit', async () => {
    const response = await t.http
      .post('/api/auth/login')
      .send({ email: 'a@example.com', password: 'x'.repeat(4096) })
      .expect(413);
    expect(response.body).toEqual({
      message: 'Payload too large',
      status: false,
      code: 413,
      errorMessage: 'Request body too large',
    });
  });

  it('404 for an unknown route, with or without credentials', async () => {
    const anonymous = await t.http.get('/api/no-such-route').expect(404);
    expect(Object.keys(anonymous.body).sort()).toEqual(ERROR_KEYS);
    expect(anonymous.body).toMatchObject({ message: 'Not found', status: false, code: 404 });
    const admin = await registerOrganization(t.http);
    await t.http.delete('/api/auth/me').set('Authorization', `Bearer ${admin.token}`).expect(404);
  });

  it('400 with field errors for a body of the wrong types', async () => {
    const response = await t.http
      .post('/api/auth/login')
      .send({ email: 42, password: ['x'] })
      .expect(400);
    expect(Object.keys(response.body).sort()).toEqual([...ERROR_KEYS, 'errors'].sort());
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'email', message: 'email must be an email' },
        { field: 'password', message: 'password must be a string' },
      ]),
    );
  });

  it('never leaks a stack trace or internals', async () => {
    const responses = await Promise.all([
      t.http.post('/api/auth/login').set('Content-Type', 'application/json').send('{'),
      t.http.get('/api/users').set('Authorization', 'Bearer x.y.z'),
      t.http.delete('/api/api-keys/zz'),
    ]);
    for (const response of responses) {
      const text = JSON.stringify(response.body);
      expect(text).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+|SELECT |stack/i);
      expect(Object.keys(response.body).sort()).toEqual(ERROR_KEYS);
    }
  });

  it('echoes a sane x-request-id and makes one up otherwise', async () => {
    const echoed = await t.http.get('/health/live').set('x-request-id', 'req-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('req-123');
    const made = await t.http
      .get('/health/live')
      .set('x-request-id', 'bad id with spaces')
      .expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
