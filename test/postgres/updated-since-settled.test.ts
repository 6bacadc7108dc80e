// A client polls with updatedSince, passing the newest updatedUtc it saw, whatever order the list is
// in. On PostgreSQL a write that began first (the earlier moment) may commit after a later one: a
// page in an order of its own (shifts in time order, an attendee list newest first) that showed the
// later change while the earlier was in flight would let the client pass the earlier one for good.
// Such pages show only settled changes too (core/platform/pipeline/paging.ts changedSince). The
// test decides which write begins and commits when (test/support/stepped-write.ts), not timing.
// PostgreSQL only (`npm run test:postgres`).
import { describe, expect, it } from 'vitest';
import { listAttendees } from '../../core/attendees/list-attendees';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { updateAttendee } from '../../core/attendees/update-attendee';
import { createShift } from '../../core/crew/create-shift';
import { listShifts } from '../../core/crew/list-shifts';
import { createEvent } from '../../core/events/create-event';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { steppedWrite } from '../support/stepped-write';
import { onPostgres } from '../support/test-store';

const { call, callThrough, db } = raceHarness('updatedSince settled');

const shift = (eventId: string, startsLocal: string, endsLocal: string) => ({
  eventId,
  role: 'door',
  place: { kind: 'area', name: 'Hall' },
  startsLocal,
  endsLocal,
  needed: 2,
});

/** Resolves once the clock shows a later millisecond than when called. */
async function clockMoves(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setTimeout(resolve, 1));
}

type Shifts = { data: { shiftId: string; updatedUtc: string }[] };

describe.skipIf(!onPostgres)(
  'updatedSince on a list in another order than oldest change first (PostgreSQL)',
  () => {
    it('never lets a poller passing the newest updatedUtc miss a change whose write began first and committed last', async () => {
      const { eventId } = await call(createEvent, eventBody());
      let since = new Date(Date.now() - 60_000).toISOString();
      const seen = new Set<string>();
      const poll = async () => {
        const page: Shifts = await call(listShifts, { eventId, updatedSince: since, limit: 500 });
        for (const s of page.data) {
          seen.add(s.shiftId);
          if (s.updatedUtc > since) since = s.updatedUtc;
        }
      };

      // A write begins (its transaction id and its moment first), a later one commits before it.
      const early = steppedWrite(db(), new Date(Date.now() - 1_000));
      const earlyShift = callThrough(
        early.writes,
        createShift,
        shift(eventId, '2027-05-01T08:00', '2027-05-01T12:00'),
      );
      await early.began;
      early.go.fire();
      await early.written;
      const late = await call(createShift, shift(eventId, '2027-05-01T06:00', '2027-05-01T08:00'));
      await poll();
      early.commit.fire();
      const { shiftId } = await earlyShift;
      await poll();

      expect([...seen].sort()).toEqual([shiftId, late.shiftId].sort());
    });

    it('does the same on a list newest first (attendees, sort=-created)', async () => {
      const { eventId } = await call(createEvent, eventBody());
      const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
      const { attendees } = await call(registerAttendees, {
        eventId,
        attendees: ['Ada', 'Bo'].map((name) => ({
          ticketTypeId,
          firstName: name,
          lastName: 'Poll',
          email: `${name.toLowerCase()}@example.org`,
        })),
      });
      const [ada, bo] = attendees.map((a: { attendeeId: string }) => a.attendeeId) as [string, string];
      // Polled from after the registrations: only the corrections below are news.
      await clockMoves();
      let since = new Date().toISOString();
      const seen = new Set<string>();
      const poll = async () => {
        const page: { data: { attendeeId: string; updatedUtc: string }[] } = await call(listAttendees, {
          eventId,
          sort: '-created',
          updatedSince: since,
          limit: 500,
        });
        for (const a of page.data) {
          seen.add(a.attendeeId);
          if (a.updatedUtc > since) since = a.updatedUtc;
        }
      };

      const early = steppedWrite(db(), new Date(since));
      const corrected = callThrough(early.writes, updateAttendee, {
        eventId,
        attendeeId: ada,
        firstName: 'Adah',
      });
      await early.began;
      early.go.fire();
      await early.written;
      // The later write's moment is a later millisecond.
      await clockMoves();
      await call(updateAttendee, { eventId, attendeeId: bo, firstName: 'Bob' });
      await poll();
      early.commit.fire();
      await corrected;
      await poll();

      expect([...seen].sort()).toEqual([ada, bo].sort());
    });
  },
);
