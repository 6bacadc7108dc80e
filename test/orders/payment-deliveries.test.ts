// order.paid from the API's mark-paid and attendee.cancelled from a refund, produced by API calls
// (no import, no CLI), delivered to a local HTTPS receiver, verified with the standardwebhooks
// package and the type's published schema (GET /webhooks/event-types).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { type Receiver, startReceiver } from '../support/receiver';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'payment-deliveries-test-master-key-0123456789' },
    // An attempt gets the time a loaded machine may need: these tests are about the bodies, not timing.
    delivery: { allowPrivate: true, timeoutMs: 10_000 },
  });
  const { workspaceId } = await t.workspace('Payment deliveries');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  receiver = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function post(path: string, body: unknown, status: number) {
  const res = await t.api(path, { key, method: 'POST', body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe('payment messages from API calls', () => {
  it('delivers order.paid and attendee.cancelled by a refund, signed and as their published schemas say', async () => {
    const made = await post(
      '/webhooks',
      { url: receiver.url(), eventTypes: ['order.paid', 'attendee.cancelled'] },
      201,
    );
    const { eventId } = await post('/events', eventBody(), 201);
    const typeId = await pricedTicketType(t.server.services.db, eventId, 9_900, 10);
    const { orderId, attendeeIds } = await pendingOrder(t.server.services.db, eventId, typeId, 1);
    await post(
      `/events/${eventId}/orders/${orderId}/mark-paid`,
      { method: 'transfer', provider: 'Nordea' },
      200,
    );
    await post(`/events/${eventId}/orders/${orderId}/refund`, {}, 200);

    const got = await receiver.waitFor(2, { timeoutMs: 25_000 });
    const catalogue = (await t.api('/webhooks/event-types', { key })).body.data as any[];
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const bodies = got.map((request) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      const body = new Webhook(made.secret).verify(request.body, headers) as any;
      const validate = ajv.compile(catalogue.find((c) => c.type === body.type)!.schema);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      return body;
    });
    expect(bodies.map((b) => b.type).sort()).toEqual(['attendee.cancelled', 'order.paid']);
    const paid = bodies.find((b) => b.type === 'order.paid');
    expect(paid.data.event.eventId).toBe(eventId);
    expect(paid.data.order).toMatchObject({ orderId, status: 'paid', paymentProvider: 'Nordea', total: 99 });
    const cancelled = bodies.find((b) => b.type === 'attendee.cancelled');
    expect(cancelled.data.attendee).toMatchObject({ attendeeId: attendeeIds[0], status: 'cancelled' });
  });
});
