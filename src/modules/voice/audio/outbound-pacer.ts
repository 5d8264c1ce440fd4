import { Logger } from '@nestjs/common';
import { FRAME_MS, type MediaOutput } from '../media/media-stream';
import { PacedStream, type PacerScheduling } from './paced-stream';
import { systemClock, type PacerClock } from './pacer-clock';

export interface OutboundPacerOptions {
  clock: PacerClock;
  frameMs: number;
  /**
   * The grid the one timer runs on: while other calls keep it running, a reply's first frame
   * waits at most this long. A quarter frame (5 ms): half a frame added 5 ms to the median turn
   * at every load, and four phases spread the calls' frames over more, shorter ticks.
   */
  tickMs: number;
}

/**
 * Sends every call's agent audio in real time: one 20 ms frame per call per 20 ms, from one
 * process-wide timer rather than a timer per call. Providers buffer what they are sent, so a
 * burst would keep playing after a barge-in and leave a gap when it ran out; and hundreds of
 * per-call intervals would each drift on their own. The timer aims at absolute grid times
 * (first frame + k·tickMs, restarted when every stream has run dry), so lateness in one tick
 * never accumulates into the next.
 */
export class OutboundPacer implements PacerScheduling {
  private readonly options: OutboundPacerOptions;
  private readonly logger = new Logger(OutboundPacer.name);
  private readonly active = new Set<PacedStream>();
  /** The grid time of the armed tick; undefined while no stream has audio. */
  private tickAt: number | undefined;
  private cancelTimer: (() => void) | undefined;
  /** Inside a tick: streams come and go, and the tick re-arms the timer once at its end. */
  private ticking = false;

  constructor(options: Partial<OutboundPacerOptions> = {}) {
    this.options = {
      clock: systemClock,
      frameMs: FRAME_MS,
      tickMs: FRAME_MS / 4,
      ...options,
    };
  }

  /** A paced stream writing to one call's media output. */
  open(output: Pick<MediaOutput, 'sendAudio' | 'sendMark'>): PacedStream {
    return new PacedStream(output, this);
  }

  /** How many streams have audio waiting (for metrics and tests). */
  get activeStreams(): number {
    return this.active.size;
  }

  activate(stream: PacedStream): void {
    const now = this.options.clock.now();
    this.active.add(stream);
    if (this.tickAt === undefined && !this.ticking) {
      // Idle: start the grid at this stream's next frame, so a lone call neither waits for a
      // grid point nor shifts the phase it had before it ran dry.
      stream.nextSendAt = Math.max(stream.nextSendAt, now);
      this.arm(stream.nextSendAt);
      return;
    }
    // The first tick still to run; never earlier, or the stream would catch up on time it
    // spent idle: a burst.
    const nextTick = (this.tickAt ?? now) + (this.ticking ? this.options.tickMs : 0);
    stream.nextSendAt = Math.max(stream.nextSendAt, nextTick);
  }

  release(stream: PacedStream): void {
    this.active.delete(stream);
    if (this.active.size === 0 && !this.ticking) this.disarm();
  }

  private arm(at: number): void {
    this.tickAt = at;
    const delay = Math.max(0, at - this.options.clock.now());
    this.cancelTimer = this.options.clock.schedule(() => this.tick(), delay);
  }

  private disarm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.tickAt = undefined;
  }

  private tick(): void {
    const { clock, tickMs, frameMs } = this.options;
    this.cancelTimer = undefined;
    // A timer that fired more than a tick late serves the latest grid point it has passed.
    const missed = Math.max(0, Math.floor((clock.now() - (this.tickAt ?? 0)) / tickMs));
    const slotAt = (this.tickAt ?? clock.now()) + missed * tickMs;
    this.tickAt = slotAt;
    this.ticking = true;
    try {
      for (const stream of [...this.active]) {
        try {
          stream.sendDue(slotAt, frameMs, tickMs / 2);
        } catch (error) {
          // One call's broken output must not stop the others' audio.
          this.logger.warn(`outbound stream dropped: ${(error as Error).message}`);
          stream.close();
        }
      }
    } finally {
      this.ticking = false;
      if (this.active.size > 0) this.arm(slotAt + tickMs);
      else this.disarm();
    }
  }
}
