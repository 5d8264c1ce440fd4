import { Inject } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Database } from '../../../database';
import { type HandlesJob, JobHandler, JobName, type JobPayloads } from '../../../queue';
import { AgentsRepository } from '../../agents/agents.repository';
import type { AgentRow } from '../../agents/agents.schema';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import { PhoneLogsRepository } from '../../call-records/phone-logs.repository';
import { type Attempt, AttemptsRepository, callEventBase } from '../../dialer/attempts.repository';
import { DncService } from '../../dnc/dnc.service';
import { EventsService } from '../../events/events.service';
import { CHAT_MODEL, type ChatModel } from '../../llm/chat-model';
import { LlmError } from '../../llm/llm.error';
import { transcriptText, transcriptTurns } from './call-transcript';
import { analysisRequest, parseAnalysis, summaryRequest } from './post-call-requests';

type CallAgent = Pick<AgentRow, 'prompt' | 'language' | 'analysisFields'>;

/**
 * After a completed call with a conversation: asks the chat model for a summary
 * (`call.summary.generated`, with the transcript) and a structured analysis
 * (`call.analysis.completed`); an opt-out it detects puts the number on the DNC list. Each
 * result is written with its event in one transaction and skipped when already there, so a
 * retry (timeouts, 429, 5xx: the queue's backoff) redoes only what is missing. Without a
 * configured model, or when the model refuses the request itself, there is nothing to retry.
 */
@JobHandler(JobName.AnalyzeCall)
export class CallAnalysisHandler implements HandlesJob<JobName.AnalyzeCall> {
  constructor(
    private readonly database: Database,
    private readonly attempts: AttemptsRepository,
    private readonly agents: AgentsRepository,
    private readonly logs: PhoneLogsRepository,
    private readonly events: EventsService,
    private readonly dnc: DncService,
    @Inject(CHAT_MODEL) private readonly model: ChatModel,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(CallAnalysisHandler.name);
  }

  async handle({ organizationId, phoneLogId }: JobPayloads[JobName.AnalyzeCall]): Promise<void> {
    const attempt = await this.database.transaction(() => this.attempts.lock(phoneLogId));
    if (attempt?.batch.organizationId !== organizationId) return;
    const { log } = attempt;
    if (log.callStatus !== 'completed' || log.turns.length === 0) return;
    const agent: CallAgent = (log.agentId &&
      (await this.agents.findById(organizationId, log.agentId))) || {
      prompt: '',
      language: 'en-US',
      analysisFields: [],
    };
    try {
      if (log.summary === null) await this.summarize(phoneLogId, log.turns, agent);
      if (log.analysis === null) await this.analyze(phoneLogId, log.turns, agent);
    } catch (error) {
      // No model, or one that refuses this request outright (400, 401, 403…): retrying won't help.
      const hopeless =
        error instanceof LlmError &&
        (error.kind === 'not_configured' || (error.kind === 'refused' && !error.retryable));
      if (!hopeless) throw error;
      this.logger.warn({ phoneLogId, reason: error.message }, 'Call not analysed');
    }
  }

  private async summarize(phoneLogId: string, turns: PhoneLogTurn[], agent: CallAgent) {
    const { text } = await this.model.complete(summaryRequest(agent.prompt, turns));
    const summary = text.trim();
    if (summary === '') throw new LlmError('malformed', 'call summary is empty');
    await this.database.transaction(async () => {
      const attempt = await this.attempts.lock(phoneLogId);
      if (!attempt || attempt.log.summary !== null) return;
      const { log } = attempt;
      const transcript = transcriptText(log.turns);
      await this.logs.update(log, { summary, transcript });
      await this.events.raise(attempt.batch.organizationId, {
        type: 'call.summary.generated',
        callId: log.id,
        data: {
          ...callEventBase(attempt),
          summary,
          transcript,
          transcript_turns: transcriptTurns(log.turns, log.answeredAt),
          language: agent.language,
        },
      });
    });
  }

  private async analyze(phoneLogId: string, turns: PhoneLogTurn[], agent: CallAgent) {
    const { text } = await this.model.complete(
      analysisRequest(agent.prompt, turns, agent.analysisFields),
    );
    const analysis = parseAnalysis(text, agent.analysisFields);
    await this.database.transaction(async () => {
      const attempt = await this.attempts.lock(phoneLogId);
      if (!attempt || attempt.log.analysis !== null) return;
      const { log } = attempt;
      const { fields, ...judgement } = analysis;
      // The agent's fields are keys of the analysis object (AnalysisFieldDto); ours win a clash.
      await this.logs.update(log, { analysis: { ...fields, ...judgement } });
      if (analysis.optedOut) await this.optOut(attempt);
      await this.events.raise(attempt.batch.organizationId, {
        type: 'call.analysis.completed',
        callId: log.id,
        data: {
          ...callEventBase(attempt),
          successful: analysis.successful,
          sentiment: analysis.sentiment,
          disposition: analysis.disposition,
          opted_out: analysis.optedOut,
          extracted_data: fields,
        },
      });
    });
  }

  private async optOut({ log, record }: Attempt): Promise<void> {
    await this.dnc.recordOptOut(log.organizationId, {
      phoneNumber: record.phoneNumber,
      batchId: log.batchId,
      callRecordId: record.id,
      phoneLogId: log.id,
      requestUuid: log.requestUuid,
      recordingUrl: log.recordingUrl,
      transcript: log.transcript ?? transcriptText(log.turns),
    });
  }
}
