// certificate.issued and content.published produced by API calls alone (no import), delivered to a
// local HTTPS receiver, verified with the standardwebhooks package and the type's published schema
// (GET /webhooks/event-types).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDoorEvent } from '../support/doors';
import { type Receiver, startReceiver } from '../support/receiver';
import { startTestServer, type TestServer } from '../support/server';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let key: string;
let workspaceId: string;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'certificate-content-deliveries-master-key-0123' },
    delivery: { allowPrivate: true, timeoutMs: 10_000 },
  });
  ({ workspaceId } = await t.workspace('Certificate and content deliveries'));
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

describe('certificate and content messages from API calls', () => {
  it('delivers certificate.issued and content.published, signed and as their published schemas say', async () => {
    const made = await post(
      '/webhooks',
      { url: receiver.url(), eventTypes: ['certificate.issued', 'content.published'] },
      201,
    );
    const e = await seedDoorEvent(t, workspaceId, key);
    const [attendeeId] = await e.register(e.general, 1);
    await post(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, {}, 200);
    const certificate = await post(`/events/${e.eventId}/certificates`, { attendeeId }, 201);
    const content = await post(
      `/events/${e.eventId}/content`,
      { kind: 'slides', title: 'Opening slides', url: 'https://example.org/opening.pdf' },
      201,
    );

    const got = await receiver.waitFor(2);
    const bodies = await verifiedBodies(t, key, made.secret, got);
    expect(bodies.map((b) => b.type).sort()).toEqual(['certificate.issued', 'content.published']);
    const issued = bodies.find((b) => b.type === 'certificate.issued');
    expect(issued.data.event.eventId).toBe(e.eventId);
    expect(issued.data.certificate).toMatchObject({
      certificateId: certificate.certificateId,
      attendeeId,
      kind: 'attendance',
      firstName: 'Guest0',
      personalData: 'included',
    });
    const published = bodies.find((b) => b.type === 'content.published');
    expect(published.data.content).toEqual({
      contentId: content.contentId,
      kind: 'slides',
      title: 'Opening slides',
      sessionId: null,
      url: 'https://example.org/opening.pdf',
      publishedUtc: content.publishedUtc,
    });
  });
});
