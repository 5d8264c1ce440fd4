import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { describeUnknown } from '../../../common/describe-error';
import { type AppConfig, InjectConfig } from '../../../config';
import { InjectRedis } from '../../../redis/redis.module';

/**
 * What a provider callback tells the live session of its call: answering-machine detection said
 * `machine` (or `fax`: no message, the hang-up) after the call was answered (Telnyx, Plivo's asynchronous detection, Twilio async AMD),
 * or the provider heard the machine's greeting end in its beep; or how the new leg of a transfer
 * went (Telnyx dials it after accepting the command): answered, or ended without answering.
 */
export type CallSignal =
  'machine' | 'fax' | 'greeting-ended' | 'transfer-answered' | 'transfer-failed';

const SIGNALS: readonly CallSignal[] = [
  'machine',
  'fax',
  'greeting-ended',
  'transfer-answered',
  'transfer-failed',
];

type Listener = (signal: CallSignal) => void;

/**
 * Carries call signals from the process that received the provider callback to the process
 * whose media socket carries the call: Redis pub/sub on one channel when REDIS_URL is set (any
 * API process may get either), else within this process (embedded mode is one process). A
 * signal for a call with no session here is dropped; signals are rare (one or two per machine).
 */
@Injectable()
export class CallSignals implements OnModuleInit, OnModuleDestroy {
  private readonly listeners = new Map<string, Set<Listener>>();
  private subscriber: Redis | undefined;
  private readonly channel: string;

  constructor(
    @InjectConfig() config: AppConfig,
    @InjectRedis() private readonly redis: Redis | null,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(CallSignals.name);
    this.channel = `${config.redis.prefix}:voice:call-signals`;
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    // A subscribed connection serves nothing else; it waits for Redis rather than failing.
    this.subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    await this.subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.logger.warn(describeUnknown(error), 'Call signal subscription failed');
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  /** Sends `signal` to the session of the call, wherever it runs (after the commit). */
  async publish(phoneLogId: string, signal: CallSignal): Promise<void> {
    const message = JSON.stringify({ call: phoneLogId, signal });
    if (!this.redis) return this.receive(message);
    try {
      await this.redis.publish(this.channel, message);
    } catch (error) {
      this.logger.warn(describeUnknown(error), 'Call signal not published; delivered here only');
      this.receive(message);
    }
  }

  /** Hears the call's signals until the returned function is called (its session, a transfer). */
  listen(phoneLogId: string, listener: Listener): () => void {
    const listeners = this.listeners.get(phoneLogId) ?? new Set<Listener>();
    listeners.add(listener);
    this.listeners.set(phoneLogId, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(phoneLogId) === listeners)
        this.listeners.delete(phoneLogId);
    };
  }

  private receive(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const { call, signal } = (parsed ?? {}) as { call?: unknown; signal?: unknown };
    if (typeof call !== 'string' || !SIGNALS.includes(signal as CallSignal)) return;
    for (const listener of [...(this.listeners.get(call) ?? [])]) listener(signal as CallSignal);
  }
}
