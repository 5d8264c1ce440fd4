import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { SwitchboardMetrics } from '../../../metrics/switchboard-metrics';
import { tracer } from '../../../tracing/tracer';
import type { CallDependency } from '../../../common/dependency-failure';
import type { SessionEndedBy } from '../../call-records/call-records.schema';

/** One caller turn being answered, from the VAD's end of turn to the agent's first audio. */
export interface TurnTrace {
  /** The recogniser returned the caller's words. */
  recognised(): void;
  /** The model's first words arrived. */
  modelStarted(): void;
  /** The reply's first audio was queued for the caller: the turn's latency is taken here. */
  firstAudio(): void;
  /** The turn is over (answered or not); a turn never answered records no latency. */
  end(): void;
}

/** What the conversation reports of its turns (a no-op where no observer is given). */
export interface TurnObserver {
  turnEnded(): TurnTrace;
  bargedIn(): void;
}

/**
 * Turn latency and barge-ins as metrics, each turn as a span (`voice turn`) with an event per
 * stage — STT done, model's first token, first audio — so a slow call can be explained.
 */
@Injectable()
export class VoiceTurnObserver implements TurnObserver {
  constructor(private readonly metrics: SwitchboardMetrics) {}

  turnEnded(): TurnTrace {
    const started = performance.now();
    const span = tracer.startSpan('voice turn');
    span.addEvent('vad.end_of_turn');
    let modelStarted = false;
    let ended = false;
    const finish = (answered: boolean) => {
      if (ended) return;
      ended = true;
      span.setAttribute('voice.turn.answered', answered);
      span.end();
    };
    return {
      recognised: () => span.addEvent('stt.done'),
      modelStarted: () => {
        if (modelStarted) return;
        modelStarted = true;
        span.addEvent('llm.first_token');
      },
      firstAudio: () => {
        if (ended) return;
        span.addEvent('tts.first_audio');
        this.metrics.voiceTurnLatency.observe((performance.now() - started) / 1000);
        finish(true);
      },
      end: () => finish(false),
    };
  }

  bargedIn(): void {
    this.metrics.voiceBargeIns.inc();
  }

  /** The session ended a call itself: why, and which dependency failed if one did. */
  sessionEnded(endedBy: SessionEndedBy, dependency: CallDependency | undefined): void {
    this.metrics.voiceSessionEndings.inc({ ended_by: endedBy, dependency: dependency ?? 'none' });
  }
}
