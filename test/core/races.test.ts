// The guards that keep concurrent writes right, each met by two calls that have both done their
// reads before either writes (test/support/interleave.ts): the last place is sold once
// (core/sales/places.ts), a ticket is welcomed once and someone let back in holds one place inside
// (core/checkin/scanner.ts). Without a guard both calls would win, every run, on either store: the
// real use cases run through invoke, only the write queue is swapped for the interleaving one.
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { checkInAttendee } from '../../core/checkin/check-in-attendee';
import { createDoor } from '../../core/checkin/create-door';
import { insideDoor } from '../../core/checkin/door-inside';
import { createEvent } from '../../core/events/create-event';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, atOnce, db } = raceHarness('Races');

async function eventWithTickets(capacity: number | null) {
  const { eventId } = await call(createEvent, eventBody());
  const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity });
  return { eventId, ticketTypeId };
}

const person = (ticketTypeId: string, name: string) => ({
  ticketTypeId,
  firstName: name,
  lastName: 'Racer',
  email: `${name.toLowerCase()}@example.org`,
});

const doorInside = (doorId: string) => insideDoor(db(), doorId);

describe('two calls that have both read before either writes', () => {
  it('sells the last place once when two registrations read it at the same time', async () => {
    const { eventId, ticketTypeId } = await eventWithTickets(1);
    const answers = await atOnce(
      [registerAttendees, { eventId, attendees: [person(ticketTypeId, 'Ada')] }],
      [registerAttendees, { eventId, attendees: [person(ticketTypeId, 'Bo')] }],
    );
    const outcomes = answers.map((a) => (typeof a === 'string' ? a : 'registered'));
    expect(outcomes.sort()).toEqual(['registered', 'soldOut']);
    const type = await db()
      .selectFrom('ticket_types')
      .select(['taken', 'capacity'])
      .where('id', '=', ticketTypeId)
      .executeTakeFirstOrThrow();
    expect(type).toEqual({ taken: 1, capacity: 1 });
    const attendees = await db()
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', eventId)
      .execute();
    expect(attendees).toHaveLength(1);
  });

  it('welcomes a ticket once when two scanners at one door scan it at the same time; the other says again', async () => {
    const { eventId, ticketTypeId } = await eventWithTickets(null);
    const { doorId } = await call(createDoor, { eventId, name: 'Main entrance', main: true });
    const { attendees } = await call(registerAttendees, { eventId, attendees: [person(ticketTypeId, 'Cy')] });
    const scan = { eventId, attendeeId: attendees[0].attendeeId };
    const answers = await atOnce([checkInAttendee, scan], [checkInAttendee, scan]);
    expect(answers.map((a) => a.result ?? a).sort()).toEqual(['again', 'welcome']);
    expect(answers.map((a) => a.admitted)).toEqual([true, true]);
    expect(await doorInside(doorId)).toBe(1);
  });

  it('keeps one place inside when two scanners let the same person back in at the same time', async () => {
    const { eventId, ticketTypeId } = await eventWithTickets(null);
    const { doorId } = await call(createDoor, { eventId, name: 'Main entrance', main: true, reentry: true });
    const { attendees } = await call(registerAttendees, { eventId, attendees: [person(ticketTypeId, 'Di')] });
    const scan = { eventId, attendeeId: attendees[0].attendeeId };
    expect((await call(checkInAttendee, scan)).result).toBe('welcome');
    expect((await call(checkInAttendee, { ...scan, direction: 'out' })).result).toBe('out');
    expect(await doorInside(doorId)).toBe(0);

    const answers = await atOnce([checkInAttendee, scan], [checkInAttendee, scan]);
    expect(answers.map((a) => a.result ?? a)).toEqual(['again', 'again']);
    expect(answers.map((a) => a.admitted)).toEqual([true, true]);
    expect(await doorInside(doorId)).toBe(1);
  });
});
