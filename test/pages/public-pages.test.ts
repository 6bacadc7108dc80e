// Links resolve: an event's url (/e/{slug}) serves a small public page while the event is
// published (404 for drafts and unknown slugs), and / points at the developer pages and the MCP
// server. Server-rendered HTML, every value escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let ids: ReturnType<typeof sampleIds>;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Public pages', true);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ids = sampleIds(workspaceId);
});
afterAll(async () => t.close());

const get = async (url: string) => {
  const res = await t.fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};

describe('/e/{slug}', () => {
  it("is where a published event's url leads: name, venue-time dates, venue, tickets on sale, programme", async () => {
    const event = (await t.api(`/events/${ids.event('summit')}`, { key })).body;
    expect(event.status).toBe('published');
    const page = await get(event.url);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Nordic Product Summit 2027</h1>');
    expect(page.text).toContain('Oslo Konserthus');
    expect(page.text).toContain('(Europe/Oslo)');
    // Venue time: the summit starts at 07:00 UTC, 09:00 in Oslo in summer (08:00 in winter).
    expect(page.text).toMatch(/, 0[89]:00 – /);
    const types = (await t.api(`/events/${event.eventId}/ticket-types`, { key })).body.data;
    for (const type of types) {
      if (type.visibility === 'public') expect(page.text, type.name).toContain(type.name);
      else expect(page.text, type.name).not.toContain(`<strong>${type.name}</strong>`);
    }
    const sessions = (await t.api(`/events/${event.eventId}/sessions?limit=3`, { key })).body.data;
    for (const s of sessions) expect(page.text).toContain(s.title.replace(/&/g, '&amp;'));
  });

  it('shows an online event as online, with no programme when the programme module is off', async () => {
    const remote = (await t.api(`/events/${ids.event('remote')}`, { key })).body;
    await t.api(`/events/${remote.eventId}`, { key, method: 'PATCH', body: { modules: { program: false } } });
    const page = await get(remote.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<p>Online</p>');
    expect(page.text).not.toContain('<h2>Programme</h2>');
  });

  it('answers 404 for a draft event and for a slug nobody has', async () => {
    const draft = (await t.api(`/events/${ids.event('forum')}`, { key })).body;
    expect(draft.status).toBe('draft');
    expect((await get(draft.url)).status).toBe(404);
    const unknown = await get(`${t.server.origin}/e/no-such-event-anywhere`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('No such event');
  });

  it('escapes everything it shows: a name full of markup stays text', async () => {
    const name = `<script>alert("x")</script> & <b>Friends</b>`;
    const made = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody({ name, slug: 'markup-test' }),
    });
    expect(made.status).toBe(201);
    await t.api(`/events/${made.body.eventId}/status`, { key, method: 'PUT', body: { status: 'published' } });
    const page = await get(made.body.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;Friends&lt;/b&gt;',
    );
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('<b>Friends</b>');
  });
});

describe('/', () => {
  it('is a landing page pointing at the developer pages and the MCP server', async () => {
    const page = await get(`${t.server.origin}/`);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    for (const link of ['href="/developers"', 'href="/developers/start"', 'href="/api/v1/openapi.json"'])
      expect(page.text).toContain(link);
    expect(page.text).toContain(`${t.server.origin}/mcp`);
  });
});
