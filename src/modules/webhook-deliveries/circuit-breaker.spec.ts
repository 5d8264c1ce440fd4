import type { NotificationsService } from '../notifications/notifications.service';
import { CircuitBreaker } from './circuit-breaker';
import { CIRCUIT_WINDOW_MS } from './circuit-rules';
import type { DeliveryQueue } from './delivery-queue';
import type { WebhookCircuitsRepository } from './webhook-circuits.repository';

describe('CircuitBreaker memory', () => {
  it('forgets webhooks with nothing in the last window, so a long-running worker stays small', async () => {
    let nowMs = 1_700_000_000_000;
    const clock = { now: () => new Date(nowMs) };
    // Successes on closed circuits never reach the repository.
    const breaker = new CircuitBreaker(
      {} as WebhookCircuitsRepository,
      {} as DeliveryQueue,
      {} as NotificationsService,
      clock,
    );
    for (let i = 0; i < 1_000; i++) {
      await breaker.recordAttempt({ id: `hook-${i}`, organizationId: 'org' }, 'scheduled', true);
    }
    expect(breaker.trackedWebhooks()).toBe(1_000);
    nowMs += CIRCUIT_WINDOW_MS;
    await breaker.recordAttempt({ id: 'hook-active', organizationId: 'org' }, 'scheduled', true);
    expect(breaker.trackedWebhooks()).toBe(1);
  });
});
