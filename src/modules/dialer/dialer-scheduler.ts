import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ProcessDrain } from '../../lifecycle/process-drain';
import { describeUnknown } from '../../common/describe-error';
import { detach } from '../../common/detach';
import { PeriodicTask } from '../../common/periodic-task';
import { Semaphore } from '../../common/semaphore';
import { withTimeout } from '../../common/with-timeout';
import { type AppConfig, InjectConfig } from '../../config';
import { AttemptRecovery, type RecoveryReport } from './attempt-recovery';
import { CallPlacement, type PlacementResult } from './call-placement';
import { type Claim, DialerClaims } from './dialer-claims';
import { type DialingBatch, DialerClaimsRepository } from './dialer-claims.repository';
import { ScheduledEnds } from './scheduled-ends';
import type { Integration } from '../telephony/telephony.types';
import {
  NOT_PLACED_BACKOFF_SECONDS,
  PLACEMENT_CONCURRENCY,
  PLACEMENT_SLOT_WAIT_MS,
  PLACEMENT_WAIT_MS,
} from './dialer.constants';

/** One pass: what it claimed, and its placements (tick() waits for them). */
interface TickPass {
  claimed: number;
  placements: Promise<PlacementResult[]>;
}

export interface TickReport {
  claimed: number;
  placed: number;
  refused: number;
  unknown: number;
  /** Never sent: the dial check said no, or no provider slot came in time. */
  withheld: number;
  /** Refused by the provider in a way that proves nothing was placed (429, no connection). */
  released: number;
  recovery: RecoveryReport;
}

/**
 * The dialer's heartbeat (docs/dialer.md, "Scheduler"). A PeriodicTask in every process that
 * runs jobs (PROCESS_ROLE all, and the worker; not api): every DIALER_TICK_MS it ends the
 * batches whose endAt has come (ScheduledEnds), claims for each dialing batch in turn (one
 * transaction per batch) and places the tick's claims concurrently. Recovery of expired leases runs on its own timers (AttemptRecovery), so a
 * provider's slow lookups never hold up a claim. Several processes tick at once safely: the
 * claim locks the organization and skips locked records, so a record is claimed, and a phone
 * log placed, by one of them only; no leader or queue job is needed, and losing Redis does not
 * stop dialing. A provider that hangs (an outage: every request runs into its timeout) slows
 * nobody else: each provider has its own placement slots, a claim waits for one at most
 * PLACEMENT_SLOT_WAIT_MS (then it is given back unspent), and the timer's pass waits for the
 * placements at most PLACEMENT_WAIT_MS before the next pass may start (they finish on their own).
 */
@Injectable()
export class DialerScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DialerScheduler');
  private readonly task = new PeriodicTask(() => this.pass(), this.logger, 'Dialer tick');
  /** Rotates which organization, and which of its batches, claims first. */
  private round = 0;
  /** Placement slots per provider: one provider's hung requests never hold another's. */
  private readonly gates = new Map<Integration, Semaphore>();
  /** Placements still running (shutdown waits for them). */
  private readonly placing = new Set<Promise<unknown>>();

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly batches: DialerClaimsRepository,
    private readonly claims: DialerClaims,
    private readonly placement: CallPlacement,
    private readonly recovery: AttemptRecovery,
    private readonly ends: ScheduledEnds,
    private readonly clock: Clock,
    private readonly drain: ProcessDrain,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.process.role !== 'api' && this.config.dialer.tickMs > 0) {
      this.task.start(this.config.dialer.tickMs);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
    await Promise.all(this.placing);
  }

  /**
   * One recovery pass of every provider, then one tick; resolves once its placements have
   * answered (tests call it: in a running process the two are on their own timers).
   */
  async tick(): Promise<TickReport> {
    const recovery = await this.recovery.pass();
    const { claimed, placements } = await this.task.run();
    const results = await placements;
    const count = (result: PlacementResult) => results.filter((r) => r === result).length;
    return {
      claimed,
      placed: count('placed'),
      refused: count('refused'),
      unknown: count('unknown'),
      withheld: count('withheld'),
      released: count('released'),
      recovery,
    };
  }

  private async pass(): Promise<TickPass> {
    const now = this.clock.now();
    const claimed: Claim[] = [];
    // A draining process dials nobody: a call it placed now would be answered by no one.
    if (this.drain.draining) return { claimed: 0, placements: Promise.resolve([]) };
    await this.ends.endDue(now);
    for (const batch of fairOrder(await this.batches.listDialing(now), this.round++)) {
      try {
        claimed.push(...(await this.claims.claimBatch(batch, now)));
      } catch (error) {
        const reason = JSON.stringify(describeUnknown(error));
        this.logger.warn(`Claim for batch ${batch.id} failed: ${reason}`);
      }
    }
    const placements = Promise.all(claimed.map((claim) => this.placeInSlot(claim)));
    this.placing.add(placements);
    detach(
      placements.finally(() => this.placing.delete(placements)),
      { what: 'Placements of a tick', logger: this.logger },
    );
    // Placements never reject (placeSafely), so a timeout is the only rejection here.
    await withTimeout(placements, PLACEMENT_WAIT_MS).catch(() => undefined);
    return { claimed: claimed.length, placements };
  }

  /** In one of the provider's slots, or given back unspent when none comes in time. */
  private async placeInSlot(claim: Claim): Promise<PlacementResult> {
    const slot = await this.gateOf(claim).runWithin(PLACEMENT_SLOT_WAIT_MS, () =>
      this.placeSafely(claim),
    );
    if (slot.ran) return slot.value;
    try {
      const retryAt = new Date(this.clock.now().getTime() + NOT_PLACED_BACKOFF_SECONDS * 1000);
      await this.placement.withhold(claim, retryAt);
    } catch (error) {
      // Left claimed and never sent: recovery gives it back once its lease expires.
      const reason = JSON.stringify(describeUnknown(error));
      this.logger.warn(`Giving back ${claim.phoneLogId} failed: ${reason}`);
    }
    return 'withheld';
  }

  private gateOf(claim: Claim): Semaphore {
    const integration = claim.phone.integration;
    let gate = this.gates.get(integration);
    if (!gate) {
      gate = new Semaphore(PLACEMENT_CONCURRENCY);
      this.gates.set(integration, gate);
    }
    return gate;
  }

  private async placeSafely(claim: Claim): Promise<PlacementResult> {
    try {
      return await this.placement.place(claim);
    } catch (error) {
      // A failure after placeCall answered (a lost connection at the write): recovery decides.
      const reason = JSON.stringify(describeUnknown(error));
      this.logger.warn(`Placement of ${claim.phoneLogId} failed: ${reason}`);
      return 'unknown';
    }
  }
}

/**
 * Interleaves organizations (one batch of each in turn) and rotates, tick by tick, which
 * organization and which of its batches go first: the capacity freed in an organization goes
 * to each of its batches in turn, and no organization always claims first.
 */
export function fairOrder(batches: DialingBatch[], round: number): DialingBatch[] {
  const byOrganization = new Map<string, DialingBatch[]>();
  for (const batch of batches) {
    byOrganization.set(batch.organizationId, [
      ...(byOrganization.get(batch.organizationId) ?? []),
      batch,
    ]);
  }
  const queues = [...byOrganization.values()].map((list) => rotate(list, round));
  const ordered: DialingBatch[] = [];
  for (let i = 0; ordered.length < batches.length; i += 1) {
    for (const queue of rotate(queues, round)) if (i < queue.length) ordered.push(queue[i]);
  }
  return ordered;
}

function rotate<T>(items: T[], by: number): T[] {
  if (items.length === 0) return items;
  const start = by % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}
