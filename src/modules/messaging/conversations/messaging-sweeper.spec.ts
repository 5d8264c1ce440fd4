import type { AppConfig } from '../../../config';
import type { JobQueue } from '../../../queue';
import type { MessageStatusesService } from './message-statuses.service';
import type { MessagingSweepRepository } from './messaging-sweep.repository';
import { MESSAGING_SWEEP_GRACE_MS, MessagingSweeper, PRUNE_BATCH } from './messaging-sweeper';

const NOW = new Date('2026-03-01T12:00:00Z');
const HOUR_MS = 3_600_000;

function sweeperWith(deleted: { events: number[]; statuses: number[] }) {
  const events = [...deleted.events];
  const statuses = [...deleted.statuses];
  const sweep = {
    unprocessedEvents: jest.fn().mockResolvedValue([]),
    unhandledMessages: jest.fn().mockResolvedValue([]),
    stuckSends: jest.fn().mockResolvedValue([]),
    settleableStatuses: jest.fn().mockResolvedValue([]),
    deleteProcessedEvents: jest.fn(() => Promise.resolve(events.shift() ?? 0)),
    deleteEarlyStatuses: jest.fn(() => Promise.resolve(statuses.shift() ?? 0)),
  };
  const config = { process: { role: 'all' }, messaging: { deliveryRetentionHours: 72 } };
  const sweeper = new MessagingSweeper(
    config as AppConfig,
    { now: () => NOW },
    {} as JobQueue,
    sweep as unknown as MessagingSweepRepository,
    {} as MessageStatusesService,
  );
  return { sweeper, sweep };
}

describe('MessagingSweeper', () => {
  it('prunes in bounded batches until a batch comes back short', async () => {
    const { sweeper, sweep } = sweeperWith({
      events: [PRUNE_BATCH, PRUNE_BATCH, 3],
      statuses: [2],
    });
    const report = await sweeper.run();
    expect(report.pruned).toBe(2 * PRUNE_BATCH + 5);
    const cutoff = new Date(NOW.getTime() - 72 * HOUR_MS);
    expect(sweep.deleteProcessedEvents.mock.calls).toEqual([
      [cutoff, PRUNE_BATCH],
      [cutoff, PRUNE_BATCH],
      [cutoff, PRUNE_BATCH],
    ]);
    expect(sweep.deleteEarlyStatuses.mock.calls).toEqual([[cutoff, PRUNE_BATCH]]);
  });

  it('takes back work older than the grace period and younger than a day', async () => {
    const { sweeper, sweep } = sweeperWith({ events: [], statuses: [] });
    await sweeper.run();
    const window = {
      from: new Date(NOW.getTime() - 24 * HOUR_MS),
      to: new Date(NOW.getTime() - MESSAGING_SWEEP_GRACE_MS),
    };
    expect(sweep.unprocessedEvents).toHaveBeenCalledWith(window, expect.any(Number));
    expect(sweep.unhandledMessages).toHaveBeenCalledWith(window, expect.any(Number));
    expect(sweep.stuckSends).toHaveBeenCalledWith(window, expect.any(Number));
  });
});
