import type { BatchRow } from '../batches/batches.schema';
import type { CallRecordRow } from '../call-records/call-records.schema';
import type { PhoneNumberRow } from '../phones/phones.schema';
import {
  type ClaimPlan,
  mayHaveFinished,
  NUMBER_BUSY_RECHECK_MS,
  type Pick,
  planClaims,
} from './claim-plan';
import type { DueRecord } from './dialer-claims.repository';
import { NumberPacing } from './number-pacing';

const pick = {} as Pick;
const plan = (overrides: Partial<ClaimPlan>): ClaimPlan => ({ holds: [], picks: [], ...overrides });

describe('mayHaveFinished', () => {
  it('is true when the claim picked nothing and held nothing for later', () => {
    expect(mayHaveFinished(plan({}))).toBe(true);
    expect(mayHaveFinished(plan({ holds: [{ id: 'a', at: null }] }))).toBe(true);
  });

  it('is false once a record was picked or held until later (it is still pending)', () => {
    expect(mayHaveFinished(plan({ picks: [pick] }))).toBe(false);
    const later = { id: 'b', at: new Date('2026-11-02T14:00:00Z') };
    expect(mayHaveFinished(plan({ holds: [{ id: 'a', at: null }, later] }))).toBe(false);
  });
});

describe('planClaims: one live call per number per organization', () => {
  const now = new Date('2026-11-02T15:00:00Z');
  const batch = {
    timezone: 'UTC',
    callingHourStart: null,
    callingHourEnd: null,
    allowedDays: [0, 1, 2, 3, 4, 5, 6],
    enforceCalleeLocalHours: false,
  } as unknown as BatchRow;
  const due = (id: string, phoneNumber: string, liveCall = false): DueRecord => ({
    record: { id, phoneNumber, contact: {} } as CallRecordRow,
    listed: false,
    recent: [],
    liveCall,
  });
  const pacing = () =>
    new NumberPacing([{ id: 'p1', nextDialAt: null } as PhoneNumberRow], now, 10);

  it('holds a record whose number is on a call of another batch, and the second of one number', () => {
    const plan = planClaims(
      batch,
      [due('a', '+12125550100', true), due('b', '+12125550101'), due('c', '+12125550101')],
      pacing(),
      10,
      now,
    );
    expect(plan.picks.map((p) => p.record.id)).toEqual(['b']);
    const later = new Date(now.getTime() + NUMBER_BUSY_RECHECK_MS);
    expect(plan.holds).toEqual([
      { id: 'a', at: later },
      { id: 'c', at: later },
    ]);
  });
});

describe('planClaims: the last-call margin', () => {
  // A 09:00–15:00 UTC batch window; the claim at 14:58:30, 90 s before it closes.
  const office = {
    timezone: 'UTC',
    callingHourStart: '09:00',
    callingHourEnd: '15:00',
    allowedDays: [0, 1, 2, 3, 4, 5, 6],
    enforceCalleeLocalHours: false,
  } as unknown as BatchRow;
  const now = new Date('2026-11-02T14:58:30Z');
  const due: DueRecord = {
    record: { id: 'a', phoneNumber: '+12125550100', contact: {} } as CallRecordRow,
    listed: false,
    recent: [],
    liveCall: false,
  };
  const pacing = () =>
    new NumberPacing([{ id: 'p1', nextDialAt: null } as PhoneNumberRow], now, 10);

  it('holds a record whose window closes within the margin until the next window opens', () => {
    const plan = planClaims(office, [due], pacing(), 10, now, 180_000);
    expect(plan.picks).toEqual([]);
    expect(plan.holds).toEqual([{ id: 'a', at: new Date('2026-11-03T09:00:00Z') }]);
  });

  it('claims it when the window stays open past the margin', () => {
    expect(planClaims(office, [due], pacing(), 10, now, 60_000).picks).toHaveLength(1);
    expect(planClaims(office, [due], pacing(), 10, now).picks).toHaveLength(1);
  });
});

describe('planClaims: the last-call margin across a day the callee may not be called', () => {
  it('holds a Utah number claimed just before Saturday 21:00 until Monday 08:00 (Sunday is closed)', () => {
    const anyTime = {
      timezone: 'UTC',
      callingHourStart: null,
      callingHourEnd: null,
      allowedDays: [0, 1, 2, 3, 4, 5, 6],
      enforceCalleeLocalHours: true,
    } as unknown as BatchRow;
    const now = new Date('2026-03-15T02:58:30Z'); // Saturday 20:58:30 MDT
    const due: DueRecord = {
      record: { id: 'a', phoneNumber: '+18015550100', contact: {} } as CallRecordRow,
      listed: false,
      recent: [],
      liveCall: false,
    };
    const pacing = new NumberPacing([{ id: 'p1', nextDialAt: null } as PhoneNumberRow], now, 10);
    const plan = planClaims(anyTime, [due], pacing, 10, now, 180_000);
    expect(plan.picks).toEqual([]);
    expect(plan.holds).toEqual([{ id: 'a', at: new Date('2026-03-16T14:00:00Z') }]);
  });
});

describe("planClaims: the batch's endAt closes every window", () => {
  // Open all day; the batch ends at 15:00 UTC.
  const endAt = new Date('2026-11-02T15:00:00Z');
  const ending = {
    timezone: 'UTC',
    callingHourStart: null,
    callingHourEnd: null,
    allowedDays: [0, 1, 2, 3, 4, 5, 6],
    enforceCalleeLocalHours: false,
    endAt,
  } as unknown as BatchRow;
  const due: DueRecord = {
    record: { id: 'a', phoneNumber: '+12125550100', contact: {} } as CallRecordRow,
    listed: false,
    recent: [],
    liveCall: false,
  };
  const pacing = (now: Date) =>
    new NumberPacing([{ id: 'p1', nextDialAt: null } as PhoneNumberRow], now, 10);

  it("gives the permit the endAt as its close when it comes before the window's", () => {
    const now = new Date('2026-11-02T14:50:00Z');
    const plan = planClaims(ending, [due], pacing(now), 10, now, 180_000);
    expect(plan.picks.map((p) => p.windowClosesAt)).toEqual([endAt]);
  });

  it('holds a record within the last-call margin of the endAt until the end closes it', () => {
    const now = new Date('2026-11-02T14:58:30Z');
    const plan = planClaims(ending, [due], pacing(now), 10, now, 180_000);
    expect(plan.picks).toEqual([]);
    expect(plan.holds).toEqual([{ id: 'a', at: endAt }]);
  });

  it("keeps the window's close when the endAt is later", () => {
    const office = { ...ending, callingHourStart: '09:00', callingHourEnd: '14:55' } as BatchRow;
    const now = new Date('2026-11-02T14:00:00Z');
    const plan = planClaims(office, [due], pacing(now), 10, now, 180_000);
    expect(plan.picks.map((p) => p.windowClosesAt)).toEqual([new Date('2026-11-02T14:55:00Z')]);
  });
});
