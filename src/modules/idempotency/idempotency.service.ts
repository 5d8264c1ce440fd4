import { createHash } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  Logger,
  UnprocessableEntityException,
} from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';
import { Database } from '../../database';
import { IdempotencyRepository } from './idempotency.repository';
import type { IdempotencyKeyRow } from './idempotency.schema';

/** How long a stored answer is replayed. */
const TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a claim outlives its request's last sign of life: a request that died in flight
 * (process killed, connection lost) holds its key this long at most. A running request renews
 * its lease well before it runs out, however long its work takes.
 */
export const CLAIM_LEASE_SECONDS = 30;
const RENEW_EVERY_MS = (CLAIM_LEASE_SECONDS * 1000) / 3;
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,255}$/;

/** Rolls back the work of a request whose claim lapsed and was taken by a retry meanwhile. */
class ClaimLost extends Error {
  constructor() {
    super('Idempotency-Key claim lost');
  }
}

/**
 * Idempotency-Key semantics: the first request with a key runs; a repeat with the same body gets
 * the first result; the same key with another body answers 422; a repeat while the first is
 * still running answers 409. Stored answers live 24 hours per organization and operation.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly database: Database,
  ) {}

  /**
   * Runs `work` in a transaction, once per key. The key is claimed first (committed at once, so
   * a concurrent repeat sees it and answers 409), and the work's result is stored in the work's
   * own transaction: the resource and its stored answer commit together or not at all, so a
   * retry either replays that answer or runs the work afresh. A failed request releases its
   * key; one that died in flight loses it when its lease runs out. `request` is the fingerprint
   * source, known before the work starts (a JSON body; an upload's fields and file hash).
   * Called outside any transaction.
   */
  async run<T>(
    organizationId: string,
    operation: string,
    key: string | undefined,
    request: unknown,
    work: () => Promise<T>,
  ): Promise<T> {
    if (this.database.inTransaction)
      throw new Error('IdempotencyService.run() opens its own transaction');
    if (key === undefined) return this.database.transaction(work);
    const id = keyId(operation, key);
    const hash = fingerprint(request);
    const claimId = await this.keys.claim(organizationId, id, hash, CLAIM_LEASE_SECONDS);
    if (!claimId) return this.repeat(await this.keys.find(organizationId, id), hash);
    const renewal = setInterval(() => {
      this.keys
        .renew(organizationId, id, claimId, CLAIM_LEASE_SECONDS)
        .catch((error: unknown) => this.warn('renewed', error));
    }, RENEW_EVERY_MS);
    try {
      return await this.database.transaction(async () => {
        const result = await work();
        if (!(await this.keys.complete(organizationId, id, claimId, result, TTL_SECONDS))) {
          throw new ClaimLost();
        }
        return result;
      });
    } catch (error) {
      if (error instanceof ClaimLost) {
        return this.repeat(await this.keys.find(organizationId, id), hash);
      }
      // Failing to release leaves the key to its lease.
      await this.keys
        .release(organizationId, id, claimId)
        .catch((failure: unknown) => this.warn('released', failure));
      throw error;
    } finally {
      clearInterval(renewal);
    }
  }

  /** The answer to a repeat: the first result, 422 for another body, 409 while still running. */
  private repeat<T>(existing: IdempotencyKeyRow | undefined, requestHash: string): T {
    if (existing && existing.requestHash !== requestHash) {
      throw new UnprocessableEntityException(
        'This Idempotency-Key was used with a different request body',
      );
    }
    if (!existing || existing.responseStatus === null) {
      throw new ConflictException('A request with this Idempotency-Key is still in progress');
    }
    return (existing.responseBody ?? undefined) as T;
  }

  private warn(what: string, error: unknown): void {
    const reason = JSON.stringify(describeUnknown(error));
    this.logger.warn(`Idempotency-Key claim not ${what}: ${reason}`);
  }
}

function keyId(operation: string, key: string): { operation: string; key: string } {
  if (!KEY_PATTERN.test(key)) {
    throw new BadRequestException(
      'Idempotency-Key must be 1–255 characters of letters, digits and _ . : -',
    );
  }
  return { operation, key };
}

/** A stable hash of a JSON body: object keys sorted at every level. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
