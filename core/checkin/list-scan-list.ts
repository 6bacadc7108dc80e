// What a door's scanner keeps to decide offline: one row per ticket, with a SHA-256 of the ticket's
// code instead of the code (the phone hashes what it reads and looks it up, so a lost phone holds
// no ticket that could be shown at another door), the facts the scanner rules read, and the name
// only where the key may read people.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { attendeeQuery } from '../attendees';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, planPage, readPage } from '../platform/pipeline/paging';
import { personalDataFor } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { isValidTicket } from '../sales';

/** The hex SHA-256 of a ticket code as the scanner hashes it: the 26 capitals of the code. */
export function ticketCodeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

export const scanListEntrySchema = v.object({
  attendeeId: uuid('The attendee; what an offline scan is uploaded with.'),
  codeSha256: v.pipe(
    v.string(),
    v.description(
      "SHA-256 of the ticket's code (its 26 capitals, UTF-8), in lowercase hex: the scanner hashes the code it reads and looks it up here.",
    ),
  ),
  status: v.pipe(v.picklist(['active', 'cancelled']), v.description('active or cancelled.')),
  valid: v.pipe(v.boolean(), v.description('True when not cancelled and the order is paid or free.')),
  ticketTypeId: uuid('The ticket type (a door may admit only some).'),
  ticketTypeName: text('Name of the ticket type.'),
  addOnIds: v.pipe(v.array(v.string()), v.description('The add-ons the ticket holds (a door may need one).')),
  firstCheckInUtc: v.nullable(
    dateTime('First check-in at the main entrance; null while there has been none.'),
  ),
  firstName: v.nullable(text('Personal data: only with people:read.')),
  lastName: v.nullable(text('Personal data: only with people:read.')),
  updatedUtc: dateTime('Last change of the ticket or its order; pass the newest as updatedSince.'),
  personalData: personalDataSchema,
});

export const listScanList = defineOperation({
  name: 'listScanList',
  title: "A door scanner's ticket list",
  description:
    "Lists an event's tickets for a door scanner deciding offline: a SHA-256 of each code (never the code), status, type, add-ons, first check-in; names need people:read. Needs checkins:write.",
  extension: true,
  scope: 'checkins:write',
  effect: 'read',
  module: 'checkin',
  doors: true,
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: v.object({
    data: v.array(scanListEntrySchema),
    hasMore: v.boolean(),
    nextCursor: v.nullable(v.string()),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'scanList', filters: { eventId: event.id } });
    const query = attendeeQuery(ctx.db).where('attendees.event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('attendees')));
    const ids = rows.map((r) => r.id);
    const held = new Map<string, string[]>();
    if (ids.length > 0) {
      const addOns = await ctx.db
        .selectFrom('attendee_add_ons')
        .select(['attendee_id', 'add_on_id'])
        .where('attendee_id', 'in', ids)
        .orderBy('add_on_id')
        .execute();
      for (const a of addOns) held.set(a.attendee_id, [...(held.get(a.attendee_id) ?? []), a.add_on_id]);
    }
    return finishPage(ctx, plan, rows, positionOfRow, (row) => {
      const personalData = personalDataFor(ctx.actor, row.erased === 1);
      const named = personalData === 'included';
      return {
        attendeeId: row.id,
        codeSha256: ticketCodeHash(row.ticket_code),
        status: row.status,
        valid: isValidTicket(row.status, row.order_status),
        ticketTypeId: row.ticket_type_id,
        ticketTypeName: row.ticket_type_name,
        addOnIds: held.get(row.id) ?? [],
        firstCheckInUtc: row.checked_in_utc,
        firstName: named ? row.first_name : null,
        lastName: named ? row.last_name : null,
        updatedUtc: row.updated_utc,
        personalData,
      };
    });
  },
});
