// A write that adds a row at a draft event (its settings, a review, a sponsor) held once it has
// read, while the event is removed (test/support/race-harness.ts whileHeld), on SQLite and
// PostgreSQL: PostgreSQL runs several writes at once, so a removal may commit between a write's
// reads and its insert. The removal goes through; the write, finding nothing to refer to, answers as
// for an event that is not there (404 eventNotFound), as it would a moment later. Before
// core/platform/pipeline/load-event.ts (eventRemovedMeanwhile) its insert failed on the foreign key,
// a 500.
import { describe, expect, it } from 'vitest';
import { createSubmission } from '../../core/cfp/create-submission';
import { reviewSubmission } from '../../core/cfp/review-submission';
import { updateCallForSpeakers } from '../../core/cfp/update-call';
import { createEvent } from '../../core/events/create-event';
import { deleteEvent } from '../../core/events/delete-event';
import { updateSignUp } from '../../core/events/update-sign-up';
import { updateInvoicing } from '../../core/finance/update-invoicing';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createSponsor } from '../../core/sponsors/create-sponsor';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, whileHeld, db } = raceHarness('Insert beside event removal');

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

describe('a write adding a row at a draft event, the event removed between its reads and its writes', () => {
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
