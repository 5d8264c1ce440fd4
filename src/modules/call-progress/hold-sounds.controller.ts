import { Controller, Get, Header, HttpCode, Post, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/access';
import { type AppConfig, InjectConfig } from '../../config';
import { ringbackSamples } from '../voice/audio/ringback';
import { TONE_SAMPLE_RATE } from '../voice/audio/tones';
import { encodeWav } from '../voice/speech/wav';
import {
  HOLD_MUSIC_FILE,
  plivoHold,
  RINGBACK_WAV_FILE,
  SOUNDS_ROUTE,
} from './answer/answer-documents';

/** One cycle of ringback, made once: 6 s of 8 kHz 16-bit WAV (96 kB). */
const RINGBACK_WAV = encodeWav(ringbackSamples(), TONE_SAMPLE_RATE);

/**
 * The sounds providers fetch to play to a caller on hold while a warm transfer's colleague is
 * rung and briefed (provider_one's dialMusic). Public: nothing in them is the caller's.
 */
@ApiTags('Provider callbacks')
@Controller(SOUNDS_ROUTE)
@Public()
export class HoldSoundsController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  @Post(HOLD_MUSIC_FILE)
  @HttpCode(200)
  @Header('Content-Type', 'application/xml; charset=utf-8')
  @ApiProduces('application/xml')
  @ApiOperation({
    summary: 'Provider callback: what a caller on hold hears',
    description:
      "provider_one's `dialMusic` of a warm transfer: Plivo XML that loops the ringback " +
      '(`<Play loop="0">{PUBLIC_BASE_URL}/api/telephony/sounds/ringback.wav</Play>`) until the ' +
      'new party took the call or the <Dial> ended.',
  })
  @ApiOkResponse({
    description: 'Plivo XML.',
    content: { 'application/xml': { schema: { type: 'string' } } },
  })
  hold(): string {
    return plivoHold(this.config.http.publicBaseUrl);
  }

  @Get(RINGBACK_WAV_FILE)
  @Header('Cache-Control', 'public, max-age=86400')
  @ApiProduces('audio/wav')
  @ApiOperation({
    summary: 'The ringback a caller on hold hears',
    description:
      'One cycle of North American ringback (440 + 480 Hz, 2 s on, 4 s off) as an 8 kHz 16-bit ' +
      'mono WAV, played in a loop by the hold document.',
  })
  @ApiOkResponse({
    description: 'WAV audio.',
    content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } },
  })
  ringback(): StreamableFile {
    return new StreamableFile(RINGBACK_WAV, { type: 'audio/wav', length: RINGBACK_WAV.length });
  }
}
