// A scan's door and ticket, read with its event: one round trip on PostgreSQL where three reads took
// three (db/reads-together.ts). The check-ins declare them (readsWithEvent), so invoke reads them
// with the event it checks the rules against. The door is judged first, as loadDoor would: a missing
// door answers noDoor before an unknown ticket answers attendeeNotFound.
import type { Db } from '../../db/connect';
import type { Placeholders } from '../../db/prepared';
import type { DoorRow } from '../../db/schema';
import type { AttendeeJoinedRow } from '../attendees';
import { attendeeByCodeQuery, attendeeByIdQuery, attendeeOrProblem } from '../attendees';
import type { Ctx } from '../platform/context';
import { withEvent } from '../platform/pipeline/load-event';
import type { EventPlace, ReadsWithEvent } from '../platform/pipeline/operation';
import { doorByIdQuery, doorOrProblem, entrancesQuery, mainEntrance } from './load-door';

type Ticket = { attendeeId: string } | { ticketCode: string };

/** The rows a scan reads beside its event: the door by id (or the entrances), and the ticket. */
export interface ScanRows {
  doors: DoorRow[];
  attendees: AttendeeJoinedRow[];
}

/** A scan's placeholders: its own, and the event's place (withEvent). */
type At<A> = Placeholders<A & EventPlace>;

const door = {
  byId: (db: Db, p: At<{ doorId: string }>) => ({ query: doorByIdQuery(db, p.eventId, p.doorId) }),
  entrances: (db: Db, p: At<object>) => ({ query: entrancesQuery(db, p.eventId) }),
};
const ticket = {
  byId: (db: Db, p: At<{ attendeeId: string }>) => ({
    query: attendeeByIdQuery(db, p.eventId, p.attendeeId),
  }),
  byCode: (db: Db, p: At<{ ticketCode: string }>) => ({
    query: attendeeByCodeQuery(db, p.eventId, p.ticketCode),
  }),
};

// Prepared once each, by ticket and door: a prepared statement's text never changes between calls.
const prepared = {
  ticketById: {
    atDoor: withEvent((db, p: At<{ doorId: string; attendeeId: string }>) => ({
      doors: door.byId(db, p),
      attendees: ticket.byId(db, p),
    })),
    atEntrance: withEvent((db, p: At<{ attendeeId: string }>) => ({
      doors: door.entrances(db, p),
      attendees: ticket.byId(db, p),
    })),
  },
  ticketByCode: {
    atDoor: withEvent((db, p: At<{ doorId: string; ticketCode: string }>) => ({
      doors: door.byId(db, p),
      attendees: ticket.byCode(db, p),
    })),
    atEntrance: withEvent((db, p: At<{ ticketCode: string }>) => ({
      doors: door.entrances(db, p),
      attendees: ticket.byCode(db, p),
    })),
  },
};

/** The reads of a scan at `doorId` (else the main entrance) of `ticket`, for readsWithEvent. */
export function doorAndTicketReads(doorId: string | undefined, ticket: Ticket): ReadsWithEvent<ScanRows> {
  if ('attendeeId' in ticket) {
    const { atDoor, atEntrance } = prepared.ticketById;
    return doorId === undefined ? atEntrance.for(ticket) : atDoor.for({ doorId, ...ticket });
  }
  const { atDoor, atEntrance } = prepared.ticketByCode;
  return doorId === undefined ? atEntrance.for(ticket) : atDoor.for({ doorId, ...ticket });
}

/**
 * The named door (else the main entrance) and the ticket, or the problem of the first one missing,
 * from the rows invoke read with the event (doorAndTicketReads).
 */
export function doorAndTicket(
  ctx: Ctx,
  rows: ScanRows,
  doorId: string | undefined,
  ticket: Ticket,
): { door: DoorRow; attendee: AttendeeJoinedRow } {
  const door = doorOrProblem(doorId === undefined ? mainEntrance(rows.doors) : rows.doors[0], doorId);
  const attendee = rows.attendees[0];
  if (!attendee && 'ticketCode' in ticket) ctx.ticketMisses?.add(ticket.ticketCode);
  return { door, attendee: attendeeOrProblem(attendee, ticket) };
}
