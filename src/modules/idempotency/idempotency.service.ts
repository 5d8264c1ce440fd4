import { createHash } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  UnprocessableEntityException,
} from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';

const TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,255}$/;

/**
 * Idempotency-Key semantics: the first request with a key runs; a repeat with the same body gets
 * the first result; the same key with another body answers 422; a repeat while the first is
 * still running answers 409. Keys live 24 hours per organization and operation. A failed first
 * request releases its key so it can be retried.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyRepository) {}

  async run<T>(
    organizationId: string,
    operation: string,
    key: string | undefined,
    request: unknown,
    work: () => Promise<T>,
  ): Promise<T> {
    if (key === undefined) return work();
    if (!KEY_PATTERN.test(key)) {
      throw new BadRequestException(
        'Idempotency-Key must be 1–255 characters of letters, digits and _ . : -',
      );
    }
    const id = { operation, key };
    const hash = fingerprint(request);
    if (!(await this.keys.claim(organizationId, id, hash, new Date(Date.now() + TTL_MS)))) {
      const existing = await this.keys.find(organizationId, id);
      if (existing && existing.requestHash !== hash) {
        throw new UnprocessableEntityException(
          'This Idempotency-Key was used with a different request body',
        );
      }
      if (!existing || existing.responseStatus === null) {
        throw new ConflictException('A request with this Idempotency-Key is still in progress');
      }
      return existing.responseBody as T;
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
