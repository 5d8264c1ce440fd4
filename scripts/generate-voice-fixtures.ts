// Regenerates the caller utterances of the voice tests (test/fixtures/voice/*.ulaw): 8 kHz μ-law
// spoken by eSpeak NG through the offline engine, so they match what the engine itself produces.
// The sandbox's dialogue (sandbox-*.ulaw, `npm run sandbox -- --talk`) is spoken slower (140 words
// a minute): at that rate PocketSphinx hears each of its lines word for word.
// Run: node -r @swc-node/register scripts/generate-voice-fixtures.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EspeakTextToSpeech } from '../src/modules/voice/speech/offline/espeak-tts';
import { CALLER_UTTERANCES, VOICE_FIXTURES_DIR } from '../test/support/caller-utterances';

/** The sandbox caller's lines, in the order it says them. */
export const SANDBOX_DIALOGUE: Record<string, string> = {
  'sandbox-1-hello': 'hello how are you',
  'sandbox-2-question': 'where are you located',
  'sandbox-3-goodbye': 'okay thank you bye bye',
};
const SANDBOX_WORDS_PER_MINUTE = 140;

async function speak(tts: EspeakTextToSpeech, text: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const signal = new AbortController().signal;
  for await (const chunk of tts.synthesize(text, { voice: 'en-us', language: 'en-US', signal })) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function main(): Promise<void> {
  const voices: Array<[EspeakTextToSpeech, Record<string, string>]> = [
    [new EspeakTextToSpeech('en-us'), CALLER_UTTERANCES],
    [new EspeakTextToSpeech('en-us', SANDBOX_WORDS_PER_MINUTE), SANDBOX_DIALOGUE],
  ];
  for (const [tts, lines] of voices) {
    for (const [name, text] of Object.entries(lines)) {
      await writeFile(join(VOICE_FIXTURES_DIR, `${name}.ulaw`), await speak(tts, text));
    }
  }
}

if (require.main === module) void main();
