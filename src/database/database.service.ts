import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable } from '@nestjs/common';
import type { AppDatabase } from './database.types';

export const DB = Symbol('DB');

/**
 * The handle repositories query through. Inside `transaction()` every repository call made in
 * that async context joins the same transaction, so a service can combine repositories (and
 * later raise events) atomically without passing a transaction object around.
 */
@Injectable()
export class Database {
  private readonly current = new AsyncLocalStorage<AppDatabase>();

  constructor(@Inject(DB) private readonly root: AppDatabase) {}

  get db(): AppDatabase {
    return this.current.getStore() ?? this.root;
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => this.current.run(tx as unknown as AppDatabase, work));
  }
}
