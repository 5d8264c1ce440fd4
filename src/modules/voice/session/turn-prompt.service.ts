import { Injectable, Logger } from '@nestjs/common';
import { describeUnknown } from '../../../common/describe-error';
import type { ChatRequest } from '../../llm/chat-model';
import type { AgentRow } from '../../agents/agents.schema';
import type { PassageHit } from '../../knowledge-bases/knowledge-base-passages.repository';
import { PassageRetriever, searchKnowledgeBases } from '../../knowledge-bases/passage-retriever';
import { buildTurnRequest, lastCalleeWords, type TurnPromptInput } from './turn-prompt';

/** Passages given to the model per turn: enough to answer, few enough to keep the turn fast. */
export const TURN_PASSAGE_LIMIT = 3;

/** Builds a voice turn's chat request, with the best passages of the agent's knowledge bases. */
/** The longest a live call's turn waits for the question's embedding from the endpoint. */
export const VOICE_EMBEDDING_TIMEOUT_MS = 300;

@Injectable()
export class TurnPromptService {
  private readonly logger = new Logger(TurnPromptService.name);

  constructor(private readonly retriever: PassageRetriever) {}

  async buildRequest(
    organizationId: string,
    agent: TurnPromptInput['agent'] & Pick<AgentRow, 'id' | 'knowledgeBaseIds'>,
    contact: TurnPromptInput['contact'],
    turns: TurnPromptInput['turns'],
    answeredBy?: TurnPromptInput['answeredBy'],
  ): Promise<ChatRequest> {
    const passages = await this.passagesFor(organizationId, agent, lastCalleeWords(turns));
    return buildTurnRequest({ agent, contact, turns, passages, answeredBy });
  }

  private async passagesFor(
    organizationId: string,
    agent: Pick<AgentRow, 'id' | 'knowledgeBaseIds'>,
    query: string | undefined,
  ): Promise<PassageHit[]> {
    if (query === undefined || agent.knowledgeBaseIds.length === 0) return [];
    try {
      return await searchKnowledgeBases(
        this.retriever,
        organizationId,
        agent.knowledgeBaseIds,
        query,
        TURN_PASSAGE_LIMIT,
        // A caller waits on this turn: the question's embedding from the endpoint may hold it
        // this long at most, else the words and the offline embedding answer alone.
        { embeddingTimeoutMs: VOICE_EMBEDDING_TIMEOUT_MS },
      );
    } catch (error) {
      // A caller on the line is better answered without passages than not at all.
      this.logger.warn({ agentId: agent.id, ...describeUnknown(error) }, 'knowledge search failed');
      return [];
    }
  }
}
