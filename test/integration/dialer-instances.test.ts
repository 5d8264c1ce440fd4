import type { NestExpressApplication } from '@nestjs/platform-express';
import { Clock } from '../../src/common/clock';
import { createApp } from '../../src/create-app';
import { DialerScheduler } from '../../src/modules/dialer/dialer-scheduler';
import type { TwilioFake } from '../fakes';
import { type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import type { TestApp } from '../support/test-app';

/**
 * Two app instances on one PostgreSQL database and one Redis tick at the same moments: every
 * contact is placed once, never twice, and the concurrency limit holds across both.
 */
jest.setTimeout(60_000);

describe('two dialer instances', () => {
  let t: TestApp;
  let second: NestExpressApplication;
  let twilio: TwilioFake;
  const clock = new TestClock();

  let app: DialerApp | undefined;

  beforeAll(async () => {
    app = await startDialerApp({ DIALER_MAX_CONCURRENT_CALLS: '8' }, { redis: true });
    ({ t, twilio } = app);
    second = await createApp(t.config, { logger: false });
    await second.init();
    clock.install(t);
    jest.spyOn(second.get(Clock), 'now').mockImplementation(() => new Date(clock.current));
  });

  afterAll(async () => {
    await second?.close();
    await app?.close();
  });

  it('never places a call twice and never exceeds the limit together', async () => {
    const h = await new DialerHarness(t, twilio).organization();
    const phones = await Promise.all(Array.from({ length: 6 }, () => h.number()));
    const { batch, numbers } = await h.batch(60, { callingNumbers: phones.map((p) => p.id) });
    const schedulers = [t.app.get(DialerScheduler), second.get(DialerScheduler)];
    for (let round = 0; round < 40; round += 1) {
      await Promise.all(schedulers.flatMap((s) => [s.tick(), s.tick()]));
      const live = await h.live(batch.id);
      expect(live.length).toBeLessThanOrEqual(8);
      // Half of the calls end each round, the rest stay live into the next one.
      for (const log of live.slice(0, Math.ceil(live.length / 2))) await h.end(log.id, 'completed');
      if ((await h.batchRow(batch.id)).queueStatus === 'completed') break;
      clock.advance(1);
    }
    const calls = h.callsTo(numbers);
    const perNumber = new Map<string, number>();
    for (const call of calls) perNumber.set(call.to, (perNumber.get(call.to) ?? 0) + 1);
    expect(calls).toHaveLength(numbers.length);
    expect([...perNumber.values()].every((count) => count === 1)).toBe(true);
    const logs = await h.logs(batch.id);
    expect(logs).toHaveLength(numbers.length);
    expect(new Set(logs.map((log) => log.providerCallId)).size).toBe(numbers.length);
    expect(await h.batchRow(batch.id)).toMatchObject({
      queueStatus: 'completed',
      callsCompleted: numbers.length,
    });
  });
});
