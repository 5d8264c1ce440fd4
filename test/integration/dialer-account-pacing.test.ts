import { inArray } from 'drizzle-orm';
import { Database } from '../../src/database';
import { CallPlacement } from '../../src/modules/dialer/call-placement';
import { providerAccounts } from '../../src/modules/phones/phones.schema';
import { TwilioFake } from '../fakes';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A provider account's calls per second are shared by all its numbers, in every batch and every
 * organization (issue #30, finding 3): Twilio queues what goes beyond them, so a call claimed at
 * 20:59 could ring after 21:00. Each number alone would allow a call per second here.
 */
jest.setTimeout(120_000);

describe('calls paced per provider account', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  const clock = new TestClock();

  beforeAll(async () => {
    twilio = await TwilioFake.start();
    t = await startTestApp({
      env: {
        PUBLIC_BASE_URL: 'http://127.0.0.1:9',
        DIALER_TICK_MS: '0',
        DIALER_MAX_CONCURRENT_CALLS: '20',
        DIALER_CALLS_PER_SECOND: '1',
        PROVIDER_TWO_API_URL: twilio.baseUrl,
      },
    });
    clock.install(t);
  });

  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const accountRow = async (phoneIds: string[]) => {
    const db = t.app.get(Database).db;
    const [phone] = await db.query.phoneNumbers.findMany({
      where: (p, { inArray: within }) => within(p.id, phoneIds),
    });
    const [account] = await db
      .select()
      .from(providerAccounts)
      .where(inArray(providerAccounts.id, [phone.providerAccountId!]));
    return account;
  };

  it('three numbers of a 1 call/s account place one call a second between them', async () => {
    clock.advance(3600);
    const h = await new DialerHarness(t, twilio).organization();
    const phones = [await h.accountNumber(), await h.accountNumber(), await h.accountNumber()];
    const { batch } = await h.batch(6, { callingNumbers: phones.map((phone) => phone.id) });

    await h.tick();
    await h.tick();
    expect(await h.logs(batch.id)).toHaveLength(1);
    expect((await accountRow(phones.map((p) => p.id))).nextDialAt).toEqual(
      new Date(clock.current.getTime() + 1000),
    );
    clock.advance(1);
    await h.tick();
    expect(await h.logs(batch.id)).toHaveLength(2);
    // Rotation still takes another number of the account for the next call.
    const from = (await h.logs(batch.id)).map((log) => log.phoneId);
    expect(new Set(from).size).toBe(2);
  });

  it('two organizations on one account share its second, claiming at the same moment', async () => {
    clock.advance(3600);
    const first = await new DialerHarness(t, twilio).organization();
    const second = await new DialerHarness(t, twilio).organization();
    second.account = first.account;
    const a = await first.batch(3, { callingNumbers: [(await first.accountNumber()).id] });
    const b = await second.batch(3, { callingNumbers: [(await second.accountNumber()).id] });

    // Two ticks at once: the claims run side by side and meet on the account's row lock.
    await Promise.all([first.tick(), second.tick()]);
    const placed = (await first.logs(a.batch.id)).length + (await second.logs(b.batch.id)).length;
    expect(placed).toBe(1);
  });

  it("an account's own calls per second: three calls in one second, a third of a second apart", async () => {
    clock.advance(3600);
    const h = await new DialerHarness(t, twilio).organization();
    const phones = [await h.accountNumber(3), await h.accountNumber(), await h.accountNumber()];
    const { batch } = await h.batch(6, { callingNumbers: phones.map((phone) => phone.id) });

    const place = jest.spyOn(t.app.get(CallPlacement), 'place');
    await h.tick();
    // Each placement waits for its slot: a third of a second apart, on three numbers.
    const claims = place.mock.calls.map(([claim]) => claim).filter((c) => c.batchId === batch.id);
    place.mockRestore();
    expect(
      claims.map((claim) => claim.slot.getTime() - clock.current.getTime()).sort((x, y) => x - y),
    ).toEqual([0, 334, 668]);
    expect(new Set(claims.map((claim) => claim.phone.id)).size).toBe(3);
    expect((await h.logs(batch.id)).length).toBe(3);
    expect((await accountRow(phones.map((p) => p.id))).nextDialAt).toEqual(
      new Date(clock.current.getTime() + 1002),
    );
  });
});
