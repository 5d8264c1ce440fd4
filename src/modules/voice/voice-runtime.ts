import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { describeUnknown } from '../../common/describe-error';
import { type AppConfig, InjectConfig } from '../../config';
import type { Integration } from '../telephony/telephony.types';
import { StreamTokens } from './media/stream-tokens';
import { streamUrl } from './media/stream-url';
import { SPEECH_ENGINES, type SpeechEngines } from './speech/speech-engines';

/** Where an answered call's audio goes (contract §8), and the single-use token that opens it. */
export interface StreamConnection {
  /** ws: or wss: URL of /api/telephony/{integration}/stream. */
  url: string;
  /** Carried as the provider allows: TwiML <Parameter>, Plivo extraHeaders, Telnyx URL query. */
  token: string;
}

/**
 * Whether answered calls are connected to the media stream: VOICE_RUNTIME on and the speech
 * engines ready (checked once at start). Otherwise the answer callbacks keep the provider's own
 * speech verb.
 */
@Injectable()
export class VoiceRuntime implements OnModuleInit {
  private ready = false;
  private checked: Promise<void> = Promise.resolve();

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @Inject(SPEECH_ENGINES) private readonly engines: SpeechEngines,
    private readonly tokens: StreamTokens,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(VoiceRuntime.name);
  }

  onModuleInit(): void {
    if (!this.config.voice.runtime) {
      this.logger.info('VOICE_RUNTIME is off: calls use the provider speech verb');
      return;
    }
    // Not awaited: the check may spawn pocketsphinx and espeak-ng, which should not hold up the
    // server's ready; connect() waits for it instead.
    this.checked = this.checkReadiness();
  }

  private async checkReadiness(): Promise<void> {
    try {
      // SpeechModule logs which engines and why not; this only decides.
      this.ready = (await this.engines.readiness()).ready;
    } catch (error) {
      this.logger.warn(describeUnknown(error), 'Speech engines readiness check failed');
    }
  }

  get enabled(): boolean {
    return this.config.voice.runtime && this.ready;
  }

  /**
   * The stream this answered call connects to, with a new token bound to it (inside the
   * answer's transaction) and to `liveCallId`, the live call's id where the answer callback
   * named one (Plivo's CallUUID); null when the runtime cannot run.
   */
  async connect(
    integration: Integration,
    organizationId: string,
    phoneLogId: string,
    liveCallId?: string,
  ): Promise<StreamConnection | null> {
    await this.checked;
    if (!this.enabled) return null;
    const token = await this.tokens.issue(organizationId, phoneLogId, liveCallId ?? null);
    return { url: streamUrl(this.config.http.publicBaseUrl, integration), token };
  }
}
