import type { PinoLogger } from 'nestjs-pino';
import type { AppConfig } from '../../../config';
import { type CallSignal, CallSignals } from './call-signals';

const logger = { setContext: () => undefined, warn: () => undefined } as unknown as PinoLogger;
const config = { redis: { url: undefined, prefix: 'sb' } } as unknown as AppConfig;

describe('CallSignals without Redis (embedded mode: one process)', () => {
  it("delivers a call's signals to its listener only, until it stops listening", async () => {
    const signals = new CallSignals(config, null, logger);
    const heard: Array<[string, CallSignal]> = [];
    const stop = signals.listen('call-1', (signal) => heard.push(['call-1', signal]));
    signals.listen('call-2', (signal) => heard.push(['call-2', signal]));
    await signals.publish('call-1', 'machine');
    await signals.publish('call-2', 'greeting-ended');
    await signals.publish('call-3', 'machine');
    stop();
    await signals.publish('call-1', 'greeting-ended');
    expect(heard).toEqual([
      ['call-1', 'machine'],
      ['call-2', 'greeting-ended'],
    ]);
  });

  it('keeps a newer listener of the call when an older one stops', async () => {
    const signals = new CallSignals(config, null, logger);
    const heard: string[] = [];
    const stopOld = signals.listen('call-1', () => heard.push('old'));
    signals.listen('call-1', () => heard.push('new'));
    stopOld();
    await signals.publish('call-1', 'machine');
    expect(heard).toEqual(['new']);
  });

  it('delivers to every listener of the call (its session and a transfer waiting on the new leg)', async () => {
    const signals = new CallSignals(config, null, logger);
    const heard: string[] = [];
    signals.listen('call-1', (signal) => heard.push(`session ${signal}`));
    const stop = signals.listen('call-1', (signal) => heard.push(`transfer ${signal}`));
    await signals.publish('call-1', 'transfer-failed');
    stop();
    await signals.publish('call-1', 'transfer-answered');
    expect(heard).toEqual([
      'session transfer-failed',
      'transfer transfer-failed',
      'session transfer-answered',
    ]);
  });
});
