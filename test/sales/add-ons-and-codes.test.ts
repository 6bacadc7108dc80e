// Add-ons and discount codes: the add-on list and the discount-code list
// need tickets:read; creating a code needs tickets:write, refuses letters already used (codeTaken,
// without regard to case) and takes either a percentage or an amount.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { person, register, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let reader: string;
let writer: string;
let eventsOnly: string;
let everything: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Add-ons and codes workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['tickets:read'] }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['tickets:write'] }));
  ({ key: eventsOnly } = await t.key({ workspaceId, scopes: ['events:read', 'orders:read'] }));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything' }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
});
afterAll(async () => t.close());

const createCode = (body: Record<string, unknown>, key = writer, eventId = summit) =>
  t.api(`/events/${eventId}/discount-codes`, { key, method: 'POST', body });

describe('GET /events/{eventId}/add-ons', () => {
  it('lists the add-ons with price in the currency’s decimals, capacity and what is held', async () => {
    const res = await t.api(`/events/${summit}/add-ons`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    const byName = new Map(res.body.data.map((a: any) => [a.name, a]));
    expect([...byName.keys()].sort()).toEqual(['Conference dinner', 'Workshop: product discovery']);
    expect(byName.get('Workshop: product discovery')).toMatchObject({
      addOnId: ids.addOn('summit', 'workshop'),
      eventId: summit,
      price: 900,
      vatRate: 25,
      currency: 'NOK',
      capacity: 30,
    });
    const dinner: any = byName.get('Conference dinner');
    expect(dinner.remaining).toBe(dinner.capacity - dinner.taken);
  });

  it('counts the dinner included with a VIP ticket as held', async () => {
    const dinnerOf = async () =>
      (await t.api(`/events/${summit}/add-ons`, { key: reader })).body.data.find(
        (a: any) => a.name === 'Conference dinner',
      );
    const before = await dinnerOf();
    expect((await register(t, everything, summit, [person(ids.ticketType('summit', 'vip'))])).status).toBe(
      201,
    );
    expect((await dinnerOf()).taken).toBe(before.taken + 1);
  });

  it('pages with limit and cursor', async () => {
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/add-ons?limit=1`);
    expect(pages).toBe(2);
    expect(new Set(items.map((a) => a.addOnId)).size).toBe(2);
  });

  it('answers an empty list for an event without add-ons', async () => {
    const res = await t.api(`/events/${ids.event('forum')}/add-ons`, { key: reader });
    expect(res.body).toEqual({ data: [], nextCursor: null, hasMore: false });
  });

  it('needs tickets:read (403 missingScope) and answers 404 eventNotFound for an unknown event', async () => {
    const res = await t.api(`/events/${summit}/add-ons`, { key: eventsOnly });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('tickets:read');
    const unknown = await t.api('/events/00000000-0000-4000-8000-000000000020/add-ons', { key: reader });
    expectProblem(unknown, 404, 'eventNotFound');
  });
});

describe('GET /events/{eventId}/discount-codes', () => {
  it('lists the codes with a percentage or an amount in the event currency', async () => {
    const res = await t.api(`/events/${summit}/discount-codes`, { key: reader });
    expect(res.status).toBe(200);
    const byCode = new Map(res.body.data.map((c: any) => [c.code, c]));
    expect(byCode.get('NORDIC10')).toMatchObject({
      eventId: summit,
      percent: 10,
      amount: null,
      currency: 'NOK',
      maxUses: 100,
      used: 0,
    });
    expect(byCode.get('PARTNER500')).toMatchObject({ percent: null, amount: 500, maxUses: null });
  });

  it('shows a KWD amount with three decimals', async () => {
    const res = await t.api(`/events/${ids.event('forum')}/discount-codes`, { key: reader });
    expect(res.body.data).toEqual([
      expect.objectContaining({ code: 'GULF-EARLY', amount: 5, currency: 'KWD' }),
    ]);
  });

  it('needs tickets:read (403 missingScope)', async () => {
    const res = await t.api(`/events/${summit}/discount-codes`, { key: eventsOnly });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('tickets:read');
  });
});

describe('POST /events/{eventId}/discount-codes', () => {
  it('creates a percentage code (201) that the list then shows', async () => {
    const res = await createCode({ code: 'Spring25', percent: 25, maxUses: 40 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      eventId: summit,
      code: 'Spring25',
      percent: 25,
      amount: null,
      currency: 'NOK',
      maxUses: 40,
      used: 0,
      validFromUtc: null,
      validUntilUtc: null,
      ticketTypeIds: [],
    });
    expect(res.body.discountCodeId).toMatch(/^[0-9a-f-]{36}$/);
    const list = (await t.api(`/events/${summit}/discount-codes`, { key: reader })).body.data;
    expect(list).toContainEqual(res.body);
  });

  it('creates an amount code in the event currency’s own decimals, limited to chosen ticket types', async () => {
    const forum = ids.event('forum');
    const delegate = ids.ticketType('forum', 'delegate');
    const res = await createCode({ code: 'KWD-OFF', amount: 1.25, ticketTypeIds: [delegate] }, writer, forum);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      amount: 1.25,
      currency: 'KWD',
      percent: null,
      ticketTypeIds: [delegate],
    });
    const stored = await t.server.services.db
      .selectFrom('discount_codes')
      .select('amount_minor')
      .where('id', '=', res.body.discountCodeId)
      .executeTakeFirstOrThrow();
    expect(stored.amount_minor).toBe(1250);
  });

  it('refuses letters already used at the event, whatever their case, with 409 codeTaken', async () => {
    expectProblem(await createCode({ code: 'nordic10', percent: 5 }), 409, 'codeTaken');
    expect((await createCode({ code: 'Autumn', percent: 5 })).status).toBe(201);
    expectProblem(await createCode({ code: 'AUTUMN', amount: 10 }), 409, 'codeTaken');
    const list = (await t.api(`/events/${summit}/discount-codes`, { key: reader })).body.data;
    expect(list.filter((c: any) => c.code.toUpperCase() === 'AUTUMN')).toHaveLength(1);
  });

  it('allows the same letters at another event', async () => {
    expect((await createCode({ code: 'NORDIC10', percent: 5 }, writer, ids.event('meetup'))).status).toBe(
      201,
    );
  });

  it('takes either percent or amount: both or neither answer 400 invalidRequest', async () => {
    const both = await createCode({ code: 'BOTHWAYS', percent: 10, amount: 100 });
    expectProblem(both, 400, 'invalidRequest');
    const neither = await createCode({ code: 'NOWAY' });
    expectProblem(neither, 400, 'invalidRequest');
    const codes = (await t.api(`/events/${summit}/discount-codes`, { key: reader })).body.data.map(
      (c: any) => c.code,
    );
    expect(codes).not.toContain('BOTHWAYS');
    expect(codes).not.toContain('NOWAY');
  });

  it('refuses a percentage outside 1 to 100, a bad code and an unknown ticket type with 400 invalidRequest', async () => {
    expectProblem(await createCode({ code: 'ZERO', percent: 0 }), 400, 'invalidRequest');
    expectProblem(await createCode({ code: 'MORE', percent: 101 }), 400, 'invalidRequest');
    expectProblem(await createCode({ code: 'has space', percent: 10 }), 400, 'invalidRequest');
    const unknown = await createCode({
      code: 'UNKNOWNTYPE',
      percent: 10,
      ticketTypeIds: ['00000000-0000-4000-8000-000000000021'],
    });
    expect(expectProblem(unknown, 400, 'invalidRequest').errors[0].field).toBe('ticketTypeIds.0');
  });

  it('needs tickets:write: a key with tickets:read only gets 403 missingScope naming tickets:write', async () => {
    const res = await createCode({ code: 'READONLY', percent: 10 }, reader);
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('tickets:write');
  });

  it('refuses the demonstration workspace with 403 demoWorkspace', async () => {
    const demo = t.server.demoKey;
    const eventId = (await t.api('/events', { key: demo })).body.data[0].eventId;
    expectProblem(await createCode({ code: 'DEMO10', percent: 10 }, demo, eventId), 403, 'demoWorkspace');
  });

  it('answers an idempotent retry with the first answer and makes one code', async () => {
    const headers = { 'idempotency-key': `code-${Date.now()}` };
    const body = { code: 'ONCEONLY', percent: 15 };
    const first = await t.api(`/events/${summit}/discount-codes`, {
      key: writer,
      method: 'POST',
      body,
      headers,
    });
    const again = await t.api(`/events/${summit}/discount-codes`, {
      key: writer,
      method: 'POST',
      body,
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const codes = (await t.api(`/events/${summit}/discount-codes`, { key: reader })).body.data;
    expect(codes.filter((c: any) => c.code === 'ONCEONLY')).toHaveLength(1);
  });
});
