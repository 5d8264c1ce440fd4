import { Module } from '@nestjs/common';
import { KnowledgeBasesModule } from '../../knowledge-bases/knowledge-bases.module';
import { TurnPromptService } from './turn-prompt.service';

/** What a voice session asks to build each turn's request. */
@Module({
  imports: [KnowledgeBasesModule],
  providers: [TurnPromptService],
  exports: [TurnPromptService],
})
export class TurnPromptModule {}
