/** Claims of Switchboard access tokens (HS256; iss, aud, iat and exp always set). */
export interface AccessTokenClaims {
  sub: string;
  org: string;
  iat?: number;
  exp?: number;
  iss?: string;
  aud?: string | string[];
}
