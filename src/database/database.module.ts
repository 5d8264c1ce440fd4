import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { Database, DB } from './database.service';
import type { AppDatabase, DatabaseConnection } from './database.types';
import { openDatabase } from './open-database';

export const DATABASE_CONNECTION = Symbol('DATABASE_CONNECTION');

@Global()
@Module({
  providers: [
    {
      provide: DATABASE_CONNECTION,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => openDatabase(config, new Logger('Database')),
    },
    {
      provide: DB,
      inject: [DATABASE_CONNECTION],
      useFactory: (connection: DatabaseConnection): AppDatabase => connection.db,
    },
    Database,
  ],
  exports: [Database, DATABASE_CONNECTION],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {}

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}
