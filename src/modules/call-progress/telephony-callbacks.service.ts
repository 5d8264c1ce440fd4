import { DrainingException } from '../../lifecycle/draining.exception';
import { ProcessDrain } from '../../lifecycle/process-drain';
import { Injectable, NotFoundException } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { AgentsRepository } from '../agents/agents.repository';
import { AttemptTransfers } from '../dialer/attempt-transfers';
import type { Attempt } from '../dialer/attempts.repository';
import { callbackUrlsFor, callbackUrlsForCall } from '../phones/callback-urls';
import { TelephonyProviders } from '../telephony/telephony-providers';
import type { InboundCallback, ParsedCallStatus } from '../telephony/telephony.types';
import { type CallSignal, CallSignals } from '../voice/session/call-signals';
import { VoiceRuntime } from '../voice/voice-runtime';
import {
  briefingSpeech,
  plivoAnswer,
  TRANSFER_ACCEPT_KEY,
  TRANSFER_ACCEPT_SECONDS,
  telnyxSpeech,
  telnyxStreaming,
  twimlAnswer,
} from './answer/answer-documents';
import { type AnswerPlan, planAnswer } from './answer/answer-plan';
import { CallbackAttempts } from './callback-attempts';
import { CallbackVerifier, type VerifiedCallback } from './callback-verifier';
import { TelnyxCommands } from './telnyx-commands';
import { CallProgress, type ProgressReport } from '../dialer/call-progress';
import { isFinal } from '../dialer/progress-rules';

const HANG_UP: AnswerPlan = { kind: 'hangup' };

/**
 * The provider callbacks of one number (contract §3): verified first, then applied to the
 * attempt they name in one transaction (CallProgress). The answer URL replies with what the
 * call hears in the provider's own format; provider_three, which has no answer URL, gets the
 * same as Call Control commands after the commit.
 */
@Injectable()
export class TelephonyCallbacksService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly verifier: CallbackVerifier,
    private readonly callbackAttempts: CallbackAttempts,
    private readonly transfers: AttemptTransfers,
    private readonly progress: CallProgress,
    private readonly agents: AgentsRepository,
    private readonly providers: TelephonyProviders,
    private readonly voice: VoiceRuntime,
    private readonly signals: CallSignals,
    private readonly telnyxCommands: TelnyxCommands,
    private readonly drain: ProcessDrain,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(TelephonyCallbacksService.name);
  }

  /** The call was answered: its progress, then the instructions document (TwiML, Plivo XML). */
  async answer(integration: string, phoneId: string, callback: InboundCallback): Promise<string> {
    const verified = await this.verifier.verify(integration, phoneId, callback);
    if (verified.integration === 'provider_three')
      throw new NotFoundException('provider_three calls have no answer URL');
    // A draining process takes no new call: the provider's fallback reaches a ready one.
    if (this.drain.draining) throw new DrainingException();
    const parsed = verified.provider.parseStatusCallback(callback);
    const plan = await this.database.transaction(async () => {
      // A call we did not place (an inbound call to the number) or no longer know: hang up.
      const attempt = await this.callbackAttempts.lock(verified, parsed);
      if (!attempt) return HANG_UP;
      const { attempt: now } = await this.progress.apply(attempt, reportOf(verified, parsed));
      return isFinal(now.log.callStatus) ? HANG_UP : this.plan(verified, now, parsed);
    });
    return verified.integration === 'provider_two' ? twimlAnswer(plan) : plivoAnswer(plan);
  }

  /** Call progress (and recordings). A callback naming no call of this number answers 404. */
  async status(integration: string, phoneId: string, callback: InboundCallback): Promise<void> {
    const verified = await this.verifier.verify(integration, phoneId, callback);
    const parsed = verified.provider.parseStatusCallback(callback);
    // Telnyx's answer is a status callback whose handling starts the stream: a draining process
    // refuses it untouched, and Telnyx delivers it again (to a ready process).
    if (
      this.drain.draining &&
      verified.integration === 'provider_three' &&
      parsed.callStatus === 'in-progress'
    )
      throw new DrainingException();
    await this.database.transaction(async () => {
      const attempt = await this.callbackAttempts.lock(verified, parsed);
      if (!attempt) throw new NotFoundException('No call of this number matches the callback');
      // Telnyx sends the events of a transfer's new leg here too: that leg is not the attempt,
      // but while the transfer waits on it, whether it answered decides the transfer.
      if (verified.integration === 'provider_three' && isOtherLeg(attempt, parsed)) {
        await this.transferLeg(verified, attempt, parsed);
        return;
      }
      const outcome = await this.progress.apply(attempt, reportOf(verified, parsed));
      const signal = liveCallSignal(attempt, outcome.attempt, parsed);
      if (signal) this.database.afterCommit(() => this.signals.publish(attempt.log.id, signal));
      if (verified.integration === 'provider_three') {
        await this.commandTelnyx(verified, parsed, outcome.attempt, outcome.answeredNow);
      }
    });
  }

  /**
   * What the answered call hears: its media stream, where the voice runtime speaks, when the
   * runtime can run and there is something to say; else the agent's line by the provider's
   * speech verb. Recorded when the batch asks.
   */
  private async plan(
    verified: VerifiedCallback,
    attempt: Attempt,
    parsed: ParsedCallStatus,
  ): Promise<AnswerPlan> {
    const { log, batch } = attempt;
    const agent = log.agentId
      ? await this.agents.findSpeaking(batch.organizationId, log.agentId)
      : null;
    // Plivo records through the answer XML; Twilio and Telnyx were asked when the call was placed.
    const record =
      verified.integration === 'provider_one' && batch.recordCalls
        ? {
            callbackUrl: this.statusUrl(verified, log.id),
            maxSeconds: agent?.maxCallSeconds ?? 600,
          }
        : undefined;
    const plan = planAnswer(agent, log.answeredBy, record);
    if (plan.kind !== 'speak' || !plan.speech) return plan;
    const stream = await this.voice.connect(
      verified.integration,
      batch.organizationId,
      log.id,
      parsed.liveCallId,
    );
    return stream ? { kind: 'stream', stream, ...(record ? { record } : {}) } : plan;
  }

  /**
   * provider_three: an event of a transfer's new leg (Telnyx sends them to the call's status URL
   * with its client_state), while the transfer waits on it; later ones change nothing. Cold (the
   * `transfer` command), the leg answering or bridging makes the transfer. Warm (a leg of our
   * own), its answer gets the brief with a one-key gather; the accept key bridges the caller to
   * it, any other or none hangs it up; the bridge makes the transfer. A leg that hangs up first
   * fails it: the session, told, goes on with the caller.
   */
  private async transferLeg(
    verified: VerifiedCallback,
    attempt: Attempt,
    parsed: ParsedCallStatus,
  ): Promise<void> {
    const { log } = attempt;
    const leg = parsed.providerCallId;
    if (!leg || log.transferredTo === null || log.transferredAt !== null) return;
    const warm = log.transferBriefing !== null;
    let signal: CallSignal | null = null;
    if (parsed.providerStatus === 'call.bridged') signal = 'transfer-answered';
    else if (parsed.providerStatus === 'call.hangup') signal = 'transfer-failed';
    else if (parsed.providerStatus === 'call.answered') {
      if (warm) await this.briefLeg(verified, attempt, leg);
      else signal = 'transfer-answered';
    } else if (parsed.providerStatus === 'call.gather.ended' && warm)
      this.decideLeg(verified, attempt, leg, parsed.digits === TRANSFER_ACCEPT_KEY);
    if (signal === 'transfer-answered') await this.transfers.answered(attempt);
    if (signal === 'transfer-failed') await this.transfers.notAnswered(attempt);
    if (signal) this.database.afterCommit(() => this.signals.publish(log.id, signal));
  }

  /** The warm leg answered: read it the brief, then gather one key (call.gather.ended). */
  private async briefLeg(verified: VerifiedCallback, attempt: Attempt, leg: string) {
    const { log, batch } = attempt;
    const agent = await this.agents.findSpeaking(batch.organizationId, log.agentId);
    const speech = briefingSpeech(agent, log.transferBriefing ?? '');
    const telnyx = this.providers.callControl;
    this.transferCommand(verified, log.id, leg, () =>
      telnyx.gatherUsingSpeak(verified.credentials, leg, {
        text: speech.text,
        language: speech.language,
        voice: 'female',
        maxDigits: 1,
        timeoutMillis: TRANSFER_ACCEPT_SECONDS * 1000,
        commandId: `${log.id}-brief`,
      }),
    );
  }

  /** The warm leg's key: the accept key bridges the caller to it; anything else hangs it up. */
  private decideLeg(verified: VerifiedCallback, attempt: Attempt, leg: string, accepted: boolean) {
    const { log } = attempt;
    const telnyx = this.providers.callControl;
    const caller = log.providerCallId;
    this.logger.info(
      { integration: verified.integration, call: log.id, accepted },
      accepted ? 'The colleague took the transfer' : 'The colleague declined the transfer',
    );
    this.transferCommand(verified, log.id, leg, () =>
      accepted && caller
        ? telnyx.bridge(verified.credentials, caller, leg, `${log.id}-bridge`)
        : telnyx.hangupCall(verified.credentials, leg),
    );
  }

  private transferCommand(
    verified: VerifiedCallback,
    phoneLogId: string,
    leg: string,
    send: () => Promise<void>,
  ) {
    const job = {
      phoneLogId,
      providerCallId: leg,
      credentials: verified.credentials,
      purpose: 'transfer',
      send,
    } as const;
    this.database.afterCommit(() => this.telnyxCommands.run(job));
  }

  private statusUrl(verified: VerifiedCallback, phoneLogId: string): string {
    const urls = callbackUrlsFor(
      this.config.http.publicBaseUrl,
      verified.integration,
      verified.phone.id,
      verified.callbackToken,
    );
    return callbackUrlsForCall(urls, phoneLogId).statusUrl;
  }

  /**
   * provider_three: once answered, start the media stream, or `speak` the plan's line (or hang
   * up when there is nothing to say) and hang up when the speech ends. Sent after the commit
   * (TelnyxCommands: a failed command is tried once more; an answer that still fails hangs up
   * and ends the attempt).
   */
  private async commandTelnyx(
    verified: VerifiedCallback,
    parsed: ParsedCallStatus,
    attempt: Attempt,
    answeredNow: boolean,
  ): Promise<void> {
    const callId = attempt.log.providerCallId ?? parsed.providerCallId;
    if (!callId || isFinal(attempt.log.callStatus)) return;
    const telnyx = this.providers.callControl;
    let command: (() => Promise<void>) | undefined;
    const purpose = answeredNow ? 'answer' : 'hangup';
    if (answeredNow) {
      const plan = await this.plan(verified, attempt, parsed);
      const streaming = telnyxStreaming(plan);
      const speech = telnyxSpeech(plan);
      const commandId = `${attempt.log.id}-answer`;
      if (streaming)
        command = () => telnyx.startStreaming(verified.credentials, callId, streaming, commandId);
      else if (speech)
        command = () => telnyx.speak(verified.credentials, callId, { ...speech, commandId });
      else command = () => telnyx.hangupCall(verified.credentials, callId);
    } else if (parsed.providerStatus === 'call.speak.ended') {
      command = () => telnyx.hangupCall(verified.credentials, callId);
    }
    if (!command) return;
    const job = {
      phoneLogId: attempt.log.id,
      providerCallId: callId,
      credentials: verified.credentials,
      purpose,
      send: command,
    } as const;
    this.database.afterCommit(() => this.telnyxCommands.run(job));
  }
}

/**
 * A callback about another call than the attempt's: a transfer's new leg (also once that
 * transfer is over: a late leg event must never be read as the caller's own).
 */
function isOtherLeg(attempt: Attempt, parsed: ParsedCallStatus): boolean {
  const { providerCallId } = attempt.log;
  return (
    providerCallId !== null &&
    parsed.providerCallId !== undefined &&
    parsed.providerCallId !== providerCallId
  );
}

/**
 * What the live session must hear of this callback: a machine verdict that came after the
 * answer (the stream already plays), or the machine's greeting ended (its beep).
 */
function liveCallSignal(
  before: Attempt,
  after: Attempt,
  parsed: ParsedCallStatus,
): CallSignal | null {
  if (isFinal(after.log.callStatus) || after.log.answeredAt === null) return null;
  if (parsed.greetingEnded) return 'greeting-ended';
  if (before.log.answerOutcome !== 'fax' && after.log.answerOutcome === 'fax') return 'fax';
  const decidedNow = before.log.answeredBy !== 'machine' && after.log.answeredBy === 'machine';
  return decidedNow && before.log.answeredAt !== null ? 'machine' : null;
}

function reportOf(verified: VerifiedCallback, parsed: ParsedCallStatus): ProgressReport {
  return {
    integration: verified.integration,
    callStatus: parsed.callStatus,
    providerStatus: parsed.providerStatus,
    providerCallId: parsed.providerCallId,
    durationSeconds: parsed.durationSeconds,
    answeredBy: parsed.answeredBy,
    fax: parsed.fax,
    hangupCause: parsed.hangupCause,
    hangupSide: parsed.hangupSide,
    recordingUrl: parsed.recordingUrl,
    recording: parsed.recording,
    occurredAt: parsed.occurredAt,
    connected: parsed.connected,
  };
}
