// Two approvals or two payments of one claim that have both read before either writes (issue 26,
// item 3), on SQLite and PostgreSQL: the claim moves once and sends one message; the other call
// is told the status it found (409 statusNotAllowed). Without the conditional update in
// core/finance/claim-move.ts both calls would win and the claim would be paid twice.
import { describe, expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import { approveClaim } from '../../core/finance/approve-claim';
import { payClaim } from '../../core/finance/pay-claim';
import { submitClaim } from '../../core/finance/submit-claim';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, atOnce, db } = raceHarness('Claim races');

async function messagesOf(claimId: string): Promise<string[]> {
  const rows = await db().selectFrom('outbox').select(['type', 'payload']).orderBy('id').execute();
  return rows.filter((r) => JSON.parse(r.payload).data.claim?.claimId === claimId).map((r) => r.type);
}

describe('two moves of one claim that have both read before either writes', () => {
  it('approves once and pays once; the other call of each pair is refused naming the status', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { claimId } = await call(submitClaim, {
      eventId,
      firstName: 'Ada',
      category: 'travel',
      amount: 80,
      currency: 'EUR',
    });
    const approvals = await atOnce(
      [approveClaim, { eventId, claimId }],
      [approveClaim, { eventId, claimId }],
    );
    expect(approvals.map((x) => (typeof x === 'string' ? x : x.status)).sort()).toEqual([
      'approved',
      'statusNotAllowed',
    ]);
    const payments = await atOnce([payClaim, { eventId, claimId }], [payClaim, { eventId, claimId }]);
    expect(payments.map((x) => (typeof x === 'string' ? x : x.status)).sort()).toEqual([
      'paid',
      'statusNotAllowed',
    ]);
    expect(await messagesOf(claimId)).toEqual(['claim.submitted', 'claim.approved', 'claim.paid']);
  });
});
