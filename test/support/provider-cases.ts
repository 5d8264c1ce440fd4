import { randomInt } from 'node:crypto';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import type { HttpFake, PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { field } from '../fakes/http-fake';

/** A valid NANP number in that area code (its exchange never starts with 0 or 1). */
export const nanp = (areaCode: string): string =>
  `+1${areaCode}${randomInt(200, 1000)}${String(randomInt(0, 10_000)).padStart(4, '0')}`;

/** One provider: how to own a number at its fake and what a placed call heard and reported. */
export interface ProviderCase {
  integration: Integration;
  fake(): HttpFake;
  /** Owns `number` on a new account of the fake; returns add-phone's credential fields. */
  seed(number: string): { accSId: string; authToken: string };
  /** Destination numbers (+E.164) of every call the fake accepted. */
  dialed(): string[];
  /** What the answered call was told to say (the answer document, or Telnyx's speak text). */
  heard(providerCallId: string): string;
  /** The provider's own final status and hang-up cause, as the phone log keeps them. */
  ended: Record<
    'completed' | 'busy' | 'no-answer',
    { providerStatus: string; endedReason: string }
  >;
  /** Talk time the provider reported in its final callback, when it reports one. */
  reportedDuration(providerCallId: string): number | undefined;
}

/** The three providers' cases over running fakes (the end-to-end tests drive each the same way). */
export function providerCases(fakes: {
  plivo: PlivoFake;
  twilio: TwilioFake;
  telnyx: TelnyxFake;
}): Record<Integration, ProviderCase> {
  const { plivo, twilio, telnyx } = fakes;
  const lastPayload = (fake: HttpFake, id: string) =>
    fake.deliveries.filter((d) => d.callId === id && d.kind === 'status').at(-1)?.payload;
  const cases: ProviderCase[] = [
    {
      integration: 'provider_one',
      fake: () => plivo,
      seed(number) {
        const account = plivo.addAccount();
        plivo.addNumber(account, number);
        return { accSId: account.authId, authToken: account.authToken };
      },
      ended: {
        completed: { providerStatus: 'completed', endedReason: 'Normal Hangup' },
        busy: { providerStatus: 'busy', endedReason: 'Busy Line' },
        'no-answer': { providerStatus: 'no-answer', endedReason: 'No Answer' },
      },
      dialed: () => plivo.calls.map((call) => `+${call.to}`),
      heard: (id) => plivo.call(id).answerFetch?.responseBody ?? '',
      reportedDuration: (id) => Number(field(lastPayload(plivo, id), 'Duration')),
    },
    {
      integration: 'provider_two',
      fake: () => twilio,
      seed(number) {
        const account = twilio.addAccount();
        twilio.addNumber(account, number);
        return { accSId: account.sid, authToken: account.authToken };
      },
      ended: {
        completed: { providerStatus: 'completed', endedReason: 'completed' },
        busy: { providerStatus: 'busy', endedReason: 'busy' },
        'no-answer': { providerStatus: 'no-answer', endedReason: 'no-answer' },
      },
      dialed: () => twilio.calls.map((call) => call.to),
      heard: (id) => twilio.call(id).answerFetch?.responseBody ?? '',
      reportedDuration: (id) => Number(field(lastPayload(twilio, id), 'CallDuration')),
    },
    {
      integration: 'provider_three',
      fake: () => telnyx,
      seed(number) {
        const account = telnyx.addAccount();
        telnyx.addNumber(account, number);
        return { accSId: '', authToken: account.apiKey };
      },
      ended: {
        completed: { providerStatus: 'call.hangup', endedReason: 'normal_clearing' },
        busy: { providerStatus: 'call.hangup', endedReason: 'user_busy' },
        'no-answer': { providerStatus: 'call.hangup', endedReason: 'timeout' },
      },
      dialed: () => telnyx.calls.map((call) => call.to),
      heard: (id) => {
        const speak = telnyx.call(id).actions.find((action) => action.action === 'speak');
        return (speak?.body as { payload?: string } | undefined)?.payload ?? '';
      },
      // Telnyx reports no talk time: Switchboard counts from the answer to the hang-up.
      reportedDuration: () => undefined,
    },
  ];
  return Object.fromEntries(cases.map((c) => [c.integration, c])) as Record<
    Integration,
    ProviderCase
  >;
}
