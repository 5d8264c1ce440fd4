import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { describeUnknown } from '../common/describe-error';
import type { AppDatabase } from './database.types';

export const DB = Symbol('DB');

/**
 * How long a statement of background work may run (PostgreSQL): requests are held to
 * DB_STATEMENT_TIMEOUT_MS, but a search-index step under load, a retention purge or an ANALYZE
 * of a large table may need longer, and a job that always timed out would never finish.
 */
export const BACKGROUND_STATEMENT_TIMEOUT_MS = 10 * 60_000;

/** Work to run once the outermost transaction has committed (never after a rollback). */
export type AfterCommitHook = () => Promise<void> | void;

/**
 * Writes gathered during a transaction and made at the end of its work, just before it commits
 * (Database.gatherUntilCommit): `create` makes the transaction's value on first use, `write`
 * writes it, inside the transaction.
 */
export interface Gathering<T> {
  create(): T;
  write(value: T): Promise<void>;
}

interface TransactionScope {
  tx: AppDatabase;
  afterCommit: AfterCommitHook[];
  gathered: Map<Gathering<unknown>, unknown>;
}

/**
 * The handle repositories query through. Inside `transaction()` every repository call made in
 * that async context joins the same transaction, so a service can combine repositories (and
 * raise events) atomically without passing a transaction object around.
 */
@Injectable()
export class Database {
  private readonly logger = new Logger('Database');
  private readonly current = new AsyncLocalStorage<TransactionScope>();

  constructor(@Inject(DB) private readonly root: AppDatabase) {}

  get db(): AppDatabase {
    return this.current.getStore()?.tx ?? this.root;
  }

  /** True inside `transaction()`'s work. */
  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Runs `work` in a transaction (a savepoint when nested). The after-commit hooks registered
   * inside it run once the outermost transaction has committed, before this promise resolves;
   * a hook that fails is logged and does not fail the caller, whose change is already durable.
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.current.getStore();
    const afterCommit: AfterCommitHook[] = [];
    const gathered = new Map<Gathering<unknown>, unknown>();
    const result = await this.db.transaction((tx) =>
      this.current.run({ tx, afterCommit, gathered }, async () => {
        const value = await work();
        // In the order first used; a write may gather more (the loop visits what it adds).
        for (const [gathering, gatheredValue] of gathered) await gathering.write(gatheredValue);
        return value;
      }),
    );
    // A savepoint's hooks belong to the enclosing transaction: they wait for its commit and
    // are dropped with it. Reaching here means the savepoint was released, not rolled back.
    if (outer) outer.afterCommit.push(...afterCommit);
    else await this.runHooks(afterCommit);
    return result;
  }

  /**
   * Runs background work (a job step, housekeeping) in a transaction whose statements may run up
   * to BACKGROUND_STATEMENT_TIMEOUT_MS instead of the request timeout.
   */
  background<T>(work: () => Promise<T>): Promise<T> {
    return this.transaction(async () => {
      await this.db.execute(
        sql`SELECT set_config('statement_timeout', ${String(BACKGROUND_STATEMENT_TIMEOUT_MS)}, true)`,
      );
      return work();
    });
  }

  /**
   * The value the current transaction (or savepoint) gathers for `gathering`, written at the end
   * of its work, just before it commits (a savepoint: before it is released, so a rollback drops
   * it). For hot rows many transactions write, such as counters: each transaction then locks
   * them for its last statements only, instead of from its first move to its commit. Throws
   * outside a transaction.
   */
  gatherUntilCommit<T>(gathering: Gathering<T>): T {
    const scope = this.current.getStore();
    if (!scope) throw new Error('gatherUntilCommit() must be called inside Database.transaction()');
    if (!scope.gathered.has(gathering)) scope.gathered.set(gathering, gathering.create());
    return scope.gathered.get(gathering) as T;
  }

  /** Registers work for after the current transaction commits; throws outside a transaction. */
  afterCommit(hook: AfterCommitHook): void {
    const scope = this.current.getStore();
    if (!scope) throw new Error('afterCommit() must be called inside Database.transaction()');
    scope.afterCommit.push(hook);
  }

  private async runHooks(hooks: AfterCommitHook[]): Promise<void> {
    for (const hook of hooks) {
      try {
        await hook();
      } catch (error) {
        this.logger.warn(`After-commit hook failed: ${JSON.stringify(describeUnknown(error))}`);
      }
    }
  }
}
