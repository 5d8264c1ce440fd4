import type { PinoLogger } from 'nestjs-pino';
import { describeProviderFailure, ProviderError } from '../../telephony/provider-error';
import type { Integration } from '../../telephony/telephony.types';
import type { InboundMediaEvent } from '../media/media-stream';
import type { StreamGrant } from '../media/stream-tokens.repository';
import type { CallContext } from './call-contexts';

type StreamStart = Extract<InboundMediaEvent, { kind: 'start' }>;

/**
 * Whether the stream carries the call its token was issued for: the live call the answer named
 * (Plivo's CallUUID), else the call as placed. A stream naming no call is taken at its token.
 */
export function streamNamesCall(start: StreamStart, grant: StreamGrant, call: CallContext) {
  const expected = grant.liveCallId ?? call.providerCallId;
  return !expected || !start.providerCallId || expected === start.providerCallId;
}

/**
 * The live call's id at the provider, for its REST actions: as its stream names it (Plivo: the
 * CallUUID its call actions take, where the placed call is known by its request_uuid), else as
 * placed.
 */
export const liveCallId = (call: CallContext, streamCallId: string): string =>
  streamCallId || (call.providerCallId ?? '');

/** Ends the call at its provider; a call already gone is fine, any other failure is logged. */
export async function hangUpAtProvider(
  call: CallContext,
  callId: string,
  log: { logger: PinoLogger; integration: Integration },
): Promise<void> {
  try {
    await call.provider.hangupCall(call.credentials, callId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'not_found') return;
    log.logger.warn(
      { integration: log.integration, call: call.phoneLogId, ...describeProviderFailure(error) },
      'Hang-up through the provider failed',
    );
  }
}
