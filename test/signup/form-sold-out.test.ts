// The public form's sold-out answer (core/orders/public-registration.ts maps the soldOut problem to
// the page that says so), one submission at a time: a type with fewer places left than the visitor
// asks for, or none, answers 409 with the sold-out page naming what is missing, and registers
// nothing; the places the read found free and another writer took before the update answer the
// same (test/support/write-in-between.ts). The race of many submissions is form-sold-out-race.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, formTicketType, publishedEvent, sendForm } from '../support/sign-up';
import { writeInBetween } from '../support/write-in-between';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Sold-out form', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

async function registered(eventId: string) {
  const db = t.server.services.db;
  const attendees = await db.selectFrom('attendees').select('id').where('event_id', '=', eventId).execute();
  const orders = await db.selectFrom('orders').select('id').where('event_id', '=', eventId).execute();
  return { attendees: attendees.length, orders: orders.length };
}

const three = (typeId: string) => ({
  [`qty.${typeId}`]: '3',
  step: '2',
  ...formPerson(0),
  ...formPerson(1),
  ...formPerson(2),
  action: 'register',
});

function expectSoldOutPage(answer: { status: number; text: string }, detail: string) {
  expect(answer.status, answer.text).toBe(409);
  expect(answer.text).toContain('<h1>Sold out</h1>');
  expect(answer.text).toContain(`${detail} Nothing was registered and nothing was charged.`);
}

describe('the public form on a sold-out ticket type', () => {
  it('answers the sold-out page (409) to a submission for a type with no places left, registering nothing', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, { name: 'Seat', capacity: 1, maxPerOrder: 5 });
    const first = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expect(first.status, first.text).toBe(303);
    const again = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expectSoldOutPage(again, 'Not enough places left for 1 × Seat.');
    expect(await registered(event.eventId)).toEqual({ attendees: 1, orders: 1 });
  });

  it('answers the sold-out page to more people than places left, registering none of them', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, { name: 'Seat', capacity: 2, maxPerOrder: 5 });
    expectSoldOutPage(await sendForm(t, event.slug, three(typeId)), 'Not enough places left for 3 × Seat.');
    expect(await registered(event.eventId)).toEqual({ attendees: 0, orders: 0 });
  });

  it('answers the sold-out page when the places its read found were taken before its update', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId, { name: 'Seat', capacity: 5, maxPerOrder: 5 });
    const remove = await writeInBetween(t.server.services.db, {
      table: 'orders',
      on: 'insert',
      statement: `update ticket_types set taken = capacity where id = '${typeId}'`,
    });
    try {
      expectSoldOutPage(await sendForm(t, event.slug, three(typeId)), 'Not enough places left for 3 × Seat.');
    } finally {
      await remove();
    }
    expect(await registered(event.eventId)).toEqual({ attendees: 0, orders: 0 });
  });
});
