// 300 form submissions at once on a free ticket type with 20 places (issue 27's proof): exactly 20
// tickets, 280 clear "sold out" pages, no partial order, the taken count 20; counted in the
// database. From one client address, so TESSERA_SIGN_UP_ADDRESS_LIMIT is raised above 300. Runs on
// SQLite and, under `npm run test:postgres`, on PostgreSQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, formTicketType, pageFormToken, publishedEvent, sendForm } from '../support/sign-up';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ env: { TESSERA_SIGN_UP_ADDRESS_LIMIT: '1000' } });
  const { workspaceId } = await t.workspace('Sold-out race', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

it('gives 20 tickets and 280 sold-out pages for 300 submissions on 20 places', async () => {
  const event = await publishedEvent(t, key);
  const typeId = await formTicketType(t, event.eventId, {
    name: 'Meetup seat',
    capacity: 20,
    maxPerOrder: 1,
  });
  // The page loaded once: its form sent 300 times at once.
  const token = (await pageFormToken(t, event.slug))!;
  const answers = await Promise.all(
    Array.from({ length: 300 }, () =>
      sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...formPerson(0), action: 'register' }, token),
    ),
  );
  const byStatus = new Map<number, number>();
  for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  expect(Object.fromEntries(byStatus)).toEqual({ 303: 20, 409: 280 });
  for (const a of answers.filter((x) => x.status === 409)) {
    expect(a.text).toContain('<h1>Sold out</h1>');
    expect(a.text).toContain('Nothing was registered');
  }
  const db = t.server.services.db;
  const attendees = await db
    .selectFrom('attendees')
    .select(['order_id'])
    .where('event_id', '=', event.eventId)
    .execute();
  const orders = await db.selectFrom('orders').select('id').where('event_id', '=', event.eventId).execute();
  const type = await db
    .selectFrom('ticket_types')
    .select('taken')
    .where('id', '=', typeId)
    .executeTakeFirstOrThrow();
  expect(attendees).toHaveLength(20);
  expect(orders).toHaveLength(20);
  expect(new Set(attendees.map((a) => a.order_id)).size).toBe(20);
  expect(type.taken).toBe(20);
});
