// Every one of the 22 event types (and the marked extensions) is produced by API calls alone (no import, no command line):
// one endpoint subscribed to all of them receives each, signed (standardwebhooks) and accepted by
// the type's published schema, after an organiser's day run through the REST API: registration,
// correction, the door, feedback, a booth, a community, crew, speakers' logistics, a certificate,
// published slides, a payment, a refund, requests approved and declined, and an erasure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventTypes } from '../../db/values';
import { seedDoorEvent } from '../support/doors';
import { type Receiver, startReceiver } from '../support/receiver';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let key: string;
let workspaceId: string;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'every-type-from-the-api-master-key-0123456789' },
    delivery: { allowPrivate: true, timeoutMs: 10_000 },
  });
  ({ workspaceId } = await t.workspace('Every type from the API', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  receiver = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function send(method: string, path: string, body: unknown, status: number) {
  const res = await t.api(path, { key, method, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

type Message = { type: string; data: Record<string, any> };
const messages = () => receiver.received.map((r) => JSON.parse(r.body) as Message);

/** Waits until every type has been received (some calls send several) and `also` holds. */
async function waitForEveryType(timeoutMs: number, also: (all: Message[]) => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const done = () => {
    const all = messages();
    return new Set(all.map((m) => m.type)).size === webhookEventTypes.length && also(all);
  };
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe("the spec's 22 event types and the marked extensions", () => {
  it('are each sent by an API call, signed and as their published schemas say', {
    timeout: 300_000,
  }, async () => {
    const endpoint = await send(
      'POST',
      '/webhooks',
      { url: receiver.url(), eventTypes: [...webhookEventTypes] },
      201,
    );

    // The attendee family and the door.
    const e = await seedDoorEvent(t, workspaceId, key);
    const [attendeeId, visitorId] = await e.register(e.general, 2); // attendee.registered
    const base = `/events/${e.eventId}`;
    await send('PATCH', `${base}/attendees/${attendeeId}`, { company: 'Fjord Labs' }, 200); // attendee.updated
    await send('POST', `${base}/attendees/${attendeeId}/check-in`, {}, 200); // checkin.created
    await send('POST', `${base}/attendees/${visitorId}/cancel`, {}, 200); // attendee.cancelled

    // Feedback, a booth's lead, a certificate and published slides.
    const survey = await send(
      'POST',
      `${base}/surveys`,
      { title: { en: 'Pulse' }, questions: [{ id: 'mood', kind: 'rating', label: { en: 'Mood?' } }] },
      201,
    );
    await send(
      'POST',
      `${base}/surveys/${survey.surveyId}/answers`,
      { attendeeId, answers: { mood: 5 } },
      201,
    ); // feedback.given
    const sponsor = await send('POST', `${base}/sponsors`, { name: 'Fjord Labs' }, 201);
    await send(
      'POST',
      `${base}/leads`,
      { sponsorId: sponsor.sponsorId, attendeeId, consent: true, rating: 3 },
      201,
    ); // lead.captured
    await send('POST', `${base}/certificates`, { attendeeId }, 201); // certificate.issued
    await send(
      'POST',
      `${base}/content`,
      { kind: 'slides', title: 'Opening', url: 'https://example.org/opening.pdf' },
      201,
    ); // content.published

    // Crew and a shift.
    const event = await send('GET', base, undefined, 200);
    const day = (event.startsLocal as string).slice(0, 10);
    const crew = await send('POST', `${base}/crew`, { name: 'Tuva Berg', email: 'tuva@example.org' }, 201);
    const shift = await send(
      'POST',
      `${base}/shifts`,
      {
        role: 'greeter',
        place: { kind: 'area', name: 'Entrance' },
        startsLocal: `${day}T08:00`,
        endsLocal: `${day}T10:00`,
        needed: 2,
      },
      201,
    );
    await send('POST', `${base}/shifts/${shift.shiftId}/crew`, { crewMemberId: crew.crewMemberId }, 200); // shift.signed_up
    await send('DELETE', `${base}/shifts/${shift.shiftId}/crew/${crew.crewMemberId}`, undefined, 204); // shift.dropped

    // A speaker's stay, journey and expense claim.
    const speaker = await send(
      'POST',
      `${base}/speakers`,
      { name: 'Ada Lovelace', email: 'ada@example.org' },
      201,
    );
    const stay = await send(
      'POST',
      `${base}/stays`,
      { speakerId: speaker.speakerId, checkInDate: '2027-04-30', checkOutDate: '2027-05-02' },
      201,
    ); // stay.requested
    await send('POST', `${base}/stays/${stay.stayId}/assign`, { hotel: 'Grand Hotel', room: '101' }, 200); // stay.assigned
    await send('PATCH', `${base}/stays/${stay.stayId}`, { room: '202' }, 200); // stay.changed
    await send('POST', `${base}/stays/${stay.stayId}/cancel`, {}, 200); // stay.cancelled
    await send(
      'POST',
      `${base}/travel`,
      {
        speakerId: speaker.speakerId,
        mode: 'train',
        from: 'Bergen',
        to: 'Oslo',
        departsUtc: '2027-04-30T08:00:00Z',
        arrivesUtc: '2027-04-30T15:00:00Z',
      },
      201,
    ); // travel.changed
    const claim = await send(
      'POST',
      `${base}/expense-claims`,
      { speakerId: speaker.speakerId, category: 'travel', amount: 89.5, currency: 'EUR' },
      201,
    ); // claim.submitted
    await send('POST', `${base}/expense-claims/${claim.claimId}/approve`, {}, 200); // claim.approved
    await send('POST', `${base}/expense-claims/${claim.claimId}/pay`, {}, 200); // claim.paid

    // A community member who joins and leaves.
    const community = await send(
      'POST',
      '/communities',
      { slug: `every-type-${Date.now()}`, name: 'Every Type Club', timeZone: 'UTC', joinPolicy: 'open' },
      201,
    );
    const member = await send(
      'POST',
      `/communities/${community.communityId}/members`,
      { name: 'Hanne Dahl', email: 'hanne@example.com' },
      201,
    ); // member.joined
    await send('POST', `/communities/${community.communityId}/members/${member.memberId}/leave`, {}, 200); // member.left

    // A bank transfer confirmed, then refunded: order.paid, and attendee.cancelled by the refund.
    const summit = sampleIds(workspaceId).event('summit');
    const waiting = await send(
      'GET',
      `/events/${summit}/orders?status=transfer&sort=-created`,
      undefined,
      200,
    );
    // An order holding tickets of the summit (a pass's order holds none there).
    const orderId = waiting.data.find((o: { attendees: number }) => o.attendees > 0).orderId as string;
    await send(
      'POST',
      `/events/${summit}/orders/${orderId}/mark-paid`,
      { method: 'transfer', provider: 'DNB' },
      200,
    );
    await send('POST', `/events/${summit}/orders/${orderId}/refund`, {}, 200);

    // Requests for a ticket type requiring approval: one approved, one declined.
    const invited = await send(
      'POST',
      `${base}/ticket-types`,
      { name: 'Invited', requiresApproval: true },
      201,
    );
    const requests = [];
    for (const n of [1, 2])
      requests.push(
        await send(
          'POST',
          `${base}/attendees`,
          {
            attendees: [
              {
                ticketTypeId: invited.ticketTypeId,
                firstName: `Guest${n}`,
                lastName: 'Invited',
                email: `guest${n}@example.org`,
              },
            ],
          },
          201,
        ),
      );
    await send('POST', `${base}/orders/${requests[0].orderId}/approve`, {}, 200); // order.approved
    await send('POST', `${base}/orders/${requests[1].orderId}/decline`, { reason: 'Full.' }, 200); // order.declined

    // The person asks for their data to be erased: attendee.erased.
    await send('POST', '/people/erasure', { attendeeId }, 200);

    const byTheRefund = (all: Message[]) =>
      all.filter((m) => m.type === 'attendee.cancelled' && m.data.attendee.orderId === orderId);
    await waitForEveryType(120_000, (all) => byTheRefund(all).length > 0);
    const bodies = await verifiedBodies(t, key, endpoint.secret, receiver.received);
    const seen = new Set(bodies.map((body) => body.type));
    expect([...seen].sort()).toEqual([...webhookEventTypes].sort());
    // The refund's cancellation is among them: a ticket of the refunded order, cancelled.
    expect(byTheRefund(messages()).length).toBeGreaterThan(0);
  });
});
