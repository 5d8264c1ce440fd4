/**
 * Where the caller's speech lay in a turn, in ms of audio written to the recognition stream
 * since it was opened (the clock the VAD stamps its windows with: both see every frame).
 */
export interface SpeechTiming {
  startedAtMs: number;
  endedAtMs: number;
}

/**
 * Speech recognition for one call. Audio goes in as it arrives; `finish` is called when the
 * session's end-of-turn detection says the caller stopped, and resolves the transcript of what
 * was said since the previous finish ('' for nothing recognisable). Batch engines (offline,
 * OpenAI-compatible) buffer the audio and, told where the speech lay, transcribe only that
 * with a short pre-roll; streaming ones (Deepgram) send audio as it comes and finalise on finish.
 */
export interface RecognitionStream {
  /** 20 ms of caller audio, μ-law 8 kHz. */
  write(ulaw: Buffer): void;
  finish(signal?: AbortSignal, speech?: SpeechTiming): Promise<string>;
  /**
   * Streaming engines (Deepgram): `listener` gets the words of the utterance so far each time
   * the engine revises them (interim results), so the session can judge a sentence unfinished
   * before its end of turn. Batch engines hear nothing until `finish` and leave this out.
   */
  onWords?(listener: (words: string) => void): void;
  /** Drops buffered audio without transcribing it (the turn was a false start). */
  reset(): void;
  close(): void;
}

export interface SpeechToText {
  open(options: { language: string }): RecognitionStream;
  /**
   * Starts what the engine needs before its first turn (the offline recogniser loads its model),
   * so that a fallback is ready before a turn falls back to it.
   */
  prepare?(): void;
  /**
   * Engines whose general model makes little of a machine's greeting (the offline one) decode a
   * call's first seconds against a model of what answers a call says: AnswerWatch's words.
   */
  transcribeGreeting?(ulaw: Buffer, signal: AbortSignal): Promise<string>;
}

/** A word of the text as the engine placed it in its audio. */
export interface TimedWord {
  text: string;
  /** When its sound ends, in ms from the start of the audio this synthesis yields. */
  endMs: number;
}

export interface SynthesisOptions {
  voice: string;
  language: string;
  /** Aborted on barge-in: the engine stops and the iterator ends. */
  signal: AbortSignal;
  /**
   * Told the words the engine has placed, in order, as it knows them (engines that report word
   * timings: ElevenLabs); a cut sentence then keeps exactly the words that were played.
   */
  onWords?: (words: TimedWord[]) => void;
}

export interface TextToSpeech {
  /**
   * Speaks `text` as μ-law 8 kHz, yielding audio as the engine produces it, in chunks of any
   * length (the session cuts them into 20 ms frames).
   */
  synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer>;
}

/** Whether an engine can run here (offline: its Debian packages are installed). */
export interface EngineReadiness {
  ready: boolean;
  /** Why not, in words for the start-up log. */
  reason?: string;
}

/** The engines STT_* and TTS_* chose (with their fallbacks), and whether they can run here. */
export interface SpeechEngines {
  stt: SpeechToText;
  tts: TextToSpeech;
  /** Checked once at start; calls fall back to the provider's own speech verb when not ready. */
  readiness(): Promise<EngineReadiness>;
  /**
   * What the start-up log warns of without it stopping calls: a fallback that cannot run, an
   * engine whose service cannot be reached now. Names engines and variables, never a key or URL.
   */
  warnings?(): Promise<string[]>;
  /** Stops what the engines keep running (the offline recogniser's processes) at shutdown. */
  close?(): Promise<void>;
}

export const SPEECH_ENGINES = Symbol('SpeechEngines');
