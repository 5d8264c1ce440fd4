import { Injectable, Logger } from '@nestjs/common';
import { describeUnknown } from '../common/describe-error';
import { PhoneLogsRepository } from '../modules/call-records/phone-logs.repository';
import { JobQueue } from '../queue';
import { SwitchboardMetrics } from './switchboard-metrics';

const LIVE_STATUSES = ['queued', 'ringing', 'in-progress'] as const;

/**
 * Sets the gauges of shared state (queue depth, live calls) from their source just before a
 * scrape: every process reports the same truth, whichever Prometheus asks.
 */
@Injectable()
export class MetricsSampler {
  private readonly logger = new Logger('Metrics');

  constructor(
    private readonly metrics: SwitchboardMetrics,
    private readonly queue: JobQueue,
    private readonly phoneLogs: PhoneLogsRepository,
  ) {}

  /** The exposition a scrape answers, its shared-state gauges read just before. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    await Promise.all([this.sampleQueue(), this.sampleCalls()]);
    return this.metrics.exposition();
  }

  private async sampleQueue(): Promise<void> {
    this.metrics.queueJobs.reset();
    try {
      for (const { lane, state, count } of await this.queue.counts()) {
        this.metrics.queueJobs.set({ queue: lane, state }, count);
      }
    } catch (error) {
      // A scrape still answers with everything else; the gauge is absent rather than stale.
      this.logger.warn(`Queue depth unavailable: ${JSON.stringify(describeUnknown(error))}`);
    }
  }

  private async sampleCalls(): Promise<void> {
    this.metrics.callsLive.reset();
    try {
      const counts = await this.phoneLogs.countLive();
      for (const status of LIVE_STATUSES) {
        const found = counts.find((row) => row.status === status);
        this.metrics.callsLive.set({ status }, found?.count ?? 0);
      }
    } catch (error) {
      this.logger.warn(`Live calls unavailable: ${JSON.stringify(describeUnknown(error))}`);
    }
  }
}
