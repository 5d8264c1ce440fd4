import type * as contracts from '@app/contracts';
import { CALL_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '@app/contracts';
import openapi from '../../../openapi.json';
import type { components } from './openapi.generated';

/*
 * The webhook payloads have one definition (libs/contracts: the server raises events with those
 * types, and @app/webhooks exports them); openapi.json documents them through DTOs. This file
 * fails the type-check (npm run typecheck) when the two drift apart: a field added, dropped or
 * retyped on one side only.
 */
type Schemas = components['schemas'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const sameShape = {
  'call.started': true as Same<contracts.CallStartedEventData, Schemas['CallStartedEventData']>,
  'call.answered': true as Same<contracts.CallAnsweredEventData, Schemas['CallAnsweredEventData']>,
  'call.completed': true as Same<
    contracts.CallCompletedEventData,
    Schemas['CallCompletedEventData']
  >,
  'call.failed': true as Same<contracts.CallFailedEventData, Schemas['CallFailedEventData']>,
  'call.transferred': true as Same<
    contracts.CallTransferredEventData,
    Schemas['CallTransferredEventData']
  >,
  'call.recording.available': true as Same<
    contracts.CallRecordingAvailableEventData,
    Schemas['CallRecordingAvailableEventData']
  >,
  'call.summary.generated': true as Same<
    contracts.CallSummaryGeneratedEventData,
    Schemas['CallSummaryGeneratedEventData']
  >,
  'call.analysis.completed': true as Same<
    contracts.CallAnalysisCompletedEventData,
    Schemas['CallAnalysisCompletedEventData']
  >,
  'webhook.test': true as Same<contracts.WebhookTestEventData, Schemas['WebhookTestEventData']>,
} satisfies Record<contracts.WebhookEventType, true>;

const sameTypes: Same<contracts.WebhookEventType, Schemas['WebhookEventEnvelope']['type']> = true;

describe('webhook payload types', () => {
  it('cover the same event types in libs/contracts, this check and openapi.json', () => {
    const documented = (
      openapi.components.schemas.WebhookEventEnvelope.properties.type as { enum: string[] }
    ).enum;
    const raised = [...CALL_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE];
    expect(Object.keys(sameShape).sort()).toEqual([...raised].sort());
    expect([...documented].sort()).toEqual([...raised].sort());
    expect(sameTypes).toBe(true);
  });
});
