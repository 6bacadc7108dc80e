// A write that changes a draft event's own settings held once it has read, while the event is
// removed (test/support/race-harness.ts whileHeld), on SQLite and PostgreSQL: PostgreSQL runs
// several writes at once, so a removal may commit between a write's reads and its insert. The
// removal goes through; the write, finding nothing to refer to, answers as for an event that is not
// there (404 eventNotFound), as it would a moment later. Before core/platform/pipeline/load-event.ts
// (eventRemovedMeanwhile) its insert failed on the foreign key, a 500. Every other write holds its
// event from its first read: the removal waits for it (the cases at the end).
import { describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createSubmission } from '../../core/cfp/create-submission';
import { reviewSubmission } from '../../core/cfp/review-submission';
import { updateCallForSpeakers } from '../../core/cfp/update-call';
import { createDoor } from '../../core/checkin/create-door';
import { createEvent } from '../../core/events/create-event';
import { deleteEvent } from '../../core/events/delete-event';
import { updateSignUp } from '../../core/events/update-sign-up';
import { updateInvoicing } from '../../core/finance/update-invoicing';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createSponsor } from '../../core/sponsors/create-sponsor';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, whileHeld, waitsFor, db } = raceHarness('Insert beside event removal');

interface Write {
  /** What the write adds, as the case's title names it. */
  what: string;
  operation: AnyOperation;
  /** Its input at a fresh event (made here when it needs a row of the event first). */
  input(eventId: string): Promise<Record<string, unknown>>;
}

const writes: Write[] = [
  {
    what: 'sign-up settings',
    operation: updateSignUp,
    input: async (eventId) => ({ eventId, paymentInstructions: 'Pay at the door.' }),
  },
  {
    what: 'invoicing settings',
    operation: updateInvoicing,
    input: async (eventId) => ({ eventId, sellerName: 'Racing Ltd' }),
  },
  {
    what: 'a call for speakers',
    operation: updateCallForSpeakers,
    input: async (eventId) => ({ eventId, closesUtc: '2027-04-01T12:00:00Z' }),
  },
];

/** Writes adding a row at the event: they hold it from their first read. */
const adding: Write[] = [
  {
    what: 'a review',
    operation: reviewSubmission,
    async input(eventId) {
      const { submissionId } = await call(createSubmission, {
        eventId,
        title: 'Racing removals',
        abstract: 'Two at once.',
        format: 'talk',
        language: 'en',
        speakers: [{ name: 'Ada', email: 'ada@example.org' }],
      });
      return { eventId, submissionId, reviewer: 'rev@example.org', score: 4 };
    },
  },
  {
    what: 'a sponsor',
    operation: createSponsor,
    input: async (eventId) => ({ eventId, name: 'Booth' }),
  },
];

describe('a write changing a draft event’s settings, the event removed between its reads and its writes', () => {
  it.each(writes.map((w) => [w.what, w] as const))(
    '%s: the removal goes through, the write answers 404 eventNotFound',
    async (_what, write) => {
      const { eventId } = await call(createEvent, eventBody());
      const input = await write.input(eventId);
      const [written, removed] = await whileHeld([write.operation, input], [deleteEvent, { eventId }]);
      expect(removed).toMatchObject({ eventId, deleted: true });
      expect(written).toBe('eventNotFound');
      const left = await db().selectFrom('events').select('id').where('id', '=', eventId).execute();
      expect(left).toEqual([]);
    },
  );
});

describe('a removal of a draft event held once it has read while another removal of it ends', () => {
  it('answers 404 eventNotFound, not a fault', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const [second, first] = await whileHeld([deleteEvent, { eventId }], [deleteEvent, { eventId }]);
    expect(first).toMatchObject({ eventId, deleted: true });
    expect(second).toBe('eventNotFound');
  });
});

// A write adding a row at the event (a review, a sponsor), or one that locks a row of the event (the
// ticket type a door admits, the ticket type whose places a registration takes) and then inserts a
// row referring to the event, beside the event's removal,
// which locks the event, then its rows as they cascade. On PostgreSQL the two met in a circle and
// one was ended (deadlock detected) before every write other than a change of the event held the
// event from its first read (load-event.ts). Held before its insert while the removal runs: the
// removal waits for the write, then answers as after it.
describe('a write holding a row of a draft event beside the event’s removal', () => {
  it.each(adding.map((w) => [w.what, w] as const))(
    '%s: made, then removed with the event',
    async (_what, write) => {
      const { eventId } = await call(createEvent, eventBody());
      const input = await write.input(eventId);
      const [written, removed] = await waitsFor([write.operation, input], /^(insert|update|delete) /, [
        deleteEvent,
        { eventId },
      ]);
      expect(written).not.toBeTypeOf('string');
      expect(removed).toMatchObject({ eventId, deleted: true });
    },
  );

  it('a door admitting a ticket type: made, then removed with the event', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const [made, removed] = await waitsFor(
      [createDoor, { eventId, name: 'Side', ticketTypeIds: [ticketTypeId] }],
      /^insert into "doors"/,
      [deleteEvent, { eventId }],
    );
    expect(made).toMatchObject({ ticketTypeIds: [ticketTypeId] });
    expect(removed).toMatchObject({ eventId, deleted: true });
    expect(await db().selectFrom('doors').select('id').where('event_id', '=', eventId).execute()).toEqual([]);
  });

  it('a registration taking places: registered, then the removal refused (inUse)', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day', capacity: 10 });
    const [registered, removed] = await waitsFor(
      [
        registerAttendees,
        {
          eventId,
          attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Early', email: 'ada@example.org' }],
        },
      ],
      /^insert into "orders"/,
      [deleteEvent, { eventId }],
    );
    expect(registered).toMatchObject({ attendees: [{ ticketTypeId }] });
    expect(removed).toBe('inUse');
  });
});
