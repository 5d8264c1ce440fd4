import { Module } from '@nestjs/common';
import { OutboundPacer } from './outbound-pacer';
import { VoiceActivityDetector } from './voice-activity-detector';

/**
 * The process-wide audio services of the voice runtime: one VAD model shared by every call and
 * one timer pacing every call's outbound audio. Built by factories: their constructors take
 * options (clock, batch size) that tests set and the app leaves at the defaults.
 */
@Module({
  providers: [
    { provide: VoiceActivityDetector, useFactory: () => new VoiceActivityDetector() },
    { provide: OutboundPacer, useFactory: () => new OutboundPacer() },
  ],
  exports: [VoiceActivityDetector, OutboundPacer],
})
export class VoiceAudioModule {}
