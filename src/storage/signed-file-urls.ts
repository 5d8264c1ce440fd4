import type { Clock } from '../common/clock';
import { assertStorageKey } from './object-storage';
import type { UrlSigner } from './url-signer';

/** The public route that serves signed URLs (StorageController). */
export const FILES_ROUTE = 'api/files';

/** What a signed URL serves: the object's display name and media type travel with the URL. */
export interface SignedUrlOptions {
  fileName: string;
  contentType: string;
}

/**
 * Download URLs of stored objects, signed by this service and served by its own route, which
 * streams the object from whichever driver holds it: one URL format, lifetime and set of
 * response headers (attachment, nosniff, sandbox) for the local directory and S3 alike, and a
 * bucket that clients never need to reach.
 */
export class SignedFileUrls {
  constructor(
    private readonly publicBaseUrl: string,
    private readonly signer: UrlSigner,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {}

  /** A URL anyone holding it can download the object from for STORAGE_URL_TTL_SECONDS. */
  signedUrl(key: string, options: SignedUrlOptions): string {
    assertStorageKey(key);
    const expires = Math.floor(this.clock.now().getTime() / 1000) + this.ttlSeconds;
    const signed = { key, expires, fileName: options.fileName, contentType: options.contentType };
    const query = new URLSearchParams({
      expires: String(expires),
      name: options.fileName,
      type: options.contentType,
      signature: this.signer.sign(signed),
    });
    return `${this.publicBaseUrl}/${FILES_ROUTE}/${key}?${query.toString()}`;
  }
}
