import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { CreateVideoAgentDto, VideoAgentDto } from './dto/video-agent.dto';
import { ListVoicesQuery, VOICE_MODES_DESCRIPTION, VoiceDto } from './dto/voice.dto';
import { VideoAgentsService } from './video-agents.service';

const VIDEO_AGENT_ID = { name: 'id', description: 'Video agent id (24 hex characters)' };

@ApiTags('Video agents')
@Controller('api/video-agent')
export class VideoAgentsController {
  constructor(private readonly videoAgents: VideoAgentsService) {}

  // Declared before GET :id, which would otherwise take "voices" for a (malformed) id.
  @Get('voices')
  @Authenticated()
  @ApiOperation({
    summary: 'List the voices agents can use',
    description:
      'The voice catalogue of this deployment (VOICE_CATALOGUE, else the built-in one), in its ' +
      `own order. ${VOICE_MODES_DESCRIPTION} Without mode every voice is listed once. Open to ` +
      'every authenticated caller: the catalogue is the same for every organization. ' +
      '400: a mode other than audio or video.',
  })
  @ApiEnvelope({ message: 'Voices fetched', type: [VoiceDto] })
  @ApiErrors(400)
  listVoices(@Query() query: ListVoicesQuery): VoiceDto[] {
    return this.videoAgents.voices(query.mode);
  }

  @Post()
  @Authenticated({ permission: 'videoAgents' })
  @ApiOperation({
    summary: 'Create a video agent',
    description:
      'name and voiceId are required; mode defaults to video, language to the voice’s. ' +
      '400: invalid fields, or a voiceId that is not a voice of the agent’s mode.',
  })
  @ApiEnvelope({ status: 201, message: 'Video agent created', type: VideoAgentDto })
  @ApiErrors(400)
  createVideoAgent(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateVideoAgentDto,
  ): Promise<VideoAgentDto> {
    return this.videoAgents.create(principal.organizationId, dto);
  }

  @Get(':id')
  @Authenticated({ permission: 'videoAgents' })
  @ApiOperation({
    summary: 'Get one video agent',
    description: '400: malformed id; 404: unknown, or in another organization.',
  })
  @ApiParam(VIDEO_AGENT_ID)
  @ApiEnvelope({ message: 'Video agent fetched', type: VideoAgentDto })
  @ApiErrors(400, 404)
  getVideoAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<VideoAgentDto> {
    return this.videoAgents.get(principal.organizationId, id);
  }

  @Delete(':id')
  @Authenticated({ permission: 'videoAgents' })
  @ApiOperation({
    summary: 'Delete a video agent for good',
    description: 'Answers status, code and message only.',
  })
  @ApiParam(VIDEO_AGENT_ID)
  @ApiEnvelope({ message: 'Video agent deleted' })
  @ApiDeleteErrors()
  deleteVideoAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<void> {
    return this.videoAgents.remove(principal.organizationId, id);
  }
}
