import { Global, Module } from '@nestjs/common';
import { Clock } from '../common/clock';
import { type AppConfig, APP_CONFIG } from '../config';
import { LocalObjectStorage } from './local-object-storage';
import { ObjectStorage } from './object-storage';
import { StorageController } from './storage.controller';
import { StorageDownloadService } from './storage-download.service';
import { UrlSigner } from './url-signer';

/**
 * Binds ObjectStorage to its driver: the local directory STORAGE_DIR (the only driver today; an
 * S3-compatible one would be chosen here from config). Also serves the local driver's signed
 * download URLs.
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
      provide: ObjectStorage,
      inject: [APP_CONFIG, UrlSigner, Clock],
      useFactory: async (config: AppConfig, signer: UrlSigner, clock: Clock) => {
        const storage = new LocalObjectStorage(
          config.storage.dir,
          config.http.publicBaseUrl,
          signer,
          config.storage.urlTtlSeconds,
          () => clock.now().getTime(),
        );
        await storage.init();
        return storage;
      },
    },
    StorageDownloadService,
  ],
  exports: [ObjectStorage],
})
export class StorageModule {}
