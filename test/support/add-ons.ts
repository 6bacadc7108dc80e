// An add-on of an event, written straight into the database as the organiser's app would (the
// API has createAddOn too, but tests need a capacity, a price and VAT in one step).
import { newId } from '../../core/platform/ids';
import type { Db } from '../../db/connect';
import { nextChangeSeq } from '../../db/sequence';

export async function insertAddOn(
  db: Db,
  eventId: string,
  spec: { name?: string; priceMinor?: number; vatRate?: number; capacity?: number | null } = {},
): Promise<string> {
  const event = await db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  const id = newId();
  const now = new Date().toISOString();
  await db
    .insertInto('add_ons')
    .values({
      id,
      workspace_id: event.workspace_id,
      event_id: eventId,
      name: spec.name ?? 'Dinner',
      description: null,
      price_minor: spec.priceMinor ?? 0,
      vat_rate: spec.vatRate ?? 0,
      capacity: spec.capacity ?? null,
      taken: 0,
      sort_order: 1,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(db),
    })
    .execute();
  return id;
}

/** The places of an add-on taken now. */
export async function addOnTaken(db: Db, addOnId: string): Promise<number> {
  const row = await db
    .selectFrom('add_ons')
    .select('taken')
    .where('id', '=', addOnId)
    .executeTakeFirstOrThrow();
  return row.taken;
}
