import * as v from 'valibot';
import type { DoorRow, EventRow } from '../../db/schema';
import { type AttendeeJoinedRow, attendeeSchema, attendeeView } from '../attendees';
import type { Ctx } from '../platform/context';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, uuid } from '../platform/schemas';
import { refusals } from './check-in-view';
import { doorAndTicket, doorAndTicketReads } from './door-and-ticket';
import { doorKinds } from './door-view';
import { doorRemovedMeanwhile } from './load-door';
import { applyScan } from './scanner';

export const checkInResultSchema = v.object({
  result: v.pipe(
    v.picklist(['welcome', 'again', 'out', ...refusals]),
    v.description(
      'welcome (first time), again, out, or a refusal: cancelled, unpaid, notOnList, noAddOn, full, noReentry.',
    ),
  ),
  admitted: v.pipe(v.boolean(), v.description('Whether the attendee was let in.')),
  checkInId: v.pipe(
    v.number(),
    v.integer(),
    v.description('The scan recorded (refused scans are recorded too).'),
  ),
  firstCheckInUtc: v.nullable(
    dateTime('First check-in at the main entrance; null while there has been none.'),
  ),
  door: v.object({ doorId: uuid('The door.'), name: v.string(), kind: v.picklist(doorKinds) }),
  attendee: attendeeSchema,
});

export const checkInAttendee = defineOperation({
  name: 'checkInAttendee',
  title: 'Check an attendee in',
  description:
    'Scans a ticket at a door (the main entrance by default). A refused scan is an answer with admitted false, not an error. Needs checkins:write.',
  scope: 'checkins:write',
  effect: 'write',
  activity: { none: 'A scan is kept in the list of check-ins, with its door and time.' },
  module: 'checkin',
  doors: true,
  problems: ['attendeeNotFound', 'noDoor'],
  idempotent: true,
  input: v.object({
    eventId: uuid('The event id.'),
    attendeeId: uuid('The attendee id.'),
    doorId: v.optional(uuid('Default: the main entrance.')),
    direction: v.optional(v.pipe(v.picklist(['in', 'out']), v.description('in (default) or out.'))),
  }),
  output: checkInResultSchema,
  readsWithEvent: (input) => doorAndTicketReads(input.doorId, { attendeeId: input.attendeeId }),
  namedRowGone: (ctx, input) => doorRemovedMeanwhile(ctx, input.eventId, input.doorId),
  async handler(ctx, input, { event, rows }) {
    const { door, attendee } = doorAndTicket(ctx, rows, input.doorId, { attendeeId: input.attendeeId });
    return scanAtDoor(ctx, event, door, attendee, input.direction ?? 'in');
  },
});

/** One live scan of a ticket at a door, answered as both check-ins (by id and by code) answer. */
export async function scanAtDoor(
  ctx: Ctx,
  event: EventRow,
  door: DoorRow,
  attendee: AttendeeJoinedRow,
  direction: 'in' | 'out',
): Promise<v.InferOutput<typeof checkInResultSchema>> {
  const outcome = await applyScan(ctx, event, door, attendee, {
    direction,
    scannedUtc: ctx.clock.now().toISOString(),
    offline: false,
  });
  return {
    result: outcome.result,
    admitted: outcome.admitted,
    checkInId: outcome.checkInId,
    firstCheckInUtc: outcome.attendee.checked_in_utc,
    door: { doorId: door.id, name: door.name, kind: door.kind },
    attendee: attendeeView(ctx.actor, outcome.attendee, ctx.request.origin),
  };
}
