import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import type { AgentRow } from '../agents/agents.schema';
import { BatchesRepository } from '../batches/batches.repository';
import type { BatchRow } from '../batches/batches.schema';
import { PhoneLogsRepository } from '../call-records/phone-logs.repository';
import { inSchedule } from './batch-window';
import type { PhoneNumberRow } from '../phones/phones.schema';
import {
  type ClaimPlan,
  countMoves,
  mayHaveFinished,
  nextAccountDialAts,
  nextDialAts,
  planClaims,
} from './claim-plan';
import {
  type BatchWithLiveCalls,
  type DialingBatch,
  DialerClaimsRepository,
  type DueRecord,
} from './dialer-claims.repository';
import { NumberPacing } from './number-pacing';
import {
  CLAIM_LOOKAHEAD,
  PLACEMENT_LEASE_SECONDS,
  RECENT_ATTEMPTS_WINDOW_MS,
} from './dialer.constants';

/** One attempt claimed for placement: everything placeCall needs, read in the claim. */
export interface Claim {
  phoneLogId: string;
  organizationId: string;
  batchId: string;
  to: string;
  phone: PhoneNumberRow;
  maxCallSeconds: number;
  recordCalls: boolean;
  /** The number's pacing slot: placement waits until then (within the tick's second). */
  slot: Date;
}

/**
 * The claim transaction of one batch (docs/dialer.md, "Claim"): capacity under the
 * organization's lock, agent and calling numbers, due records locked with SKIP LOCKED, DNC and
 * the calling window checked here, then each claimed record gets a `queued` phone log with a
 * placement lease. Nothing is sent to a provider here: the caller places after the commit.
 */
@Injectable()
export class DialerClaims {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly claims: DialerClaimsRepository,
    private readonly logs: PhoneLogsRepository,
    private readonly batches: BatchesRepository,
  ) {}

  claimBatch(target: DialingBatch, now: Date): Promise<Claim[]> {
    return this.database.transaction(async () => {
      await this.claims.lockOrganization(target.organizationId);
      const found = await this.claims.findBatchWithLiveCalls(target.id);
      // Paused, cancelled, completed or deleted since the listing: no claim.
      if (!found || found.batch.queueStatus !== 'active' || found.batch.isDeleted) return [];
      const { batch } = found;
      // Before its startAt, or from its endAt on (ScheduledEnds then closes it): no claim.
      if (!inSchedule(batch, now)) return [];
      const free = this.freeCapacity(batch, found.live);
      if (free <= 0) return [];
      const records = await this.claims.dueRecords(
        batch.organizationId,
        batch.id,
        now,
        free + CLAIM_LOOKAHEAD,
        new Date(now.getTime() - RECENT_ATTEMPTS_WINDOW_MS),
      );
      if (records.length === 0) {
        await this.batches.completeIfDone(batch.organizationId, batch.id);
        return [];
      }
      const { agent, numbers } = await this.claims.speakingAgentAndNumbers(batch);
      if (!agent) {
        await this.claims.pause(batch.id, 'no_agent');
        return [];
      }
      if (numbers.length === 0) {
        await this.claims.pause(batch.id, 'no_calling_number');
        return [];
      }
      const [blocked, callable] = partition(records, (due) => due.listed);
      const accounts = await this.claims.lockAccounts(numbers);
      const pacing = new NumberPacing(numbers, now, this.config.dialer.callsPerSecond, accounts);
      const plan = planClaims(
        batch,
        callable,
        pacing,
        free,
        now,
        this.config.dialer.lastCallMarginMs,
      );
      const claimed = await this.write(batch, agent, blocked, plan, now);
      if (mayHaveFinished(plan)) await this.batches.completeIfDone(batch.organizationId, batch.id);
      return claimed;
    });
  }

  /** The plan's writes, and the listed records' withdrawal: one statement. */
  private async write(
    batch: BatchRow,
    agent: AgentRow,
    blocked: DueRecord[],
    { holds, picks }: ClaimPlan,
    now: Date,
  ): Promise<Claim[]> {
    const phoneLogIds = await this.claims.writeClaim(batch, {
      blocked: blocked.map(({ record }) => record.id),
      holds,
      attempts: picks.map(({ record, permit, windowClosesAt, slot }) => ({
        callRecordId: record.id,
        attempt: record.attempts + 1,
        fromNumber: slot.phone.phoneNumber,
        phoneId: slot.phone.id,
        permit,
        windowClosesAt,
      })),
      shared: {
        agentId: agent.id,
        claimedAt: now,
        leaseExpiresAt: new Date(now.getTime() + PLACEMENT_LEASE_SECONDS * 1000),
      },
      slots: nextDialAts(picks),
      accountSlots: nextAccountDialAts(picks),
      counts: countMoves(picks),
    });
    return picks.map(({ record, slot }, i) => ({
      phoneLogId: phoneLogIds[i],
      organizationId: batch.organizationId,
      batchId: batch.id,
      to: record.phoneNumber,
      phone: slot.phone,
      maxCallSeconds: agent.maxCallSeconds,
      recordCalls: batch.recordCalls,
      slot: slot.at,
    }));
  }

  /** Calls this batch may still start: the organization's limit and its own, minus live calls. */
  private freeCapacity(batch: BatchRow, live: BatchWithLiveCalls['live']): number {
    const organizationLimit = this.config.dialer.maxConcurrentCalls;
    const batchLimit = Math.min(organizationLimit, batch.maxConcurrentCalls ?? organizationLimit);
    return Math.min(organizationLimit - live.organization, batchLimit - live.batch);
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
