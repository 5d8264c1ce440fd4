import { Injectable, NotFoundException } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { AttemptTransfers } from '../dialer/attempt-transfers';
import type { Attempt } from '../dialer/attempts.repository';
import { isFinal } from '../dialer/progress-rules';
import { transferUrlForCall } from '../phones/callback-urls';
import {
  type InboundCallback,
  type ParsedCallStatus,
  TRANSFER_RING_SECONDS,
  type TransferProgress,
} from '../telephony/telephony.types';
import { VoiceRuntime } from '../voice/voice-runtime';
import {
  type DialTarget,
  EMPTY_DOCUMENT,
  plivoAnswer,
  plivoDial,
  twimlAnswer,
  twimlDial,
} from './answer/answer-documents';
import type { AnswerPlan } from './answer/answer-plan';
import { CallbackAttempts } from './callback-attempts';
import { CallbackVerifier, type VerifiedCallback } from './callback-verifier';

const HANG_UP: AnswerPlan = { kind: 'hangup' };

/**
 * The callbacks of a transfer on Twilio and Plivo, whose calls leave the media stream for a
 * <Dial> (CallTransfers asked for it): the <Dial> itself, then its progress — the new party
 * answering makes the transfer (AttemptTransfers: transferredAt, call.transferred), and a
 * <Dial> that ends unanswered (no answer, busy, failed) gives the caller back to the agent on a
 * new media stream, where the session goes on with the conversation so far. Telnyx has no
 * <Dial>: its transfers report on the status URL (TelephonyCallbacksService).
 */
@Injectable()
export class TransferCallbacksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly verifier: CallbackVerifier,
    private readonly callbackAttempts: CallbackAttempts,
    private readonly transfers: AttemptTransfers,
    private readonly voice: VoiceRuntime,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(TransferCallbacksService.name);
  }

  /**
   * The <Dial> of a transfer the agent asked for (Plivo `aleg_url`, Twilio `Url`): the number
   * written on the attempt before the provider was asked. A call with no transfer under way, or
   * already over, hangs up.
   */
  async dial(integration: string, phoneId: string, callback: InboundCallback): Promise<string> {
    const verified = await this.dialing(integration, phoneId, callback);
    const parsed = verified.provider.parseStatusCallback(callback);
    const dial = await this.database.transaction(async (): Promise<DialTarget | null> => {
      const attempt = await this.callbackAttempts.lock(verified, parsed);
      const { log } = attempt ?? {};
      if (!log?.transferredTo || isFinal(log.callStatus)) return null;
      return {
        to: log.transferredTo,
        callerId: log.fromNumber ?? verified.phone.phoneNumber,
        ringTimeoutSeconds: TRANSFER_RING_SECONDS,
        progressUrl: transferUrlForCall(
          'transfer-status',
          this.config.http.publicBaseUrl,
          verified.integration,
          verified.phone.id,
          verified.callbackToken,
          log.id,
        ),
      };
    });
    return verified.integration === 'provider_two' ? twimlDial(dial) : plivoDial(dial);
  }

  /**
   * The <Dial>'s progress. The new party answered: the transfer is made (an empty reply). The
   * <Dial> ended: after a conversation with the new party the call hangs up; unanswered, the
   * reply connects the caller to a new media stream, where the agent says so and goes on (or
   * hangs up when the caller is gone).
   */
  async progress(integration: string, phoneId: string, callback: InboundCallback): Promise<string> {
    const verified = await this.dialing(integration, phoneId, callback);
    const progress = verified.provider.parseTransferCallback(callback);
    const parsed = verified.provider.parseStatusCallback(callback);
    const plan = await this.database.transaction(async () => {
      const attempt = await this.callbackAttempts.lock(verified, parsed);
      if (!attempt) throw new NotFoundException('No call of this number matches the callback');
      return progress ? this.apply(verified, attempt, parsed, progress) : null;
    });
    if (!plan) return EMPTY_DOCUMENT;
    return verified.integration === 'provider_two' ? twimlAnswer(plan) : plivoAnswer(plan);
  }

  private async apply(
    verified: VerifiedCallback,
    attempt: Attempt,
    parsed: ParsedCallStatus,
    progress: TransferProgress,
  ): Promise<AnswerPlan | null> {
    if (progress.kind === 'answered' || progress.answered) {
      await this.transfers.answered(attempt);
      return progress.kind === 'answered' ? null : HANG_UP;
    }
    await this.transfers.notAnswered(attempt);
    const { log, batch } = attempt;
    const callerGone =
      isFinal(log.callStatus) || (parsed.callStatus !== undefined && isFinal(parsed.callStatus));
    this.logger.info(
      { integration: verified.integration, call: log.id, dialStatus: progress.status, callerGone },
      'The transfer was not answered',
    );
    if (callerGone) return HANG_UP;
    const stream = await this.voice.connect(
      verified.integration,
      batch.organizationId,
      log.id,
      parsed.liveCallId,
    );
    return stream ? { kind: 'stream', stream } : HANG_UP;
  }

  /** A verified callback of a provider that transfers by <Dial> (Telnyx has none: 404). */
  private async dialing(
    integration: string,
    phoneId: string,
    callback: InboundCallback,
  ): Promise<VerifiedCallback> {
    const verified = await this.verifier.verify(integration, phoneId, callback);
    if (verified.integration === 'provider_three')
      throw new NotFoundException('provider_three transfers are dialed by Call Control');
    return verified;
  }
}
