import { Injectable } from '@nestjs/common';
import { AgentsRepository } from '../../agents/agents.repository';
import type { AgentRow } from '../../agents/agents.schema';
import { answerSpeech, type Speech, planAnswer } from '../../call-progress/answer/answer-plan';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import type { OptOutCall } from '../../dnc/dnc.service';
import { PhoneCredentials } from '../../phones/phone-credentials';
import { PhonesRepository } from '../../phones/phones.repository';
import { TelephonyProviders } from '../../telephony/telephony-providers';
import type {
  Integration,
  ProviderCredentials,
  TelephonyProvider,
} from '../../telephony/telephony.types';
import type { StreamGrant } from '../media/stream-tokens.repository';

/** What a session needs of its call: what to say first, and how to end it. */
export interface CallContext {
  organizationId: string;
  phoneLogId: string;
  /** What an opt-out on this call is recorded against. */
  optOut: Omit<OptOutCall, 'transcript' | 'recordingUrl'>;
  /** The agent that holds the conversation; null: the greeting is all it says. */
  agent: AgentRow | null;
  /** The contact's uploaded fields, quoted to the model. */
  contact: Record<string, string>;
  /** Null when the call was never placed with an id (then the stream's own id is used). */
  providerCallId: string | null;
  /** When the provider reported the answer (its time limit counts from it), if it did yet. */
  answeredAt: Date | null;
  /** The agent's greeting (its voicemail message to a machine); null: nothing to say. */
  speech: Speech | null;
  /** The speech is a voicemail message: it waits for the machine's beep (see BeepWait). */
  afterBeep: boolean;
  /** The agent's voicemail message, for a machine detected once the call is live; null: none. */
  voicemail: Speech | null;
  /**
   * The conversation so far: empty on the answer's stream; on a stream that gives the caller
   * back to the agent (a transfer no one answered), what was said before it.
   */
  turns: PhoneLogTurn[];
  provider: TelephonyProvider;
  credentials: ProviderCredentials;
}

/** Loads a granted call through the repositories that own its rows. */
@Injectable()
export class CallContexts {
  constructor(
    private readonly logs: PhoneLogsRepository,
    private readonly agents: AgentsRepository,
    private readonly phones: PhonesRepository,
    private readonly secrets: PhoneCredentials,
    private readonly providers: TelephonyProviders,
  ) {}

  /** The call, or null when it is gone or its number is not of this integration. */
  async load(grant: StreamGrant, integration: Integration): Promise<CallContext | null> {
    const { organizationId, phoneLogId } = grant;
    const log = await this.logs.findById(organizationId, phoneLogId);
    if (!log?.phoneId) return null;
    // They stand between the stream's start and the greeting: read at once, not one by one.
    const [phone, agent, callee] = await Promise.all([
      this.phones.findById(organizationId, log.phoneId),
      log.agentId ? this.agents.findSpeaking(organizationId, log.agentId) : null,
      this.logs.findCallee(organizationId, log.callRecordId),
    ]);
    if (phone?.integration !== integration || !callee) return null;
    // A fax machine (the provider said so before the stream) is hung up on: nothing to say.
    const plan =
      log.answerOutcome === 'fax' ? { kind: 'hangup' as const } : planAnswer(agent, log.answeredBy);
    // The callback token stays behind: a session hangs up; a transfer (CallTransfers) opens its own.
    const { accountId, secret } = this.secrets.open(organizationId, phone.id, phone.credentials);
    return {
      organizationId,
      phoneLogId,
      optOut: {
        phoneNumber: callee.phoneNumber,
        batchId: log.batchId,
        callRecordId: log.callRecordId,
        phoneLogId,
        requestUuid: log.requestUuid,
      },
      // A machine hears the voicemail message only: no conversation.
      agent: plan.kind === 'speak' && log.answeredBy !== 'machine' ? agent : null,
      contact: callee.contact,
      providerCallId: log.providerCallId,
      answeredAt: log.answeredAt,
      speech: plan.kind === 'speak' ? plan.speech : null,
      afterBeep: log.answeredBy === 'machine',
      voicemail: answerSpeech(agent, 'machine'),
      turns: log.turns,
      provider: this.providers.get(integration),
      credentials: { accountId, secret },
    };
  }
}
