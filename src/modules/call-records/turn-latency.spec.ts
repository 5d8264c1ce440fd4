import type { PhoneLogTurn } from './call-records.schema';
import { callTurnLatency } from './turn-latency';

const reply = (totalMs: number): PhoneLogTurn => ({
  role: 'agent',
  text: 'Sure.',
  startedAt: '2026-12-02T10:00:00.000Z',
  latency: { totalMs, recognitionMs: 100, modelMs: 300, synthesisMs: 200 },
});

describe('callTurnLatency', () => {
  it('takes the median and p95 over the replies that answered a caller turn', () => {
    const greeting: PhoneLogTurn = { role: 'agent', text: 'Hi.', startedAt: '' };
    const callee: PhoneLogTurn = { role: 'callee', text: 'Hello.', startedAt: '' };
    const turns = [greeting, callee, ...[900, 700, 800, 2_000, 750].map(reply)];
    expect(callTurnLatency(turns)).toEqual({ turns: 5, p50Ms: 800, p95Ms: 2_000 });
  });

  it('is null for a call where no reply answered anyone', () => {
    expect(callTurnLatency([{ role: 'agent', text: 'Hi.', startedAt: '' }])).toBeNull();
  });
});
