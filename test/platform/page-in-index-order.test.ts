// A page is read in its list's index order, never by sorting the rest of the list (db/dialect.ts
// inIndexOrder, core/platform/pipeline/paging.ts readPage). What an import leaves is the hard case:
// thousands of rows written in one transaction share one change_txn, PostgreSQL judges a page's
// place in the list (a row comparison) by that first column alone, and it hashed the joins over the
// whole rest of the list and sorted it for each page (a sync of 50,000 attendees: 8 s instead of 1).
// Both stores: the pages of such a list come in order, every row once; on PostgreSQL the page's
// statement is planned with sorting priced out, and only it. (Which plan the misjudged estimate
// leads to depends on the data's statistics, so the outcome is measured by the bench's sync row.)
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { listAttendees } from '../../core/attendees/list-attendees';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createEvent } from '../../core/events/create-event';
import { newId } from '../../core/platform/ids';
import { readPage } from '../../core/platform/pipeline/paging';
import { newTicketCode } from '../../core/platform/ticket-codes';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { insertRows } from '../../db/prepared';
import type { AttendeeRow } from '../../db/schema';
import { reserveChangeSeqs } from '../../db/sequence';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, db } = raceHarness('Page in index order');
const imported = 3_000;
const perImport = 3_000;
let eventId: string;

beforeAll(async () => {
  ({ eventId } = await call(createEvent, eventBody()));
  const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Admission', capacity: null });
  const { attendees } = await call(registerAttendees, {
    eventId,
    attendees: [{ ticketTypeId, firstName: 'First', lastName: 'Person', email: 'first@example.com' }],
  });
  const template = (await db()
    .selectFrom('attendees')
    .selectAll()
    .where('id', '=', attendees[0].attendeeId)
    .executeTakeFirstOrThrow()) as AttendeeRow & { change_txn?: number };
  const { change_txn: _set_by_the_store, ...row } = template;
  // As imports write them: thousands in each transaction.
  for (let batch = 0; batch < imported / perImport; batch++)
    await db()
      .transaction()
      .execute(async (trx) => {
        const first = await reserveChangeSeqs(trx, perImport);
        const rows = Array.from({ length: perImport }, (_, i) => ({
          ...row,
          id: newId(),
          email: `person${batch}-${i}@example.com`,
          ticket_code: newTicketCode(),
          change_seq: first + i,
        }));
        for (let i = 0; i < rows.length; i += 200) await insertRows(trx, 'attendees', rows.slice(i, i + 200));
      });
  if (onPostgres) await sql`analyze attendees`.execute(db());
});

it('pages such a list in its change order, every row once', async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await call(listAttendees, { eventId, limit: 500, ...(cursor ? { cursor } : {}) });
    seen.push(...page.data.map((a: { attendeeId: string }) => a.attendeeId));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  expect(seen).toHaveLength(imported + 1);
  expect(new Set(seen).size).toBe(imported + 1);
  const order = await db()
    .selectFrom('attendees')
    .select('id')
    .where('event_id', '=', eventId)
    .orderBy('change_txn')
    .orderBy('change_seq')
    .execute();
  expect(seen).toEqual(order.map((r) => r.id));
});

it.skipIf(!onPostgres)('prices sorting out for the page read alone, never compiling it', async () => {
  const setting = sql<string>`current_setting('enable_sort') || ' ' || current_setting('jit')`;
  const seen = await db()
    .transaction()
    .execute(async (trx) => {
      const during = await readPage(trx, trx.selectNoFrom(setting.as('value')));
      const after = await trx.selectNoFrom(setting.as('value')).executeTakeFirst();
      return { during: during[0]?.value, after: after?.value };
    });
  expect(seen).toEqual({ during: 'off off', after: 'on off' });
});
