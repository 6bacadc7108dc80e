// The WaitingListEntry resource (Tessera extension): a person in line for a sold-out ticket type, where
// they stand and what was offered them. Names and address are personal data (people:read).
import * as v from 'valibot';
import type { WaitingListEntryRow } from '../../db/schema';
import { waitingStatuses } from '../../db/values';
import type { Ctx } from '../platform/context';
import { applyPersonalData } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { waitingPersonal } from './waiting-personal';

export const waitingEntrySchema = v.object({
  waitingListEntryId: uuid('The entry id.'),
  eventId: uuid('The event id.'),
  ticketTypeId: uuid('The ticket type they wait for.'),
  firstName: v.nullable(text('Personal data.')),
  lastName: v.nullable(text('Personal data.')),
  email: v.nullable(text('Where the offer goes. Personal data.')),
  language: text('The language they joined in.'),
  status: v.pipe(
    v.picklist(waitingStatuses),
    v.description(
      'waiting (in line), offered (a place is held for them until offerExpiresUtc), accepted (they registered with it), expired (the offer ran out) or removed.',
    ),
  ),
  position: v.nullable(
    v.pipe(
      v.number(),
      v.integer(),
      v.description('Their place in line (1 is next) while waiting; else null.'),
    ),
  ),
  consentUtc: v.nullable(
    dateTime('When they agreed to be e-mailed about a place; null when the organiser added them.'),
  ),
  offeredUtc: v.nullable(dateTime('When a place was offered them.')),
  offerExpiresUtc: v.nullable(dateTime('Until when the place is held for them.')),
  orderId: v.nullable(uuid('The order they took the place with.')),
  createdUtc: dateTime('When they joined.'),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type WaitingEntryView = v.InferOutput<typeof waitingEntrySchema>;

export function waitingEntryView(
  ctx: Ctx,
  row: Omit<WaitingListEntryRow, 'change_txn'>,
  position: number | null,
): WaitingEntryView {
  return applyPersonalData(
    ctx.actor,
    {
      waitingListEntryId: row.id,
      eventId: row.event_id,
      ticketTypeId: row.ticket_type_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      language: row.language,
      status: row.status,
      position: row.status === 'waiting' ? position : null,
      consentUtc: row.consent_utc,
      offeredUtc: row.offered_utc,
      offerExpiresUtc: row.offer_expires_utc,
      orderId: row.order_id,
      createdUtc: row.created_utc,
      updatedUtc: row.updated_utc,
    },
    waitingPersonal,
    row.erased === 1,
  );
}

/** Where each waiting entry of these stands in its type's line (1 is next), by entry id. */
export async function placesInLine(
  ctx: Ctx,
  rows: readonly WaitingListEntryRow[],
): Promise<Map<string, number>> {
  const places = new Map<string, number>();
  for (const row of rows) {
    if (row.status !== 'waiting') continue;
    const ahead = await ctx.db
      .selectFrom('waiting_list_entries')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('ticket_type_id', '=', row.ticket_type_id)
      .where('status', '=', 'waiting')
      .where((eb) =>
        eb.or([
          eb('position', '<', row.position),
          eb.and([eb('position', '=', row.position), eb('id', '<', row.id)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    places.set(row.id, Number(ahead.n) + 1);
  }
  return places;
}
