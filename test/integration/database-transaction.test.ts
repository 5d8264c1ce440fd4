import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../src/database';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Database.transaction after-commit hooks', () => {
  let t: TestApp;
  let database: Database;
  const committedRows = async () =>
    rowsOf<{ n: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n FROM hook_probe`),
    )[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    database = t.app.get(Database);
    await database.db.execute(sql`CREATE TABLE hook_probe (id int)`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs hooks after the commit, in order, where the change is visible', async () => {
    const seen: Array<[string, number]> = [];
    await database.transaction(async () => {
      await database.db.execute(sql`INSERT INTO hook_probe VALUES (1)`);
      database.afterCommit(async () => {
        seen.push(['first', await committedRows()]);
      });
      database.afterCommit(() => {
        seen.push(['second', -1]);
      });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([
      ['first', 1],
      ['second', -1],
    ]);
  });

  it('drops the hooks of a rolled-back transaction and of a rolled-back savepoint', async () => {
    const ran: string[] = [];
    await expect(
      database.transaction(async () => {
        await database.db.execute(sql`SELECT 1`);
        database.afterCommit(() => void ran.push('outer'));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await database.transaction(async () => {
      database.afterCommit(() => void ran.push('kept'));
      await database
        .transaction(async () => {
          await database.db.execute(sql`SELECT 1`);
          database.afterCommit(() => void ran.push('savepoint rolled back'));
          throw new Error('inner');
        })
        .catch(() => undefined);
      await database.transaction(async () => {
        await database.db.execute(sql`SELECT 1`);
        database.afterCommit(() => void ran.push('savepoint released'));
      });
      // A released savepoint's hooks wait for the outer commit.
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['kept', 'savepoint released']);
  });

  it('logs a failing hook without failing the committed transaction or the hooks after it', async () => {
    const ran: string[] = [];
    await expect(
      database.transaction(async () => {
        await database.db.execute(sql`SELECT 1`);
        database.afterCommit(() => {
          throw new Error('Redis is down');
        });
        database.afterCommit(() => void ran.push('next'));
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(ran).toEqual(['next']);
  });

  it('refuses a hook outside a transaction and tells whether one is open', async () => {
    expect(database.inTransaction).toBe(false);
    expect(() => database.afterCommit(() => undefined)).toThrow('inside Database.transaction()');
    await database.transaction(async () => {
      await database.db.execute(sql`SELECT 1`);
      expect(database.inTransaction).toBe(true);
    });
  });

  it('writes what a transaction gathered at its end, inside it; a rolled-back savepoint drops it', async () => {
    const gathering = {
      create: (): number[] => [],
      write: async (ids: number[]) => {
        for (const id of ids) await database.db.execute(sql`INSERT INTO hook_probe VALUES (${id})`);
      },
    };
    const before = await committedRows();
    await database.transaction(async () => {
      database.gatherUntilCommit(gathering).push(10);
      database.gatherUntilCommit(gathering).push(11);
      // Written at the end of the work, not when gathered.
      expect(await committedRows()).toBe(before);
      await database
        .transaction(() => {
          database.gatherUntilCommit(gathering).push(12);
          return Promise.reject(new Error('inner'));
        })
        .catch(() => undefined);
    });
    const rows = rowsOf<{ id: number }>(
      await database.db.execute(sql`SELECT id FROM hook_probe WHERE id >= 10 ORDER BY id`),
    );
    expect(rows.map((row) => row.id)).toEqual([10, 11]);
    await expect(
      database.transaction(async () => {
        database.gatherUntilCommit(gathering).push(13);
        await database.db.execute(sql`SELECT 1`);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await committedRows()).toBe(before + 2);
    expect(() => database.gatherUntilCommit(gathering)).toThrow('inside Database.transaction()');
  });
});
