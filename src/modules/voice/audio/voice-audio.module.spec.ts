/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { Test } from '@nestjs/testing';
import { OutboundPacer } from './outbound-pacer';
import { VoiceActivityDetector } from './voice-activity-detector';
import { VoiceAudioModule } from './voice-audio.module';

describe('VoiceAudioModule', () => {
  it('gives one detector and one pacer to the whole process, and releases the model on close', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [VoiceAudioModule] }).compile();
    const detector = moduleRef.get(VoiceActivityDetector);
    expect(moduleRef.get(VoiceActivityDetector)).toBe(detector);
    expect(moduleRef.get(OutboundPacer)).toBeInstanceOf(OutboundPacer);
    await expect(detector.readiness()).resolves.toEqual({ ready: true });
    const release = jest.spyOn(detector, 'onModuleDestroy');
    await moduleRef.close();
    expect(release).toHaveBeenCalled();
  });
});
