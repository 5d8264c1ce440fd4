import type TestAgent from 'supertest/lib/agent';
import type { GraphFake } from '../fakes';

/**
 * A new business account at the fake Graph API (with `templates`), its first number connected
 * through POST /api/messaging/messaging-integration as the holder of `bearerToken`.
 */
export async function connectBusinessNumber(
  http: TestAgent,
  graph: GraphFake,
  bearerToken: string,
  templates: Record<string, unknown>[] = [],
) {
  const { account, token } = graph.addAccount();
  account.templates.push(...templates);
  const number = account.numbers[0];
  await http
    .post('/api/messaging/messaging-integration')
    .set('Authorization', `Bearer ${bearerToken}`)
    .send({ phoneNumberId: number.id, accessToken: token, businessAccountId: account.id })
    .expect(201);
  return { account, token, number, phoneNumberId: number.id };
}
