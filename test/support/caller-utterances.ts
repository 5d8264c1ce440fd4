import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The committed caller utterances (test/fixtures/voice/<name>.ulaw: raw μ-law, 8 kHz, mono) and
 * the words each one says. scripts/generate-voice-fixtures.ts speaks them with eSpeak NG.
 */
export const CALLER_UTTERANCES = {
  'yes-please': 'yes please',
  'no-thank-you': 'no thank you',
  'stop-calling': 'please stop calling me',
  'opening-hours': 'what are your opening hours',
  'uh-huh': 'uh-huh',
  'hello-world': 'hello world',
  'call-back': 'can you call me back tomorrow morning',
  'my-number-is': 'my number is',
  'number-digits': 'five five five one two one two',
} as const;

export type CallerUtterance = keyof typeof CALLER_UTTERANCES;

export const VOICE_FIXTURES_DIR = path.join(__dirname, '..', 'fixtures', 'voice');

/** The audio of one committed utterance. */
export const callerAudio = (name: CallerUtterance): Buffer =>
  readFileSync(path.join(VOICE_FIXTURES_DIR, `${name}.ulaw`));
