import type { EngineEvents } from '../../../common/failover/engine-events';
import { failover, type FailoverEngine, once } from '../../../common/failover/failover';
import type { EngineSlot } from './engine-slot';
import type { RecognitionStream, SpeechTiming, SpeechToText } from './speech-engines';
import { UtteranceBuffer } from './utterance-buffer';

/** A turn heard again by a retry or the fallback: its last 30 s at most (μ-law 8 kHz). */
const MAX_TURN_BYTES = 30 * 8000;
const FRAME_BYTES = 160;

/**
 * STT_PROVIDER with its retry, STT_FALLBACK_* and the circuit breakers, behind the one
 * SpeechToText the session sees: a turn's words come by `deadlineMs` (STT_TURN_TIMEOUT_MS) or
 * `finish` throws one DependencyFailure('stt').
 */
export class FailoverSpeechToText implements SpeechToText {
  /** The primary engine's, where it has one (its fallback does not hear the greeting). */
  readonly transcribeGreeting?: (ulaw: Buffer, signal: AbortSignal) => Promise<string>;

  constructor(
    private readonly engines: readonly EngineSlot<SpeechToText>[],
    private readonly deadlineMs: number,
    private readonly events: EngineEvents,
  ) {
    const primary = engines[0].engine;
    if (primary.transcribeGreeting)
      this.transcribeGreeting = (ulaw, signal) => primary.transcribeGreeting!(ulaw, signal);
  }

  open(options: { language: string }): RecognitionStream {
    // A fallback hears only the turns that fall back to it, with the time the primary left.
    for (const { engine } of this.engines.slice(1)) engine.prepare?.();
    return new FailoverRecognitionStream(
      this.engines,
      options.language,
      this.deadlineMs,
      this.events,
    );
  }
}

/**
 * The primary engine's stream hears the call as it comes (a streaming engine needs it live); the
 * turn's audio is kept beside it, so that a retry, or the fallback, hears the turn again on a
 * stream of its own.
 */
class FailoverRecognitionStream implements RecognitionStream {
  private readonly primary: RecognitionStream;
  private readonly turn = new UtteranceBuffer(MAX_TURN_BYTES);
  readonly onWords?: (listener: (words: string) => void) => void;

  constructor(
    private readonly engines: readonly EngineSlot<SpeechToText>[],
    private readonly language: string,
    private readonly deadlineMs: number,
    private readonly events: EngineEvents,
  ) {
    const primary = engines[0].engine.open({ language });
    this.primary = primary;
    if (primary.onWords) this.onWords = (listener) => primary.onWords?.(listener);
  }

  write(ulaw: Buffer): void {
    this.primary.write(ulaw);
    this.turn.write(ulaw);
  }

  async finish(signal?: AbortSignal, speech?: SpeechTiming): Promise<string> {
    const utterance = this.turn.take(speech);
    let primaryFinished = false;
    const engines: FailoverEngine<string>[] = this.engines.map((slot, index) => ({
      ref: slot.ref,
      circuit: slot.circuit,
      run: (attempt) =>
        once(() => {
          if (index > 0 || primaryFinished)
            return hearAgain(slot.engine, utterance, this.language, attempt);
          primaryFinished = true;
          return this.primary.finish(attempt, speech);
        }),
    }));
    try {
      for await (const words of failover(engines, this.policy, signal)) return words.trim();
      return '';
    } finally {
      // Skipped (circuit open): its stream still holds the turn, which must not open the next.
      if (!primaryFinished) this.primary.reset();
    }
  }

  reset(): void {
    this.primary.reset();
    this.turn.reset();
  }

  close(): void {
    this.primary.close();
    this.turn.release();
  }

  private get policy() {
    return {
      dependency: 'stt' as const,
      deadlineMs: this.deadlineMs,
      afterOutput: 'fail' as const,
      events: this.events,
    };
  }
}

/** The turn's audio on a new stream of `engine`, in 20 ms frames as a call sends them. */
async function hearAgain(
  engine: SpeechToText,
  utterance: Buffer,
  language: string,
  signal: AbortSignal,
): Promise<string> {
  if (utterance.length === 0) return '';
  const stream = engine.open({ language });
  try {
    for (let at = 0; at < utterance.length; at += FRAME_BYTES) {
      stream.write(utterance.subarray(at, at + FRAME_BYTES));
    }
    return await stream.finish(signal);
  } finally {
    stream.close();
  }
}
