import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { type AppConfig, InjectConfig } from '../../../config';
import { Database } from '../../../database';
import { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import { AttemptTransfers } from '../../dialer/attempt-transfers';
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
  type PlaceCallInput,
  type ProviderCredentials,
  type TelephonyProvider,
  TRANSFER_RING_SECONDS,
  type TransferTarget,
  WARM_BRIEF_SECONDS,
} from '../../telephony/telephony.types';

/** Where and why the agent hands a call on, as its transfer_call asked. */
export interface TransferAsk {
  /** +E.164: the agent's transferNumber. */
  to: string;
  /** Why, as the model gave it (call.transferred's `reason`). */
  reason: string | null;
  /** Warm: what the colleague hears before taking the call (call.transferred's `summary`). */
  briefing: string | null;
}

/** A live call the agent hands on. */
export interface TransferRequest extends TransferAsk {
  organizationId: string;
  phoneLogId: string;
  /** The call at the provider (the one its media stream carries). */
  providerCallId: string;
  /**
   * Told once the provider accepted the request (it then rings the new party), with how long
   * the caller may wait on the stream meanwhile (`holdMs`: a warm transfer's own Telnyx leg),
   * null when the provider takes the caller off the stream (or rings them itself).
   */
  accepted?: (holdMs: number | null) => void;
}

/**
 * How long a transfer's new leg may take to answer where the provider reports it (Telnyx, told
 * the same `timeout_secs`, ends the leg then): beyond this the transfer failed.
 */
export const TRANSFER_LEG_MS = TRANSFER_RING_SECONDS * 1000;

/**
 * How often a transfer waiting on its leg reads the attempt back: the callback that heard the
 * outcome records it there before it signals, so a signal lost between processes (a Redis
 * subscriber reconnecting) costs the caller this long, not the whole wait.
 */
export const LEG_READ_BACK_MS = 2_000;

/**
 * How often a warm transfer's own Telnyx leg is asked whether it still lives: a hang-up whose
 * callback Telnyx never delivers (or we refused) would otherwise hold the caller on ringback
 * until the whole wait ends (95 s).
 */
export const LEG_POLL_MS = 5_000;

interface Reserved {
  provider: TelephonyProvider;
  credentials: ProviderCredentials;
  target: TransferTarget;
  /** Telnyx: the new leg of a warm transfer is a call of the number's connection. */
  leg: PlaceCallInput;
}

/**
 * Transfers a live call through its provider (telephony-providers.md §5). The destination and
 * the reason are written on the attempt first (the provider fetches its <Dial> from them), then
 * the provider is asked; refused, they are taken off again. The transfer is made only when the
 * new party answers (AttemptTransfers: transferredAt, call.transferred): Twilio and Plivo report
 * it to the <Dial>'s callbacks after the call left the stream (TransferCallbacksService, which
 * also brings an unanswered caller back to the agent on a new stream); Telnyx keeps the call on
 * its stream and reports the new leg's events on the status URL, which the session waits for
 * (CallSignals) and reads back from the attempt should the signal be lost.
 *
 * A warm transfer on Telnyx keeps the caller on the stream (the session plays ringback) while
 * the new party is called on a leg of its own; the status callbacks read them the brief, bridge
 * the two calls on their key (call.bridged: transfer-answered) or hang the leg up
 * (transfer-failed), and the session goes on with the caller. Twilio and Plivo brief through
 * their <Dial> (TransferCallbacksService).
 */
@Injectable()
export class CallTransfers {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly attempts: AttemptsRepository,
    private readonly logs: PhoneLogsRepository,
    private readonly transfers: AttemptTransfers,
    private readonly phones: PhonesRepository,
    private readonly secrets: PhoneCredentials,
    private readonly providers: TelephonyProviders,
    private readonly signals: CallSignals,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(CallTransfers.name);
  }

  /**
   * True once the call is the provider's to transfer (Twilio, Plivo: accepted; Telnyx: the new
   * party answered); false (the call is the agent's again) when it could not be done.
   */
  async transfer(request: TransferRequest): Promise<boolean> {
    const reserved = await this.reserve(request);
    if (!reserved) return false;
    const { integration } = reserved.provider;
    const warmLeg = integration === 'provider_three' && request.briefing !== null;
    // Heard from before the command: the leg's events may come before its response.
    const legMs = TRANSFER_LEG_MS + (warmLeg ? WARM_BRIEF_SECONDS * 1000 : 0);
    const leg = integration === 'provider_three' ? this.legOutcome(request, legMs) : null;
    try {
      // Never retried: a timeout may have transferred the call (or placed the leg) already.
      if (warmLeg) {
        const placed = await reserved.provider.placeCall(reserved.credentials, reserved.leg);
        leg?.poll(() => this.legAlive(reserved, placed.providerCallId));
      } else
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
      await this.settle(request, false);
      return false;
    }
    request.accepted?.(warmLeg ? legMs : null);
    if (!leg) return true;
    if (await this.settle(request, await leg.answered)) return true;
    this.logger.warn(
      { integration, call: request.phoneLogId },
      'The transferred leg ended without answering',
    );
    return false;
  }

  /**
   * Whether the transfer's new leg answers (true) or ends first or never answers (false): told
   * by its signal, or read back from the attempt (transferredAt written, or the destination
   * taken off again) should the signal be lost.
   */
  private legOutcome(
    request: TransferRequest,
    waitMs: number,
  ): {
    answered: Promise<boolean>;
    stop: () => void;
    poll: (alive: () => Promise<boolean>) => void;
  } {
    let stop: () => void = () => undefined;
    let poll: (alive: () => Promise<boolean>) => void = () => undefined;
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), waitMs);
      const readBack = setInterval(() => {
        this.logs.findById(request.organizationId, request.phoneLogId).then(
          (log) => {
            if (log?.transferredAt) done(true);
            else if (!log?.transferredTo) done(false);
          },
          () => undefined, // the next read, the signal or the wait's end decides
        );
      }, LEG_READ_BACK_MS);
      const unlisten = this.signals.listen(request.phoneLogId, (signal) => {
        if (signal === 'transfer-answered') done(true);
        if (signal === 'transfer-failed') done(false);
      });
      let legPoll: ReturnType<typeof setInterval> | undefined;
      let settled = false;
      const done = (outcome: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(readBack);
        clearInterval(legPoll);
        unlisten();
        resolve(outcome);
      };
      stop = () => done(false);
      // The leg ended with no outcome heard: taken if its bridge was recorded, else not.
      poll = (alive) => {
        legPoll = setInterval(() => {
          alive()
            .then(async (living) => {
              if (living) return;
              const log = await this.logs.findById(request.organizationId, request.phoneLogId);
              done(Boolean(log?.transferredAt));
            })
            .catch(() => undefined); // the provider could not say: the next poll or the wait decides
        }, LEG_POLL_MS);
      };
    });
    return { answered, stop, poll: (alive) => poll(alive) };
  }

  /** Whether the provider still has the leg (ringing, answered or bridged). */
  private async legAlive(reserved: Reserved, legId: string): Promise<boolean> {
    const state = await reserved.provider.fetchCall(reserved.credentials, {
      providerCallId: legId,
      from: reserved.leg.from,
      to: reserved.leg.to,
      placedAt: new Date(),
    });
    return state.alive;
  }

  /** Writes the destination on a live, not yet transferred attempt; null when it is not one. */
  private async reserve(request: TransferRequest): Promise<Reserved | null> {
    const attempt = await this.database.transaction(async () => {
      const locked = await this.lock(request);
      if (!locked || !(await this.transfers.ask(locked, request))) return null;
      return locked;
    });
    const phoneId = attempt?.log.phoneId;
    if (!attempt || !phoneId) return null;
    const phone = await this.phones.findById(request.organizationId, phoneId);
    if (!phone) {
      await this.settle(request, false);
      return null;
    }
    const { callbackToken, ...credentials } = this.secrets.open(
      request.organizationId,
      phone.id,
      phone.credentials,
    );
    const base = this.config.http.publicBaseUrl;
    const urls = callbackUrlsForCall(
      callbackUrlsFor(base, phone.integration, phone.id, callbackToken),
      request.phoneLogId,
    );
    return {
      provider: this.providers.get(phone.integration),
      credentials,
      target: {
        to: request.to,
        from: phone.phoneNumber,
        instructionsUrl: transferUrlForCall(
          'transfer',
          base,
          phone.integration,
          phone.id,
          callbackToken,
          request.phoneLogId,
        ),
        eventsUrl: urls.statusUrl,
        clientState: request.phoneLogId,
        ringTimeoutSeconds: TRANSFER_RING_SECONDS,
      },
      leg: {
        from: phone.phoneNumber,
        to: request.to,
        urls,
        appId: phone.providerAppId ?? undefined,
        clientState: request.phoneLogId,
        ringTimeoutSeconds: TRANSFER_RING_SECONDS,
      },
    };
  }

  /**
   * Records what was heard of the transfer, unless its callback did first; answers whether the
   * call was transferred (a lost `transfer-answered` signal is read back from the attempt).
   */
  private async settle(request: TransferRequest, answered: boolean): Promise<boolean> {
    return this.database.transaction(async () => {
      const attempt = await this.lock(request);
      if (!attempt) return false;
      if (attempt.log.transferredAt) return true;
      if (!answered) {
        await this.transfers.notAnswered(attempt);
        return false;
      }
      await this.transfers.answered(attempt);
      return true;
    });
  }

  private async lock(request: TransferRequest): Promise<Attempt | null> {
    const attempt = await this.attempts.lock(request.phoneLogId);
    return attempt?.batch.organizationId === request.organizationId ? attempt : null;
  }
}
