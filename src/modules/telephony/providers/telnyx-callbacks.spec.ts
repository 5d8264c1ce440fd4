import { parseTelnyxStatusCallback } from './telnyx-callbacks';

const event = (eventType: string, payload: Record<string, unknown> = {}) =>
  parseTelnyxStatusCallback({
    method: 'POST',
    url: 'https://sb.example.com/api/telephony/provider_three/p/status?token=t&call=c',
    headers: {},
    rawBody: JSON.stringify({
      data: { event_type: eventType, payload: { call_control_id: 'v3:a', ...payload } },
    }),
  });

describe('Telnyx machine detection events', () => {
  it('reads the verdict of the standard and the premium detection', () => {
    expect(event('call.machine.detection.ended', { result: 'machine' })).toMatchObject({
      answeredBy: 'machine',
      greetingEnded: undefined,
    });
    expect(
      event('call.machine.premium.detection.ended', { result: 'human_business' }),
    ).toMatchObject({ answeredBy: 'human' });
    expect(event('call.machine.detection.ended', { result: 'not_sure' }).answeredBy).toBe(
      'unknown',
    );
  });

  it("takes the end of the machine's greeting (its beep) as no verdict of its own but a machine", () => {
    for (const type of ['call.machine.greeting.ended', 'call.machine.premium.greeting.ended'])
      expect(event(type, { result: 'beep_detected' })).toMatchObject({
        event: null,
        callStatus: undefined,
        answeredBy: 'machine',
        greetingEnded: true,
      });
    expect(event('call.answered').greetingEnded).toBeUndefined();
  });
});

describe('Telnyx hang-ups', () => {
  it('says a normal_clearing or time_limit hang-up proves the call was answered, others not', () => {
    for (const cause of ['normal_clearing', 'time_limit'])
      expect(event('call.hangup', { hangup_cause: cause })).toMatchObject({
        callStatus: 'completed',
        connected: true,
      });
    for (const cause of ['timeout', 'user_busy', 'originator_cancel', 'call_rejected'])
      expect(event('call.hangup', { hangup_cause: cause }).connected).toBeUndefined();
    expect(event('call.answered').connected).toBeUndefined();
  });
});

describe('Telnyx gathers', () => {
  it("reads the keys of call.gather.ended ('' when none came), and no keys from other events", () => {
    expect(event('call.gather.ended', { digits: '1', status: 'valid' }).digits).toBe('1');
    expect(event('call.gather.ended', { status: 'timeout' }).digits).toBe('');
    expect(event('call.answered', { digits: '1' }).digits).toBeUndefined();
  });
});
