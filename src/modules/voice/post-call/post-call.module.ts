import { Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module';
import { CallRecordsModule } from '../../call-records/call-records.module';
import { DialerModule } from '../../dialer/dialer.module';
import { DncModule } from '../../dnc/dnc.module';
import { EventsModule } from '../../events/events.module';
import { LlmModule } from '../../llm/llm.module';
import { CallAnalysisHandler } from './call-analysis.handler';

/** Summary and analysis of finished calls (JobName.AnalyzeCall). */
@Module({
  imports: [AgentsModule, CallRecordsModule, DialerModule, DncModule, EventsModule, LlmModule],
  providers: [CallAnalysisHandler],
})
export class PostCallModule {}
