import { inArray } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { TwilioFake } from '../fakes';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

/** The booted app and the Twilio fake its dialer places calls on. */
export interface DialerApp {
  t: TestApp;
  twilio: TwilioFake;
  close(): Promise<void>;
}

/**
 * The app with its dialer pointed at a Twilio fake of its own. The app does not listen
 * (supertest), so the fake's callbacks go to a closed port; the dialer ticks only when the test
 * calls DialerScheduler.tick(). `env` adds to these settings or overrides them.
 */
export async function startDialerApp(
  env: Record<string, string> = {},
  options: Omit<TestAppOptions, 'env'> = {},
): Promise<DialerApp> {
  const twilio = await TwilioFake.start();
  const t = await startTestApp({
    ...options,
    env: {
      PROVIDER_TWO_API_URL: twilio.baseUrl,
      PUBLIC_BASE_URL: 'http://127.0.0.1:9',
      DIALER_TICK_MS: '0',
      ...env,
    },
  }).catch(async (error: unknown) => {
    await twilio.close();
    throw error;
  });
  return {
    t,
    twilio,
    async close() {
      await t.close();
      await twilio.close();
    },
  };
}

/** Ticks serve every organization: a test's leftover batches must not dial into the next one. */
export async function completeDialingBatches(t: TestApp): Promise<void> {
  await t.app
    .get(Database)
    .db.update(batches)
    .set({ queueStatus: 'completed' })
    .where(inArray(batches.queueStatus, ['active', 'paused']));
}
