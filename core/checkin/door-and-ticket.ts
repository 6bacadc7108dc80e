// A scan's door and ticket, read with its event: one round trip on PostgreSQL where three reads took
// three (db/reads-together.ts). The check-ins declare them (readsWithEvent), so invoke reads them
// with the event it checks the rules against. The door is judged first, as loadDoor would: a missing
// door answers noDoor before an unknown ticket answers attendeeNotFound.
import type { Placeholders } from '../../db/prepared';
import type { DoorRow } from '../../db/schema';
import type { AttendeeJoinedRow } from '../attendees/attendee-view';
import { attendeeByCodeQuery, attendeeByIdQuery, attendeeOrProblem } from '../attendees/load-attendee';
import type { Ctx } from '../platform/context';
import { withEvent } from '../platform/pipeline/load-event';
import type { ReadsWithEvent } from '../platform/pipeline/operation';
import { doorByIdQuery, doorOrProblem, entrancesQuery, mainEntrance } from './load-door';

type Ticket = { attendeeId: string } | { ticketCode: string };

const byDoorAndId = withEvent(
  (db, p: Placeholders<{ eventId: string; doorId: string; attendeeId: string }>) => ({
    doors: { query: doorByIdQuery(db, p.eventId, p.doorId) },
    attendees: { query: attendeeByIdQuery(db, p.eventId, p.attendeeId) },
  }),
);
const byEntranceAndId = withEvent((db, p: Placeholders<{ eventId: string; attendeeId: string }>) => ({
  doors: { query: entrancesQuery(db, p.eventId) },
  attendees: { query: attendeeByIdQuery(db, p.eventId, p.attendeeId) },
}));
const byDoorAndCode = withEvent(
  (db, p: Placeholders<{ eventId: string; doorId: string; ticketCode: string }>) => ({
    doors: { query: doorByIdQuery(db, p.eventId, p.doorId) },
    attendees: { query: attendeeByCodeQuery(db, p.eventId, p.ticketCode) },
  }),
);
const byEntranceAndCode = withEvent((db, p: Placeholders<{ eventId: string; ticketCode: string }>) => ({
  doors: { query: entrancesQuery(db, p.eventId) },
  attendees: { query: attendeeByCodeQuery(db, p.eventId, p.ticketCode) },
}));

/** The reads of a scan at `doorId` (else the main entrance) of `ticket`, for readsWithEvent. */
export function doorAndTicketReads(doorId: string | undefined, ticket: Ticket): ReadsWithEvent {
  const reads =
    'attendeeId' in ticket
      ? doorId === undefined
        ? byEntranceAndId
        : byDoorAndId
      : doorId === undefined
        ? byEntranceAndCode
        : byDoorAndCode;
  return { reads: reads as ReadsWithEvent['reads'], args: { doorId, ...ticket } };
}

/**
 * The named door (else the main entrance) and the ticket, or the problem of the first one missing:
 * from what invoke read with the event, else read now.
 */
export async function loadDoorAndTicket(
  ctx: Ctx,
  eventId: string,
  doorId: string | undefined,
  ticket: Ticket,
): Promise<{ door: DoorRow; attendee: AttendeeJoinedRow }> {
  const { reads, args } = doorAndTicketReads(doorId, ticket);
  const rows =
    ctx.readWithEvent ?? (await reads.rows(ctx.db, { ...args, eventId, workspaceId: ctx.actor.workspaceId }));
  const doors = rows.doors as DoorRow[];
  const door = doorOrProblem(doorId === undefined ? mainEntrance(doors) : doors[0], doorId);
  return { door, attendee: attendeeOrProblem((rows.attendees as AttendeeJoinedRow[])[0], ticket) };
}
