import { type ClaimPlan, mayHaveFinished, type Pick } from './claim-plan';

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
