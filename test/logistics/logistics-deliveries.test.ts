// stay.requested, stay.assigned, stay.changed, stay.cancelled, travel.changed, claim.submitted,
// claim.approved and claim.paid produced by API calls alone (no import, no CLI), delivered to a
// local HTTPS receiver, verified with the standardwebhooks package and each type's published
// schema (GET /webhooks/event-types), each carrying the resource as the call left it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeliverySetup, startDeliverySetup } from '../support/delivery-setup';
import { eventBody } from '../support/fixtures';
import type { Receiver } from '../support/receiver';
import type { TestServer } from '../support/server';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let key: string;
let receiver: Receiver;

const types = [
  'stay.requested',
  'stay.assigned',
  'stay.changed',
  'stay.cancelled',
  'travel.changed',
  'claim.submitted',
  'claim.approved',
  'claim.paid',
];

beforeAll(async () => {
  ({ t, key, receiver } = await startDeliverySetup('Logistics deliveries'));
});
afterAll(() => closeDeliverySetup({ t, receiver }));

async function send(method: string, path: string, body: unknown, status: number) {
  const res = await t.api(path, { key, method, body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe('logistics and claim messages from API calls', () => {
  it('delivers every stay, travel and claim type, signed and as its published schema says', async () => {
    const made = await send('POST', '/webhooks', { url: receiver.url(), eventTypes: types }, 201);
    const { eventId } = await send('POST', '/events', eventBody(), 201);
    const speaker = await send(
      'POST',
      `/events/${eventId}/speakers`,
      { name: 'Ada Lovelace', email: 'ada@example.org' },
      201,
    );
    const stay = await send(
      'POST',
      `/events/${eventId}/stays`,
      { speakerId: speaker.speakerId, checkInDate: '2027-04-30', checkOutDate: '2027-05-02' },
      201,
    );
    const stayUrl = `/events/${eventId}/stays/${stay.stayId}`;
    await send('POST', `${stayUrl}/assign`, { hotel: 'Grand Hotel', room: '101' }, 200);
    await send('PATCH', stayUrl, { room: '202' }, 200);
    await send('POST', `${stayUrl}/cancel`, {}, 200);
    const trip = await send(
      'POST',
      `/events/${eventId}/travel`,
      {
        speakerId: speaker.speakerId,
        mode: 'flight',
        from: 'London',
        to: 'Oslo',
        departsUtc: '2027-04-30T08:00:00Z',
        arrivesUtc: '2027-04-30T10:00:00Z',
        reference: 'ABC123',
      },
      201,
    );
    const claim = await send(
      'POST',
      `/events/${eventId}/expense-claims`,
      { speakerId: speaker.speakerId, category: 'travel', amount: 199.99, currency: 'GBP' },
      201,
    );
    await send('POST', `/events/${eventId}/expense-claims/${claim.claimId}/approve`, {}, 200);
    await send('POST', `/events/${eventId}/expense-claims/${claim.claimId}/pay`, {}, 200);

    const got = await receiver.waitFor(types.length);
    const bodies = await verifiedBodies(t, key, made.secret, got);
    for (const body of bodies) expect(body.data.event.eventId).toBe(eventId);
    // Deliveries may arrive in any order; each is found by its type.
    expect(bodies.map((b) => b.type).sort()).toEqual([...types].sort());
    const of = (type: string) => bodies.find((b) => b.type === type).data;
    expect(of('stay.requested').stay).toMatchObject({
      stayId: stay.stayId,
      speakerId: speaker.speakerId,
      status: 'requested',
      firstName: 'Ada',
    });
    expect(of('stay.assigned').stay).toMatchObject({ status: 'assigned', hotel: 'Grand Hotel', room: '101' });
    expect(of('stay.changed').stay).toMatchObject({ status: 'assigned', room: '202' });
    expect(of('stay.cancelled').stay).toMatchObject({ status: 'cancelled' });
    expect(of('travel.changed').travel).toMatchObject({
      travelId: trip.travelId,
      status: 'booked',
      reference: 'ABC123',
    });
    expect(of('claim.submitted').claim).toMatchObject({
      claimId: claim.claimId,
      amount: 199.99,
      currency: 'GBP',
    });
    expect(of('claim.approved').claim).toMatchObject({ status: 'approved' });
    expect(of('claim.paid').claim).toMatchObject({ status: 'paid' });
  });
});
