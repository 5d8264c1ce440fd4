import { performance } from 'node:perf_hooks';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import type { PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import {
  type MediaStreamCaller,
  plivoXmlStream,
  type StreamInstructions,
  telnyxStream,
  twimlStream,
} from '../fakes/media-stream-caller';
import { waitFor } from './wait-for';

export interface ProviderFakes {
  plivo: PlivoFake;
  twilio: TwilioFake;
  telnyx: TelnyxFake;
}

/**
 * Rings and answers a placed call at its provider's fake; returns where the answer told the
 * provider to stream (Twilio and Plivo: the answer document; Telnyx: streaming_start).
 */
export async function answerToStream(
  fakes: ProviderFakes,
  integration: Integration,
  id: string,
): Promise<StreamInstructions & { callId: string }> {
  const { plivo, twilio, telnyx } = fakes;
  switch (integration) {
    case 'provider_two':
      await twilio.advanceCall(id, 'ringing');
      await twilio.advanceCall(id, 'in-progress');
      return { ...twimlStream(twilio.call(id).answerFetch!.responseBody), callId: id };
    case 'provider_one':
      await plivo.advanceCall(id, 'ringing');
      await plivo.advanceCall(id, 'in-progress', { Machine: 'false' });
      // Its stream names the live call by CallUUID, not the request_uuid placeCall returned.
      return {
        ...plivoXmlStream(plivo.call(id).answerFetch!.responseBody),
        callId: plivo.call(id).callUuid,
      };
    case 'provider_three': {
      await telnyx.advanceCall(id, 'call.initiated');
      await telnyx.advanceCall(id, 'call.answered');
      const body = await waitFor(
        () =>
          telnyx.call(id).actions.find((action) => action.action === 'streaming_start')?.body as
            { stream_url: string } | undefined,
        { what: 'streaming_start' },
      );
      return { ...telnyxStream(body), callId: id };
    }
  }
}

/** Whether the fake was asked to hang the call up. */
export function hangupRequested(fakes: ProviderFakes, integration: Integration, id: string) {
  if (integration === 'provider_one') return fakes.plivo.call(id).hangupRequested;
  if (integration === 'provider_two') return fakes.twilio.call(id).hangupRequested;
  return fakes.telnyx.call(id).hangupRequested;
}

const SILENCE = Buffer.alloc(160, 0xff);

/** Streams `audio` in 20 ms frames at real time, then `trailingMs` of silence, as a provider does. */
export async function streamCallerAudio(
  caller: MediaStreamCaller,
  audio: Buffer,
  trailingMs = 1_200,
): Promise<number> {
  const frames: Buffer[] = [];
  for (let at = 0; at < audio.length; at += 160) {
    const frame = Buffer.alloc(160, 0xff);
    audio.copy(frame, 0, at, Math.min(at + 160, audio.length));
    frames.push(frame);
  }
  for (let i = 0; i < trailingMs / 20; i++) frames.push(SILENCE);
  const startedAt = performance.now();
  for (const [i, frame] of frames.entries()) {
    caller.sendAudio(frame);
    const due = startedAt + (i + 1) * 20;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  return startedAt;
}
