import { downloadFailure, isPlatformMediaUrl } from './graph-media';

describe('isPlatformMediaUrl', () => {
  const api = 'https://graph.facebook.com/v23.0';

  it.each([
    ['Meta’s media host', 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', true],
    ['the configured API', 'https://graph.facebook.com/v23.0/media', true],
    [
      'the configured API of a fake',
      'http://127.0.0.1:4000/x',
      true,
      'http://127.0.0.1:4000/v23.0',
    ],
    ['another host', 'https://attacker.example/steal', false],
    ['a look-alike host', 'https://evilfbsbx.com/x', false],
    ['plain http on Meta’s host', 'http://lookaside.fbsbx.com/x', false],
    ['not a URL', 'not a url', false],
  ])('%s: %s', (_, url, allowed, base = api) => {
    expect(isPlatformMediaUrl(url, base)).toBe(allowed);
  });
});

describe('downloadFailure', () => {
  it.each([
    [404, 'not_found'],
    [410, 'not_found'],
    [401, 'auth'],
    [429, 'rate_limited'],
    [503, 'upstream'],
    [400, 'invalid_request'],
  ])('%d is %s', (status, kind) => {
    expect(downloadFailure(status).kind).toBe(kind);
  });
});
