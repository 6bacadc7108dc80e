// A scan's door and ticket read with its event (core/checkin/door-and-ticket.ts, readsWithEvent,
// db/reads-together.ts): on PostgreSQL one statement whose rows travel as JSON, on SQLite the reads
// one after another. Both stores: the rows are exactly those the reads alone answer (every column,
// its type included), for a door by id or the main entrance and a ticket by id or code; a missing
// door answers noDoor before a missing ticket; another workspace's event is not found.
import { describe, expect, it } from 'vitest';
import { findAttendeeByCode, loadAttendee } from '../../core/attendees/load-attendee';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createDoor } from '../../core/checkin/create-door';
import { doorAndTicket, doorAndTicketReads } from '../../core/checkin/door-and-ticket';
import { loadDoor } from '../../core/checkin/load-door';
import { createEvent } from '../../core/events/create-event';
import type { Ctx } from '../../core/platform/context';
import { loadEvent } from '../../core/platform/pipeline/load-event';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, db } = raceHarness('Door and ticket');

/** What the reads need of a call: the database, and the caller's workspace (the event's). */
async function ctxOf(eventId: string): Promise<Ctx> {
  const { workspace_id } = await db()
    .selectFrom('events')
    .select('workspace_id')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  return { db: db(), actor: { workspaceId: workspace_id } } as Ctx;
}

/** The door and ticket as invoke reads them with the event (readsWithEvent), then picks them. */
async function loadDoorAndTicket(
  ctx: Ctx,
  eventId: string,
  doorId: string | undefined,
  ticket: { attendeeId: string } | { ticketCode: string },
) {
  const rows = await doorAndTicketReads(doorId, ticket).rows(ctx.db, {
    eventId,
    workspaceId: ctx.actor.workspaceId,
  });
  return doorAndTicket(ctx, rows, doorId, ticket);
}

describe('a scan’s door and ticket read together', () => {
  it('answers the rows the reads alone answer, every column and type', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day', capacity: 5 });
    const side = await call(createDoor, { eventId, name: 'Side' });
    await call(createDoor, { eventId, name: 'Front', main: true });
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' }],
    });
    const attendeeId = attendees[0].attendeeId as string;
    const ctx = await ctxOf(eventId);
    const alone = await loadAttendee(ctx, eventId, attendeeId);
    const event = await loadEvent(ctx, eventId);
    const code = alone.ticket_code!;
    expect(await findAttendeeByCode(ctx, eventId, code)).toEqual(alone);

    for (const doorId of [side.doorId, undefined]) {
      const door = await loadDoor(ctx, eventId, doorId);
      for (const ticket of [{ attendeeId }, { ticketCode: code }]) {
        const together = await loadDoorAndTicket(ctx, eventId, doorId, ticket);
        // toStrictEqual: a number read back as text (or the reverse) would differ.
        expect(together.door).toStrictEqual(door);
        expect(together.attendee).toStrictEqual(alone);
        const reads = doorAndTicketReads(doorId, ticket);
        const withEvent = await reads.rows(db(), { eventId, workspaceId: ctx.actor.workspaceId });
        expect(withEvent.events).toStrictEqual([event]);
        const elsewhere = await reads.rows(db(), { eventId, workspaceId: 'another' });
        expect(elsewhere.events).toEqual([]);
      }
    }
    expect((await loadDoorAndTicket(ctx, eventId, undefined, { attendeeId })).door.name).toBe('Front');
  });

  it('answers noDoor before attendeeNotFound, and attendeeNotFound for an unknown id or code', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const ctx = await ctxOf(eventId);
    const nobody = '01900000-0000-7000-8000-000000000000';
    await expect(loadDoorAndTicket(ctx, eventId, undefined, { attendeeId: nobody })).rejects.toMatchObject({
      code: 'noDoor',
    });
    await expect(loadDoorAndTicket(ctx, eventId, nobody, { ticketCode: 'NOPE' })).rejects.toMatchObject({
      code: 'noDoor',
    });
    const { doorId } = await call(createDoor, { eventId, name: 'Front', main: true });
    await expect(loadDoorAndTicket(ctx, eventId, doorId, { attendeeId: nobody })).rejects.toMatchObject({
      code: 'attendeeNotFound',
      detail: `No attendee ${nobody} at this event.`,
    });
    await expect(loadDoorAndTicket(ctx, eventId, undefined, { ticketCode: 'NOPE' })).rejects.toMatchObject({
      code: 'attendeeNotFound',
      detail: 'No ticket of this event has this code.',
    });
  });
});
