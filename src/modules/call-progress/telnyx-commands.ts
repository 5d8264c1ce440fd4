import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Clock } from '../../common/clock';
import { Database } from '../../database';
import { AttemptEndings } from '../dialer/attempt-endings';
import { AttemptsRepository } from '../dialer/attempts.repository';
import { isFinal } from '../dialer/progress-rules';
import { describeProviderFailure, ProviderError } from '../telephony/provider-error';
import { TelephonyProviders } from '../telephony/telephony-providers';
import type { ProviderCredentials } from '../telephony/telephony.types';

/** One Call Control command of a provider_three call, sent after the callback's commit. */
export interface TelnyxCommand {
  phoneLogId: string;
  /** The call the command is for; with `transfer`, a warm transfer's new leg. */
  providerCallId: string;
  credentials: ProviderCredentials;
  /**
   * `answer`: what the answered call hears (stream, speech, or hang-up); `hangup`: the end;
   * `transfer`: a warm transfer's brief or bridge, whose leg is hung up when it fails for good
   * (its call.hangup gives the caller back to the agent).
   */
  purpose: 'answer' | 'hangup' | 'transfer';
  send: () => Promise<void>;
}

/** Pause before the one retry of a failed command. */
const RETRY_AFTER_MS = 500;

/**
 * provider_three has no answer URL: what an answered call hears is a Call Control command
 * sent after the callback (telnyx `streaming_start`, `speak`, `hangup`). A failed command gets
 * a bounded next step instead of leaving the callee in silence until the time limit: tried once
 * more (command ids make a repeat a no-op at Telnyx), then, for the answer's command, the call
 * is hung up at the provider and the attempt ends `failed` (ended_reason
 * `answer_command_failed`) with its call.failed; for a warm transfer's command, its new leg is
 * hung up. A failed final hang-up is left to the time limit the call was placed with, and to the
 * lease. Never throws.
 */
@Injectable()
export class TelnyxCommands {
  constructor(
    private readonly database: Database,
    private readonly attempts: AttemptsRepository,
    private readonly endings: AttemptEndings,
    private readonly providers: TelephonyProviders,
    private readonly clock: Clock,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(TelnyxCommands.name);
  }

  async run(command: TelnyxCommand): Promise<void> {
    let failure = await this.attempt(command);
    if (failure === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    failure = await this.attempt(command);
    if (failure === undefined) return;
    this.logger.warn(
      { call: command.phoneLogId, purpose: command.purpose, ...describeProviderFailure(failure) },
      'Call Control command to provider_three failed twice',
    );
    if (command.purpose === 'transfer') {
      await this.hangUp(
        command,
        "Hanging up a warm transfer's leg after its failed command failed",
      );
      return;
    }
    if (command.purpose !== 'answer') return;
    await this.hangUpAndEnd(command, failure).catch((error: unknown) =>
      this.logger.warn(
        { call: command.phoneLogId, ...describeProviderFailure(error) },
        'Ending a provider_three call whose answer failed did not complete',
      ),
    );
  }

  /** The command once: undefined when it went through, else its error. */
  private async attempt(command: TelnyxCommand): Promise<unknown> {
    try {
      await command.send();
      return undefined;
    } catch (error) {
      return error ?? new Error('command failed');
    }
  }

  /** Hangs up the command's call; a failure is logged as `failed`, never thrown. */
  private async hangUp(command: TelnyxCommand, failed: string): Promise<void> {
    await this.providers.callControl
      .hangupCall(command.credentials, command.providerCallId)
      .catch((error: unknown) =>
        this.logger.warn({ call: command.phoneLogId, ...describeProviderFailure(error) }, failed),
      );
  }

  private async hangUpAndEnd(command: TelnyxCommand, failure: unknown): Promise<void> {
    await this.hangUp(command, 'Hang-up after a failed answer command to provider_three failed');
    await this.database.transaction(async () => {
      const attempt = await this.attempts.lock(command.phoneLogId);
      // The call's own hang-up may have been applied meanwhile.
      if (!attempt || isFinal(attempt.log.callStatus)) return;
      await this.endings.end(attempt, {
        status: 'failed',
        endedReason: 'answer_command_failed',
        failureReason: 'provider_error',
        providerStatus: failure instanceof ProviderError ? failure.message : null,
        endedAt: this.clock.now(),
      });
    });
  }
}
