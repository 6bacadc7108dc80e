// Expense claims of speakers and crew run through the real HTTPS server (issue 26, item 3):
// submitted with an amount in the currency's own decimals, approved, declined (rejected, no
// message) and paid (only once approved), each move sending its claim.* message and a move the
// status does not allow answering 409 statusNotAllowed naming it; reads with finance:read, writes
// with finance:write, the budget module, strict bodies, Idempotency-Key, If-Match, paging and
// updatedSince, demoWorkspace, the personal-data rule, and erasure through the crew link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { eventBody, expectProblem } from '../support/fixtures';
import { outbox, sampleIds } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let organiser: string;
let writer: string;
let reader: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Claim writes', true));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['finance:write'], expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['finance:read', 'people:read'], expires: 'never' }));
});
afterAll(async () => t?.close());

async function post(path: string, body: unknown, status = 201, key = organiser) {
  const res = await t.api(path, { key, method: 'POST', body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

const newEvent = async (): Promise<string> => (await post('/events', eventBody())).eventId;
const claimBody = { firstName: 'Ada', category: 'travel', amount: 129.5, currency: 'EUR' };

async function claimMessages(eventId: string) {
  return (await outbox(t, workspaceId))
    .filter((m) => m.eventId === eventId && m.type.startsWith('claim.'))
    .map((m) => [m.type, m.payload.data.claim.status]);
}

describe('expense claims', () => {
  it('submits a claim of a speaker (201, ETag): names copied, amount in the currency decimals, shown with people:read', async () => {
    const eventId = await newEvent();
    const sam = await post(`/events/${eventId}/speakers`, { name: 'Sam Speaker', email: 'sam@example.org' });
    const res = await t.api(`/events/${eventId}/expense-claims`, {
      key: organiser,
      method: 'POST',
      body: { speakerId: sam.speakerId, category: 'hotel', amount: 240.75, currency: 'EUR' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.body).toMatchObject({
      speakerId: sam.speakerId,
      crewMemberId: null,
      firstName: 'Sam',
      lastName: 'Speaker',
      email: 'sam@example.org',
      category: 'hotel',
      amount: 240.75,
      currency: 'EUR',
      status: 'submitted',
      approvedUtc: null,
      paidUtc: null,
      personalData: 'included',
    });
    const row = await t.server.services.db
      .selectFrom('expense_claims')
      .select('amount_minor')
      .where('id', '=', res.body.claimId)
      .executeTakeFirstOrThrow();
    expect(row.amount_minor).toBe(24075);
    const one = await t.api(`/events/${eventId}/expense-claims/${res.body.claimId}`, { key: reader });
    expect(one.body).toEqual(res.body);
    expect(one.headers.get('etag')).toBe(res.headers.get('etag'));
    const yen = await post(`/events/${eventId}/expense-claims`, {
      ...claimBody,
      amount: 1500,
      currency: 'JPY',
    });
    expect(yen.amount).toBe(1500);
    // The writer (finance:write reads as finance:read) sees claims without the personal fields.
    const bare = (await t.api(`/events/${eventId}/expense-claims`, { key: writer })).body.data;
    expect(bare.map((c: any) => [c.firstName, c.email, c.personalData])).toEqual([
      [null, null, 'withheld'],
      [null, null, 'withheld'],
    ]);
    expect(await claimMessages(eventId)).toEqual([
      ['claim.submitted', 'submitted'],
      ['claim.submitted', 'submitted'],
    ]);
  });

  it('names every bad field: decimals the currency lacks, no currency, an attendee link, unknown fields', async () => {
    const eventId = await newEvent();
    const decimals = expectProblem(
      await t.api(`/events/${eventId}/expense-claims`, {
        key: organiser,
        method: 'POST',
        body: { ...claimBody, amount: 1500.5, currency: 'JPY', category: ' ' },
      }),
      400,
      'invalidRequest',
    );
    expect(decimals.errors.map((e: any) => e.field).sort()).toEqual(['amount', 'category']);
    const strict = expectProblem(
      await t.api(`/events/${eventId}/expense-claims`, {
        key: organiser,
        method: 'POST',
        body: { ...claimBody, currency: 'EURO', amount: -3, attendeeId: crypto.randomUUID() },
      }),
      400,
      'invalidRequest',
    );
    expect(strict.errors.map((e: any) => e.field).sort()).toEqual(['amount', 'attendeeId']);
    const currency = expectProblem(
      await t.api(`/events/${eventId}/expense-claims`, {
        key: organiser,
        method: 'POST',
        body: { ...claimBody, currency: 'EURO' },
      }),
      400,
      'invalidRequest',
    );
    expect(currency.errors.map((e: any) => e.field)).toEqual(['currency']);
    expect((await t.api(`/events/${eventId}/expense-claims`, { key: reader })).body.data).toEqual([]);
  });

  it('approves then pays; pays only an approved claim; declines only a submitted one, with no message', async () => {
    const eventId = await newEvent();
    const claim = await post(`/events/${eventId}/expense-claims`, claimBody);
    const url = `/events/${eventId}/expense-claims/${claim.claimId}`;
    const early = expectProblem(
      await t.api(`${url}/pay`, { key: organiser, method: 'POST', body: {} }),
      409,
      'statusNotAllowed',
    );
    expect(early.currentStatus).toBe('submitted');
    clock.advance(60_000);
    const approved = await post(`${url}/approve`, {}, 200);
    expect(approved).toMatchObject({ status: 'approved', paidUtc: null });
    expect(approved.approvedUtc > claim.submittedUtc).toBe(true);
    for (const action of ['approve', 'decline'])
      expect(
        expectProblem(
          await t.api(`${url}/${action}`, { key: organiser, method: 'POST', body: {} }),
          409,
          'statusNotAllowed',
        ).currentStatus,
      ).toBe('approved');
    const paid = await post(`${url}/pay`, {}, 200);
    expect(paid).toMatchObject({ status: 'paid', approvedUtc: approved.approvedUtc });
    expect(typeof paid.paidUtc).toBe('string');
    expect(
      expectProblem(
        await t.api(`${url}/pay`, { key: organiser, method: 'POST', body: {} }),
        409,
        'statusNotAllowed',
      ).currentStatus,
    ).toBe('paid');

    const other = await post(`/events/${eventId}/expense-claims`, claimBody);
    const declined = await post(`/events/${eventId}/expense-claims/${other.claimId}/decline`, {}, 200);
    expect(declined.status).toBe('rejected');
    expect(
      expectProblem(
        await t.api(`/events/${eventId}/expense-claims/${other.claimId}/approve`, {
          key: organiser,
          method: 'POST',
          body: {},
        }),
        409,
        'statusNotAllowed',
      ).currentStatus,
    ).toBe('rejected');
    expect(await claimMessages(eventId)).toEqual([
      ['claim.submitted', 'submitted'],
      ['claim.approved', 'approved'],
      ['claim.paid', 'paid'],
      ['claim.submitted', 'submitted'],
    ]);
  });

  it('answers a stale If-Match with 412 and replays a submission sent again with the same Idempotency-Key', async () => {
    const eventId = await newEvent();
    const send = () =>
      t.api(`/events/${eventId}/expense-claims`, {
        key: organiser,
        method: 'POST',
        body: claimBody,
        headers: { 'idempotency-key': 'claim-once' },
      });
    const a = await send();
    const b = await send();
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    const url = `/events/${eventId}/expense-claims/${a.body.claimId}`;
    expectProblem(
      await t.api(`${url}/approve`, {
        key: organiser,
        method: 'POST',
        body: {},
        headers: { 'if-match': '"stale"' },
      }),
      412,
      'preconditionFailed',
    );
    const current = await t.api(`${url}/approve`, {
      key: organiser,
      method: 'POST',
      body: {},
      headers: { 'if-match': a.headers.get('etag')! },
    });
    expect(current.status).toBe(200);
    expect((await t.api(`/events/${eventId}/expense-claims`, { key: reader })).body.data).toHaveLength(1);
  });

  it('pages by cursor, filters by status and shows only what changed since updatedSince', async () => {
    const eventId = await newEvent();
    const claims = [];
    for (const firstName of ['A', 'B', 'C'])
      claims.push(await post(`/events/${eventId}/expense-claims`, { ...claimBody, firstName }));
    const first = await t.api(`/events/${eventId}/expense-claims?limit=2`, { key: reader });
    expect(first.body.data.map((c: any) => c.firstName)).toEqual(['A', 'B']);
    const second = await t.api(`/events/${eventId}/expense-claims?limit=2&cursor=${first.body.nextCursor}`, {
      key: reader,
    });
    expect(second.body.data.map((c: any) => c.firstName)).toEqual(['C']);
    clock.advance(1000);
    const since = clock.now().toISOString();
    clock.advance(1000);
    await post(`/events/${eventId}/expense-claims/${claims[1].claimId}/approve`, {}, 200);
    const changed = await t.api(
      `/events/${eventId}/expense-claims?updatedSince=${encodeURIComponent(since)}`,
      { key: reader },
    );
    expect(changed.body.data.map((c: any) => c.claimId)).toEqual([claims[1].claimId]);
    const approved = await t.api(`/events/${eventId}/expense-claims?status=approved`, { key: reader });
    expect(approved.body.data.map((c: any) => c.claimId)).toEqual([claims[1].claimId]);
  });
});

describe('refusals', () => {
  it('writes need finance:write, reads finance:read, each named', async () => {
    const eventId = await newEvent();
    const claim = await post(`/events/${eventId}/expense-claims`, claimBody);
    const url = `/events/${eventId}/expense-claims/${claim.claimId}`;
    for (const res of [
      await t.api(`/events/${eventId}/expense-claims`, { key: reader, method: 'POST', body: claimBody }),
      await t.api(`${url}/approve`, { key: reader, method: 'POST', body: {} }),
      await t.api(`${url}/decline`, { key: reader, method: 'POST', body: {} }),
      await t.api(`${url}/pay`, { key: reader, method: 'POST', body: {} }),
    ])
      expect(expectProblem(res, 403, 'missingScope').scope).toBe('finance:write');
    const { key: logisticsOnly } = await t.key({
      workspaceId,
      scopes: ['logistics:write'],
      expires: 'never',
    });
    for (const path of [`/events/${eventId}/expense-claims`, url])
      expect(expectProblem(await t.api(path, { key: logisticsOnly }), 403, 'missingScope').scope).toBe(
        'finance:read',
      );
  });

  it('answers 409 moduleOff naming budget when the budget module is switched off', async () => {
    const eventId = await newEvent();
    const claim = await post(`/events/${eventId}/expense-claims`, claimBody);
    const off = await t.api(`/events/${eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { modules: { budget: false } },
    });
    expect(off.status).toBe(200);
    for (const res of [
      await t.api(`/events/${eventId}/expense-claims`, { key: organiser, method: 'POST', body: claimBody }),
      await t.api(`/events/${eventId}/expense-claims/${claim.claimId}/approve`, {
        key: organiser,
        method: 'POST',
        body: {},
      }),
      await t.api(`/events/${eventId}/expense-claims`, { key: organiser }),
    ])
      expect(expectProblem(res, 409, 'moduleOff').module).toBe('budget');
  });

  it('is refused in the demonstration workspace with 403 demoWorkspace', async () => {
    const summit = sampleIds(demoWorkspaceId).event('summit');
    expectProblem(
      await t.api(`/events/${summit}/expense-claims`, {
        key: t.server.demoKey,
        method: 'POST',
        body: claimBody,
      }),
      403,
      'demoWorkspace',
    );
  });
});

describe('erasure', () => {
  it('erases a claim through its crew link, even under another address, and every copy of it', async () => {
    const eventId = await newEvent();
    const email = 'erase.me.claims@example.org';
    const vic = await post(`/events/${eventId}/crew`, { name: 'Vic Claimant', email });
    const claim = await post(`/events/${eventId}/expense-claims`, {
      ...claimBody,
      firstName: undefined,
      crewMemberId: vic.crewMemberId,
      email: 'vic.receipts@example.org',
    });
    await post(`/events/${eventId}/expense-claims/${claim.claimId}/approve`, {}, 200);
    const copies = async () =>
      JSON.stringify((await outbox(t, workspaceId)).filter((m) => m.eventId === eventId));
    expect(await copies()).toContain('vic.receipts@example.org');
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts).toMatchObject({ expenseClaims: 1 });
    const stored = await copies();
    for (const trace of ['Vic', 'Claimant', 'vic.receipts@example.org']) expect(stored).not.toContain(trace);
    const shown = (await t.api(`/events/${eventId}/expense-claims/${claim.claimId}`, { key: reader })).body;
    expect(shown).toMatchObject({
      firstName: null,
      lastName: null,
      email: null,
      personalData: 'erased',
      amount: 129.5,
    });
  });
});
