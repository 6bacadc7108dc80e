// shift.signed_up and shift.dropped produced by API calls alone (no import, no CLI), delivered to a
// local HTTPS receiver, verified with the standardwebhooks package and the type's published schema
// (GET /webhooks/event-types), each as the change left the shift and the crew member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeliverySetup, startDeliverySetup } from '../support/delivery-setup';
import { eventBody } from '../support/fixtures';
import type { Receiver } from '../support/receiver';
import type { TestServer } from '../support/server';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  ({ t, key, receiver } = await startDeliverySetup('Shift deliveries'));
});
afterAll(() => closeDeliverySetup({ t, receiver }));

async function post(path: string, body: unknown, status: number) {
  const res = await t.api(path, { key, method: 'POST', body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe('shift messages from API calls', () => {
  it('delivers shift.signed_up and shift.dropped, signed and as their published schemas say', async () => {
    const made = await post(
      '/webhooks',
      { url: receiver.url(), eventTypes: ['shift.signed_up', 'shift.dropped'] },
      201,
    );
    const { eventId } = await post('/events', eventBody(), 201);
    const member = await post(`/events/${eventId}/crew`, { name: 'Tuva', email: 'tuva@example.org' }, 201);
    const shift = await post(
      `/events/${eventId}/shifts`,
      {
        role: 'door',
        place: { kind: 'area', name: 'Gate' },
        startsLocal: '2027-05-01T08:00',
        endsLocal: '2027-05-01T10:00',
        needed: 2,
      },
      201,
    );
    await post(`/events/${eventId}/shifts/${shift.shiftId}/crew`, { crewMemberId: member.crewMemberId }, 200);
    const dropped = await t.api(`/events/${eventId}/shifts/${shift.shiftId}/crew/${member.crewMemberId}`, {
      key,
      method: 'DELETE',
    });
    expect(dropped.status).toBe(204);

    const got = await receiver.waitFor(2);
    const bodies = await verifiedBodies(t, key, made.secret, got);
    // Deliveries may arrive in either order; each is found by its type.
    expect(bodies.map((b) => b.type).sort()).toEqual(['shift.dropped', 'shift.signed_up']);
    const signed = bodies.find((b) => b.type === 'shift.signed_up');
    const off = bodies.find((b) => b.type === 'shift.dropped');
    expect(signed.data.event.eventId).toBe(eventId);
    expect(signed.data.shift).toMatchObject({
      shiftId: shift.shiftId,
      assigned: 1,
      crewMemberIds: [member.crewMemberId],
    });
    expect(signed.data.crewMember).toMatchObject({
      crewMemberId: member.crewMemberId,
      name: 'Tuva',
      shiftIds: [shift.shiftId],
    });
    expect(off.data.shift).toMatchObject({ shiftId: shift.shiftId, assigned: 0, crewMemberIds: [] });
    expect(off.data.crewMember).toMatchObject({ crewMemberId: member.crewMemberId, shiftIds: [] });
  });
});
