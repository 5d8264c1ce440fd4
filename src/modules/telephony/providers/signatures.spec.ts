import { generateKeyPairSync, sign } from 'node:crypto';
import { plivoSignatureV3, verifyPlivoSignatureV3 } from './plivo-signature';
import { verifyTelnyxSignature } from './telnyx-signature';
import { twilioSignature, verifyTwilioSignature } from './twilio-signature';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('Twilio signature', () => {
  const body = form({
    CallSid: 'CA1234567890ABCDE',
    Caller: '+14158675309',
    Digits: '1234',
    From: '+14158675309',
    To: '+18005551212',
  });
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';

  it("matches Twilio's published test vector", () => {
    expect(twilioSignature('12345', url, body)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(verifyTwilioSignature('12345', url, body, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
  });

  it('refuses another token, URL, body or a missing header', () => {
    const signature = twilioSignature('12345', url, body);
    expect(verifyTwilioSignature('54321', url, body, signature)).toBe(false);
    expect(verifyTwilioSignature('12345', `${url}&x=1`, body, signature)).toBe(false);
    expect(verifyTwilioSignature('12345', url, `${body}&Digits=9`, signature)).toBe(false);
    expect(verifyTwilioSignature('12345', url, body, undefined)).toBe(false);
  });
});

describe('Plivo signature V3', () => {
  const token = 'MAXXXXXXXXXXXXXXXXXX_token';
  const nonce = '12345678901234567890';

  it.each([
    [
      'POST',
      'https://example.com/plivo/hangup',
      form({ CallUUID: 'abc-123', CallStatus: 'completed', Duration: '12', From: '14155551234' }),
      'uIbCcxWZWjlntl3M5ih98BdmMtI8oDO3Nb6aK14F0Mw=',
    ],
    [
      'POST',
      'https://example.com/plivo/hangup?callId=42&b=2',
      form({ CallUUID: 'abc-123', CallStatus: 'completed' }),
      'yFy8rPqrFhAtlg6JGEeg6ucCEwlrSRp84IxVA0wozEU=',
    ],
    [
      'GET',
      'https://example.com/plivo/answer?x=1',
      form({ CallUUID: 'abc-123' }),
      'yr3dPz3aU+FGsEdyVqwo74nOgayc28c+72pmgRHkCMc=',
    ],
  ] as const)('matches the %s vector for %s', (method, url, body, expected) => {
    expect(plivoSignatureV3(token, method, url, body, nonce)).toBe(expected);
    expect(verifyPlivoSignatureV3(token, method, url, body, nonce, `other=,${expected}`)).toBe(
      true,
    );
    expect(verifyPlivoSignatureV3(token, method, url, body, '1', expected)).toBe(false);
  });
});

describe('Telnyx signature', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
  const body = JSON.stringify({ data: { event_type: 'call.answered' } });
  const now = 1_800_000_000;
  const signed = (timestamp: number, payload = body) =>
    sign(null, Buffer.from(`${timestamp}|${payload}`), privateKey).toString('base64');

  it('verifies a fresh signature with the raw public key', () => {
    expect(verifyTelnyxSignature(raw, body, signed(now), String(now), now)).toBe(true);
  });

  it('refuses stale timestamps, another body and garbage', () => {
    expect(verifyTelnyxSignature(raw, body, signed(now - 301), String(now - 301), now)).toBe(false);
    expect(verifyTelnyxSignature(raw, `${body} `, signed(now), String(now), now)).toBe(false);
    expect(verifyTelnyxSignature(raw, body, 'AAAA', String(now), now)).toBe(false);
    expect(verifyTelnyxSignature('bad', body, signed(now), String(now), now)).toBe(false);
    expect(verifyTelnyxSignature(raw, body, undefined, String(now), now)).toBe(false);
  });
});
