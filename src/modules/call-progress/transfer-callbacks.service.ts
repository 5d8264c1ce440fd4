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
import { AgentsRepository } from '../agents/agents.repository';
import {
  type Briefing,
  briefingSpeech,
  type DialTarget,
  EMPTY_DOCUMENT,
  HOLD_MUSIC_PATH,
  plivoAnswer,
  plivoBriefing,
  plivoDial,
  TRANSFER_ACCEPT_KEY,
  twimlAnswer,
  twimlBriefing,
  twimlDecision,
  twimlDial,
} from './answer/answer-documents';
import { agentSpeech, type AnswerPlan, TRANSFER_UNANSWERED_LINE } from './answer/answer-plan';
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
 *
 * A warm transfer (the attempt holds a brief) is made only when the new party takes the call
 * after hearing the brief: on Twilio their key reaches `transfer-decision` (Twilio reports the
 * pick-up and the <Dial>'s end alike whether or not they took it); on Plivo the confirmKey
 * bridges the call, and only then does its callbackUrl report the answer. Declined, or that
 * acceptance never heard, the <Dial>'s end gives the caller back to the agent, as when no one
 * answers: never a caller hung up on.
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
    private readonly agents: AgentsRepository,
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
        progressUrl: this.callUrl('transfer-status', verified, log.id),
        ...(log.transferBriefing
          ? {
              briefingUrl: this.callUrl('transfer-briefing', verified, log.id),
              holdUrl: this.config.http.publicBaseUrl + HOLD_MUSIC_PATH,
            }
          : {}),
      };
    });
    return verified.integration === 'provider_two' ? twimlDial(dial) : plivoDial(dial);
  }

  /**
   * What a warm transfer's new party hears on picking up (Twilio's <Number url>, Plivo's
   * confirmSound): the agent's brief, then how to take the call. Read in the agent's language
   * with the provider's default voice (the agent's voice names a voice of our speech engine).
   * No warm transfer waiting for its answer: Twilio hangs up on the new party, Plivo reads
   * nothing (and its confirmKey never comes).
   */
  async briefing(integration: string, phoneId: string, callback: InboundCallback): Promise<string> {
    const verified = await this.dialing(integration, phoneId, callback);
    const parsed = verified.provider.parseStatusCallback(callback);
    const briefing = await this.database.transaction(async (): Promise<Briefing | null> => {
      const attempt = await this.callbackAttempts.lock(verified, parsed);
      const { log } = attempt ?? {};
      if (!attempt || !log?.transferBriefing || log.transferredAt || isFinal(log.callStatus))
        return null;
      const agent = await this.agents.findSpeaking(attempt.batch.organizationId, log.agentId);
      return {
        speech: briefingSpeech(agent, log.transferBriefing),
        decisionUrl: this.callUrl('transfer-decision', verified, log.id),
      };
    });
    return verified.integration === 'provider_two'
      ? twimlBriefing(briefing)
      : plivoBriefing(briefing);
  }

  /**
   * provider_two: the key a warm transfer's new party pressed after the brief. The accept key
   * makes the transfer (transferredAt, call.transferred, once) and the empty reply puts them
   * through; any other key hangs up on them, and the <Dial>'s end gives the caller back to the
   * agent. provider_one's confirmKey is Plivo's own: 404 here, as for provider_three.
   */
  async decision(integration: string, phoneId: string, callback: InboundCallback): Promise<string> {
    const verified = await this.dialing(integration, phoneId, callback);
    if (verified.integration !== 'provider_two')
      throw new NotFoundException(`${verified.integration} confirms transfers itself`);
    const progress = verified.provider.parseTransferCallback(callback);
    const parsed = verified.provider.parseStatusCallback(callback);
    const { accepted, call } = await this.database.transaction(async () => {
      const attempt = await this.callbackAttempts.lock(verified, parsed);
      if (!attempt) throw new NotFoundException('No call of this number matches the callback');
      const { log } = attempt;
      const taken =
        log.transferBriefing !== null &&
        !isFinal(log.callStatus) &&
        progress?.kind === 'key' &&
        progress.digits === TRANSFER_ACCEPT_KEY;
      if (taken) await this.transfers.answered(attempt);
      return { accepted: taken, call: log.id };
    });
    this.logger.info(
      { integration: verified.integration, call, accepted },
      accepted ? 'The colleague took the transfer' : 'The colleague declined the transfer',
    );
    return twimlDecision(accepted);
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
    const { log, batch } = attempt;
    const warm = log.transferBriefing !== null;
    if (progress.kind === 'key') return null;
    if (progress.kind === 'answered') {
      // Twilio reports a warm transfer's pick-up before the brief; Plivo once its key bridged.
      if (!warm || verified.integration === 'provider_one') await this.transfers.answered(attempt);
      return null;
    }
    // A warm transfer is made by its acceptance alone: a <Dial> that ended after a declined
    // brief may still say `completed`, and a caller hung up on would be a dropped call.
    if (warm ? log.transferredAt !== null : progress.answered) {
      await this.transfers.answered(attempt);
      return HANG_UP;
    }
    await this.transfers.notAnswered(attempt);
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
    if (stream) return { kind: 'stream', stream };
    // The agent cannot take the caller back (no voice runtime here): they hear why, in the
    // agent's language and voice, before the line closes, never silence.
    const agent = await this.agents.findSpeaking(batch.organizationId, log.agentId);
    return { kind: 'speak', speech: agentSpeech(agent, TRANSFER_UNANSWERED_LINE) };
  }

  private callUrl(
    route: 'transfer-status' | 'transfer-briefing' | 'transfer-decision',
    verified: VerifiedCallback,
    phoneLogId: string,
  ): string {
    return transferUrlForCall(
      route,
      this.config.http.publicBaseUrl,
      verified.integration,
      verified.phone.id,
      verified.callbackToken,
      phoneLogId,
    );
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
