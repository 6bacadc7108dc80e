// A scan's door and ticket, read together: one round trip on PostgreSQL (db/reads-together.ts)
// where two reads took two. The door is found first, as loadDoor would: a missing door answers
// noDoor before an unknown ticket answers attendeeNotFound.
import type { Placeholders } from '../../db/prepared';
import { prepareTogether } from '../../db/reads-together';
import type { DoorRow } from '../../db/schema';
import type { AttendeeJoinedRow } from '../attendees/attendee-view';
import { attendeeByCodeQuery, attendeeByIdQuery, attendeeOrProblem } from '../attendees/load-attendee';
import type { Ctx } from '../platform/context';
import { doorByIdQuery, doorOrProblem, entrancesQuery, mainEntrance } from './load-door';

type Ticket = { attendeeId: string } | { ticketCode: string };

const byDoorAndId = prepareTogether(
  (db, p: Placeholders<{ eventId: string; doorId: string; attendeeId: string }>) => ({
    doors: { query: doorByIdQuery(db, p.eventId, p.doorId) },
    attendees: { query: attendeeByIdQuery(db, p.eventId, p.attendeeId) },
  }),
);
const byEntranceAndId = prepareTogether((db, p: Placeholders<{ eventId: string; attendeeId: string }>) => ({
  doors: { query: entrancesQuery(db, p.eventId) },
  attendees: { query: attendeeByIdQuery(db, p.eventId, p.attendeeId) },
}));
const byDoorAndCode = prepareTogether(
  (db, p: Placeholders<{ eventId: string; doorId: string; ticketCode: string }>) => ({
    doors: { query: doorByIdQuery(db, p.eventId, p.doorId) },
    attendees: { query: attendeeByCodeQuery(db, p.eventId, p.ticketCode) },
  }),
);
const byEntranceAndCode = prepareTogether((db, p: Placeholders<{ eventId: string; ticketCode: string }>) => ({
  doors: { query: entrancesQuery(db, p.eventId) },
  attendees: { query: attendeeByCodeQuery(db, p.eventId, p.ticketCode) },
}));

function read(ctx: Ctx, eventId: string, doorId: string | undefined, ticket: Ticket) {
  if ('attendeeId' in ticket)
    return doorId === undefined
      ? byEntranceAndId.rows(ctx.db, { eventId, ...ticket })
      : byDoorAndId.rows(ctx.db, { eventId, doorId, ...ticket });
  return doorId === undefined
    ? byEntranceAndCode.rows(ctx.db, { eventId, ...ticket })
    : byDoorAndCode.rows(ctx.db, { eventId, doorId, ...ticket });
}

/** The named door (else the main entrance) and the ticket, or the problem of the first one missing. */
export async function loadDoorAndTicket(
  ctx: Ctx,
  eventId: string,
  doorId: string | undefined,
  ticket: Ticket,
): Promise<{ door: DoorRow; attendee: AttendeeJoinedRow }> {
  const { doors, attendees } = (await read(ctx, eventId, doorId, ticket)) as {
    doors: DoorRow[];
    attendees: AttendeeJoinedRow[];
  };
  const door = doorOrProblem(doorId === undefined ? mainEntrance(doors) : doors[0], doorId);
  return { door, attendee: attendeeOrProblem(attendees[0], ticket) };
}
