// A registration takes its places last (core/attendees/registration-places.ts): on PostgreSQL every
// registration of a ticket type waits on the type's row from its update of the places to its
// commit, so the update comes after the order, the tickets and their messages are written. A
// registration held there does not hold up another of the same type, and the capacity still decides
// at the update: the one that comes second to the places is refused soldOut, its rows undone. Its
// read holds the types it names (FOR KEY SHARE), so the type's removal waits for it and then counts
// its tickets. On SQLite the calls run in turn (one writer), with the same answers.
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createEvent } from '../../core/events/create-event';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { deleteTicketType } from '../../core/tickets/delete-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, heldAt, inTurn, waitsFor, db } = raceHarness('Places taken last');

/** Where a registration has written its order and tickets and not yet taken its places. */
const afterItsRows = /^insert into "outbox"/;

const people = (ticketTypeId: string, lastName: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    ticketTypeId,
    firstName: `Person ${i}`,
    lastName,
    email: `${lastName.toLowerCase()}.${i}@example.org`,
  }));

describe('a registration takes its places last', () => {
  it('one held after writing its tickets does not hold up another of the type; the second to the places is refused', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day', capacity: 3 });
    const held: [AnyOperation, unknown] = [
      registerAttendees,
      { eventId, attendees: people(ticketTypeId, 'Held', 2) },
    ];
    const meanwhile: [AnyOperation, unknown] = [
      registerAttendees,
      { eventId, attendees: people(ticketTypeId, 'Meanwhile', 2) },
    ];
    let answers: unknown[];
    if (onPostgres) {
      const run = await heldAt(held, afterItsRows, meanwhile);
      // Taken first, the places would have made it wait for the held one's commit.
      expect(run.meanwhileWaited).toBe(false);
      answers = run.answers;
    } else answers = (await inTurn(meanwhile, held)).reverse();
    const [first, second] = answers;
    expect(first).toBe('soldOut');
    expect(second).toMatchObject({ attendees: [{ lastName: 'Meanwhile' }, { lastName: 'Meanwhile' }] });
    const tickets = await db()
      .selectFrom('attendees')
      .select('last_name')
      .where('event_id', '=', eventId)
      .execute();
    expect(tickets.map((t) => t.last_name)).toEqual(['Meanwhile', 'Meanwhile']);
    const type = await db()
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', ticketTypeId)
      .executeTakeFirstOrThrow();
    expect(type.taken).toBe(2);
  });

  it("the type's removal waits for a registration that has read it, then refuses: the type is in use", async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    // Held before anything refers to the type: only the read holds it.
    const [registered, removed] = await waitsFor(
      [registerAttendees, { eventId, attendees: people(ticketTypeId, 'Kept', 1) }],
      /^insert into "orders"/,
      [deleteTicketType, { eventId, ticketTypeId }],
    );
    expect(registered).toMatchObject({ attendees: [{ lastName: 'Kept', ticketTypeId }] });
    expect(removed).toBe('inUse');
  });
});
