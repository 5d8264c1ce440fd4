import { Injectable, NotFoundException } from '@nestjs/common';
import { type AppConfig, type CatalogueVoice, InjectConfig, type VoiceMode } from '../../config';
import { ValidationFailedException } from '../../common/validation';
import type { VideoAgentRow } from './video-agents.schema';
import { VideoAgentsRepository } from './video-agents.repository';
import type { CreateVideoAgentDto, VideoAgentDto } from './dto/video-agent.dto';
import type { VoiceDto } from './dto/voice.dto';

const NOT_FOUND = 'Video agent not found';

/** Video agents of an organization, and the voice catalogue (config.voices) they choose from. */
@Injectable()
export class VideoAgentsService {
  private readonly catalogue: readonly CatalogueVoice[];

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly videoAgents: VideoAgentsRepository,
  ) {
    this.catalogue = config.voices.catalogue;
  }

  /** The catalogue in its own order, only the voices of `mode` when one is given. */
  voices(mode: VoiceMode | undefined): VoiceDto[] {
    return this.catalogue
      .filter((voice) => mode === undefined || voice.modes.includes(mode))
      .map(({ id, name, language, gender, provider }) => ({
        id,
        name,
        language,
        gender,
        provider,
      }));
  }

  async create(organizationId: string, dto: CreateVideoAgentDto): Promise<VideoAgentDto> {
    const mode = dto.mode ?? 'video';
    const voice = this.catalogue.find(
      (candidate) => candidate.id === dto.voiceId && candidate.modes.includes(mode),
    );
    if (!voice) {
      throw new ValidationFailedException([
        {
          field: 'voiceId',
          message: `voiceId must be a voice of GET /api/video-agent/voices?mode=${mode}`,
        },
      ]);
    }
    const row = await this.videoAgents.create(organizationId, {
      name: dto.name,
      mode,
      voiceId: voice.id,
      language: dto.language ?? voice.language,
      prompt: dto.prompt ?? '',
      greeting: dto.greeting ?? null,
    });
    return toVideoAgentDto(row);
  }

  async get(organizationId: string, id: string): Promise<VideoAgentDto> {
    const row = await this.videoAgents.findById(organizationId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toVideoAgentDto(row);
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.videoAgents.delete(organizationId, id))) {
      throw new NotFoundException(NOT_FOUND);
    }
  }
}

function toVideoAgentDto(row: VideoAgentRow): VideoAgentDto {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    voiceId: row.voiceId,
    language: row.language,
    prompt: row.prompt,
    greeting: row.greeting,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
