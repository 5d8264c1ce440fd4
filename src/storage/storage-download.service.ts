import {
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
  StreamableFile,
} from '@nestjs/common';
import { Clock } from '../common/clock';
import { describeUnknown } from '../common/describe-error';
import type { DownloadQuery } from './dto/download.query';
import { ObjectStorage, STORAGE_KEY_PATTERN } from './object-storage';
import { UrlSigner } from './url-signer';

/** Serves signed URLs (SignedFileUrls): the signature first, then the object from the driver. */
@Injectable()
export class StorageDownloadService {
  private readonly logger = new Logger('Storage');

  constructor(
    private readonly storage: ObjectStorage,
    private readonly signer: UrlSigner,
    private readonly clock: Clock,
  ) {}

  async download(key: string, query: DownloadQuery): Promise<StreamableFile> {
    const object = {
      key,
      expires: query.expires,
      fileName: query.name,
      contentType: query.type,
    };
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const check = this.signer.check(object, query.signature, nowSeconds);
    if (check === 'invalid') throw new ForbiddenException('Invalid signature');
    if (check === 'expired') throw new ForbiddenException('This link has expired');
    // Only keys this service made are ever signed; the pattern check is a second lock.
    const stream = STORAGE_KEY_PATTERN.test(key) ? await this.storage.get(key) : null;
    if (!stream) throw new NotFoundException('File not found');
    return new StreamableFile(stream, {
      type: query.type,
      disposition: `attachment; filename*=UTF-8''${encodeURIComponent(query.name)}`,
    }).setErrorLogger((error) =>
      this.logger.error({ ...describeUnknown(error) }, 'File download failed'),
    );
  }
}
