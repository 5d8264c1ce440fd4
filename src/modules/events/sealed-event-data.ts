import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';

/** Binds an event's sealed fields to it and its organization: copied elsewhere, they won't open. */
const associatedData = (organizationId: string, eventId: string) =>
  `organization:${organizationId}|events:${eventId}`;

/**
 * The part of an event's payload kept sealed in the outbox (private collect_digits entries):
 * the row's `data` holds the rest, and the delivery opens this part just before it signs.
 */
@Injectable()
export class SealedEventData {
  constructor(private readonly box: SecretBox) {}

  seal(organizationId: string, eventId: string, fields: Record<string, unknown>): string {
    return this.box.seal(JSON.stringify(fields), associatedData(organizationId, eventId));
  }

  /** The payload as sent: `data` with the sealed fields opened into it (withSealedFields). */
  payload(event: {
    id: string;
    organizationId: string;
    data: Record<string, unknown>;
    sealedData: string | null;
  }): Record<string, unknown> {
    if (event.sealedData === null) return event.data;
    const fields = JSON.parse(
      this.box.open(event.sealedData, associatedData(event.organizationId, event.id)),
    ) as Record<string, unknown>;
    return withSealedFields(event.data, fields);
  }
}

/**
 * `data` with `sealed` put back: a field that is an object in both is merged (the sealed entries
 * beside the plain ones, as in `collected_digits`), any other sealed field is set.
 */
export function withSealedFields(
  data: Record<string, unknown>,
  sealed: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...data };
  for (const [field, value] of Object.entries(sealed)) {
    const plain = merged[field];
    merged[field] = isObject(plain) && isObject(value) ? { ...plain, ...value } : value;
  }
  return merged;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
