// Published content run live (issue 26, item 4), over HTTPS and through the MCP client: a session's
// or the event's slides, recording, article or photos published with its link (content.published
// in the same transaction), changed (If-Match), unpublished (removed: the list is what is published
// now), shown on the event's public page; the API's rules (program:write, program module, strict
// bodies naming each field, http(s) links only, a session of the event, Idempotency-Key, demo
// refusal, paging and updatedSince).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { eventBody, expectProblem } from '../support/fixtures';
import { callTool, outbox, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let organiser: string;
let programReader: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Content'));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: programReader } = await t.key({ workspaceId, scopes: ['program:read'], expires: 'never' }));
});
afterAll(async () => t?.close());

async function eventWithSession(): Promise<{ eventId: string; sessionId: string; url: string }> {
  const made = await t.api('/events', { key: organiser, method: 'POST', body: eventBody() });
  expect(made.status).toBe(201);
  const session = await t.api(`/events/${made.body.eventId}/sessions`, {
    key: organiser,
    method: 'POST',
    body: { title: 'Keynote: open data', startsLocal: '2027-05-01T09:00', endsLocal: '2027-05-01T10:00' },
  });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  return { eventId: made.body.eventId, sessionId: session.body.sessionId, url: made.body.url };
}

const publish = (
  eventId: string,
  body: Record<string, unknown>,
  key = organiser,
  headers?: Record<string, string>,
) => t.api(`/events/${eventId}/content`, { key, method: 'POST', body, headers });

const listed = async (eventId: string, query = '') => {
  const res = await t.api(`/events/${eventId}/content${query}`, { key: programReader });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('published content over HTTPS', () => {
  it('publishes, changes and unpublishes, sending content.published once, and the public page shows it', async () => {
    const { eventId, sessionId, url } = await eventWithSession();
    const slides = await publish(eventId, {
      kind: 'slides',
      title: 'Keynote slides',
      url: 'https://example.org/keynote.pdf',
      sessionId,
    });
    expect(slides.status, JSON.stringify(slides.body)).toBe(201);
    expect(slides.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(slides.body).toMatchObject({
      eventId,
      sessionId,
      kind: 'slides',
      url: 'https://example.org/keynote.pdf',
    });
    const photos = await publish(eventId, {
      kind: 'photos',
      title: 'All the photos',
      url: 'https://example.org/photos',
    });
    expect(photos.body.sessionId).toBeNull();
    const messages = (await outbox(t, workspaceId)).filter((m) => m.eventId === eventId);
    expect(messages.map((m) => [m.type, m.payload.data.content.contentId])).toEqual([
      ['content.published', slides.body.contentId],
      ['content.published', photos.body.contentId],
    ]);

    await t.api(`/events/${eventId}/status`, {
      key: organiser,
      method: 'PUT',
      body: { status: 'published' },
    });
    let page = await (await t.fetch(url)).text();
    expect(page).toContain('href="https://example.org/keynote.pdf"');
    expect(page).toContain('Slides: Keynote slides');
    expect(page).toContain('Photos: All the photos');

    const path = `/events/${eventId}/content/${slides.body.contentId}`;
    expectProblem(
      await t.api(path, {
        key: organiser,
        method: 'PATCH',
        body: { title: 'x' },
        headers: { 'if-match': '"old"' },
      }),
      412,
      'preconditionFailed',
    );
    const changed = await t.api(path, {
      key: organiser,
      method: 'PATCH',
      body: { url: 'https://example.org/keynote-v2.pdf' },
      headers: { 'if-match': slides.headers.get('etag')! },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      url: 'https://example.org/keynote-v2.pdf',
      title: 'Keynote slides',
    });
    expect((await outbox(t, workspaceId)).filter((m) => m.eventId === eventId)).toHaveLength(2);

    expect((await t.api(path, { key: organiser, method: 'DELETE' })).status).toBe(204);
    expectProblem(await t.api(path, { key: organiser, method: 'DELETE' }), 404, 'notFound');
    expect((await listed(eventId)).data.map((c: any) => c.contentId)).toEqual([photos.body.contentId]);
    page = await (await t.fetch(url)).text();
    expect(page).not.toContain('keynote');
    expect(page).toContain('All the photos');
  });

  it('refuses unknown fields, links that are not http(s), blank titles and another event’s session, naming each', async () => {
    const { eventId } = await eventWithSession();
    const other = await eventWithSession();
    const res = expectProblem(
      await publish(eventId, { kind: 'poster', title: ' ', url: 'javascript:alert(1)', extra: 1 }),
      400,
      'invalidRequest',
    );
    expect((res.errors as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'extra',
      'kind',
      'title',
      'url',
    ]);
    const session = expectProblem(
      await publish(eventId, {
        kind: 'slides',
        title: 'S',
        url: 'https://example.org',
        sessionId: other.sessionId,
      }),
      400,
      'invalidRequest',
    );
    expect((session.errors as { field: string }[]).map((f) => f.field)).toEqual(['sessionId']);
  });

  it('needs program:write, the program module on, and is refused in the demonstration workspace', async () => {
    const { eventId } = await eventWithSession();
    const body = { kind: 'article', title: 'Recap', url: 'https://example.org/recap' };
    expect(expectProblem(await publish(eventId, body, programReader), 403, 'missingScope').scope).toBe(
      'program:write',
    );
    await t.api(`/events/${eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { modules: { program: false } },
    });
    expect(expectProblem(await publish(eventId, body), 409, 'moduleOff').module).toBe('program');
    const summit = sampleIds(demoWorkspaceId).event('summit');
    expectProblem(await publish(summit, body, t.server.demoKey), 403, 'demoWorkspace');
  });

  it('replays a publication sent again with the same Idempotency-Key: one item, one message', async () => {
    const { eventId } = await eventWithSession();
    const body = { kind: 'recording', title: 'Full day', url: 'https://example.org/video' };
    const headers = { 'idempotency-key': `content-${eventId}` };
    const first = await publish(eventId, body, organiser, headers);
    const second = await publish(eventId, body, organiser, headers);
    expect(second.body).toEqual(first.body);
    expect((await listed(eventId)).data).toHaveLength(1);
    expect((await outbox(t, workspaceId)).filter((m) => m.eventId === eventId)).toHaveLength(1);
  });

  it('pages the list by cursor and by updatedSince, and filters by session', async () => {
    const { eventId, sessionId } = await eventWithSession();
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1)
      ids.push(
        (
          await publish(eventId, {
            kind: 'photos',
            title: `Album ${i}`,
            url: `https://example.org/${i}`,
            sessionId: i % 2 ? sessionId : null,
          })
        ).body.contentId,
      );
    const first = await listed(eventId, '?limit=3');
    const rest = await listed(eventId, `?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect([...first.data, ...rest.data].map((c: any) => c.contentId)).toEqual(ids);
    expect((await listed(eventId, `?sessionId=${sessionId}`)).data.map((c: any) => c.contentId)).toEqual([
      ids[1],
      ids[3],
    ]);
    const since = new Date(Date.parse(first.data.at(-1).updatedUtc) + 1).toISOString();
    await t.api(`/events/${eventId}/content/${ids[0]}`, {
      key: organiser,
      method: 'PATCH',
      body: { title: 'New' },
    });
    const changed = (await listed(eventId, `?updatedSince=${encodeURIComponent(since)}`)).data.map(
      (c: any) => c.contentId,
    );
    expect(changed).toContain(ids[0]);
    expect(changed).not.toContain(ids[1]);
  });
});

describe('published content through the MCP client', () => {
  let client: Client;
  beforeAll(async () => {
    client = await t.mcp(organiser, {}, '?toolsets=events,programme');
  });
  afterAll(async () => client?.close());

  it('lets an assistant publish, change, list and unpublish', async () => {
    const { eventId, sessionId } = await eventWithSession();
    const made = await callTool(client, 'publish_content', {
      eventId,
      sessionId,
      kind: 'recording',
      title: 'Keynote video',
      url: 'https://example.org/v',
      idempotencyKey: 'mcp-content-1',
    });
    expect(made.isError, JSON.stringify(made.data)).toBe(false);
    const changed = await callTool(client, 'update_content', {
      eventId,
      contentId: made.data.contentId,
      title: 'Keynote (video)',
    });
    expect(changed.data.title).toBe('Keynote (video)');
    const list = await callTool(client, 'list_content', { eventId });
    expect(list.data.data.map((c: any) => c.contentId)).toEqual([made.data.contentId]);
    const gone = await callTool(client, 'unpublish_content', { eventId, contentId: made.data.contentId });
    expect(gone.data).toEqual({ contentId: made.data.contentId, deleted: true });
    expect((await callTool(client, 'list_content', { eventId })).data.data).toEqual([]);
  });
});
