import {
  DeliveryAdmission,
  MAX_DEFER_MS,
  MIN_DEFER_MS,
  ORGANIZATION_CAP,
  SLOW_ORGANIZATION_CAP,
  SLOW_SERVICE_MS,
  SLOW_WEBHOOK_CAP,
  type Slot,
  WEBHOOK_CAP,
} from './delivery-admission';

/** Admits `count` attempts to the webhook at `nowMs`; each gets its connection at once. */
function admitMany(
  admission: DeliveryAdmission,
  webhookId: string,
  organizationId: string,
  count: number,
  nowMs: number,
): Slot[] {
  const slots: Slot[] = [];
  for (let i = 0; i < count; i += 1) {
    const slot = admission.admit(webhookId, organizationId, nowMs);
    if (!slot) break;
    admission.connected(slot, nowMs);
    slots.push(slot);
  }
  return slots;
}

describe('DeliveryAdmission', () => {
  it('never holds back a fast endpoint below the backstop, however much it sends', () => {
    const admission = new DeliveryAdmission();
    let nowMs = 0;
    // 100,000 attempts, 150 at a time, each answered within 5 ms.
    for (let round = 0; round < 100_000 / 150; round += 1) {
      const slots = admitMany(admission, 'fast', 'org', 150, nowMs);
      expect(slots).toHaveLength(150);
      nowMs += 5;
      for (const slot of slots) admission.release(slot, nowMs);
    }
  });

  it('raises the backstop to what a fast endpoint answers, so a queue at its sockets is not cut', () => {
    const admission = new DeliveryAdmission();
    let nowMs = 0;
    const admitted: number[] = [];
    // 600 attempts every 100 ms, answered 50 ms later (a saturated box: most wait for a socket).
    for (let round = 0; round < 20; round += 1) {
      const slots = admitMany(admission, 'busy', 'org', 600, nowMs);
      admitted.push(slots.length);
      for (const slot of slots) admission.release(slot, nowMs + 50);
      nowMs += 100;
    }
    // A fresh endpoint starts at the backstop; once its answers show it keeps up, all go.
    expect(admitted.slice(0, 4)).toEqual([WEBHOOK_CAP, WEBHOOK_CAP, 2 * WEBHOOK_CAP, 600]);
    expect(admitted.slice(4).every((n) => n === 600)).toBe(true);
  });

  it('does not count the wait for a free socket as the endpoint being slow', () => {
    const admission = new DeliveryAdmission();
    // 150 attempts queued behind busy sockets for 5 s: none has a connection yet.
    const waiting = Array.from({ length: 150 }, () => admission.admit('queued', 'org', 0)!);
    expect(waiting.every(Boolean)).toBe(true);
    expect(admission.admit('queued', 'org', 5_000)).toBeDefined();
    // They end (timed out) without a connection: still not slow.
    for (const slot of waiting) admission.release(slot, 15_000);
    expect(admitMany(admission, 'queued', 'org', 100, 15_000)).toHaveLength(100);
  });

  it('caps a webhook hard once an attempt has held its connection longer than SLOW_SERVICE_MS', () => {
    const admission = new DeliveryAdmission();
    const hanging = admitMany(admission, 'slow', 'org-x', 3, 0);
    // Not slow yet: admitted beyond the slow cap.
    hanging.push(...admitMany(admission, 'slow', 'org-x', SLOW_WEBHOOK_CAP, SLOW_SERVICE_MS - 1));
    expect(hanging).toHaveLength(3 + SLOW_WEBHOOK_CAP);
    // Now it is: nothing more while it has SLOW_WEBHOOK_CAP or more in flight...
    expect(admission.admit('slow', 'org-x', SLOW_SERVICE_MS)).toBeUndefined();
    // ...while another organization's endpoint is admitted as usual.
    expect(admitMany(admission, 'other', 'org-y', 150, SLOW_SERVICE_MS)).toHaveLength(150);
    // The hanging attempts time out: it gets SLOW_WEBHOOK_CAP attempts again, no more.
    for (const slot of hanging) admission.release(slot, 15_000);
    expect(admitMany(admission, 'slow', 'org-x', 100, 15_000)).toHaveLength(SLOW_WEBHOOK_CAP);
  });

  it('keeps a webhook capped while its answers average more than SLOW_SERVICE_MS, and lets it go when they speed up', () => {
    const admission = new DeliveryAdmission();
    let nowMs = 0;
    // Answers in 3 s, one at a time: never more than one connection open.
    for (let i = 0; i < 5; i += 1) {
      const [slot] = admitMany(admission, 'sluggish', 'org', 1, nowMs);
      nowMs += 3_000;
      admission.release(slot, nowMs);
    }
    const capped = admitMany(admission, 'sluggish', 'org', 100, nowMs);
    expect(capped).toHaveLength(SLOW_WEBHOOK_CAP);
    // It recovers: fast answers pull the average down and the cap lifts.
    nowMs += 5;
    for (const slot of capped) admission.release(slot, nowMs);
    for (let i = 0; i < 3; i += 1) {
      const slots = admitMany(admission, 'sluggish', 'org', 100, nowMs);
      nowMs += 5;
      for (const slot of slots) admission.release(slot, nowMs);
    }
    const after = admitMany(admission, 'sluggish', 'org', 100, nowMs);
    expect(after).toHaveLength(100);
  });

  it("caps an organization's slow webhooks together, not its fast ones", () => {
    const admission = new DeliveryAdmission();
    const webhooks = Array.from({ length: 10 }, (_, i) => `slow-${i}`);
    for (const id of webhooks) admitMany(admission, id, 'org-x', 1, 0);
    const admitted = webhooks.flatMap((id) => admitMany(admission, id, 'org-x', 100, 2_000));
    expect(admitted).toHaveLength(SLOW_ORGANIZATION_CAP);
    expect(admitMany(admission, 'fast', 'org-x', 150, 2_000)).toHaveLength(150);
  });

  it('holds every webhook and organization to the backstops, slow or not', () => {
    const admission = new DeliveryAdmission();
    expect(
      Array.from({ length: WEBHOOK_CAP + 5 }, () => admission.admit('one', 'org-a', 0)).filter(
        Boolean,
      ),
    ).toHaveLength(WEBHOOK_CAP);
    const spread = Array.from({ length: 10 }, (_, i) =>
      Array.from({ length: 100 }, () => admission.admit(`hook-${i}`, 'org-b', 0)).filter(Boolean),
    ).flat();
    expect(spread).toHaveLength(ORGANIZATION_CAP);
  });

  it('spaces deferrals of a slow endpoint by its pace, within the bounds', () => {
    const admission = new DeliveryAdmission();
    admitMany(admission, 'slow', 'org', SLOW_WEBHOOK_CAP, 0);
    // Connections 4 s old over 8 slots: one frees up every ~500 ms.
    const delays = [0, 1, 2, 3].map(() => admission.deferMs('slow', 4_000, 0.5));
    expect(delays).toEqual([500, 1_000, 1_500, 2_000]);
    // Past the end of the queue: spread over its second half, not all at MAX_DEFER_MS.
    for (let i = 0; i < 100; i += 1) admission.deferMs('slow', 4_000, 0.5);
    const late = Array.from({ length: 100 }, (_, i) => admission.deferMs('slow', 4_000, i / 100));
    expect(Math.min(...late)).toBeGreaterThanOrEqual(MAX_DEFER_MS / 2);
    expect(Math.max(...late)).toBeLessThanOrEqual(MAX_DEFER_MS);
    expect(new Set(late).size).toBeGreaterThan(50);
    // Not known to be slow (no answer yet, or fast): back within MIN_DEFER_MS to twice that,
    // however long the backlog, so a fresh worker's first claims do not wait out a slow pace.
    admitMany(admission, 'new', 'org', 1, 0);
    const backlog = Array.from({ length: 600 }, (_, i) => admission.deferMs('new', 0, i / 600));
    expect(Math.min(...backlog)).toBe(MIN_DEFER_MS);
    expect(Math.max(...backlog)).toBeLessThanOrEqual(2 * MIN_DEFER_MS);
    expect(admission.deferMs('unknown', 0, 0.5)).toBe(MIN_DEFER_MS);
  });

  it('forgets idle webhooks and organizations', () => {
    const admission = new DeliveryAdmission();
    for (let i = 0; i < 1_000; i += 1) {
      const [slot] = admitMany(admission, `hook-${i}`, `org-${i}`, 1, 0);
      admission.release(slot, 10);
    }
    expect(admission.tracked()).toEqual({ webhooks: 1_000, organizations: 1_000 });
    admitMany(admission, 'late', 'org-late', 1, 10 * 60_000);
    expect(admission.tracked()).toEqual({ webhooks: 1, organizations: 1 });
  });
});
