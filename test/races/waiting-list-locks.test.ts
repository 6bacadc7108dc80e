// The waiting list's locks (docs/lock-order.md): a place given back locks the ticket type, then the
// waiting entries it offers places to; an offer's end locks its entry, then the type, then the next
// in line. The two meet on the type's row only, in one order: held in the middle, one waits for the
// other and neither is run again (a deadlock's victim). On SQLite the calls run in turn (one writer),
// with the same outcome: every freed place offered in line, the counts right.
import { describe, expect, it } from 'vitest';
import { cancelAttendee } from '../../core/attendees/cancel-attendee';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createEvent } from '../../core/events/create-event';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { addToWaitingList } from '../../core/waiting-list/add-to-waiting-list';
import { removeFromWaitingList } from '../../core/waiting-list/remove-from-waiting-list';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, waitsFor, heldAt, inTurn, db } = raceHarness('Waiting list locks');

/** Two tickets of a type of two places, and three people in line, the first offered the first place freed. */
async function scene() {
  const { eventId } = await call(createEvent, eventBody());
  const { ticketTypeId } = await call(createTicketType, {
    eventId,
    name: 'Seat',
    capacity: 2,
    waitingList: true,
  });
  const tickets: string[] = [];
  for (const n of [1, 2]) {
    const made = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Ticket', lastName: `${n}`, email: `ticket${n}@locks.test` }],
    });
    tickets.push(made.attendees[0].attendeeId);
  }
  const entries: string[] = [];
  for (const n of [1, 2, 3]) {
    const joined = await call(addToWaitingList, {
      eventId,
      ticketTypeId,
      firstName: 'In',
      lastName: `Line${n}`,
      email: `line${n}@locks.test`,
    });
    entries.push(joined.waitingListEntryId);
  }
  await call(cancelAttendee, { eventId, attendeeId: tickets[0] });
  return { eventId, ticketTypeId, secondTicket: tickets[1]!, entries };
}

async function statuses(ticketTypeId: string) {
  const rows = await db()
    .selectFrom('waiting_list_entries')
    .select(['email', 'status'])
    .where('ticket_type_id', '=', ticketTypeId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const type = await db()
    .selectFrom('ticket_types')
    .select('taken')
    .where('id', '=', ticketTypeId)
    .executeTakeFirstOrThrow();
  return { entries: rows.map((r) => `${r.email} ${r.status}`), taken: type.taken };
}

describe('the waiting list and places given back', () => {
  it("an offer's removal waits for a cancellation holding the type, then offers its place to the next in line", async () => {
    const { eventId, ticketTypeId, secondTicket, entries } = await scene();
    const cancel: [AnyOperation, unknown] = [cancelAttendee, { eventId, attendeeId: secondTicket }];
    const remove: [AnyOperation, unknown] = [
      removeFromWaitingList,
      { eventId, waitingListEntryId: entries[0] },
    ];
    // Held as it is about to offer the place it gave back: it holds the type's row.
    const answers = onPostgres
      ? await waitsFor(cancel, /^update "waiting_list_entries"/, remove)
      : await inTurn(cancel, remove);
    expect(answers[0]).toMatchObject({ status: 'cancelled' });
    expect(answers[1]).toMatchObject({ status: 'removed' });
    expect(await statuses(ticketTypeId)).toEqual({
      entries: ['line1@locks.test removed', 'line2@locks.test offered', 'line3@locks.test offered'],
      taken: 2,
    });
  });

  it("a cancellation goes on beside an offer's removal holding its entry, and both places reach the line", async () => {
    const { eventId, ticketTypeId, secondTicket, entries } = await scene();
    const remove: [AnyOperation, unknown] = [
      removeFromWaitingList,
      { eventId, waitingListEntryId: entries[0] },
    ];
    const cancel: [AnyOperation, unknown] = [cancelAttendee, { eventId, attendeeId: secondTicket }];
    // Held with its entry locked, before it changes it: the cancellation needs no lock it holds.
    const answers = onPostgres
      ? await waitsForNothing(remove, cancel)
      : await inTurn(cancel, remove).then((a) => a.reverse());
    expect(answers[0]).toMatchObject({ status: 'removed' });
    expect(answers[1]).toMatchObject({ status: 'cancelled' });
    expect(await statuses(ticketTypeId)).toEqual({
      entries: ['line1@locks.test removed', 'line2@locks.test offered', 'line3@locks.test offered'],
      taken: 2,
    });
  });
});

/** PostgreSQL: the first held at its change of the entry while the second runs through without waiting. */
async function waitsForNothing(held: [AnyOperation, unknown], meanwhile: [AnyOperation, unknown]) {
  const run = await heldAt(held, /^update "waiting_list_entries"/, meanwhile);
  expect(run.meanwhileWaited).toBe(false);
  return run.answers;
}
