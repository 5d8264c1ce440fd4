import { TurnTracker } from '../audio/turn-tracker';
import type { VadStream } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { RecognitionStream, SpeechTiming, SpeechToText } from '../speech/speech-engines';

/** What the caller's side of the conversation reports. */
export interface CallerTurnListener {
  speechStarted(): void;
  /** The caller has talked long enough to interrupt the agent. */
  bargeIn(): void;
  /** The caller stopped: `speech` is where their words lay (ask `transcript` for them). */
  endOfTurn(speech: SpeechTiming): void;
}

/**
 * The caller's side: every frame goes to the VAD (whose probabilities the turn tracker makes
 * into speech-start, barge-in and end-of-turn) and to the recogniser, which is asked for a turn's
 * words once it ended.
 */
export class CallerTurns {
  private readonly tracker = new TurnTracker();
  private readonly vad: VadStream;
  private readonly recognition: RecognitionStream;

  constructor(
    services: { vad: Pick<VoiceActivityDetector, 'open'>; stt: SpeechToText },
    language: string,
    listener: CallerTurnListener,
  ) {
    this.vad = services.vad.open((probability, atMs) => {
      for (const event of this.tracker.update(probability, atMs)) {
        if (event.type === 'speech-start') listener.speechStarted();
        if (event.type === 'barge-in') listener.bargeIn();
        if (event.type === 'end-of-turn')
          listener.endOfTurn({
            startedAtMs: event.speechStartedAtMs,
            endedAtMs: event.speechEndedAtMs,
          });
      }
    });
    this.recognition = services.stt.open({ language });
  }

  /** Whether the caller is in the middle of an utterance. */
  get speaking(): boolean {
    return this.tracker.speaking;
  }

  hear(ulaw: Buffer): void {
    this.vad.push(ulaw);
    this.recognition.write(ulaw);
  }

  /** The words of the turn that ended: the utterance (and a short pre-roll), not the silence before it. */
  async transcript(speech: SpeechTiming): Promise<string> {
    return (await this.recognition.finish(undefined, speech)).trim();
  }

  close(): void {
    this.vad.close();
    this.recognition.close();
  }
}
