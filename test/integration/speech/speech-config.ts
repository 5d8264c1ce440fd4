import type { SpeechToTextConfig, TextToSpeechConfig } from '../../../src/config';

export const sttSettings = (
  provider: SpeechToTextConfig['provider'],
  overrides: Partial<SpeechToTextConfig>,
): SpeechToTextConfig => ({ provider, apiUrl: '', apiKey: undefined, model: 'm', ...overrides });

export const ttsSettings = (
  provider: TextToSpeechConfig['provider'],
  overrides: Partial<TextToSpeechConfig>,
): TextToSpeechConfig => ({
  provider,
  apiUrl: '',
  apiKey: undefined,
  model: 'm',
  voice: 'v',
  ...overrides,
});

/** Every chunk of a synthesis, joined. */
export async function collect(audio: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of audio) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** 20 ms μ-law frames of a tone-free hum (bytes below 0x7f), `count` of them. */
export const frames = (count: number): Buffer[] =>
  Array.from({ length: count }, () => Buffer.alloc(160, 0x55));
