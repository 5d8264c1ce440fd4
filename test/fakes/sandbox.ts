import { GraphFake, sampleTemplate } from './graph.fake';
import { PlivoFake } from './plivo.fake';
import { TelnyxFake } from './telnyx.fake';
import { TwilioFake } from './twilio.fake';

/**
 * The three provider fakes, each with one demo account and number, and the messaging platform's
 * Graph API with one business number, for `npm run sandbox`.
 */
export interface ProviderFakes {
  plivo: { fake: PlivoFake; baseUrl: string; authId: string; authToken: string; number: string };
  twilio: {
    fake: TwilioFake;
    baseUrl: string;
    accountSid: string;
    authToken: string;
    number: string;
  };
  telnyx: { fake: TelnyxFake; baseUrl: string; apiKey: string; publicKey: string; number: string };
  /** The messaging platform's Graph API: a business account with one number and two templates. */
  messaging: {
    fake: GraphFake;
    baseUrl: string;
    accessToken: string;
    businessAccountId: string;
    phoneNumberId: string;
  };
  /** The environment Switchboard needs to talk to the fakes instead of the real providers. */
  env: {
    PROVIDER_ONE_API_URL: string;
    PROVIDER_TWO_API_URL: string;
    PROVIDER_THREE_API_URL: string;
    PROVIDER_THREE_PUBLIC_KEY: string;
    MESSAGING_API_URL: string;
    MESSAGING_VERIFY_TOKEN: string;
  };
  close(): Promise<void>;
}

export const DEMO_NUMBERS = {
  plivo: '+14155550101',
  twilio: '+14155550102',
  telnyx: '+14155550103',
} as const;

export async function startProviderFakes(): Promise<ProviderFakes> {
  const [plivo, twilio, telnyx, graph] = await Promise.all([
    PlivoFake.start(),
    TwilioFake.start(),
    TelnyxFake.start(),
    GraphFake.start(),
  ]);
  const business = graph.addAccount();
  business.account.templates.push(
    sampleTemplate({ name: 'order_update' }),
    sampleTemplate({
      name: 'appointment_reminder',
      parameter_format: 'NAMED',
      components: [
        {
          type: 'BODY',
          text: 'Hi {{first_name}}, see you on {{date}}.',
          example: {
            body_text_named_params: [
              { param_name: 'first_name', example: 'Ana' },
              { param_name: 'date', example: 'Monday' },
            ],
          },
        },
      ],
    }),
  );
  const plivoAccount = plivo.addAccount({ name: 'Sandbox' });
  plivo.addNumber(plivoAccount, DEMO_NUMBERS.plivo);
  const twilioAccount = twilio.addAccount({ friendlyName: 'Sandbox' });
  twilio.addNumber(twilioAccount, DEMO_NUMBERS.twilio);
  const telnyxAccount = telnyx.addAccount();
  telnyx.addNumber(telnyxAccount, DEMO_NUMBERS.telnyx);
  return {
    plivo: {
      fake: plivo,
      baseUrl: plivo.baseUrl,
      authId: plivoAccount.authId,
      authToken: plivoAccount.authToken,
      number: DEMO_NUMBERS.plivo,
    },
    twilio: {
      fake: twilio,
      baseUrl: twilio.baseUrl,
      accountSid: twilioAccount.sid,
      authToken: twilioAccount.authToken,
      number: DEMO_NUMBERS.twilio,
    },
    telnyx: {
      fake: telnyx,
      baseUrl: telnyx.baseUrl,
      apiKey: telnyxAccount.apiKey,
      publicKey: telnyx.publicKey,
      number: DEMO_NUMBERS.telnyx,
    },
    messaging: {
      fake: graph,
      baseUrl: graph.baseUrl,
      accessToken: business.token,
      businessAccountId: business.account.id,
      phoneNumberId: business.account.numbers[0].id,
    },
    env: {
      PROVIDER_ONE_API_URL: plivo.baseUrl,
      PROVIDER_TWO_API_URL: twilio.baseUrl,
      PROVIDER_THREE_API_URL: telnyx.baseUrl,
      PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
      MESSAGING_API_URL: graph.baseUrl,
      // The fake does not run the verify handshake; any token lets update-webhook-url work.
      MESSAGING_VERIFY_TOKEN: 'sandbox-verify-token',
    },
    close: async () => {
      await Promise.all([plivo.close(), twilio.close(), telnyx.close(), graph.close()]);
    },
  };
}
