import { Global, Module } from '@nestjs/common';
import { Clock } from '../common/clock';
import { type AppConfig, APP_CONFIG } from '../config';
import { LocalObjectStorage } from './local-object-storage';
import { ObjectStorage } from './object-storage';
import { createS3Client, S3ObjectStorage } from './s3-object-storage';
import { SignedFileUrls } from './signed-file-urls';
import { StorageController } from './storage.controller';
import { StorageDownloadService } from './storage-download.service';
import { UrlSigner } from './url-signer';

/**
 * Binds ObjectStorage to its driver: an S3-compatible bucket when STORAGE_S3_BUCKET is set,
 * else the local directory STORAGE_DIR. Either way, download URLs are signed here and served
 * by this module's own route.
 */
@Global()
@Module({
  controllers: [StorageController],
  providers: [
    {
      provide: UrlSigner,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new UrlSigner(config.crypto.encryptionKey),
    },
    {
      provide: SignedFileUrls,
      inject: [APP_CONFIG, UrlSigner, Clock],
      useFactory: (config: AppConfig, signer: UrlSigner, clock: Clock) =>
        new SignedFileUrls(config.http.publicBaseUrl, signer, config.storage.urlTtlSeconds, clock),
    },
    {
      provide: ObjectStorage,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const { s3 } = config.storage;
        if (s3) return new S3ObjectStorage(createS3Client(s3), s3.bucket);
        const storage = new LocalObjectStorage(config.storage.dir);
        await storage.init();
        return storage;
      },
    },
    StorageDownloadService,
  ],
  exports: [ObjectStorage, SignedFileUrls],
})
export class StorageModule {}
