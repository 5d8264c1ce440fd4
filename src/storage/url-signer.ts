import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from '../common/safe-equal';

/** The signed part of a download URL. */
export interface SignedObject {
  key: string;
  /** Unix seconds. */
  expires: number;
  fileName: string;
  contentType: string;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * HMAC-SHA256 over everything a download URL says (key, expiry, name, type), with a key derived
 * from ENCRYPTION_KEY (HKDF, its own label): changing any of them, or the expiry, breaks it.
 */
export class UrlSigner {
  private readonly secret: Buffer;

  constructor(encryptionKey: Buffer) {
    this.secret = Buffer.from(
      hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'switchboard storage url v1', 32),
    );
  }

  sign(object: SignedObject): string {
    return createHmac('sha256', this.secret)
      .update([object.key, String(object.expires), object.fileName, object.contentType].join('\n'))
      .digest('base64url');
  }

  check(object: SignedObject, signature: string, nowSeconds: number): SignatureCheck {
    if (!safeEqual(this.sign(object), signature)) return 'invalid';
    return object.expires < nowSeconds ? 'expired' : 'valid';
  }
}
