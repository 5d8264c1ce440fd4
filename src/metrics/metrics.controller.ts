import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/access';
import { ApiErrors } from '../common/api-errors.decorator';
import { MetricsSampler } from './metrics-sampler';
import { MetricsTokenGuard } from './metrics-token.guard';

/** Prometheus' scrape target on the API port. */
@ApiTags('Operations')
@Controller('metrics')
@Public()
@UseGuards(MetricsTokenGuard)
export class MetricsController {
  constructor(private readonly sampler: MetricsSampler) {}

  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition of this process: HTTP latency by route template, queue ' +
      'depth and job durations, webhook delivery outcomes and latency, calls placed and live ' +
      'per status, voice turn latency and barge-ins, unhandled rejections and uncaught ' +
      'exceptions, and Node process metrics. Send ' +
      '`Authorization: Bearer <METRICS_TOKEN>` (a scrape token, not a user token); without ' +
      'METRICS_TOKEN configured the route answers 404. METRICS_PORT serves the same on an ' +
      'internal listener without a token.',
  })
  @ApiOkResponse({
    description: 'Prometheus text format 0.0.4',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiErrors(401, 404)
  async getMetrics(@Res() response: Response): Promise<void> {
    const { contentType, body } = await this.sampler.scrape();
    response.status(200).type(contentType).send(body);
  }
}
