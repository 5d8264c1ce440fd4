import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeUlaw } from '../../voice/audio/g711';
import { voiceNoteToUlaw } from './voice-note-audio';

const NOTE = readFileSync(join(__dirname, '../../../../test/fixtures/messaging/voice-note.ogg'));

describe('voiceNoteToUlaw', () => {
  it('decodes an Ogg Opus voice note to μ-law 8 kHz, speech included', async () => {
    const ulaw = await voiceNoteToUlaw(NOTE, 60);
    // 2.49 s of eSpeak NG ("what time do you open on sunday").
    expect(ulaw?.length).toBeGreaterThan(2.3 * 8000);
    expect(ulaw?.length).toBeLessThan(2.7 * 8000);
    const samples = decodeUlaw(ulaw!);
    expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(3000);
  });

  it('keeps the first seconds only', async () => {
    expect((await voiceNoteToUlaw(NOTE, 1))?.length).toBe(8000);
  });

  it('answers null for what is not Ogg Opus', async () => {
    expect(await voiceNoteToUlaw(randomBytes(4096), 60)).toBeNull();
    expect(await voiceNoteToUlaw(Buffer.alloc(0), 60)).toBeNull();
  });
});
