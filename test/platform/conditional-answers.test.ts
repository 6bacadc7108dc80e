// Issue 24 item 5: every answer that is a conditional resource's representation carries its ETag
// (the POST that makes it, the PATCH and other changes answering it), the very tag a GET right
// after gives, so changes chain with If-Match without a read in between; MCP gives it in _meta.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Conditional answers workspace', true);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

const call = (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) =>
  t.api(path, { key, method, body, headers });

/** The answer carries a tag, and it is the one a GET of the resource gives right after. */
async function expectTagOfGet(res: Awaited<ReturnType<typeof call>>, path: string) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const etag = res.headers.get('etag');
  expect(etag, `${path} answer`).toMatch(/^"[^"]+"$/);
  expect((await call(path)).headers.get('etag'), path).toBe(etag);
  return etag!;
}

describe('the answer of a change carries the ETag a GET gives', () => {
  it('POST /events answers the new event with its ETag', async () => {
    const res = await call('/events', 'POST', eventBody());
    eventId = res.body.eventId;
    await expectTagOfGet(res, `/events/${eventId}`);
  });

  it('PATCH chains with the tag it answered; a stale tag is refused with 412', async () => {
    const path = `/events/${eventId}`;
    const first = await expectTagOfGet(await call(path, 'PATCH', { name: 'First' }), path);
    const second = await call(path, 'PATCH', { name: 'Second' }, { 'if-match': first });
    expect(second.status).toBe(200);
    const latest = await expectTagOfGet(second, path);
    expect(latest).not.toBe(first);
    const stale = await call(path, 'PATCH', { name: 'Lost' }, { 'if-match': first });
    expect(expectProblem(stale, 412, 'preconditionFailed').etag).toBe(latest);
    expect((await call(path)).body.name).toBe('Second');
  });

  it('a write answers in full even when If-None-Match names its tag', async () => {
    const path = `/events/${eventId}`;
    const etag = (await call(path)).headers.get('etag')!;
    const res = await call(path, 'PATCH', { name: 'Second' }, { 'if-none-match': etag });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Second');
  });

  it('PUT /events/{eventId}/status answers the event with its ETag', async () => {
    const path = `/events/${eventId}`;
    const res = await call(`${path}/status`, 'PUT', { status: 'published' });
    const etag = await expectTagOfGet(res, path);
    expect((await call(path, 'PATCH', { name: 'Published' }, { 'if-match': etag })).status).toBe(200);
  });

  it('ticket types: POST and PATCH answer the ticket type with its ETag', async () => {
    const made = await call(`/events/${eventId}/ticket-types`, 'POST', { name: 'Standard', price: 100 });
    const path = `/events/${eventId}/ticket-types/${made.body.ticketTypeId}`;
    const etag = await expectTagOfGet(made, path);
    const changed = await call(path, 'PATCH', { maxPerOrder: 4 }, { 'if-match': etag });
    await expectTagOfGet(changed, path);
    expectProblem(
      await call(path, 'PATCH', { maxPerOrder: 5 }, { 'if-match': etag }),
      412,
      'preconditionFailed',
    );
  });

  it('sessions: POST and PATCH answer the session with its ETag', async () => {
    const made = await call(`/events/${eventId}/sessions`, 'POST', {
      title: 'Opening',
      startsLocal: '2027-05-01T09:00',
      endsLocal: '2027-05-01T10:00',
    });
    const path = `/events/${eventId}/sessions/${made.body.sessionId}`;
    const etag = await expectTagOfGet(made, path);
    const changed = await call(path, 'PATCH', { title: 'Welcome' }, { 'if-match': etag });
    await expectTagOfGet(changed, path);
    expectProblem(
      await call(path, 'PATCH', { title: 'Lost' }, { 'if-match': etag }),
      412,
      'preconditionFailed',
    );
  });
});

describe('rooms, tracks, speakers and doors: the tag their POST and PATCH answer is what If-Match takes', () => {
  const resources = [
    { path: 'rooms', id: 'roomId', body: { name: 'Hall' }, change: { name: 'Great hall' } },
    {
      path: 'tracks',
      id: 'trackId',
      body: { name: 'Data', colour: '#112233' },
      change: { colour: '#445566' },
    },
    { path: 'speakers', id: 'speakerId', body: { name: 'Ada' }, change: { name: 'Ada L.' } },
    { path: 'doors', id: 'doorId', body: { name: 'Gate' }, change: { name: 'Side gate' } },
  ];
  it.each(resources)(
    '$path: PATCH chains with it, a stale one is refused with 412, DELETE takes it too',
    async (r) => {
      const made = await call(`/events/${eventId}/${r.path}`, 'POST', r.body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const first = made.headers.get('etag')!;
      expect(first).toMatch(/^"[^"]+"$/);
      const path = `/events/${eventId}/${r.path}/${made.body[r.id]}`;
      const changed = await call(path, 'PATCH', r.change, { 'if-match': first });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const latest = changed.headers.get('etag')!;
      expect(latest).not.toBe(first);
      const stale = await call(path, 'PATCH', { name: 'Lost' }, { 'if-match': first });
      expect(expectProblem(stale, 412, 'preconditionFailed').etag).toBe(latest);
      expectProblem(await call(path, 'DELETE', undefined, { 'if-match': first }), 412, 'preconditionFailed');
      expect((await call(path, 'DELETE', undefined, { 'if-match': latest })).status).toBe(204);
    },
  );

  it('attendees: GET answers the tag PATCH takes and answers', async () => {
    const type = await call(`/events/${eventId}/ticket-types`, 'POST', { name: 'Door', price: 0 });
    const registered = await call(`/events/${eventId}/attendees`, 'POST', {
      attendees: [
        {
          ticketTypeId: type.body.ticketTypeId,
          firstName: 'Ada',
          lastName: 'Tagged',
          email: 'ada@example.org',
        },
      ],
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const path = `/events/${eventId}/attendees/${registered.body.attendees[0].attendeeId}`;
    const first = (await call(path)).headers.get('etag')!;
    const changed = await call(path, 'PATCH', { company: 'Racing Ltd' }, { 'if-match': first });
    const latest = await expectTagOfGet(changed, path);
    const stale = await call(path, 'PATCH', { company: 'Lost Ltd' }, { 'if-match': first });
    expect(expectProblem(stale, 412, 'preconditionFailed').etag).toBe(latest);
    expect((await call(path)).body.company).toBe('Racing Ltd');
  });
});

describe('MCP gives the same tag in _meta.etag of a change', () => {
  it('update_event answers _meta.etag, the REST ETag, and it chains as ifMatch', async () => {
    const client = await t.mcp(key);
    try {
      const changed = await client.callTool({ name: 'update_event', arguments: { eventId, name: 'By MCP' } });
      expect(changed.isError).toBeFalsy();
      const etag = changed._meta?.etag;
      expect(etag).toBe((await call(`/events/${eventId}`)).headers.get('etag'));
      const next = await client.callTool({
        name: 'update_event',
        arguments: { eventId, name: 'By MCP again', ifMatch: etag },
      });
      expect(next.isError).toBeFalsy();
      const stale = await client.callTool({
        name: 'update_event',
        arguments: { eventId, name: 'Lost', ifMatch: etag },
      });
      expect(JSON.parse((stale.content as { text: string }[])[0]!.text).code).toBe('preconditionFailed');
    } finally {
      await client.close();
    }
  });
});
