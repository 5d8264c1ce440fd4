import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest. The associated data binds a ciphertext to its row and
 * organization: copied into another row or tenant, it no longer decrypts.
 */
@Injectable()
export class SecretBox {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.config.crypto.encryptionKey, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Throws when the value was tampered with, or sealed with another key or associated data. */
  open(sealed: string, associatedData: string): string {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || !payload) throw new Error('Unsupported sealed value');
    const bytes = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.config.crypto.encryptionKey,
      bytes.subarray(0, IV_BYTES),
    );
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
