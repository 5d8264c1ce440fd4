import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EmbeddedSecrets {
  jwtSecret: string;
  encryptionKey: string;
}

/**
 * Embedded mode needs no setup, so its secrets are generated on first start and kept in the
 * data dir (mode 0600); later starts reuse them so tokens and encrypted rows stay valid.
 */
export function loadOrCreateEmbeddedSecrets(dataDir: string): EmbeddedSecrets {
  const file = join(dataDir, 'secrets.json');
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<EmbeddedSecrets>;
    if (stored.jwtSecret && stored.encryptionKey) {
      return { jwtSecret: stored.jwtSecret, encryptionKey: stored.encryptionKey };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: EmbeddedSecrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    encryptionKey: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}
