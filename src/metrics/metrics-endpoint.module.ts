import { Module } from '@nestjs/common';
import { CallRecordsModule } from '../modules/call-records/call-records.module';
import { MetricsController } from './metrics.controller';
import { MetricsSampler } from './metrics-sampler';
import { MetricsServer } from './metrics-server';
import { MetricsTokenGuard } from './metrics-token.guard';

/** Where Prometheus scrapes: `/metrics` on the API port (token) and the METRICS_PORT listener. */
@Module({
  imports: [CallRecordsModule],
  controllers: [MetricsController],
  providers: [MetricsSampler, MetricsServer, MetricsTokenGuard],
})
export class MetricsEndpointModule {}
