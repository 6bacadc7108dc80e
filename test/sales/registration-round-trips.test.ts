// A registration in a handful of statements (issue 29 item 2): its reads of the event's ticket types,
// add-ons and questions in one (db/reads-together.ts), answering what the reads alone answer; the
// order's insert taking a free reference and its change positions in one statement, drawing another
// reference on a collision; and the statements of one registration of 50 counted through the query
// log, so the count does not grow back unnoticed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees';
import { signUpOffer } from '../../core/events';
import { questionOrder, questionsOf } from '../../core/events/load-questions';
import { createOrder } from '../../core/orders';
import type { Ctx } from '../../core/platform/context';
import { newId } from '../../core/platform/ids';
import { noMetrics } from '../../core/platform/metrics';
import { invoke } from '../../core/platform/pipeline/invoke';
import { insertOrder, type NewOrder } from '../../core/sales/order-reference';
import { readTogether } from '../../db/reads-together';
import { reserveChangeSeqs } from '../../db/sequence';
import { type OpenServices, openServices } from '../../src/services';
import { everythingKeyContext } from '../support/key-context';
import { insertTicketType, person, sampleIds } from '../support/sales';
import { databaseFor, onPostgres } from '../support/test-store';

let dir: string;
let opened: OpenServices;
let ctx: Ctx;
let summit: string;
/** What the query log saw, while it listens. */
let statements: string[] | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tessera-round-trips-'));
  opened = await openServices({
    dataDir: dir,
    database: await databaseFor(dir),
    ratePerMinute: 1_000_000,
    metrics: { ...noMetrics, queryLog: (event) => statements?.push(event.query.sql) },
  });
  const { services } = opened;
  let workspaceId: string;
  ({ ctx, workspaceId } = await everythingKeyContext(services, 'Round trips', { sample: true }));
  summit = sampleIds(workspaceId).event('summit');
});
afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reads together', () => {
  it("answer each read's rows as the read alone does, in its order", async () => {
    const db = ctx.db;
    const types = db.selectFrom('ticket_types').selectAll().where('event_id', '=', summit);
    const addOns = db.selectFrom('add_ons').selectAll().where('event_id', '=', summit).orderBy('id');
    const questions = questionsOf(db, summit);
    const together = await readTogether(db, {
      types: { query: types.orderBy('id'), order: ['id'] },
      addOns: { query: addOns, order: ['id'] },
      questions: { query: questions, order: questionOrder },
      none: { query: db.selectFrom('add_ons').selectAll().where('event_id', '=', newId()) },
    });
    // The sample event has some of each, so every column's type is compared.
    expect(together.types.length).toBeGreaterThan(1);
    expect(together.addOns.length).toBeGreaterThan(0);
    expect(together.questions.length).toBeGreaterThan(1);
    expect(together.types).toStrictEqual(await types.orderBy('id').execute());
    expect(together.addOns).toStrictEqual(await addOns.execute());
    expect(together.questions).toStrictEqual(await questions.execute());
    expect(together.none).toStrictEqual([]);
  });
});

describe("an order's insert", () => {
  const order = (): NewOrder => {
    const now = new Date().toISOString();
    return {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: summit,
      status: 'free',
      buyer_name: 'Ada Tester',
      buyer_email: 'ada@example.org',
      buyer_company: null,
      language: 'en',
      total_minor: 0,
      vat_minor: 0,
      currency: 'EUR',
      payment_provider: null,
      paid_utc: null,
      source: 'workspace',
      discount_code_id: null,
      erased: 0,
      created_utc: now,
      updated_utc: now,
    };
  };

  it('draws another reference when the event has the one drawn, and takes its block of change positions', async () => {
    await ctx.db.transaction().execute(async (trx) => {
      const first = await insertOrder(trx, order(), 1);
      const drawn = [first.reference, 'ZZZZZ2'];
      const second = await insertOrder(trx, order(), 5, () => drawn.shift()!);
      expect(second.reference).toBe('ZZZZZ2');
      const rows = await trx
        .selectFrom('orders')
        .select(['reference', 'change_seq'])
        .where('event_id', '=', summit)
        .where('reference', 'in', [first.reference, 'ZZZZZ2'])
        .orderBy('change_seq')
        .execute();
      expect(rows).toEqual([
        { reference: first.reference, change_seq: first.firstSeq },
        { reference: 'ZZZZZ2', change_seq: second.firstSeq },
      ]);
      // The order's position is the first of its five: the next write of the transaction comes after them.
      expect(second.firstSeq).toBeGreaterThan(first.firstSeq);
      expect(await reserveChangeSeqs(trx, 1)).toBe(second.firstSeq + 5);
    });
  });
});

describe('one registration of 50', () => {
  it('sends a handful of statements, the same however many attendees', async () => {
    const ticketTypeId = await insertTicketType(ctx.db, summit, { capacity: 10_000 });
    const register = (n: number) =>
      invoke(registerAttendees, ctx, {
        eventId: summit,
        attendees: Array.from({ length: n }, () => person(ticketTypeId)),
      });
    const counted = async (n: number) => {
      statements = [];
      await register(n);
      const seen = statements;
      statements = null;
      return seen;
    };
    await register(1);
    const ofOne = await counted(1);
    const ofFifty = await counted(50);
    expect(ofFifty.length).toBe(ofOne.length);
    // PostgreSQL (a round trip each): begin, the write's change position, the event, its ticket types
    // with add-ons and questions, the order, the attendees, their messages, the places, the activity
    // entry, commit. SQLite counts change positions with statements of their own (in the process).
    expect(ofFifty.length, ofFifty.join('\n')).toBeLessThanOrEqual(onPostgres ? 10 : 13);
    expect(ofFifty.filter((s) => /^select .* from "orders"/.test(s))).toEqual([]);
  });
});

describe("the public page's offer", () => {
  it('is read in one statement on PostgreSQL, answering what the event has on sale', async () => {
    const event = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', summit)
      .executeTakeFirstOrThrow();
    if (event.status !== 'published')
      await ctx.db.updateTable('events').set({ status: 'published' }).where('id', '=', summit).execute();
    statements = [];
    const offer = await signUpOffer(ctx.db, ctx.clock, event.slug);
    const seen = statements;
    statements = null;
    expect(seen.length, seen.join('\n')).toBe(onPostgres ? 1 : 8);
    expect(offer?.event.id).toBe(summit);
    const now = ctx.clock.now().toISOString();
    const onSale = await ctx.db
      .selectFrom('ticket_types')
      .select('id')
      .where('event_id', '=', summit)
      .where('crew', '=', 0)
      .where('visibility', '=', 'public')
      .where('retired_utc', 'is', null)
      .where((eb) => eb.or([eb('sales_start_utc', 'is', null), eb('sales_start_utc', '<=', now)]))
      .where((eb) => eb.or([eb('sales_end_utc', 'is', null), eb('sales_end_utc', '>', now)]))
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
    expect(offer!.types.map((t) => t.ticketTypeId)).toEqual(onSale.map((t) => t.id));
    expect(offer!.types.length).toBeGreaterThan(0);
    const questions = await questionsOf(ctx.db, summit).execute();
    expect(offer!.questions.map((q) => q.questionId)).toEqual(
      questions.filter((q) => q.kind !== 'file').map((q) => q.id),
    );
    expect(await signUpOffer(ctx.db, ctx.clock, 'no-such-event')).toBeNull();
  });
});

describe('the places of a registration and of an order', () => {
  /** The writes a call sent, in their order. */
  const writesOf = async (call: () => Promise<unknown>) => {
    statements = [];
    await call();
    // SQLite draws change positions from a table of its own: not a write of the call's rows.
    const seen = statements.filter((s) => /^(insert|update|delete)\b/i.test(s) && !/change_sequence/.test(s));
    statements = null;
    return seen;
  };

  it("are the last write before the commit, after the activity entry (the type's row held the shortest time)", async () => {
    const ticketTypeId = await insertTicketType(ctx.db, summit, { capacity: 10_000 });
    const pricedId = await insertTicketType(ctx.db, summit, { capacity: 10_000, priceMinor: 50_000 });
    const registered = await writesOf(() =>
      invoke(registerAttendees, ctx, { eventId: summit, attendees: [person(ticketTypeId)] }),
    );
    const ordered = await writesOf(() =>
      invoke(createOrder, ctx, { eventId: summit, attendees: [person(pricedId)] }),
    );
    for (const writes of [registered, ordered]) {
      expect(writes.at(-1), writes.join('\n')).toMatch(/^update "ticket_types"/);
      expect(writes.at(-2), writes.join('\n')).toMatch(/^insert into "workspace_activity"/);
    }
  });
});

describe('a registration whose places its read found gone', () => {
  it('is refused soldOut before it writes anything', async () => {
    const ticketTypeId = await insertTicketType(ctx.db, summit, { capacity: 1 });
    const register = () =>
      invoke(registerAttendees, ctx, { eventId: summit, attendees: [person(ticketTypeId)] });
    await register();
    statements = [];
    await expect(register()).rejects.toMatchObject({ code: 'soldOut' });
    const seen = statements;
    statements = null;
    // Its reads, and the transaction's begin and end: no insert, no update of the places.
    expect(
      seen.filter((s) => /^(insert|update|delete)\b/i.test(s)),
      seen.join('\n'),
    ).toEqual([]);
    expect(seen.some((s) => /from "ticket_types"/.test(s))).toBe(true);
  });
});
