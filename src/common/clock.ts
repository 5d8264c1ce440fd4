import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The time as the service sees it. Injected wherever a rule depends on "now" (event times,
 * retry schedules, the sweeper, the circuit breaker) so tests can move time instead of waiting.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
