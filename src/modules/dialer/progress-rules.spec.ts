import { advances, endedBy, failureReason, finalStatus, rank } from './progress-rules';

describe('call progress rules', () => {
  it('only moves up, and never off a final status', () => {
    expect(advances('queued', 'ringing')).toBe(true);
    expect(advances('ringing', 'in-progress')).toBe(true);
    expect(advances('in-progress', 'completed')).toBe(true);
    expect(advances('queued', 'busy')).toBe(true);
    expect(advances('in-progress', 'ringing')).toBe(false);
    expect(advances('ringing', 'ringing')).toBe(false);
    expect(advances('completed', 'ringing')).toBe(false);
    expect(advances('busy', 'completed')).toBe(false);
    expect(advances('voicemail', 'failed')).toBe(false);
    expect(rank('queued')).toBeLessThan(rank('ringing'));
  });

  it('ends an answered machine as voicemail and an unanswered "completed" as failed', () => {
    const served = { sessionEndedBy: null };
    expect(finalStatus('completed', true, 'machine', served)).toBe('voicemail');
    expect(finalStatus('completed', true, 'human', served)).toBe('completed');
    expect(finalStatus('completed', true, null, served)).toBe('completed');
    expect(finalStatus('completed', false, null, served)).toBe('failed');
    expect(finalStatus('busy', false, 'machine', served)).toBe('busy');
    expect(finalStatus('no-answer', false, null, served)).toBe('no-answer');
  });

  it('ends a call our own drain cut short as failed, whatever the provider says', () => {
    expect(finalStatus('completed', true, 'human', { sessionEndedBy: 'drain' })).toBe('failed');
    expect(finalStatus('completed', true, 'human', { sessionEndedBy: 'agent' })).toBe('completed');
  });

  it('names why a call failed', () => {
    expect(failureReason('busy')).toBe('busy');
    expect(failureReason('no-answer')).toBe('no_answer');
    expect(failureReason('canceled')).toBe('canceled');
    expect(failureReason('voicemail')).toBe('voicemail');
    expect(failureReason('failed', 'call_rejected')).toBe('rejected');
    expect(failureReason('failed', 'not_found')).toBe('invalid_number');
    expect(failureReason('failed', 'Invalid Destination Address')).toBe('invalid_number');
    expect(failureReason('failed')).toBe('unknown');
  });

  it('says who ended a completed call', () => {
    expect(endedBy('time_limit', 'us')).toBe('max_duration');
    expect(endedBy('normal_clearing', 'us')).toBe('agent');
    expect(endedBy('normal_clearing', 'callee')).toBe('callee');
    expect(endedBy(undefined, undefined)).toBe('system');
  });
});
