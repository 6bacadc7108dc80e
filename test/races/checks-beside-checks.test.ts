// Two changes of the same row whose start and end each are checked against the row's other one: one
// moves the start later, the other the end earlier, each right alone, together crossed. On
// PostgreSQL both read before either writes (test/support/interleave.ts); the change that reads
// second must wait for the first and check against it, so one is answered and the other refused as
// a single crossing change is (400 invalidRequest), never a fault, and the row kept stays in order.
// Before each change locked its row on the read (db/dialect.ts changingRow), both were answered:
// each wrote its whole pair of times as it had read them, so the first change was silently lost
// (or, where only the sent column is written, the row crossed and a CHECK answered 500).
// SQLite writes one call at a time, so two calls there never both read first: they run in turn.
import { describe, expect, it } from 'vitest';
import { createShift } from '../../core/crew/create-shift';
import { updateShift } from '../../core/crew/update-shift';
import { createEvent } from '../../core/events/create-event';
import { updateEvent } from '../../core/events/update-event';
import { requestStay } from '../../core/logistics/request-stay';
import { updateStay } from '../../core/logistics/update-stay';
import { updateTravel } from '../../core/logistics/update-travel';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createSession } from '../../core/programme/create-session';
import { updateSession } from '../../core/programme/update-session';
import { createSurvey } from '../../core/surveys/create-survey';
import { updateSurvey } from '../../core/surveys/update-survey';
import { createDiscountCode } from '../../core/tickets/create-discount-code';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { updateDiscountCode } from '../../core/tickets/update-discount-code';
import { updateTicketType } from '../../core/tickets/update-ticket-type';
import type { Database } from '../../db/schema';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { raceRows } from '../support/race-rows';
import { onPostgres } from '../support/test-store';

const { call, atOnce, inTurn, db } = raceHarness('Checks beside checks');
const rows = raceRows(call);

interface Pair {
  /** The row, as the case's title names it. */
  row: string;
  /** Makes the row at a fresh event: the ids the changes take, and the row's own id. */
  make(eventId: string): Promise<{ ids: Record<string, unknown>; id: string }>;
  table: keyof Database;
  /** The stored start and end the rule keeps in order. */
  columns: [string, string];
  update: AnyOperation;
  /** The start moved later, still before the end. */
  later: Record<string, unknown>;
  /** The end moved earlier, still after the start. */
  earlier: Record<string, unknown>;
}

const day = (time: string) => `2027-05-01T${time}`;
const made = (ids: Record<string, unknown>, id: string) => ({ ids, id });

const pairs: Pair[] = [
  {
    row: 'a session',
    async make(eventId) {
      const { sessionId } = await call(createSession, {
        eventId,
        title: 'Keynote',
        startsLocal: day('10:00'),
        endsLocal: day('12:00'),
      });
      return made({ eventId, sessionId }, sessionId);
    },
    table: 'sessions',
    columns: ['starts_utc', 'ends_utc'],
    update: updateSession,
    later: { startsLocal: day('11:30') },
    earlier: { endsLocal: day('10:30') },
  },
  {
    row: 'a shift',
    async make(eventId) {
      const { shiftId } = await call(createShift, {
        eventId,
        role: 'door',
        place: { kind: 'area', name: 'Hall' },
        startsLocal: day('08:00'),
        endsLocal: day('12:00'),
        needed: 2,
      });
      return made({ eventId, shiftId }, shiftId);
    },
    table: 'shifts',
    columns: ['starts_utc', 'ends_utc'],
    update: updateShift,
    later: { startsLocal: day('11:00') },
    earlier: { endsLocal: day('09:00') },
  },
  {
    row: 'an event',
    make: async (eventId) => made({ eventId }, eventId),
    table: 'events',
    columns: ['starts_utc', 'ends_utc'],
    update: updateEvent,
    later: { startsLocal: day('16:00') },
    earlier: { endsLocal: day('10:00') },
  },
  {
    row: "a ticket type's sales window",
    async make(eventId) {
      const { ticketTypeId } = await call(createTicketType, {
        eventId,
        name: 'Day',
        salesStartUtc: '2027-03-01T10:00:00Z',
        salesEndUtc: '2027-04-01T10:00:00Z',
      });
      return made({ eventId, ticketTypeId }, ticketTypeId);
    },
    table: 'ticket_types',
    columns: ['sales_start_utc', 'sales_end_utc'],
    update: updateTicketType,
    later: { salesStartUtc: '2027-03-25T10:00:00Z' },
    earlier: { salesEndUtc: '2027-03-05T10:00:00Z' },
  },
  {
    row: "a discount code's validity",
    async make(eventId) {
      const { discountCodeId } = await call(createDiscountCode, {
        eventId,
        code: `RACE${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
        percent: 10,
        validFromUtc: '2027-03-01T10:00:00Z',
        validUntilUtc: '2027-04-01T10:00:00Z',
      });
      return made({ eventId, discountCodeId }, discountCodeId);
    },
    table: 'discount_codes',
    columns: ['valid_from_utc', 'valid_until_utc'],
    update: updateDiscountCode,
    later: { validFromUtc: '2027-03-25T10:00:00Z' },
    earlier: { validUntilUtc: '2027-03-05T10:00:00Z' },
  },
  {
    row: "a survey's window",
    async make(eventId) {
      const { surveyId } = await call(createSurvey, {
        eventId,
        title: { en: 'The day' },
        questions: [{ id: 'overall', kind: 'rating', label: { en: 'The day' } }],
        opensUtc: '2027-05-01T15:00:00Z',
        closesUtc: '2027-05-08T15:00:00Z',
      });
      return made({ eventId, surveyId }, surveyId);
    },
    table: 'surveys',
    columns: ['opens_utc', 'closes_utc'],
    update: updateSurvey,
    later: { opensUtc: '2027-05-07T15:00:00Z' },
    earlier: { closesUtc: '2027-05-02T15:00:00Z' },
  },
  {
    row: 'a journey',
    async make(eventId) {
      const ids = await rows.travelAt(eventId);
      return made(ids, String(ids.travelId));
    },
    table: 'travel',
    columns: ['departs_utc', 'arrives_utc'],
    update: updateTravel,
    later: { departsUtc: '2027-04-30T12:00:00Z' },
    earlier: { arrivesUtc: '2027-04-30T07:00:00Z' },
  },
  {
    row: 'a stay',
    async make(eventId) {
      const { stayId } = await call(requestStay, {
        eventId,
        firstName: 'Cy',
        checkInDate: '2027-04-27',
        checkOutDate: '2027-05-02',
      });
      return made({ eventId, stayId }, stayId);
    },
    table: 'stays',
    columns: ['check_in_date', 'check_out_date'],
    update: updateStay,
    later: { checkInDate: '2027-05-01' },
    earlier: { checkOutDate: '2027-04-28' },
  },
];

async function stored(pair: Pair, id: string): Promise<[string, string]> {
  const row = (await db()
    .selectFrom(pair.table as 'sessions')
    .select(pair.columns as ['starts_utc', 'ends_utc'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()) as Record<string, string>;
  const [start, end] = pair.columns;
  return [String(row[start]), String(row[end])];
}

describe('a later start and an earlier end of the same row, each right alone, crossed together', () => {
  it.each(pairs.map((pair) => [pair.row, pair] as const))(
    '%s: one is answered, the other refused with 400 invalidRequest; the row stays in order',
    async (_row, pair) => {
      const { eventId } = await call(createEvent, eventBody());
      const { ids, id } = await pair.make(eventId);
      const [start, end] = await stored(pair, id);
      const calls: [AnyOperation, unknown][] = [
        [pair.update, { ...ids, ...pair.later }],
        [pair.update, { ...ids, ...pair.earlier }],
      ];
      const answers = onPostgres ? await atOnce(...calls) : await inTurn(...calls);

      const outcomes = answers.map((a) => (typeof a === 'string' ? a : 'answered'));
      expect(outcomes.sort()).toEqual(['answered', 'invalidRequest']);
      const [startNow, endNow] = await stored(pair, id);
      expect(startNow < endNow, `${startNow} before ${endNow}`).toBe(true);
      // The answered change is the one kept: exactly one edge moved.
      const startMoved = typeof answers[0] !== 'string';
      expect([startNow !== start, endNow !== end]).toEqual([startMoved, !startMoved]);
    },
  );
});
