// A scan's door and ticket, read with its event: one round trip on PostgreSQL where three reads took
// three (db/reads-together.ts). The check-ins declare them (readsWithEvent), so invoke reads them
// with the event it checks the rules against. The door is judged first, as loadDoor would: a missing
// door answers noDoor before an unknown ticket answers attendeeNotFound.
import type { Placeholders } from '../../db/prepared';
import type { DoorRow } from '../../db/schema';
import type { AttendeeJoinedRow } from '../attendees';
import { attendeeByCodeQuery, attendeeByIdQuery, attendeeOrProblem } from '../attendees';
import type { Ctx } from '../platform/context';
import { withEvent } from '../platform/pipeline/load-event';
import type { ReadsWithEvent } from '../platform/pipeline/operation';
import { doorByIdQuery, doorOrProblem, entrancesQuery, mainEntrance } from './load-door';

type Ticket = { attendeeId: string } | { ticketCode: string };

/** Every placeholder a scan's reads may name; each pair of reads uses the ones it needs. */
type ScanArgs = { eventId: string; doorId: string; attendeeId: string; ticketCode: string };

/** The reads of the door (by id, or the entrances) and of the ticket (by id, or by code), with the event. */
const scanReads = (door: 'byId' | 'entrances', ticket: 'byId' | 'byCode') =>
  withEvent((db, p: Placeholders<ScanArgs>) => ({
    doors: {
      query: door === 'byId' ? doorByIdQuery(db, p.eventId, p.doorId) : entrancesQuery(db, p.eventId),
    },
    attendees: {
      query:
        ticket === 'byId'
          ? attendeeByIdQuery(db, p.eventId, p.attendeeId)
          : attendeeByCodeQuery(db, p.eventId, p.ticketCode),
    },
  }));

// Prepared once each, by ticket and door: a prepared statement's text never changes between calls.
const prepared = {
  ticketById: { atDoor: scanReads('byId', 'byId'), atEntrance: scanReads('entrances', 'byId') },
  ticketByCode: { atDoor: scanReads('byId', 'byCode'), atEntrance: scanReads('entrances', 'byCode') },
};

/** The reads of a scan at `doorId` (else the main entrance) of `ticket`, for readsWithEvent. */
export function doorAndTicketReads(doorId: string | undefined, ticket: Ticket): ReadsWithEvent {
  const byTicket = prepared['attendeeId' in ticket ? 'ticketById' : 'ticketByCode'];
  const reads = doorId === undefined ? byTicket.atEntrance : byTicket.atDoor;
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
  const attendee = (rows.attendees as AttendeeJoinedRow[])[0];
  if (!attendee && 'ticketCode' in ticket) ctx.ticketMisses?.add(ticket.ticketCode);
  return { door, attendee: attendeeOrProblem(attendee, ticket) };
}
