import { Module } from '@nestjs/common';
import { AgentsRepository } from './agents.repository';

@Module({ providers: [AgentsRepository], exports: [AgentsRepository] })
export class AgentsModule {}
