import jwt from 'jsonwebtoken';
import { TEST_JWT_SECRET } from './test-app';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface TokenClaims {
  sub: string;
  org: string;
}

/** Tokens signed as the app would sign them, with one thing changed per variant. */
export function forgedTokens(claims: TokenClaims): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  const good = { ...claims, iss: 'switchboard', aud: 'switchboard-api' };
  const sign = (payload: object, secret = TEST_JWT_SECRET, options: jwt.SignOptions = {}) =>
    jwt.sign(payload, secret, { algorithm: 'HS256', ...options });
  const valid = sign({ ...good, exp: now + 600 });
  const [header, payload] = valid.split('.');
  const tamperedPayload = base64url({ ...good, sub: '0123456789abcdef01234567', exp: now + 600 });
  return {
    expired: sign({ ...good, iat: now - 7200, exp: now - 3600 }),
    wrongSecret: sign({ ...good, exp: now + 600 }, 'another-secret-that-is-long-enough-0123456789'),
    algNone: `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    hs512: sign({ ...good, exp: now + 600 }, TEST_JWT_SECRET, { algorithm: 'HS512' }),
    wrongIssuer: sign({ ...good, iss: 'someone-else', exp: now + 600 }),
    wrongAudience: sign({ ...good, aud: 'another-api', exp: now + 600 }),
    missingExp: sign(good),
    notYetValid: sign({ ...good, exp: now + 600, nbf: now + 300 }),
    tamperedPayload: `${header}.${tamperedPayload}.${valid.split('.')[2]}`,
    garbage: 'not-a-jwt',
    truncated: valid.slice(0, -10),
  };
}
