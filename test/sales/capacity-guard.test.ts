// The capacity condition of a registration's places (core/sales/places.ts: taken changes only where
// taken + n fits the capacity), tested one request at a time: the places the registration's read
// found free are taken by another writer between that read and the registration's update (a
// trigger, test/support/write-in-between.ts, runs its write at the registration's first write),
// as a concurrent registration would. The registration must answer the declared soldOut problem,
// write nothing and leave the count at the capacity, not fail on the schema's CHECK (a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType } from '../support/sales';
import { type ApiAnswer, startTestServer, type TestServer } from '../support/server';
import { writeInBetween } from '../support/write-in-between';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Capacity guard');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const person = (ticketTypeId: string, n: number) => ({
  ticketTypeId,
  firstName: `Guest${n}`,
  lastName: 'Guard',
  email: `guest.${n}.${Math.random().toString(36).slice(2, 8)}@example.org`,
});

async function counts(eventId: string, ticketTypeId: string) {
  const db = t.server.services.db;
  const type = await db
    .selectFrom('ticket_types')
    .select('taken')
    .where('id', '=', ticketTypeId)
    .executeTakeFirstOrThrow();
  const attendees = await db.selectFrom('attendees').select('id').where('event_id', '=', eventId).execute();
  const orders = await db.selectFrom('orders').select('id').where('event_id', '=', eventId).execute();
  return { taken: type.taken, attendees: attendees.length, orders: orders.length };
}

describe('the capacity condition of a registration', () => {
  it('refuses with 400 soldOut, not a 500, when the places its read found free were taken before its update', async () => {
    const { body: event } = await t.api('/events', { key, method: 'POST', body: eventBody() });
    const ticketTypeId = await addTicketType(t, event.eventId, { name: 'Seat', capacity: 3 });
    await t.api(`/events/${event.eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees: [person(ticketTypeId, 1)] },
    });
    // Two places left when the registration reads; another writer takes them at its order's insert.
    const remove = await writeInBetween(t.server.services.db, {
      table: 'orders',
      on: 'insert',
      statement: `update ticket_types set taken = capacity where id = '${ticketTypeId}'`,
    });
    let res: ApiAnswer;
    try {
      res = await t.api(`/events/${event.eventId}/attendees`, {
        key,
        method: 'POST',
        body: { attendees: [person(ticketTypeId, 2), person(ticketTypeId, 3)] },
      });
    } finally {
      await remove();
    }
    expect(res.status).not.toBe(500);
    expect(expectProblem(res, 400, 'soldOut').ticketTypeId).toBe(ticketTypeId);
    expect(res.body.detail).toBe('Not enough places left for 2 × Seat.');
    // All or nothing: the refused registration left nothing (the write put in between ran inside
    // its transaction, so it went with it).
    expect(await counts(event.eventId, ticketTypeId)).toEqual({ taken: 1, attendees: 1, orders: 1 });
  });

  it('takes the places when the read found room and they are still there at the update', async () => {
    const { body: event } = await t.api('/events', { key, method: 'POST', body: eventBody() });
    const ticketTypeId = await addTicketType(t, event.eventId, { name: 'Seat', capacity: 2 });
    const res = await t.api(`/events/${event.eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees: [person(ticketTypeId, 1), person(ticketTypeId, 2)] },
    });
    expect(res.status).toBe(201);
    expect(await counts(event.eventId, ticketTypeId)).toEqual({ taken: 2, attendees: 2, orders: 1 });
  });
});
