// "Oldest change first" holds on the updatedUtc a client sees: in the
// demonstration workspace and in a sample workspace, every list in its default order has
// non-decreasing updatedUtc, and no change is dated in the future.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { sampleIds } from '../support/sales';
import { type ApiAnswer, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let sampleKey: string;
let sampleWorkspace: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId: sampleWorkspace } = await t.workspace('Change order', true));
  ({ key: sampleKey } = await t.key({ workspaceId: sampleWorkspace, preset: 'everything' }));
});
afterAll(async () => t.close());

const eventLists = [
  'ticket-types',
  'add-ons',
  'discount-codes',
  'orders',
  'attendees',
  'sessions',
  'rooms',
  'tracks',
  'speakers',
];

/** Every item of a list in its default order, following nextCursor. */
async function everything(key: string, path: string): Promise<{ updatedUtc: string }[]> {
  const items: { updatedUtc: string }[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const query = `limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res: ApiAnswer = await t.api(`${path}${separator}${query}`, { key });
    expect(res.status, path).toBe(200);
    items.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

function expectOldestChangeFirst(path: string, items: { updatedUtc: string }[]) {
  const now = new Date().toISOString();
  for (let i = 1; i < items.length; i++) {
    expect(
      items[i]!.updatedUtc >= items[i - 1]!.updatedUtc,
      `${path} item ${i}: ${items[i - 1]!.updatedUtc} then ${items[i]!.updatedUtc}`,
    ).toBe(true);
  }
  for (const item of items)
    expect(item.updatedUtc <= now, `${path}: ${item.updatedUtc} is in the future`).toBe(true);
}

describe.each([
  ['the demonstration workspace', () => demoKey.key],
  ['a sample workspace', () => sampleKey],
])('%s', (_name, keyOf) => {
  it('lists events in the order of their updatedUtc', async () => {
    const events = await everything(keyOf(), '/events');
    expect(events.length).toBeGreaterThan(3);
    expectOldestChangeFirst('/events', events);
  });

  it("lists every event's ticket types, add-ons, codes, orders, attendees and programme in the order of their updatedUtc", async () => {
    const events = (await everything(keyOf(), '/events')) as unknown as {
      eventId: string;
      modules: { program: boolean };
    }[];
    let seen = 0;
    for (const event of events) {
      for (const list of eventLists) {
        if (['sessions', 'rooms', 'tracks', 'speakers'].includes(list) && !event.modules.program) continue;
        const path = `/events/${event.eventId}/${list}`;
        const items = await everything(keyOf(), path);
        seen += items.length;
        expectOldestChangeFirst(path, items);
      }
    }
    expect(seen).toBeGreaterThan(300);
  });

  it('lists pass holders of every pass newest first and passes by latest change', async () => {
    const passes = await everything(keyOf(), '/passes');
    expect(passes.length).toBeGreaterThan(0);
    for (let i = 1; i < passes.length; i++)
      expect(passes[i]!.updatedUtc <= passes[i - 1]!.updatedUtc).toBe(true);
  });
});

it('keeps the order of orders an event lists by default the order of their updatedUtc (the probe’s case)', async () => {
  const summit = sampleIds(sampleWorkspace).event('summit');
  const orders = await everything(sampleKey, `/events/${summit}/orders`);
  expect(orders.length).toBeGreaterThan(50);
  expectOldestChangeFirst('orders', orders);
});
