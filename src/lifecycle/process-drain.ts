import { Injectable, Logger } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../config';

/**
 * Beyond the grace period, what winding up the calls still live may take: a closing line, the
 * hang-up at the provider, the stream's end and the provider's final callback (CallSessions.drain).
 */
export const DRAIN_WIND_UP_SECONDS = 20;

/** Work that must end well before the process stops (live calls). */
export interface DrainParticipant {
  /**
   * Called once the process drains: finish within `graceMs` (let what is under way end), then
   * wind up what is left; resolves when nothing of it is left.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * The process's drain, on SIGTERM before it closes (docs/operator.md, "Deploys and restarts"):
 * from its start the process is not ready (readiness answers 503, so a load balancer sends
 * nothing new), refuses new answers and media streams, and the dialer places no call; live calls
 * go on until they end or DRAIN_GRACE_SECONDS pass, then hear a closing line, are hung up at the
 * provider and their contacts are called again. Only then does the application close.
 */
@Injectable()
export class ProcessDrain {
  private readonly logger = new Logger('ProcessDrain');
  private readonly participants = new Set<DrainParticipant>();
  private running: Promise<void> | undefined;

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** True from the start of the drain: take no new work. */
  get draining(): boolean {
    return this.running !== undefined;
  }

  register(participant: DrainParticipant): void {
    this.participants.add(participant);
  }

  /** Starts the drain (once) and resolves when every participant has ended its work. */
  run(): Promise<void> {
    this.running ??= this.drainAll();
    return this.running;
  }

  private async drainAll(): Promise<void> {
    const graceMs = this.config.process.drainGraceSeconds * 1_000;
    this.logger.log(`Draining: no new work; live calls have ${graceMs / 1_000} s to end`);
    await Promise.all(
      [...this.participants].map((participant) =>
        participant
          .drain(graceMs)
          .catch((error: unknown) =>
            this.logger.error(
              `Drain failed: ${error instanceof Error ? error.message : 'unknown'}`,
            ),
          ),
      ),
    );
    this.logger.log('Drained');
  }
}
