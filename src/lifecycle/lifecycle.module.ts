import { Global, Module } from '@nestjs/common';
import { ProcessDrain } from './process-drain';

/** The process's drain, which every module that takes new work consults. */
@Global()
@Module({ providers: [ProcessDrain], exports: [ProcessDrain] })
export class LifecycleModule {}
