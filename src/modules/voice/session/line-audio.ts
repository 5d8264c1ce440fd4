import type { TextToSpeech } from '../speech/speech-engines';

/** Lines kept at most (nine lines of a handful of voices and languages fit many times over). */
const MAX_LINES = 512;

/**
 * The agent's own lines (AGENT_LINES: "one moment", an apology, the goodbyes) as μ-law audio,
 * synthesized once per text, voice and language for the whole process and kept. A kept line is
 * queued at once, without asking the speech service: an apology and a polite hang-up can still
 * be said while that service is failing, and a hold-on line costs no synthesis latency.
 */
export class LineAudio {
  private readonly kept = new Map<string, Buffer>();

  constructor(private readonly tts: TextToSpeech) {}

  get(text: string, voice: string, language: string): Buffer | undefined {
    return this.kept.get(key(text, voice, language));
  }

  keep(text: string, voice: string, language: string, audio: Buffer): void {
    if (audio.length === 0) return;
    if (this.kept.size >= MAX_LINES) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key(text, voice, language), audio);
  }

  /**
   * Synthesizes the lines not kept yet, one after another, until `signal` aborts. A line that
   * fails is left out (it is synthesized when said instead); never rejects.
   */
  async warm(texts: string[], voice: string, language: string, signal: AbortSignal): Promise<void> {
    for (const text of texts) {
      if (signal.aborted) return;
      if (this.get(text, voice, language)) continue;
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of this.tts.synthesize(text, { voice, language, signal }))
          chunks.push(Buffer.from(chunk));
        if (!signal.aborted) this.keep(text, voice, language, Buffer.concat(chunks));
      } catch {
        // The speech service is failing now: the line waits for a call that says it.
      }
    }
  }
}

const key = (text: string, voice: string, language: string) =>
  `${voice}\u0000${language}\u0000${text}`;
