import { and, eq, gt, isNull, lte, or, type SQL } from 'drizzle-orm';
import {
  type DeliveryStatus,
  webhookDeliveries,
  type WebhookDeliveryRow,
} from './webhook-deliveries.schema';

/** The status a delivery reports: a pending one whose lease runs past `now` is `sending`. */
export function reportedStatus(
  row: Pick<WebhookDeliveryRow, 'status' | 'leaseUntil'>,
  now: Date,
): DeliveryStatus {
  return row.status === 'pending' && row.leaseUntil !== null && row.leaseUntil > now
    ? 'sending'
    : row.status;
}

/** The same rule as a condition on the stored columns, for the list filter. */
export function hasReportedStatus(status: DeliveryStatus, now: Date): SQL | undefined {
  const pending = eq(webhookDeliveries.status, 'pending');
  if (status === 'sending') return and(pending, gt(webhookDeliveries.leaseUntil, now));
  if (status === 'pending') {
    return and(
      pending,
      or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
    );
  }
  return eq(webhookDeliveries.status, status);
}
