import type { Readable } from 'node:stream';

/** Keys are flat: letters, digits, `.`, `_` and `-`, starting with a letter or digit. */
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Where uploaded files live, behind one interface: a local directory or an S3-compatible
 * bucket (StorageModule binds the driver from config). Callers name objects with keys they
 * generate; a client's file name never becomes a key. Download URLs are not a driver's
 * business: SignedFileUrls makes them, for this service's own route.
 */
export abstract class ObjectStorage {
  /**
   * Stores the stream's bytes under `key`. Readers never see a partial object: on failure
   * (including the stream erroring, e.g. over the upload limit) nothing is left under the key.
   */
  abstract put(key: string, body: Readable): Promise<void>;

  /** The object's bytes, or null when there is no such object. */
  abstract get(key: string): Promise<Readable | null>;

  /** Removes the object; an absent object is not an error. */
  abstract delete(key: string): Promise<void>;
}

export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key) || key.includes('..')) {
    throw new Error(`Invalid storage key "${key.slice(0, 50)}"`);
  }
}

/** Removes every key, logging nothing: for cleanup after a failed request. */
export async function deleteQuietly(storage: ObjectStorage, keys: Iterable<string>): Promise<void> {
  await Promise.allSettled([...keys].map((key) => storage.delete(key)));
}
