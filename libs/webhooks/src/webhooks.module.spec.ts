import { randomBytes } from 'node:crypto';
import { type ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  signWebhook,
  SwitchboardWebhookGuard,
  SwitchboardWebhooksModule,
  type SwitchboardWebhooksOptions,
  SwitchboardWebhookVerifier,
  WEBHOOK_EVENT_KEY,
  WebhookVerificationError,
} from './index';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  type: 'webhook.test',
  timestamp: new Date().toISOString(),
  data: { webhook_id: '65f1c0ffee0123456789abcd', message: 'hi', occurred_at: '' },
});

const delivery = (secrets: string[], timestamp: Date | number = new Date()) => ({
  rawBody: Buffer.from(body),
  headers: { ...signWebhook({ id: 'msg_1', timestamp, body, secrets }) } as Record<string, string>,
});
const contextOf = (request: object) =>
  ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

async function moduleWith(options: SwitchboardWebhooksOptions) {
  const moduleRef = await Test.createTestingModule({
    imports: [SwitchboardWebhooksModule.forRoot(options)],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('SwitchboardWebhooksModule', () => {
  it('guards with its secret: the event is left on the request, others get 401', async () => {
    const key = secret();
    const guard = (await moduleWith({ secret: key })).get(SwitchboardWebhookGuard);
    const request = delivery([key]);
    expect(guard.canActivate(contextOf(request))).toBe(true);
    expect(request).toHaveProperty([WEBHOOK_EVENT_KEY], JSON.parse(body));
    expect(() => guard.canActivate(contextOf(delivery([secret()])))).toThrow(UnauthorizedException);
    const tampered = { ...delivery([key]), rawBody: Buffer.from(body.replace('hi', 'ho')) };
    expect(() => guard.canActivate(contextOf(tampered))).toThrow(UnauthorizedException);
  });

  it('tells the developer when the app does not keep raw bodies', async () => {
    const guard = (await moduleWith({ secret: secret() })).get(SwitchboardWebhookGuard);
    expect(() => guard.canActivate(contextOf({ headers: {} }))).toThrow(/rawBody: true/);
  });

  it('accepts any of several secrets (the receiver rotating), and several signatures', async () => {
    const [oldKey, newKey] = [secret(), secret()];
    const guard = (await moduleWith({ secrets: [newKey, oldKey] })).get(SwitchboardWebhookGuard);
    expect(guard.canActivate(contextOf(delivery([oldKey])))).toBe(true);
    expect(guard.canActivate(contextOf(delivery([newKey])))).toBe(true);
    expect(guard.canActivate(contextOf(delivery([secret(), oldKey])))).toBe(true);
  });

  it('reads a secrets function on every request, so a rotation needs no restart', async () => {
    const [first, second] = [secret(), secret()];
    let current = first;
    const guard = (await moduleWith({ secrets: () => current })).get(SwitchboardWebhookGuard);
    expect(guard.canActivate(contextOf(delivery([first])))).toBe(true);
    current = second;
    expect(() => guard.canActivate(contextOf(delivery([first])))).toThrow(UnauthorizedException);
    expect(guard.canActivate(contextOf(delivery([second])))).toBe(true);
  });

  it('applies its tolerance', async () => {
    const key = secret();
    const now = Math.floor(Date.now() / 1000);
    const strict = (await moduleWith({ secret: key, toleranceSeconds: 60 })).get(
      SwitchboardWebhookGuard,
    );
    expect(() => strict.canActivate(contextOf(delivery([key], now - 120)))).toThrow(
      'Message timestamp too old',
    );
    const lenient = (await moduleWith({ secret: key, toleranceSeconds: 3600 })).get(
      SwitchboardWebhookGuard,
    );
    expect(lenient.canActivate(contextOf(delivery([key], now - 1800)))).toBe(true);
    const byDefault = (await moduleWith({ secret: key })).get(SwitchboardWebhookGuard);
    expect(() => byDefault.canActivate(contextOf(delivery([key], now + 400)))).toThrow(
      'Message timestamp too new',
    );
  });

  it('verifies outside a guard through the verifier', async () => {
    const key = secret();
    const verifier = (await moduleWith({ secret: key })).get(SwitchboardWebhookVerifier);
    const { rawBody, headers } = delivery([key]);
    expect(verifier.verify(rawBody.toString(), headers)).toMatchObject({ type: 'webhook.test' });
    expect(() => verifier.verify(rawBody, { ...headers, 'webhook-id': 'msg_2' })).toThrow(
      WebhookVerificationError,
    );
  });

  it('starts with a secrets function that has none yet, answering 401 until it has', async () => {
    const key = secret();
    let current: string[] = [];
    const guard = (await moduleWith({ secrets: () => current })).get(SwitchboardWebhookGuard);
    expect(() => guard.canActivate(contextOf(delivery([key])))).toThrow(UnauthorizedException);
    current = [key];
    expect(guard.canActivate(contextOf(delivery([key])))).toBe(true);
  });

  it('takes its options from a factory (forRootAsync)', async () => {
    const key = secret();
    const moduleRef = await Test.createTestingModule({
      imports: [SwitchboardWebhooksModule.forRootAsync({ useFactory: () => ({ secret: key }) })],
    }).compile();
    await moduleRef.init();
    expect(moduleRef.get(SwitchboardWebhookGuard).canActivate(contextOf(delivery([key])))).toBe(
      true,
    );
  });

  it.each([
    [{}, /no secret/],
    [{ secrets: [] }, /no secret/],
    [{ secret: 'whsec_' }, /not base64/],
    [{ secrets: () => ['whsec_%%%'] }, /not base64/],
    [{ secret: 'whsec_%%%' }, /not base64/],
    [{ secret: secret(), secrets: [secret()] }, /not both/],
    [{ secret: secret(), toleranceSeconds: 0 }, /toleranceSeconds/],
  ] as [SwitchboardWebhooksOptions, RegExp][])(
    'refuses to start with %p',
    async (options, error) => {
      await expect(moduleWith(options)).rejects.toThrow(error);
    },
  );
});
