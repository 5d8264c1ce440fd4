import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/access';
import { MetricsSampler } from './metrics-sampler';
import { MetricsTokenGuard } from './metrics-token.guard';
import { SwitchboardMetrics } from './switchboard-metrics';

/** Prometheus' scrape target on the API port (not a REST operation: kept out of openapi.json). */
@ApiExcludeController()
@Controller('metrics')
@Public()
@UseGuards(MetricsTokenGuard)
export class MetricsController {
  constructor(
    private readonly metrics: SwitchboardMetrics,
    private readonly sampler: MetricsSampler,
  ) {}

  @Get()
  async scrape(@Res() response: Response): Promise<void> {
    await this.sampler.sample();
    const { contentType, body } = await this.metrics.exposition();
    response.status(200).type(contentType).send(body);
  }
}
