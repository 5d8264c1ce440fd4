import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Clock } from '../../../common/clock';
import { type AppConfig, InjectConfig } from '../../../config';
import { Database } from '../../../database';
import { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import { AttemptEvents } from '../../dialer/attempt-events';
import { type Attempt, AttemptsRepository } from '../../dialer/attempts.repository';
import {
  callbackUrlsFor,
  callbackUrlsForCall,
  transferUrlForCall,
} from '../../phones/callback-urls';
import { PhoneCredentials } from '../../phones/phone-credentials';
import { PhonesRepository } from '../../phones/phones.repository';
import { describeProviderFailure } from '../../telephony/provider-error';
import { CallSignals } from './call-signals';
import { TelephonyProviders } from '../../telephony/telephony-providers';
import {
  type ProviderCredentials,
  type TelephonyProvider,
  TRANSFER_RING_SECONDS,
  type TransferTarget,
} from '../../telephony/telephony.types';

/** A live call the agent hands to `to`. */
export interface TransferRequest {
  organizationId: string;
  phoneLogId: string;
  /** The call at the provider (the one its media stream carries). */
  providerCallId: string;
  /** +E.164: the agent's transferNumber. */
  to: string;
  /** Why, as the model gave it (call.transferred's `reason`). */
  reason: string | null;
  /** Told once the provider accepted the request (Telnyx then rings the new party). */
  accepted?: () => void;
}

/**
 * How long a transfer's new leg may take to answer where the provider reports it (Telnyx, told
 * the same `timeout_secs`, ends the leg then): beyond this the transfer failed.
 */
export const TRANSFER_LEG_MS = TRANSFER_RING_SECONDS * 1000;

interface Reserved {
  provider: TelephonyProvider;
  credentials: ProviderCredentials;
  target: TransferTarget;
}

/**
 * Transfers a live call through its provider (telephony-providers.md §5), in three steps so the
 * phone log never claims a transfer the provider refused and the provider never waits for us:
 * the number is written on the attempt first (the provider fetches its <Dial> from it), then the
 * provider is asked, then its acceptance is recorded with call.transferred in one transaction —
 * or, when it refused, the number is taken off again. Telnyx accepts the command before it
 * dials: there the new leg's events (CallSignals, from the status callbacks) decide — answered,
 * the transfer is recorded; ended first, it failed like a refusal. The call stays in-progress
 * with the new party; its final callback completes it (ended_by `transfer`).
 */
@Injectable()
export class CallTransfers {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly attempts: AttemptsRepository,
    private readonly logs: PhoneLogsRepository,
    private readonly events: AttemptEvents,
    private readonly phones: PhonesRepository,
    private readonly secrets: PhoneCredentials,
    private readonly providers: TelephonyProviders,
    private readonly clock: Clock,
    private readonly signals: CallSignals,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(CallTransfers.name);
  }

  /** True once the provider accepted; false (nothing changed) when it could not be done. */
  async transfer(request: TransferRequest): Promise<boolean> {
    const reserved = await this.reserve(request);
    if (!reserved) return false;
    const { integration } = reserved.provider;
    // Heard from before the command: the leg's events may come before its response.
    const leg = integration === 'provider_three' ? this.legOutcome(request.phoneLogId) : null;
    try {
      // Never retried: a timeout may have transferred the call already.
      await reserved.provider.transferCall(
        reserved.credentials,
        request.providerCallId,
        reserved.target,
      );
    } catch (error) {
      leg?.stop();
      this.logger.warn(
        { integration, call: request.phoneLogId, ...describeProviderFailure(error) },
        'Transfer through the provider failed',
      );
      await this.release(request);
      return false;
    }
    request.accepted?.();
    if (leg && !(await leg.answered)) {
      this.logger.warn(
        { integration, call: request.phoneLogId },
        'The transferred leg ended without answering',
      );
      await this.release(request);
      return false;
    }
    await this.confirm(request);
    return true;
  }

  /** Whether the transfer's new leg answers (true) or ends first or never answers (false). */
  private legOutcome(phoneLogId: string): { answered: Promise<boolean>; stop: () => void } {
    let stop: () => void = () => undefined;
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), TRANSFER_LEG_MS);
      const unlisten = this.signals.listen(phoneLogId, (signal) => {
        if (signal === 'transfer-answered') done(true);
        if (signal === 'transfer-failed') done(false);
      });
      const done = (outcome: boolean) => {
        clearTimeout(timer);
        unlisten();
        resolve(outcome);
      };
      stop = () => done(false);
    });
    return { answered, stop };
  }

  /** Writes the destination on a live, not yet transferred attempt; null when it is not one. */
  private async reserve(request: TransferRequest): Promise<Reserved | null> {
    const attempt = await this.database.transaction(async () => {
      const locked = await this.lock(request);
      if (!locked || locked.log.callStatus !== 'in-progress' || locked.log.transferredTo)
        return null;
      await this.logs.update(locked.log, { transferredTo: request.to });
      return locked;
    });
    const phoneId = attempt?.log.phoneId;
    if (!attempt || !phoneId) return null;
    const phone = await this.phones.findById(request.organizationId, phoneId);
    if (!phone) {
      await this.release(request);
      return null;
    }
    const { callbackToken, ...credentials } = this.secrets.open(
      request.organizationId,
      phone.id,
      phone.credentials,
    );
    const base = this.config.http.publicBaseUrl;
    const urls = callbackUrlsFor(base, phone.integration, phone.id, callbackToken);
    return {
      provider: this.providers.get(phone.integration),
      credentials,
      target: {
        to: request.to,
        from: phone.phoneNumber,
        instructionsUrl: transferUrlForCall(
          base,
          phone.integration,
          phone.id,
          callbackToken,
          request.phoneLogId,
        ),
        eventsUrl: callbackUrlsForCall(urls, request.phoneLogId).statusUrl,
        clientState: request.phoneLogId,
        ringTimeoutSeconds: TRANSFER_RING_SECONDS,
      },
    };
  }

  private async confirm(request: TransferRequest): Promise<void> {
    await this.database.transaction(async () => {
      const attempt = await this.lock(request);
      if (!attempt || attempt.log.transferredAt) return;
      const changes = { transferredTo: request.to, transferredAt: this.clock.now() };
      await this.logs.update(attempt.log, changes);
      await this.events.transferred(
        { ...attempt, log: { ...attempt.log, ...changes } },
        request.reason,
      );
    });
  }

  private async release(request: TransferRequest): Promise<void> {
    await this.database.transaction(async () => {
      const attempt = await this.lock(request);
      if (attempt && !attempt.log.transferredAt)
        await this.logs.update(attempt.log, { transferredTo: null });
    });
  }

  private async lock(request: TransferRequest): Promise<Attempt | null> {
    const attempt = await this.attempts.lock(request.phoneLogId);
    return attempt?.batch.organizationId === request.organizationId ? attempt : null;
  }
}
