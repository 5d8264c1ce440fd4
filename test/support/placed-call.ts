import type { batches } from '../../src/modules/batches/batches.schema';
import { callbackUrlsFor, callbackUrlsForCall } from '../../src/modules/phones/callback-urls';
import { PhoneCredentials } from '../../src/modules/phones/phone-credentials';
import { PhonesRepository } from '../../src/modules/phones/phones.repository';
import { TelephonyProviders } from '../../src/modules/telephony/telephony-providers';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { AttemptFactories } from './attempt-factories';
import { CallingFactories } from './calling-factories';
import type { RegisteredAdmin } from './factories';
import type { TestApp } from './test-app';

export interface PlacedCallOptions {
  integration: Integration;
  number: string;
  /** The add-phone credentials of an account seeded at the provider's fake. */
  credentials: Record<string, string>;
  batch?: Partial<typeof batches.$inferInsert>;
  agent?: Parameters<AttemptFactories['agent']>[1];
}

/**
 * A phone added through the API, an agent, a batch with one claimed attempt, and the call placed
 * at the provider's fake the way the dialer places it.
 */
export async function placedCall(t: TestApp, admin: RegisteredAdmin, options: PlacedCallOptions) {
  const calling = new CallingFactories(t);
  const attempts = new AttemptFactories(t);
  const added = await t.http
    .post('/api/call/add-phone')
    .set({ Authorization: `Bearer ${admin.token}` })
    .send({
      userId: admin.userId,
      phoneNumber: options.number,
      integration: options.integration,
      ...options.credentials,
    })
    .expect(201);
  const phone = (await t.app
    .get(PhonesRepository)
    .findById(admin.organizationId, added.body.data._id as string))!;
  const agent = await attempts.agent(admin.organizationId, options.agent);
  const batch = await calling.batch(admin.organizationId, admin.userId, {
    callingNumbers: [phone.id],
    agentId: agent.id,
    // Whatever the hour this runs at, a retry is due `delay` later (the windows are the
    // dialer tests' and the compliance simulation's).
    enforceCalleeLocalHours: false,
    ...options.batch,
  });
  const [record] = await calling.callRecords(batch, [{ name: 'Grace' }]);
  const log = await attempts.claimed(record, phone, { agentId: agent.id });
  const { callbackToken, ...credentials } = t.app
    .get(PhoneCredentials)
    .open(admin.organizationId, phone.id, phone.credentials);
  const urls = callbackUrlsFor(
    t.config.http.publicBaseUrl,
    options.integration,
    phone.id,
    callbackToken,
  );
  const { providerCallId } = await t.app
    .get(TelephonyProviders)
    .get(options.integration)
    .placeCall(credentials, {
      from: phone.phoneNumber,
      to: record.phoneNumber,
      urls: callbackUrlsForCall(urls, log.id),
      appId: phone.providerAppId ?? undefined,
      clientState: log.id,
      ringTimeoutSeconds: 30,
      timeLimitSeconds: 600,
      record: batch.recordCalls,
      machineDetection: true,
    });
  return { phone, batch, record, log, agent, id: providerCallId, callbackToken };
}
