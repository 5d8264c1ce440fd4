import type { SpeechEngines } from '../../src/modules/voice/speech/speech-engines';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import {
  MediaStreamCaller,
  plivoXmlStream,
  type StreamInstructions,
  telnyxStream,
  twimlStream,
} from '../fakes/media-stream-caller';
import { registerOrganization, type RegisteredAdmin } from './factories';
import { freePort } from './free-port';
import type { LogCapture } from './log-capture';
import { placedCall, type PlacedCallOptions } from './placed-call';
import { providerCases } from './provider-cases';
import { startTestApp, type TestApp } from './test-app';
import { waitFor } from './wait-for';

/** One provider's side of a voice call, as the media-stream tests drive it. */
export interface VoiceProvider {
  integration: Integration;
  /**
   * Rings and answers the call; `machine`: its answering-machine detection says a machine
   * picked up. Returns where the answer instructions said to stream, and the token.
   */
  answer(
    id: string,
    answeredBy?: 'human' | 'machine',
  ): Promise<StreamInstructions & { callId: string }>;
  hangupRequested(id: string): boolean;
  /** Keys the service asked the provider's API to press on the call, one entry a request. */
  digitsSent(id: string): string[];
  /** The provider's final callback: the call has ended (the far end hung up). */
  complete(id: string): Promise<unknown>;
  /** The message that drops the provider's buffered agent audio (barge-in). */
  clearEvent: 'clear' | 'clearAudio';
  /** The message asking to hear back once the audio before it has played. */
  markEvent: 'mark' | 'checkpoint';
}

/** The providers in the order the tests take them: Twilio, Plivo, Telnyx. */
export const VOICE_INTEGRATIONS: Integration[] = ['provider_two', 'provider_one', 'provider_three'];

export interface VoiceFakes {
  plivo: PlivoFake;
  twilio: TwilioFake;
  telnyx: TelnyxFake;
}

/** The three providers' fakes, the app listening on its PUBLIC_BASE_URL, and an organization. */
export interface VoiceApp {
  t: TestApp;
  admin: RegisteredAdmin;
  port: number;
  fakes: VoiceFakes;
  providers: VoiceProvider[];
  close(): Promise<void>;
}

export async function startVoiceApp(options: {
  /** Outside engines standing in for the configured ones (STT_PROVIDER, TTS_PROVIDER). */
  speechEngines?: SpeechEngines;
  env?: Record<string, string>;
  logStream?: LogCapture;
  /** The BullMQ queue on Redis rather than the in-process one. */
  redis?: boolean;
}): Promise<VoiceApp> {
  const [plivo, twilio, telnyx] = await Promise.all([
    PlivoFake.start(),
    TwilioFake.start(),
    TelnyxFake.start(),
  ]);
  const port = await freePort();
  const t = await startTestApp({
    redis: options.redis,
    logStream: options.logStream,
    speechEngines: options.speechEngines,
    env: {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      PROVIDER_ONE_API_URL: plivo.baseUrl,
      PROVIDER_TWO_API_URL: twilio.baseUrl,
      PROVIDER_THREE_API_URL: telnyx.baseUrl,
      PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
      ...options.env,
    },
  });
  await t.app.listen(port, '127.0.0.1');
  const admin = await registerOrganization(t.http);
  const fakes = { plivo, twilio, telnyx };
  return {
    t,
    admin,
    port,
    fakes,
    providers: voiceProviders(fakes),
    async close() {
      await t.close();
      await Promise.all([plivo.close(), twilio.close(), telnyx.close()]);
    },
  };
}

/** The body of the streaming_start command the service sent Telnyx for this call, once sent. */
export const telnyxStreamingStart = (telnyx: TelnyxFake, id: string) =>
  telnyx.call(id).actions.find((action) => action.action === 'streaming_start')?.body as
    { stream_url: string; [field: string]: unknown } | undefined;

/** In the order of VOICE_INTEGRATIONS. */
function voiceProviders({ plivo, twilio, telnyx }: VoiceFakes): VoiceProvider[] {
  return [
    {
      integration: 'provider_two',
      async answer(id, answeredBy = 'human') {
        await twilio.advanceCall(id, 'ringing');
        await twilio.advanceCall(id, 'in-progress');
        // AsyncAmd posts its verdict after the answer; here before the stream connects.
        if (twilio.call(id).asyncAmd)
          await twilio.reportMachineDetection(
            id,
            answeredBy === 'machine' ? 'machine_start' : 'human',
          );
        return { ...twimlStream(twilio.call(id).answerFetch!.responseBody), callId: id };
      },
      hangupRequested: (id) => twilio.call(id).hangupRequested,
      // No such request at Twilio: the keys go in band.
      digitsSent: () => [],
      complete: (id) => twilio.advanceCall(id, 'completed'),
      clearEvent: 'clear',
      markEvent: 'mark',
    },
    {
      integration: 'provider_one',
      async answer(id, answeredBy = 'human') {
        await plivo.advanceCall(id, 'ringing');
        // Plivo's synchronous detection says on the answer request what picked up.
        await plivo.advanceCall(id, 'in-progress', {
          Machine: answeredBy === 'machine' ? 'true' : 'false',
        });
        // Its stream names the live call by CallUUID, not the request_uuid placeCall returned.
        const { callUuid } = plivo.call(id);
        return { ...plivoXmlStream(plivo.call(id).answerFetch!.responseBody), callId: callUuid };
      },
      hangupRequested: (id) => plivo.call(id).hangupRequested,
      digitsSent: (id) => plivo.call(id).digitsSent,
      complete: (id) => plivo.advanceCall(id, 'completed'),
      clearEvent: 'clearAudio',
      markEvent: 'checkpoint',
    },
    {
      integration: 'provider_three',
      async answer(id, answeredBy = 'human') {
        await telnyx.advanceCall(id, 'call.initiated');
        await telnyx.advanceCall(id, 'call.answered');
        const body = await waitFor(() => telnyxStreamingStart(telnyx, id), {
          what: 'streaming_start',
        });
        // Telnyx reports its verdict after the answer; here before the stream connects.
        if (answeredBy === 'machine')
          await telnyx.advanceCall(id, 'call.machine.detection.ended', { result: 'machine' });
        return { ...telnyxStream(body), callId: id };
      },
      hangupRequested: (id) => telnyx.call(id).hangupRequested,
      digitsSent: (id) =>
        telnyx
          .call(id)
          .actions.filter((action) => action.action === 'send_dtmf')
          .map((action) => (action.body as { digits: string }).digits),
      complete: (id) => telnyx.advanceCall(id, 'call.hangup'),
      clearEvent: 'clear',
      markEvent: 'mark',
    },
  ];
}

let sequence = 1000;

/** A call of `provider` placed the way the dialer places it, to a number of its own. */
export function placeVoiceCall(
  voice: VoiceApp,
  provider: VoiceProvider,
  agent: PlacedCallOptions['agent'],
) {
  const number = `+1415558${(sequence += 1)}`;
  return placedCall(voice.t, voice.admin, {
    integration: provider.integration,
    number,
    credentials: providerCases(voice.fakes)[provider.integration].seed(number),
    agent,
  });
}

/** Answers call `id` and takes its media stream as the callee, once the greeting has played. */
export async function answerAndHearGreeting(
  provider: VoiceProvider,
  id: string,
): Promise<MediaStreamCaller> {
  const stream = await provider.answer(id);
  const caller = await MediaStreamCaller.connect(provider.integration, stream.url);
  caller.start(stream.callId, stream.token);
  await waitFor(() => caller.marks.some((mark) => mark.name === GREETING_MARK), {
    timeoutMs: 30_000,
    what: 'the greeting',
  });
  return caller;
}

/**
 * Runs `scenario` on every provider at once, one call each, and waits for all of them; a
 * failure names its provider. At once: three calls on one app take the time of one.
 */
export async function onEachProvider(
  providers: VoiceProvider[],
  scenario: (provider: VoiceProvider) => Promise<void>,
): Promise<void> {
  const results = await Promise.allSettled(providers.map((provider) => scenario(provider)));
  const failures = results.flatMap((result, i) =>
    result.status === 'rejected'
      ? [`${providers[i].integration}: ${failureText(result.reason)}`]
      : [],
  );
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

const failureText = (reason: unknown): string =>
  reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
