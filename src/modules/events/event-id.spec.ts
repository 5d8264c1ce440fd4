import { eventIdBoundary, newEventId } from './event-id';

describe('event ids', () => {
  it('are msg_ + a 26-character ULID', () => {
    expect(newEventId(new Date())).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sort by time, and the boundary of a time sorts between earlier and later ids', () => {
    const cutoff = new Date('2026-10-24T12:00:00.000Z');
    const before = newEventId(new Date(cutoff.getTime() - 1));
    const at = newEventId(cutoff);
    const after = newEventId(new Date(cutoff.getTime() + 86_400_000));
    const boundary = eventIdBoundary(cutoff);
    expect([after, at, boundary, before].sort()).toEqual([before, boundary, at, after]);
  });
});
