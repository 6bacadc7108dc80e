// Finance (spec Invoice, the budget summary): invoices and credit notes in series order with the
// kind filter, updatedSince and paging; the single document with its lines and ETag; money in each
// currency's decimals; the buyer under the personal-data rule and erased with the person; the budget
// summary checked against the lines behind it and the break-even point worked out here again;
// modules payments and budget, scope finance:read, isolation between workspaces, the MCP tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import type { BudgetLineRow, InvoiceRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType, callTool, decimalsOf, walkPages } from '../support/sales';
import { anotherWorkspace, MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let reader: string;
let peopleReader: string;
let other: { workspaceId: string; key: string };

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Finance workspace', true));
  ({ key: reader } = await t.key({
    workspaceId,
    scopes: ['finance:read', 'events:write'],
    expires: 'never',
  }));
  ({ key: peopleReader } = await t.key({
    workspaceId,
    scopes: ['finance:read', 'people:read'],
    expires: 'never',
  }));
  other = await anotherWorkspace(t);
});
afterAll(async () => t.close());

const db = () => t.server.services.db;
const event = (key: string) => sampleId(workspaceId, `event/${key}`);
const invoices = (key: string, query = '') => `/events/${event(key)}/invoices${query}`;

const itemFields = [
  'invoiceId',
  'eventId',
  'orderId',
  'kind',
  'number',
  'correctsId',
  'issuedUtc',
  'total',
  'vat',
  'currency',
  'vatCurrency',
  'vatConverted',
  'buyer',
  'seller',
  'personalData',
];
const buyerFields = ['name', 'email', 'company', 'address', 'vatNumber', 'reference'];
const sellerFields = [
  'enabled',
  'sellerName',
  'sellerAddress',
  'sellerVatNumber',
  'sellerRegistration',
  'prefix',
  'footer',
];
const lineFields = ['ticketTypeId', 'addOnId', 'name', 'quantity', 'unitPrice', 'vatRate', 'total', 'vat'];
const sorted = (keys: string[]) => [...keys].sort();

function storedInvoices(key: string): Promise<InvoiceRow[]> {
  return db()
    .selectFrom('invoices')
    .selectAll()
    .where('event_id', '=', event(key))
    .orderBy('series_no')
    .execute();
}

const major = (minor: number, decimals: number) => Number((minor / 10 ** decimals).toFixed(decimals));

describe('GET /events/{eventId}/invoices', () => {
  it("lists the event's invoices and credit notes in series order, with the spec's fields and no lines", async () => {
    const { items } = await walkPages(t, peopleReader, invoices('summit'));
    const stored = await storedInvoices('summit');
    expect(items.map((i) => i.invoiceId)).toEqual(stored.map((r) => r.id));
    expect(items.map((i) => i.number)).toEqual(stored.map((_, n) => `NPS-${String(n + 1).padStart(4, '0')}`));
    for (const [n, item] of items.entries()) {
      const row = stored[n]!;
      expect(sorted(Object.keys(item))).toEqual(sorted(itemFields));
      expect(item).toMatchObject({
        eventId: event('summit'),
        orderId: row.order_id,
        kind: row.kind,
        correctsId: row.corrects_id,
        issuedUtc: row.issued_utc,
        total: major(row.total_minor, 2),
        vat: major(row.vat_minor, 2),
        currency: 'NOK',
      });
      expect(sorted(Object.keys(item.seller))).toEqual(sorted(sellerFields));
      expect(item.seller).toMatchObject({ enabled: true, sellerName: 'Nordic Events AS', prefix: 'NPS-' });
      if (item.buyer) expect(sorted(Object.keys(item.buyer))).toEqual(sorted(buyerFields));
    }
    // Documents are numbered in the order they were issued.
    const issued = items.map((i) => i.issuedUtc);
    expect(issued).toEqual([...issued].sort());
    expect(items.length).toBeGreaterThan(50);
  });

  it('bills each order for what it cost, and credits a refunded one in full with negative amounts', async () => {
    const stored = await storedInvoices('summit');
    const orders = new Map(
      (await db().selectFrom('orders').selectAll().where('event_id', '=', event('summit')).execute()).map(
        (o) => [o.id, o],
      ),
    );
    for (const row of stored.filter((r) => r.kind === 'invoice')) {
      const order = orders.get(row.order_id)!;
      expect(row.total_minor).toBe(order.total_minor);
      expect(row.vat_minor).toBe(order.vat_minor);
      expect(order.paid_utc).not.toBeNull();
    }
    const { items: notes } = await walkPages(t, reader, invoices('summit', '?kind=creditNote'));
    expect(notes.length).toBeGreaterThan(0);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const note of notes) {
      expect(note.kind).toBe('creditNote');
      const corrected = byId.get(note.correctsId)!;
      expect(corrected.kind).toBe('invoice');
      expect(corrected.order_id).toBe(note.orderId);
      expect(orders.get(note.orderId)!.status).toBe('refunded');
      expect(note.total).toBe(-major(corrected.total_minor, 2));
      expect(note.vat).toBe(-major(corrected.vat_minor, 2));
      expect(note.total).toBeLessThan(0);
      // Issued after the invoice it corrects, later in the series.
      expect(byId.get(note.invoiceId)!.series_no).toBeGreaterThan(corrected.series_no);
    }
  });

  it('filters one kind, in series order', async () => {
    const all = (await walkPages(t, reader, invoices('summit'))).items;
    const only = (await walkPages(t, reader, invoices('summit', '?kind=invoice'))).items;
    const notes = (await walkPages(t, reader, invoices('summit', '?kind=creditNote'))).items;
    expect(only.every((i) => i.kind === 'invoice' && i.correctsId === null)).toBe(true);
    expect(only.map((i) => i.invoiceId)).toEqual(
      all.filter((i) => i.kind === 'invoice').map((i) => i.invoiceId),
    );
    expect(notes.map((i) => i.invoiceId)).toEqual(
      all.filter((i) => i.kind === 'creditNote').map((i) => i.invoiceId),
    );
    expect(only.length + notes.length).toBe(all.length);
    expectProblem(await t.api(invoices('summit', '?kind=refund'), { key: reader }), 400, 'invalidRequest');
  });

  it('pages with a cursor that never skips or repeats, bound to its filters', async () => {
    const all = (await walkPages(t, reader, invoices('summit'))).items;
    const { items, pages } = await walkPages(t, reader, invoices('summit', '?limit=10'));
    expect(items.map((i) => i.invoiceId)).toEqual(all.map((i) => i.invoiceId));
    expect(pages).toBe(Math.ceil(all.length / 10));
    const first = await t.api(invoices('summit', '?limit=10'), { key: reader });
    const cursor = encodeURIComponent(first.body.nextCursor);
    expectProblem(
      await t.api(invoices('summit', `?limit=10&kind=invoice&cursor=${cursor}`), { key: reader }),
      400,
      'invalidCursor',
    );
    expectProblem(await t.api(invoices('summit', '?limit=501'), { key: reader }), 400, 'invalidRequest');
  });

  it('answers only the documents changed at or after updatedSince, still in series order', async () => {
    const stored = await storedInvoices('meetup');
    const since = clock.now().toISOString();
    clock.advance(1000);
    const later = stored[stored.length - 1]!;
    const earlier = stored[1]!;
    for (const row of [later, earlier]) {
      await db()
        .updateTable('invoices')
        .set({ updated_utc: clock.now().toISOString(), change_seq: await nextChangeSeq(db()) })
        .where('id', '=', row.id)
        .execute();
    }
    const res = await t.api(invoices('meetup', `?updatedSince=${encodeURIComponent(since)}`), {
      key: reader,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: any) => i.invoiceId)).toEqual([earlier.id, later.id]);
    expectProblem(
      await t.api(invoices('meetup', '?updatedSince=yesterday'), { key: reader }),
      400,
      'invalidUpdatedSince',
    );
  });

  it('shows the buyer only with people:read, and nothing of an erased buyer', async () => {
    const withheld = (await walkPages(t, reader, invoices('summit'))).items;
    const included = (await walkPages(t, peopleReader, invoices('summit'))).items;
    const stored = new Map((await storedInvoices('summit')).map((r) => [r.id, r]));
    for (const item of withheld) {
      expect(item.buyer).toBeNull();
      expect(item.personalData).toBe(stored.get(item.invoiceId)!.erased ? 'erased' : 'withheld');
    }
    for (const item of included) {
      const row = stored.get(item.invoiceId)!;
      if (row.erased) {
        expect(item).toMatchObject({ buyer: null, personalData: 'erased' });
        continue;
      }
      expect(item.personalData).toBe('included');
      expect(item.buyer).toEqual({
        name: row.buyer_name,
        email: row.buyer_email,
        company: row.buyer_company,
        address: row.buyer_address,
        vatNumber: row.buyer_vat_number,
        reference: row.buyer_reference,
      });
    }
    expect(included.filter((i) => i.personalData === 'erased')).toHaveLength(1);
    expect(included.some((i) => i.buyer?.vatNumber)).toBe(true);
    expect(included.some((i) => i.buyer && i.buyer.vatNumber === null)).toBe(true);
  });

  it("shows money with each currency's own decimals, and the VAT converted in that currency's", async () => {
    for (const [key, currency, decimals] of [
      ['summit', 'NOK', 2],
      ['meetup', 'JPY', 0],
      ['forum', 'KWD', 3],
    ] as const) {
      const { items } = await walkPages(t, reader, invoices(key));
      const stored = new Map((await storedInvoices(key)).map((r) => [r.id, r]));
      expect(items.length).toBeGreaterThan(5);
      for (const item of items) {
        const row = stored.get(item.invoiceId)!;
        expect(item.currency).toBe(currency);
        expect(item.total).toBe(row.total_minor / 10 ** decimals);
        expect(item.vat).toBe(row.vat_minor / 10 ** decimals);
        expect(decimalsOf(item.total)).toBeLessThanOrEqual(decimals);
      }
      if (key === 'forum') expect(items.some((i) => !Number.isInteger(i.total))).toBe(true);
    }
    const converted = (await walkPages(t, reader, invoices('summit'))).items.filter((i) => i.vatCurrency);
    expect(converted).toHaveLength(1);
    const row = (await storedInvoices('summit')).find((r) => r.id === converted[0].invoiceId)!;
    expect(converted[0]).toMatchObject({ vatCurrency: 'EUR', vatConverted: row.vat_converted_minor! / 100 });
    const plain = (await walkPages(t, reader, invoices('summit'))).items.filter((i) => !i.vatCurrency);
    expect(plain.every((i) => i.vatConverted === null)).toBe(true);
  });
});

describe('GET /events/{eventId}/invoices/{invoiceId}', () => {
  const path = (key: string, invoiceId: string) => `/events/${event(key)}/invoices/${invoiceId}`;

  it('answers one document with its lines, which add up to it', async () => {
    const stored = await storedInvoices('summit');
    const withAddOn = await db()
      .selectFrom('invoice_lines')
      .select('invoice_id')
      .where('add_on_id', 'is not', null)
      .where(
        'invoice_id',
        'in',
        stored.map((r) => r.id),
      )
      .executeTakeFirstOrThrow();
    for (const row of stored.filter((r) => r.id === withAddOn.invoice_id || r.vat_currency !== null)) {
      const res = await t.api(path('summit', row.id), { key: peopleReader });
      expect(res.status).toBe(200);
      expect(sorted(Object.keys(res.body))).toEqual(sorted([...itemFields, 'lines']));
      const listed = (await walkPages(t, peopleReader, invoices('summit'))).items.find(
        (i) => i.invoiceId === row.id,
      );
      const { lines, ...rest } = res.body;
      expect(rest).toEqual(listed);
      const storedLines = await db()
        .selectFrom('invoice_lines')
        .selectAll()
        .where('invoice_id', '=', row.id)
        .orderBy('sort')
        .execute();
      expect(lines).toEqual(
        storedLines.map((l) => ({
          ticketTypeId: l.ticket_type_id,
          addOnId: l.add_on_id,
          name: l.name,
          quantity: l.quantity,
          unitPrice: l.unit_price_minor / 100,
          vatRate: l.vat_rate,
          total: l.total_minor / 100,
          vat: l.vat_minor / 100,
        })),
      );
      for (const line of lines) {
        expect(sorted(Object.keys(line))).toEqual(sorted(lineFields));
        expect(line.total).toBeCloseTo(line.quantity * line.unitPrice, 6);
      }
      const sum = (field: 'total' | 'vat') => storedLines.reduce((n, l) => n + l[`${field}_minor`], 0);
      expect(sum('total')).toBe(row.total_minor);
      expect(sum('vat')).toBe(row.vat_minor);
    }
    const bundled = await t.api(path('summit', withAddOn.invoice_id), { key: reader });
    expect(bundled.body.lines.find((l: any) => l.addOnId)).toMatchObject({ unitPrice: 0, total: 0 });
  });

  it('answers a credit note with negative quantities and amounts, unit prices as invoiced', async () => {
    const note = (await storedInvoices('summit')).find((r) => r.kind === 'creditNote')!;
    const res = await t.api(path('summit', note.id), { key: reader });
    expect(res.status).toBe(200);
    const corrected = await t.api(path('summit', note.corrects_id!), { key: reader });
    expect(res.body.lines).toEqual(
      corrected.body.lines.map((l: any) => ({ ...l, quantity: -l.quantity, total: -l.total, vat: -l.vat })),
    );
    for (const line of res.body.lines) {
      expect(line.quantity).toBeLessThan(0);
      expect(line.unitPrice).toBeGreaterThan(0);
    }
  });

  it('carries an ETag: 304 while unchanged, a new one once it changed', async () => {
    const row = (await storedInvoices('meetup'))[0]!;
    const first = await t.api(path('meetup', row.id), { key: peopleReader });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await t.api(path('meetup', row.id), {
      key: peopleReader,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    await db()
      .updateTable('invoices')
      .set({ buyer_reference: 'PO-CHANGED' })
      .where('id', '=', row.id)
      .execute();
    const changed = await t.api(path('meetup', row.id), {
      key: peopleReader,
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.buyer.reference).toBe('PO-CHANGED');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it("answers 404 notFound for a document of another event or workspace, eventNotFound for another's event", async () => {
    const meetupInvoice = (await storedInvoices('meetup'))[0]!;
    expectProblem(await t.api(path('summit', meetupInvoice.id), { key: reader }), 404, 'notFound');
    expectProblem(await t.api(path('summit', sampleId('nowhere', 'x')), { key: reader }), 404, 'notFound');
    const theirs = await db()
      .selectFrom('invoices')
      .select(['id', 'event_id'])
      .where('workspace_id', '=', other.workspaceId)
      .executeTakeFirstOrThrow();
    expectProblem(await t.api(path('summit', theirs.id), { key: reader }), 404, 'notFound');
    expectProblem(
      await t.api(`/events/${theirs.event_id}/invoices/${theirs.id}`, { key: reader }),
      404,
      'eventNotFound',
    );
  });
});

/** The budget summary as defined, worked out here from the stored lines. */
async function expectedBudget(key: string, decimals: number) {
  const lines = await db()
    .selectFrom('budget_lines')
    .selectAll()
    .where('event_id', '=', event(key))
    .execute();
  const stages = ['budgeted', 'committed', 'actual', 'forecast'] as const;
  const column = (s: (typeof stages)[number]) => `${s}_minor` as const;
  const sum = (rows: BudgetLineRow[]) =>
    Object.fromEntries(stages.map((s) => [s, rows.reduce((n, l) => n + l[column(s)], 0)])) as Record<
      (typeof stages)[number],
      number
    >;
  const shown = (figures: Record<string, number>) =>
    Object.fromEntries(Object.entries(figures).map(([k, n]) => [k, major(n, decimals)]));
  const income = sum(lines.filter((l) => l.kind === 'income'));
  const costs = sum(lines.filter((l) => l.kind === 'cost'));
  const result = Object.fromEntries(stages.map((s) => [s, income[s] - costs[s]]));
  const names = [...new Set(lines.map((l) => `${l.kind === 'income' ? 0 : 1}/${l.category}`))].sort();
  return {
    lines,
    income: shown(income),
    costs: shown(costs),
    result: shown(result),
    categories: names.map((name) => {
      const [kind, category] = name.split('/') as [string, string];
      const rows = lines.filter((l) => l.category === category && (l.kind === 'income') === (kind === '0'));
      return { category, kind: rows[0]!.kind, lines: rows.length, ...shown(sum(rows)) };
    }),
  };
}

describe('GET /events/{eventId}/budget', () => {
  const budget = (key: string) => `/events/${event(key)}/budget`;

  it('adds income, costs and result up from the budget lines, in total and per category', async () => {
    const res = await t.api(budget('summit'), { key: reader });
    expect(res.status).toBe(200);
    const { lines, ...expected } = await expectedBudget('summit', 2);
    expect(res.body).toEqual({
      eventId: event('summit'),
      currency: 'NOK',
      ...expected,
      breakEven: res.body.breakEven,
    });
    expect(res.body.categories.map((c: any) => `${c.kind} ${c.category}`)).toEqual([
      'income sponsorship',
      'income tickets',
      'cost catering',
      'cost marketing',
      'cost speakers',
      'cost venue',
    ]);
    expect(lines.length).toBeGreaterThan(res.body.categories.length);
    for (const stage of ['budgeted', 'committed', 'actual', 'forecast'])
      expect(res.body.result[stage]).toBeCloseTo(res.body.income[stage] - res.body.costs[stage], 6);
  });

  it('is computed on every call: one more line moves the totals', async () => {
    const before = (await t.api(budget('forum'), { key: reader })).body;
    const now = clock.now().toISOString();
    await db()
      .insertInto('budget_lines')
      .values({
        id: sampleId(workspaceId, 'test-budget/forum/extra'),
        workspace_id: workspaceId,
        event_id: event('forum'),
        category: 'venue',
        name: 'Extra hall',
        kind: 'cost',
        budgeted_minor: 1_000_001,
        committed_minor: 500_000,
        actual_minor: 0,
        forecast_minor: 900_000,
        created_utc: now,
        updated_utc: now,
        change_seq: await nextChangeSeq(db()),
      })
      .execute();
    const after = (await t.api(budget('forum'), { key: reader })).body;
    const { lines: _lines, ...expected } = await expectedBudget('forum', 3);
    expect(after).toMatchObject({ currency: 'KWD', ...expected });
    expect(after.costs.budgeted).toBeCloseTo(before.costs.budgeted + 1000.001, 6);
    expect(decimalsOf(after.costs.budgeted)).toBe(3);
    expect(after.result.forecast).toBeCloseTo(before.result.forecast - 900, 6);
  });

  it('puts the break-even point where forecast income covers forecast costs, at the average paid ticket price', async () => {
    for (const [key, decimals] of [
      ['summit', 2],
      ['forum', 3],
    ] as const) {
      const res = (await t.api(budget(key), { key: reader })).body;
      const lines = await db()
        .selectFrom('budget_lines')
        .selectAll()
        .where('event_id', '=', event(key))
        .execute();
      // Worked out again: paid orders that hold tickets, net of VAT, over the tickets in them.
      const paid = await db()
        .selectFrom('orders')
        .selectAll()
        .where('event_id', '=', event(key))
        .where('status', '=', 'paid')
        .execute();
      let net = 0;
      let tickets = 0;
      for (const order of paid) {
        const held = await db()
          .selectFrom('attendees')
          .select('id')
          .where('order_id', '=', order.id)
          .execute();
        if (held.length === 0) continue;
        net += order.total_minor - order.vat_minor;
        tickets += held.length;
      }
      const price = Math.round(net / tickets);
      const forecast = (rows: BudgetLineRow[]) => rows.reduce((n, l) => n + l.forecast_minor, 0);
      const gap =
        forecast(lines.filter((l) => l.kind === 'cost')) -
        forecast(lines.filter((l) => l.kind === 'income' && l.category !== 'tickets'));
      const needed = gap <= 0 ? 0 : Math.ceil(gap / price);
      expect(res.breakEven).toEqual({
        averageTicketPrice: major(price, decimals),
        priceFrom: 'orders',
        tickets: needed,
        paidTickets: tickets,
        reached: tickets >= needed,
      });
      expect(needed).toBeGreaterThan(0);
      // At the point itself the forecast covers the costs, one ticket fewer does not.
      expect(needed * price).toBeGreaterThanOrEqual(gap);
      expect((needed - 1) * price).toBeLessThan(gap);
    }
  });

  it('takes the ticket types’ mean net price before any paid order, and is reached at 0 when other income covers costs', async () => {
    const made = await t.api('/events', {
      key: reader,
      method: 'POST',
      body: eventBody({ currency: 'EUR' }),
    });
    expect(made.status).toBe(201);
    const eventId = made.body.eventId;
    await addTicketType(t, eventId, { priceMinor: 12_100 });
    await addTicketType(t, eventId, { priceMinor: 24_200 });
    const types = await db().selectFrom('ticket_types').selectAll().where('event_id', '=', eventId).execute();
    const addLine = async (kind: 'income' | 'cost', category: string, forecast: number) => {
      const now = clock.now().toISOString();
      await db()
        .insertInto('budget_lines')
        .values({
          id: crypto.randomUUID(),
          workspace_id: workspaceId,
          event_id: eventId,
          category,
          name: category,
          kind,
          budgeted_minor: forecast,
          committed_minor: 0,
          actual_minor: 0,
          forecast_minor: forecast,
          created_utc: now,
          updated_utc: now,
          change_seq: await nextChangeSeq(db()),
        })
        .execute();
    };
    await addLine('cost', 'venue', 1_000_000);
    await addLine('income', 'tickets', 2_000_000);
    const price = Math.round(
      types.reduce((n, x) => n + x.price_minor / (1 + x.vat_rate / 100), 0) / types.length,
    );
    const res = (await t.api(`/events/${eventId}/budget`, { key: reader })).body;
    expect(res.breakEven).toEqual({
      averageTicketPrice: price / 100,
      priceFrom: 'ticketTypes',
      tickets: Math.ceil(1_000_000 / price),
      paidTickets: 0,
      reached: false,
    });
    await addLine('income', 'sponsorship', 1_200_000);
    const covered = (await t.api(`/events/${eventId}/budget`, { key: reader })).body;
    expect(covered.breakEven).toMatchObject({ tickets: 0, reached: true });
    expect(covered.result.forecast).toBe(22_000);
  });
});

describe('rules every finance call follows', () => {
  it('answers 409 moduleOff when the payments or budget module is off', async () => {
    const made = await t.api('/events', { key: reader, method: 'POST', body: eventBody() });
    const eventId = made.body.eventId;
    const off = await t.api(`/events/${eventId}`, {
      key: reader,
      method: 'PATCH',
      body: { modules: { payments: false } },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const summitInvoice = (await storedInvoices('summit'))[0]!;
    for (const p of [`/events/${eventId}/invoices`, `/events/${eventId}/invoices/${summitInvoice.id}`])
      expect(expectProblem(await t.api(p, { key: reader }), 409, 'moduleOff').module).toBe('payments');
    expect((await t.api(`/events/${eventId}/budget`, { key: reader })).status).toBe(200);
    // The sample meetup has its budget module off.
    const budgetOff = await t.api(`/events/${event('meetup')}/budget`, { key: reader });
    expect(expectProblem(budgetOff, 409, 'moduleOff').module).toBe('budget');
    expect((await t.api(invoices('meetup'), { key: reader })).status).toBe(200);
  });

  it('needs finance:read, and keeps to one workspace', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read', 'orders:read', 'people:read'] });
    const one = (await storedInvoices('summit'))[0]!;
    for (const p of [
      invoices('summit'),
      `${invoices('summit')}/${one.id}`,
      `/events/${event('summit')}/budget`,
    ])
      expect(expectProblem(await t.api(p, { key }), 403, 'missingScope').scope).toBe('finance:read');
    for (const p of [
      invoices('summit'),
      `${invoices('summit')}/${one.id}`,
      `/events/${event('summit')}/budget`,
    ])
      expectProblem(await t.api(p, { key: other.key }), 404, 'eventNotFound');
  });

  it('are tools too, read-only, with the same answers', async () => {
    const client = await t.mcp(peopleReader, {}, '?toolsets=finance');
    try {
      const listed = await callTool(client, 'list_invoices', {
        eventId: event('summit'),
        kind: 'creditNote',
      });
      expect(listed.isError).toBe(false);
      expect(listed.data).toEqual(
        (await t.api(invoices('summit', '?kind=creditNote'), { key: peopleReader })).body,
      );
      const note = listed.data.data[0];
      const one = await callTool(client, 'get_invoice', {
        eventId: event('summit'),
        invoiceId: note.invoiceId,
      });
      expect(one.data).toEqual(
        (await t.api(`${invoices('summit')}/${note.invoiceId}`, { key: peopleReader })).body,
      );
      const summary = await callTool(client, 'get_budget', { eventId: event('summit') });
      expect(summary.data).toEqual(
        (await t.api(`/events/${event('summit')}/budget`, { key: peopleReader })).body,
      );
      const off = await callTool(client, 'get_budget', { eventId: event('meetup') });
      expect(off).toMatchObject({ isError: true, data: { code: 'moduleOff', module: 'budget' } });
      const tools = (await client.listTools()).tools.filter((x) => /invoice|budget/.test(x.name));
      expect(tools.map((x) => x.name).sort()).toEqual([
        'get_budget',
        'get_invoice',
        // Tessera extension (issue 52): the invoice as PDF.
        'get_invoice_pdf',
        'list_budget_lines',
        'list_invoices',
      ]);
      for (const x of tools) expect(x.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('erasure', () => {
  it("nulls the buyer on a person's invoices, in the database, and the documents say erased", async () => {
    const row = (await storedInvoices('summit')).find((r) => r.kind === 'creditNote')!;
    const email = row.buyer_email!;
    const before = await db()
      .selectFrom('invoices')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('buyer_email', '=', email)
      .execute();
    // The invoice and the credit note of the refunded order.
    expect(before.length).toBe(2);
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts.invoices).toBe(2);
    const rows = await db()
      .selectFrom('invoices')
      .selectAll()
      .where(
        'id',
        'in',
        before.map((r) => r.id),
      )
      .execute();
    for (const r of rows)
      expect(r).toMatchObject({
        buyer_name: null,
        buyer_email: null,
        buyer_company: null,
        buyer_address: null,
        buyer_vat_number: null,
        buyer_reference: null,
        erased: 1,
      });
    const shown = await t.api(`${invoices('summit')}/${row.id}`, { key: peopleReader });
    expect(shown.body).toMatchObject({ buyer: null, personalData: 'erased', total: row.total_minor / 100 });
    expect(shown.body.lines.length).toBeGreaterThan(0);
    // Another workspace's invoices to the same address are not touched.
    const theirs = await db()
      .selectFrom('invoices')
      .select('buyer_email')
      .where('workspace_id', '=', other.workspaceId)
      .where('buyer_email', '=', email)
      .execute();
    expect(theirs).toHaveLength(2);
  });
});
