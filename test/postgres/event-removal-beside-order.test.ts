// A draft event's removal beside an order being placed at it. On PostgreSQL the order's insert
// holds the event's row with a key-share lock (its foreign key) until it commits; the removal
// counted the event's orders, found none yet, and its delete then waited for the order and
// cascaded to it: the order answered, then gone with the event. The removal now locks the event's
// row first, so it waits for the order and refuses (inUse). PostgreSQL only (`npm run
// test:postgres`): SQLite has one writer at a time.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import { deleteEvent } from '../../core/events/delete-event';
import { newId } from '../../core/platform/ids';
import { insertOrder } from '../../core/sales/order-reference';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { signal } from '../support/signal';
import { onPostgres } from '../support/test-store';

const { call, db } = raceHarness('Event removal beside an order');

/** Until some statement of this database waits on a lock (the removal, held by the order). */
async function someoneWaitsOnALock(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db());
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('nothing waited on a lock');
}

describe.skipIf(!onPostgres)('a draft event removed while an order is placed (PostgreSQL)', () => {
  it('waits for the order and refuses with inUse; the order stays', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const event = await db()
      .selectFrom('events')
      .select(['workspace_id', 'currency', 'created_utc'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    const orderId = newId();
    const inserted = signal();
    const commit = signal();
    const placing = db()
      .transaction()
      .execute(async (trx) => {
        await insertOrder(
          trx,
          {
            id: orderId,
            workspace_id: event.workspace_id,
            event_id: eventId,
            status: 'free',
            buyer_name: 'Ada',
            buyer_email: 'ada@example.test',
            buyer_company: null,
            language: 'en',
            total_minor: 0,
            vat_minor: 0,
            currency: event.currency,
            payment_provider: null,
            payment_method: null,
            payment_reference: null,
            paid_utc: null,
            source: 'workspace',
            discount_code_id: null,
            erased: 0,
            created_utc: event.created_utc,
            updated_utc: event.created_utc,
          },
          1,
        );
        inserted.fire();
        await commit.fired;
      });
    await inserted.fired;
    const removing = call(deleteEvent, { eventId }).then(
      (answer) => answer,
      (error: { code?: string }) => error.code ?? String(error),
    );
    await someoneWaitsOnALock();
    commit.fire();
    await placing;
    expect(await removing).toBe('inUse');
    const left = await db().selectFrom('orders').select('id').where('id', '=', orderId).execute();
    expect(left).toHaveLength(1);
  });
});
