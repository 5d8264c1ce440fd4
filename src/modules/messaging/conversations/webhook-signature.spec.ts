import { hubSignature, isHubSignatureValid } from './webhook-signature';

const SECRET = 'app-secret';
const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

describe('isHubSignatureValid', () => {
  it('accepts the HMAC of the exact bytes, in either hex case', () => {
    const signature = hubSignature(SECRET, body);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(isHubSignatureValid(SECRET, body, signature)).toBe(true);
    expect(
      isHubSignatureValid(SECRET, body, signature.toUpperCase().replace('SHA256', 'sha256')),
    ).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['without the prefix', hubSignature(SECRET, body).slice('sha256='.length)],
    ['sha1', `sha1=${'0'.repeat(40)}`],
    ['too short', 'sha256=abcd'],
    ['of another secret', hubSignature('other', body)],
    [
      'of re-serialised JSON',
      hubSignature(SECRET, Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1))),
    ],
  ])('refuses a signature %s', (_, header) => {
    expect(isHubSignatureValid(SECRET, body, header)).toBe(false);
  });
});
