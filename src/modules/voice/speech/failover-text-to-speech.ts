import type { EngineEvents } from '../../../common/failover/engine-events';
import { failover } from '../../../common/failover/failover';
import type { EngineSlot } from './engine-slot';
import type { SynthesisOptions, TextToSpeech } from './speech-engines';

/**
 * TTS_PROVIDER with its retry, TTS_FALLBACK_* and the circuit breakers, behind the one
 * TextToSpeech the session sees: a sentence's first audio comes by `deadlineMs`
 * (TTS_FIRST_AUDIO_TIMEOUT_MS), and no later gap in it is longer, or the iteration throws one
 * DependencyFailure('tts'). A synthesis that fails mid-sentence is spoken again whole by the
 * fallback: the caller hears the start of the sentence cut off, then all of it in the fallback's
 * voice. The fallback speaks TTS_FALLBACK_VOICE: an agent's voice belongs to the primary.
 */
export class FailoverTextToSpeech implements TextToSpeech {
  constructor(
    private readonly engines: readonly EngineSlot<TextToSpeech>[],
    private readonly deadlineMs: number,
    private readonly events: EngineEvents,
  ) {}

  synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer> {
    const engines = this.engines.map((slot, index) => ({
      ref: slot.ref,
      circuit: slot.circuit,
      run: (signal: AbortSignal) =>
        slot.engine.synthesize(text, {
          ...options,
          voice: index === 0 ? options.voice : '',
          signal,
        }),
    }));
    return failover(
      engines,
      {
        dependency: 'tts',
        deadlineMs: this.deadlineMs,
        idleMs: this.deadlineMs,
        afterOutput: 'fallback',
        events: this.events,
      },
      options.signal,
    );
  }
}
