import { decodeUlaw } from '../audio/g711';
import { rmsLevel } from '../audio/speech-span';
import { TurnTracker, type TurnEvent } from '../audio/turn-tracker';
import type { VadStream } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import { FRAME_BYTES, FRAME_MS } from '../media/media-stream';
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
  /** Audio time (ms) at the end of the caller frames heard: the VAD's windows share this clock. */
  private heardMs = 0;

  constructor(
    services: { vad: Pick<VoiceActivityDetector, 'open'>; stt: SpeechToText },
    language: string,
    private readonly listener: CallerTurnListener,
  ) {
    this.vad = services.vad.open((probability, atMs) =>
      this.report(this.tracker.update(probability, atMs)),
    );
    this.recognition = services.stt.open({ language });
  }

  /** Whether the caller is in the middle of an utterance. */
  get speaking(): boolean {
    return this.tracker.speaking;
  }

  hear(ulaw: Buffer): void {
    this.vad.push(ulaw);
    this.recognition.write(ulaw);
    // Each frame's level dates the end of speech and checks the silence allowance (TurnTracker).
    this.heardMs += (ulaw.length * FRAME_MS) / FRAME_BYTES;
    this.report(this.tracker.frame(rmsLevel(decodeUlaw(ulaw)), this.heardMs));
  }

  /** The words of the turn that ended: the utterance (and a short pre-roll), not the silence before it. */
  async transcript(speech: SpeechTiming): Promise<string> {
    return (await this.recognition.finish(undefined, speech)).trim();
  }

  private report(events: TurnEvent[]): void {
    for (const event of events) {
      if (event.type === 'speech-start') this.listener.speechStarted();
      if (event.type === 'barge-in') this.listener.bargeIn();
      if (event.type === 'end-of-turn')
        this.listener.endOfTurn({
          startedAtMs: event.speechStartedAtMs,
          endedAtMs: event.speechEndedAtMs,
        });
    }
  }

  close(): void {
    this.vad.close();
    this.recognition.close();
  }
}
