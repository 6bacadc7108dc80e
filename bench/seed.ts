// Seeds the benchmark's data straight into the database (the benchmark measures check-in and
// sync, not registration): one event with a main entrance and 10,000 valid tickets, and one with
// 50,000 tickets to pull.
import { createKey } from '../core/admin/api-keys';
import { createWorkspace } from '../core/admin/workspaces';
import { systemClock } from '../core/platform/clock';
import { newId } from '../core/platform/ids';
import { newTicketCode } from '../core/platform/ticket-codes';
import { type Db, migrateToLatest, openDatabase } from '../db/connect';
import { nextChangeSeq } from '../db/sequence';

export interface Seeded {
  workspaceId: string;
  key: string;
  doorEvent: { eventId: string; attendeeIds: string[] };
  syncEvent: { eventId: string; attendees: number; ticketTypeId: string };
}

async function seedEvent(db: Db, workspaceId: string, name: string, attendees: number, withDoor: boolean) {
  const now = new Date().toISOString();
  const eventId = newId();
  const ticketTypeId = newId();
  const orderId = newId();
  const ids: string[] = [];
  await db.transaction().execute(async (trx) => {
    const stamp = async () => ({ created_utc: now, updated_utc: now, change_seq: await nextChangeSeq(trx) });
    await trx
      .insertInto('events')
      .values({
        id: eventId,
        workspace_id: workspaceId,
        name,
        slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        status: 'published',
        online: 0,
        venue_name: 'Bench hall',
        venue_address: null,
        venue_city: 'Oslo',
        venue_country: 'NO',
        time_zone: 'Europe/Oslo',
        starts_utc: '2030-01-01T08:00:00.000Z',
        ends_utc: '2030-01-01T18:00:00.000Z',
        languages: '["en"]',
        currency: 'EUR',
        modules: '{}',
        ...(await stamp()),
      })
      .execute();
    await trx
      .insertInto('ticket_types')
      .values({
        id: ticketTypeId,
        workspace_id: workspaceId,
        event_id: eventId,
        name: 'General',
        description: '',
        price_minor: 0,
        vat_rate: 0,
        capacity: null,
        taken: attendees,
        max_per_order: 100,
        visibility: 'public',
        access_code: null,
        requires_approval: 0,
        crew: 0,
        sales_start_utc: null,
        sales_end_utc: null,
        included_add_on_ids: '[]',
        sort_order: 1,
        ...(await stamp()),
      })
      .execute();
    await trx
      .insertInto('orders')
      .values({
        id: orderId,
        workspace_id: workspaceId,
        event_id: eventId,
        reference: 'BENCH1',
        status: 'free',
        buyer_name: 'Bench Buyer',
        buyer_email: 'buyer@example.org',
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
        ...(await stamp()),
      })
      .execute();
    if (withDoor) {
      await trx
        .insertInto('doors')
        .values({
          id: newId(),
          workspace_id: workspaceId,
          event_id: eventId,
          name: 'Main entrance',
          kind: 'entrance',
          main: 1,
          session_id: null,
          capacity: null,
          inside: 0,
          reentry: 1,
          ticket_type_ids: '[]',
          add_on_ids: '[]',
          sort_order: 1,
          ...(await stamp()),
        })
        .execute();
    }
    for (let i = 0; i < attendees; i += 500) {
      const rows = [];
      for (let j = i; j < Math.min(attendees, i + 500); j++) {
        const id = newId();
        ids.push(id);
        rows.push({
          id,
          workspace_id: workspaceId,
          event_id: eventId,
          order_id: orderId,
          ticket_type_id: ticketTypeId,
          first_name: `Guest${j}`,
          last_name: 'Bench',
          email: `guest${j}@example.org`,
          company: j % 3 === 0 ? 'Fjord Labs' : null,
          job_title: null,
          language: 'en',
          answers: null,
          status: 'active' as const,
          checked_in_utc: null,
          cancelled_utc: null,
          erased: 0 as const,
          ticket_code: newTicketCode(),
          ...(await stamp()),
        });
      }
      await trx.insertInto('attendees').values(rows).execute();
    }
  });
  return { eventId, ids, ticketTypeId };
}

/** Into the data folder's SQLite file, or the PostgreSQL database given. */
export async function seedBenchmark(
  dataDir: string,
  checkInAttendees: number,
  syncAttendees: number,
  database = `${dataDir}/tessera.db`,
): Promise<Seeded> {
  const { db, close } = openDatabase(database);
  await migrateToLatest(db);
  const { workspaceId } = await createWorkspace(db, systemClock, { name: 'Benchmark' });
  const { key } = await createKey(db, systemClock, {
    workspaceId,
    name: 'bench',
    preset: 'everything',
    expires: 'never',
  });
  const door = await seedEvent(db, workspaceId, 'Door bench', checkInAttendees, true);
  const sync = await seedEvent(db, workspaceId, 'Sync bench', syncAttendees, false);
  await close();
  return {
    workspaceId,
    key,
    doorEvent: { eventId: door.eventId, attendeeIds: door.ids },
    syncEvent: { eventId: sync.eventId, attendees: syncAttendees, ticketTypeId: sync.ticketTypeId },
  };
}
