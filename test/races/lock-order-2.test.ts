// Locks of the second audit (docs/architecture.md, "Lock order:"): the areas the first left out.
// - Tickets: a ticket type's and an add-on's removal count the setup rows naming them in JSON lists
//   (a discount code's, a door's types; a ticket type's bundled add-ons, a door's required ones).
//   Those lists have no foreign key, so the write naming the row held nothing, and the removal only
//   touched its row (FOR NO KEY UPDATE, which a reference does not wait for): a code made meanwhile
//   was missed by the count and named a removed ticket type. Now the write holds the rows it names
//   while it checks them (FOR KEY SHARE, db/dialect.ts referencedRow) and the removal locks its row
//   FOR UPDATE before counting (loadEventRow 'removal'), so it waits for the write and answers 409
//   inUse; a removal first leaves the write naming a row that is not there (400).
// - An import (an operator's command beside live traffic) naming a row it leaves as stored (a
//   question limited to an unchanged ticket type) holds the stored rows it reads as well.
// On PostgreSQL the write is held before its insert while the removal runs (race-harness.ts heldAt);
// SQLite writes one call at a time, so there they run in turn and these tests show only the answers.
import { describe, expect, it } from 'vitest';
import { createDoor } from '../../core/checkin/create-door';
import { createEvent } from '../../core/events/create-event';
import { importFileOperation } from '../../core/import/import-file';
import { createAddOn } from '../../core/tickets/create-add-on';
import { createDiscountCode } from '../../core/tickets/create-discount-code';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { deleteAddOn } from '../../core/tickets/delete-add-on';
import { deleteTicketType } from '../../core/tickets/delete-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, waitsFor, db } = raceHarness('Lock order 2');

describe('tickets: a row named in a JSON list beside its removal', () => {
  it('a discount code limited to a ticket type being removed', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const [made, removed] = await waitsFor(
      [createDiscountCode, { eventId, code: 'RACE10', percent: 10, ticketTypeIds: [ticketTypeId] }],
      /^insert into "discount_codes"/,
      [deleteTicketType, { eventId, ticketTypeId }],
    );
    expect(made).toMatchObject({ ticketTypeIds: [ticketTypeId] });
    expect(removed).toBe('inUse');
    const types = await db()
      .selectFrom('ticket_types')
      .select('id')
      .where('event_id', '=', eventId)
      .execute();
    expect(types).toEqual([{ id: ticketTypeId }]);
  });

  it('a door admitting a ticket type being removed', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const [made, removed] = await waitsFor(
      [createDoor, { eventId, name: 'Side', ticketTypeIds: [ticketTypeId] }],
      /^insert into "doors"/,
      [deleteTicketType, { eventId, ticketTypeId }],
    );
    expect(made).toMatchObject({ ticketTypeIds: [ticketTypeId] });
    expect(removed).toBe('inUse');
  });

  it('a ticket type bundling an add-on being removed', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { addOnId } = await call(createAddOn, { eventId, name: 'Dinner' });
    const [made, removed] = await waitsFor(
      [createTicketType, { eventId, name: 'Day and dinner', includedAddOnIds: [addOnId] }],
      /^insert into "ticket_types"/,
      [deleteAddOn, { eventId, addOnId }],
    );
    expect(made).toMatchObject({ includedAddOnIds: [addOnId] });
    expect(removed).toBe('inUse');
    const addOns = await db().selectFrom('add_ons').select('id').where('event_id', '=', eventId).execute();
    expect(addOns).toEqual([{ id: addOnId }]);
  });
});

describe('an import naming a row it leaves as it is, beside its removal', () => {
  /** One event with a ticket type, and questions limited to it. */
  const file = (
    questions: { key: string; label: { en: string }; kind: 'text'; ticketTypes: string[] }[],
  ) => ({
    format: 'tessera-import',
    version: 1,
    events: [
      {
        key: 'raced',
        name: 'Imported beside a removal',
        slug: 'imported-beside-removal',
        timeZone: 'Europe/Oslo',
        startsUtc: '2027-06-01T08:00:00Z',
        endsUtc: '2027-06-01T16:00:00Z',
        currency: 'EUR',
        ticketTypes: [{ key: 'day', name: 'Day', price: 10, vatRate: 10 }],
        questions,
        orders: [],
      },
    ],
  });
  const importing = (content: object) => ({ file: { text: JSON.stringify(content) }, dryRun: false });

  it('a question limited to a ticket type being removed', async () => {
    await call(importFileOperation, importing(file([])));
    const { id: ticketTypeId, event_id: eventId } = await db()
      .selectFrom('ticket_types')
      .innerJoin('events', 'events.id', 'ticket_types.event_id')
      .select(['ticket_types.id', 'ticket_types.event_id'])
      .where('events.slug', '=', 'imported-beside-removal')
      .executeTakeFirstOrThrow();
    // The file's ticket type is as stored, so the import writes nothing to it: only its hold keeps
    // the removal from counting the questions before the import's question is there.
    const [imported, removed] = await waitsFor(
      [
        importFileOperation,
        importing(file([{ key: 'diet', label: { en: 'Diet' }, kind: 'text', ticketTypes: ['day'] }])),
      ],
      /^insert into "questions"/,
      [deleteTicketType, { eventId, ticketTypeId }],
    );
    expect(imported).toMatchObject({ created: { questions: 1 } });
    expect(removed).toBe('inUse');
    const questions = await db()
      .selectFrom('questions')
      .select('ticket_type_ids')
      .where('event_id', '=', eventId)
      .execute();
    expect(questions.map((q) => JSON.parse(q.ticket_type_ids))).toEqual([[ticketTypeId]]);
  });
});
