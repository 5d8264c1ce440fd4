import { createHash } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Database } from '../../database';
import { IdempotencyRepository } from './idempotency.repository';
import type { IdempotencyKeyRow } from './idempotency.schema';

const TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,255}$/;

/** Rolls back a streamed request's transaction when its key was claimed meanwhile. */
class KeyTaken extends Error {
  constructor(readonly requestHash: string) {
    super('Idempotency-Key taken');
  }
}

const expiry = () => new Date(Date.now() + TTL_MS);

/**
 * Idempotency-Key semantics: the first request with a key runs; a repeat with the same body gets
 * the first result; the same key with another body answers 422; a repeat while the first is
 * still running answers 409. Keys live 24 hours per organization and operation. A failed first
 * request releases its key so it can be retried.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly database: Database,
  ) {}

  async run<T>(
    organizationId: string,
    operation: string,
    key: string | undefined,
    request: unknown,
    work: () => Promise<T>,
  ): Promise<T> {
    if (key === undefined) return work();
    const id = keyId(operation, key);
    const hash = fingerprint(request);
    if (!(await this.keys.claim(organizationId, id, hash, expiry()))) {
      return this.repeat(await this.keys.find(organizationId, id), hash);
    }
    try {
      const result = await work();
      await this.keys.complete(organizationId, id, 200, result);
      return result;
    } catch (error) {
      await this.keys.release(organizationId, id);
      throw error;
    }
  }

  /**
   * For a request whose fingerprint is known only once its body has been read (a streamed
   * upload). Without a live record for the key, `work` runs in a transaction and claims the key,
   * result included, in that same transaction before it commits: result and key commit together
   * or not at all, and a concurrent twin waits on the key, rolls back its own work and is
   * answered like a repeat. With a live record, `read` reads the request without acting on it,
   * to compare its fingerprint with the record's. Without a key, `work` still runs in a
   * transaction.
   */
  async runStreamed<T>(
    organizationId: string,
    operation: string,
    key: string | undefined,
    steps: {
      read: () => Promise<unknown>;
      work: () => Promise<{ request: unknown; result: T }>;
    },
  ): Promise<T> {
    if (key === undefined)
      return this.database.transaction(async () => (await steps.work()).result);
    const id = keyId(operation, key);
    const existing = await this.keys.find(organizationId, id);
    if (existing && existing.expiresAt > new Date()) {
      return this.repeat(existing, fingerprint(await steps.read()));
    }
    try {
      return await this.database.transaction(async () => {
        const { request, result } = await steps.work();
        const hash = fingerprint(request);
        if (!(await this.keys.claim(organizationId, id, hash, expiry()))) throw new KeyTaken(hash);
        await this.keys.complete(organizationId, id, 200, result);
        return result;
      });
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
      return this.repeat(await this.keys.find(organizationId, id), error.requestHash);
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
    return existing.responseBody as T;
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
