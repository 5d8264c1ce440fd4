// Regenerates the caller utterances of the voice tests (test/fixtures/voice/*.ulaw): 8 kHz μ-law
// spoken by eSpeak NG through the offline engine, so they match what the engine itself produces.
// Run: node -r @swc-node/register scripts/generate-voice-fixtures.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EspeakTextToSpeech } from '../src/modules/voice/speech/offline/espeak-tts';
import { CALLER_UTTERANCES, VOICE_FIXTURES_DIR } from '../test/support/caller-utterances';

async function main(): Promise<void> {
  const tts = new EspeakTextToSpeech('en-us');
  for (const [name, text] of Object.entries(CALLER_UTTERANCES)) {
    const chunks: Buffer[] = [];
    const signal = new AbortController().signal;
    for await (const chunk of tts.synthesize(text, { voice: 'en-us', language: 'en-US', signal })) {
      chunks.push(chunk);
    }
    await writeFile(join(VOICE_FIXTURES_DIR, `${name}.ulaw`), Buffer.concat(chunks));
  }
}

void main();
