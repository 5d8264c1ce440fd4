import { performance } from 'node:perf_hooks';
import type { TurnLatency } from '../../call-records/call-records.schema';
import type { TurnTrace } from './voice-turn-observer';

/**
 * One caller turn's trace that keeps its own times, so the reply's latency goes on the call's
 * record (the stored agent turn), and hands each stage on to the metrics and spans (`inner`).
 * Starts at the caller's end of speech.
 */
export class TimedTurn implements TurnTrace {
  private readonly endedAt = performance.now();
  private recognisedAt: number | undefined;
  private modelAt: number | undefined;
  private audioAt: number | undefined;

  constructor(private readonly inner?: TurnTrace) {}

  recognised(): void {
    this.recognisedAt ??= performance.now();
    this.inner?.recognised();
  }

  modelStarted(): void {
    this.modelAt ??= performance.now();
    this.inner?.modelStarted();
  }

  firstAudio(): void {
    this.audioAt ??= performance.now();
    this.inner?.firstAudio();
  }

  end(): void {
    this.inner?.end();
  }

  /** The turn's latency once its reply's first audio went out; undefined before. */
  get latency(): TurnLatency | undefined {
    if (this.audioAt === undefined) return undefined;
    const span = (from: number | undefined, to: number | undefined) =>
      from === undefined || to === undefined ? null : Math.round(to - from);
    return {
      totalMs: Math.round(this.audioAt - this.endedAt),
      recognitionMs: span(this.endedAt, this.recognisedAt),
      modelMs: span(this.recognisedAt, this.modelAt),
      synthesisMs: span(this.modelAt, this.audioAt),
    };
  }
}
