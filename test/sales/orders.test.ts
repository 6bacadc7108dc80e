// Orders: the list with updatedSince, cursor, page/pageSize,
// sort and status; one order with an ETag; all ten statuses; the personal-data rule on buyer
// fields; money in the currency's own decimals (NOK 2, JPY 0, KWD 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../core/admin/mark-order-paid';
import { operatorContext } from '../../core/admin/operator';
import { expectProblem } from '../support/fixtures';
import { decimalsOf, sampleIds, walkPages } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let reader: string;
let people: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;

const orderStatuses = [
  'pending',
  'paid',
  'free',
  'onAccount',
  'transfer',
  'requested',
  'declined',
  'cancelled',
  'expired',
  'refunded',
];

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Orders workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['orders:read'], expires: 'never' }));
  ({ key: people } = await t.key({ workspaceId, scopes: ['orders:read', 'people:read'], expires: 'never' }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
});
afterAll(async () => t.close());

const list = (query: string, key = reader, eventId = summit) =>
  t.api(`/events/${eventId}/orders?${query}`, { key });

async function storedOrders(eventId: string) {
  return t.server.services.db.selectFrom('orders').selectAll().where('event_id', '=', eventId).execute();
}

describe('GET /events/{eventId}/orders', () => {
  it('lists every order of the event, oldest change first, with the fields of the spec and its marked extensions', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/orders?limit=500`);
    const stored = await storedOrders(summit);
    expect(items.map((o) => o.orderId).sort()).toEqual(stored.map((o) => o.id).sort());
    expect(Object.keys(items[0]).sort()).toEqual(
      [
        'orderId',
        'eventId',
        'reference',
        'status',
        'buyerName',
        'buyerEmail',
        'buyerCompany',
        'language',
        'total',
        'vat',
        'currency',
        'paymentProvider',
        'paidUtc',
        'source',
        'attendees',
        'createdUtc',
        'updatedUtc',
        'erased',
        'personalData',
        // Tessera extensions (issue 52): how it was paid, a complimentary order's reason, its discount.
        'paymentMethod',
        'complimentaryReason',
        'discountCodeId',
        'discount',
        'refunded',
        // Issue 52: why a requested order was declined.
        'declineReason',
      ].sort(),
    );
    for (const o of items) {
      expect(o.reference).toMatch(/^[A-Z0-9]{6}$/);
      expect(['registration', 'workspace', 'door']).toContain(o.source);
    }
  });

  it('holds orders in all ten statuses in the sample', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/orders?limit=500`);
    expect([...new Set(items.map((o) => o.status))].sort()).toEqual([...orderStatuses].sort());
  });

  it('counts the tickets an order holds, cancelled ones left out', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/orders?limit=500`);
    const active = await t.server.services.db
      .selectFrom('attendees')
      .select(['order_id'])
      .where('event_id', '=', summit)
      .where('status', '=', 'active')
      .execute();
    for (const o of items)
      expect(o.attendees, o.reference).toBe(active.filter((a) => a.order_id === o.orderId).length);
  });

  it('pages with cursors, each order exactly once', async () => {
    const all = (await walkPages(t, reader, `/events/${summit}/orders?limit=500`)).items.map(
      (o) => o.orderId,
    );
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/orders?limit=17`);
    expect(pages).toBe(Math.ceil(all.length / 17));
    expect(items.map((o) => o.orderId)).toEqual(all);
  });

  it('answers page and pageSize when asked by page, as the cursor walk orders them', async () => {
    const all = (await walkPages(t, reader, `/events/${summit}/orders?limit=500`)).items.map(
      (o) => o.orderId,
    );
    const res = await list('page=2&pageSize=10');
    expect(res.status).toBe(200);
    expect(res.body.page).toBe(2);
    expect(res.body.pageSize).toBe(10);
    expect(res.body.data.map((o: any) => o.orderId)).toEqual(all.slice(10, 20));
    const cursorAnswer = await list('limit=10');
    expect(cursorAnswer.body.page).toBeUndefined();
  });

  it('sorts newest first with sort=-created', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/orders?sort=-created&limit=40`);
    expect(items.length).toBe((await storedOrders(summit)).length);
    for (let i = 1; i < items.length; i++) expect(items[i - 1].createdUtc >= items[i].createdUtc).toBe(true);
  });

  it('sorts oldest change first with sort=changed: an order that changes moves to the end', async () => {
    const pending = (await list('sort=-created&status=pending&limit=1')).body.data[0];
    clock.advance(60_000);
    await markOrderPaid(await operatorContext(t.server.services, workspaceId), pending.orderId);
    const { items } = await walkPages(t, reader, `/events/${summit}/orders?sort=changed&limit=500`);
    expect(items.at(-1).orderId).toBe(pending.orderId);
    expect(items.at(-1).status).toBe('paid');
    const byDefault = await walkPages(t, reader, `/events/${summit}/orders?limit=500`);
    expect(byDefault.items.map((o) => o.orderId)).toEqual(items.map((o) => o.orderId));
  });

  it('refuses another sort with 400 invalidSort', async () => {
    expectProblem(await list('sort=created'), 400, 'invalidSort');
    expectProblem(await list('sort=-changed'), 400, 'invalidSort');
  });

  it('filters the newest-first list by status', async () => {
    const stored = await storedOrders(summit);
    for (const status of ['paid', 'cancelled', 'refunded']) {
      const { items } = await walkPages(t, reader, `/events/${summit}/orders?sort=-created&status=${status}`);
      expect(items.length, status).toBe(stored.filter((o) => o.status === status).length);
      for (const o of items) expect(o.status).toBe(status);
    }
    expectProblem(await list('sort=-created&status=lost'), 400, 'invalidRequest');
  });

  it('refuses a cursor sent with other filters with 400 invalidCursor', async () => {
    const first = await list('sort=-created&status=paid&limit=5');
    const cursor = encodeURIComponent(first.body.nextCursor);
    expectProblem(await list(`sort=-created&status=free&limit=5&cursor=${cursor}`), 400, 'invalidCursor');
    expectProblem(await list('cursor=not-a-cursor'), 400, 'invalidCursor');
  });

  it('lists with updatedSince only orders changed at or after that moment', async () => {
    clock.advance(60_000);
    const since = clock.now().toISOString();
    const pending = (await list('sort=-created&status=onAccount&limit=1')).body.data[0];
    await markOrderPaid(await operatorContext(t.server.services, workspaceId), pending.orderId);
    const res = await list(`updatedSince=${encodeURIComponent(since)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: any) => o.orderId)).toEqual([pending.orderId]);
    expectProblem(await list('updatedSince=last-week'), 400, 'invalidUpdatedSince');
  });

  it('answers 404 eventNotFound for an unknown event', async () => {
    expectProblem(await list('', reader, '00000000-0000-4000-8000-000000000030'), 404, 'eventNotFound');
  });
});

describe('GET /events/{eventId}/orders/{orderId}', () => {
  it('answers the order as the list shows it, with an ETag and 304 for If-None-Match', async () => {
    const listed = (await list('limit=1')).body.data[0];
    const res = await t.api(`/events/${summit}/orders/${listed.orderId}`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(listed);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const raw = await t.fetch(`${t.server.origin}/api/v1/events/${summit}/orders/${listed.orderId}`, {
      headers: { authorization: `Bearer ${reader}`, 'if-none-match': etag },
    });
    expect(raw.status).toBe(304);
    expect(await raw.text()).toBe('');
  });

  it('changes the ETag when the order changes', async () => {
    const pending = (await list('sort=-created&status=transfer&limit=1')).body.data[0];
    const path = `/events/${summit}/orders/${pending.orderId}`;
    const etag = (await t.api(path, { key: reader })).headers.get('etag')!;
    clock.advance(60_000);
    await markOrderPaid(await operatorContext(t.server.services, workspaceId), pending.orderId);
    const after = await t.api(path, { key: reader, headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('paid');
    expect(after.body.paidUtc).not.toBeNull();
  });

  it('answers 404 notFound for an unknown order or one of another event, 404 eventNotFound for an unknown event', async () => {
    const unknown = await t.api(`/events/${summit}/orders/00000000-0000-4000-8000-000000000031`, {
      key: reader,
    });
    expectProblem(unknown, 404, 'notFound');
    const other = (await list('limit=1', reader, ids.event('meetup'))).body.data[0];
    expectProblem(await t.api(`/events/${summit}/orders/${other.orderId}`, { key: reader }), 404, 'notFound');
    const noEvent = await t.api(`/events/00000000-0000-4000-8000-000000000032/orders/${other.orderId}`, {
      key: reader,
    });
    expectProblem(noEvent, 404, 'eventNotFound');
  });

  it('needs orders:read (403 missingScope)', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    expect(expectProblem(await list('', key), 403, 'missingScope').scope).toBe('orders:read');
  });
});

describe('personal data on orders', () => {
  it('gives buyer fields null with personalData withheld without people:read', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/orders?limit=500`);
    for (const o of items) {
      expect(o.buyerName).toBeNull();
      expect(o.buyerEmail).toBeNull();
      expect(o.buyerCompany).toBeNull();
      expect(o.personalData).toBe(o.erased ? 'erased' : 'withheld');
    }
    const one = await t.api(`/events/${summit}/orders/${items[0].orderId}`, { key: reader });
    expect(one.body).toMatchObject({ buyerName: null, buyerEmail: null, personalData: 'withheld' });
  });

  it('gives buyer fields with people:read, except for a buyer who erased their data', async () => {
    const { items } = await walkPages(t, people, `/events/${summit}/orders?limit=500`);
    const stored = new Map((await storedOrders(summit)).map((o) => [o.id, o]));
    const erased = items.filter((o) => o.erased);
    expect(erased.length).toBe(1);
    expect(erased[0]).toMatchObject({
      buyerName: null,
      buyerEmail: null,
      buyerCompany: null,
      personalData: 'erased',
    });
    for (const o of items.filter((x) => !x.erased)) {
      expect(o.personalData).toBe('included');
      expect(o.buyerName).toBe(stored.get(o.orderId)!.buyer_name);
      expect(o.buyerEmail).toBe(stored.get(o.orderId)!.buyer_email);
      expect(o.buyerEmail).toMatch(/@/);
    }
  });
});

describe('money in the currency’s own decimals', () => {
  async function checkMoney(eventKey: 'summit' | 'meetup' | 'forum', currency: string, decimals: number) {
    const eventId = ids.event(eventKey);
    const { items } = await walkPages(t, reader, `/events/${eventId}/orders?limit=500`);
    const stored = new Map((await storedOrders(eventId)).map((o) => [o.id, o]));
    let withFraction = 0;
    for (const o of items) {
      const row = stored.get(o.orderId)!;
      expect(o.currency).toBe(currency);
      expect(o.total).toBe(row.total_minor / 10 ** decimals);
      expect(o.vat).toBe(row.vat_minor / 10 ** decimals);
      expect(decimalsOf(o.total)).toBeLessThanOrEqual(decimals);
      expect(decimalsOf(o.vat)).toBeLessThanOrEqual(decimals);
      if (decimalsOf(o.total) > 0) withFraction += 1;
    }
    return { items, withFraction };
  }

  it('shows NOK with two decimals', async () => {
    const { items } = await checkMoney('summit', 'NOK', 2);
    expect(items.some((o) => o.total > 0)).toBe(true);
  });

  it('shows JPY without decimals', async () => {
    const { items, withFraction } = await checkMoney('meetup', 'JPY', 0);
    expect(withFraction).toBe(0);
    expect(items.some((o) => o.total >= 1500)).toBe(true);
    for (const o of items) expect(Number.isInteger(o.total)).toBe(true);
  });

  it('shows KWD with up to three decimals', async () => {
    const { items, withFraction } = await checkMoney('forum', 'KWD', 3);
    // 45.500 KWD and 12.750 KWD, not 45500 or 4550.
    expect(items.some((o) => o.total === 45.5 || o.total === 12.75 || o.total === 91)).toBe(true);
    expect(withFraction).toBeGreaterThan(0);
  });
});
