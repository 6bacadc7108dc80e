// order.paid from the API's mark-paid and attendee.cancelled from a refund, produced by API calls
// (no import, no CLI), delivered to a local HTTPS receiver, verified with the standardwebhooks
// package and the type's published schema (GET /webhooks/event-types).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeliverySetup, startDeliverySetup } from '../support/delivery-setup';
import { eventBody } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import type { Receiver } from '../support/receiver';
import type { TestServer } from '../support/server';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  ({ t, key, receiver } = await startDeliverySetup('Payment deliveries'));
});
afterAll(() => closeDeliverySetup({ t, receiver }));

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

    const got = await receiver.waitFor(2);
    const bodies = await verifiedBodies(t, key, made.secret, got);
    expect(bodies.map((b) => b.type).sort()).toEqual(['attendee.cancelled', 'order.paid']);
    const paid = bodies.find((b) => b.type === 'order.paid');
    expect(paid.data.event.eventId).toBe(eventId);
    expect(paid.data.order).toMatchObject({ orderId, status: 'paid', paymentProvider: 'Nordea', total: 99 });
    const cancelled = bodies.find((b) => b.type === 'attendee.cancelled');
    expect(cancelled.data.attendee).toMatchObject({ attendeeId: attendeeIds[0], status: 'cancelled' });
  });
});
