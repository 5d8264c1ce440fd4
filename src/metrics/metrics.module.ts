import { Global, Module } from '@nestjs/common';
import { SwitchboardMetrics } from './switchboard-metrics';

/** The metrics every module records into; the scrape endpoints live in MetricsEndpointModule. */
@Global()
@Module({ providers: [SwitchboardMetrics], exports: [SwitchboardMetrics] })
export class MetricsModule {}
