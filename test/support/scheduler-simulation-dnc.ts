import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import { Database } from '../../src/database';
import { callRecords, phoneLogs } from '../../src/modules/call-records/call-records.schema';
import type { DialerHarness } from './dialer-harness';
import type { SchedulerSimulationOptions } from './scheduler-simulation';
import type { TestApp } from './test-app';

/**
 * Numbers put on the DNC list while the scheduler simulation runs, at seeded simulated times.
 * Half are numbers already called whose retry is scheduled, added through the real route
 * (POST /api/dnc/add names a call, and withdraws the pending calls in its transaction); the
 * other half are numbers not called yet, listed by a plain insert, so only the dialer's own
 * check in the claim transaction stands between them and a call.
 */
export class SimulationDnc {
  /** Phone number → the simulated instant it was listed (from then on: never called). */
  readonly addedAt = new Map<string, Date>();
  withRetryScheduled = 0;
  /** Listings made through POST /api/dnc/add. */
  throughRoute = 0;
  private readonly times: number[];
  private added = 0;

  constructor(
    private readonly t: TestApp,
    private readonly harness: DialerHarness,
    options: Pick<SchedulerSimulationOptions, 'dncAdds' | 'from' | 'spreadMs'>,
    private readonly random: () => number,
  ) {
    this.times = Array.from(
      { length: options.dncAdds },
      () => options.from.getTime() + 3_600_000 + Math.floor(random() * options.spreadMs),
    ).sort((a, b) => a - b);
  }

  private get db() {
    return this.t.app.get(Database).db;
  }

  /** Adds every listing due by `now`, each listed at `now`: the simulated clock only
   * stops at due times, and the instant a listing is made is when it takes effect. */
  async addDue(now: Date): Promise<void> {
    while (this.added < this.times.length && this.times[this.added] <= now.getTime()) {
      const retried = this.added % 2 === 0 && (await this.addRetried(now));
      if (!retried) await this.addUncalled(now);
      this.added += 1;
    }
  }

  /** A pending record that has been called (its retry scheduled), through the route. */
  private async addRetried(now: Date): Promise<boolean> {
    const scheduled = and(
      eq(callRecords.organizationId, this.harness.admin.organizationId),
      eq(callRecords.status, 'pending'),
      gt(callRecords.attempts, 0),
    );
    const record = await this.randomRecord(scheduled);
    // A number listed directly stays pending until a claim withdraws it.
    if (!record || this.addedAt.has(record.phoneNumber)) return false;
    const [log] = await this.db
      .select({ requestUuid: phoneLogs.requestUuid })
      .from(phoneLogs)
      .where(eq(phoneLogs.callRecordId, record.id))
      .orderBy(desc(phoneLogs.attempt))
      .limit(1);
    const response = await this.harness.t.http
      .post('/api/dnc/add')
      .set('Authorization', `Bearer ${this.harness.admin.token}`)
      .send({
        phoneNumber: record.phoneNumber,
        batchId: record.batchId,
        requestUUID: log.requestUuid,
      });
    if (response.status >= 300) {
      // The route takes only numbers libphonenumber calls valid; the population has some that
      // are not (random digits): those are listed directly, and the claim's check must hold.
      if (!/Invalid phoneNumber/.test(JSON.stringify(response.body))) {
        throw new Error(`DNC add ${response.status}: ${JSON.stringify(response.body)}`);
      }
      await this.harness.addDnc(record.phoneNumber);
    } else {
      this.throughRoute += 1;
    }
    this.addedAt.set(record.phoneNumber, now);
    this.withRetryScheduled += 1;
    return true;
  }

  /** A record not called yet: listed directly (as an imported list would be). */
  private async addUncalled(now: Date): Promise<void> {
    const record = await this.randomRecord(
      and(
        eq(callRecords.organizationId, this.harness.admin.organizationId),
        eq(callRecords.status, 'pending'),
        eq(callRecords.attempts, 0),
      ),
    );
    if (!record || this.addedAt.has(record.phoneNumber)) return;
    await this.harness.addDnc(record.phoneNumber);
    this.addedAt.set(record.phoneNumber, now);
  }

  private async randomRecord(where: ReturnType<typeof and>) {
    const [{ total }] = await this.db.select({ total: count() }).from(callRecords).where(where);
    if (total === 0) return undefined;
    const [record] = await this.db
      .select({
        id: callRecords.id,
        phoneNumber: callRecords.phoneNumber,
        batchId: callRecords.batchId,
      })
      .from(callRecords)
      .where(where)
      .orderBy(sql`${callRecords.id}`)
      .offset(Math.floor(this.random() * total))
      .limit(1);
    return record;
  }
}
