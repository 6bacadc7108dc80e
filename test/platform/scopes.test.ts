// Scopes (spec "Authentication" 8-10, "Versioning" 6): 403 missingScope naming the scope, write
// includes read of its area, the four presets, and the rewrite of keys made before per-area scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem, specReadScopes, specScopes } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Scopes workspace', true));
  const { key } = await t.key({ workspaceId, scopes: ['events:read'] });
  eventId = (await t.api('/events', { key })).body.data[0].eventId;
});
afterAll(async () => t.close());

const scopesOf = async (key: string): Promise<string[]> => {
  const me = await t.api('/me', { key });
  expect(me.status).toBe(200);
  return me.body.scopes;
};

describe('403 missingScope', () => {
  it('refuses GET /events to a key without events:read with 403 missingScope naming events:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['tickets:read', 'people:read'] });
    const body = expectProblem(await t.api('/events', { key }), 403, 'missingScope');
    expect(body.scope).toBe('events:read');
  });

  it('refuses GET /events/{eventId} without events:read with 403 missingScope', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['orders:read'] });
    const body = expectProblem(await t.api(`/events/${eventId}`, { key }), 403, 'missingScope');
    expect(body.scope).toBe('events:read');
  });

  it('refuses POST /events to a read-only key with 403 missingScope naming events:write', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'] });
    const body = expectProblem(
      await t.api('/events', { key, method: 'POST', body: eventBody() }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('events:write');
  });

  it('refuses PATCH /events/{eventId} to a read-only key with 403 missingScope naming events:write', async () => {
    const { key } = await t.key({ workspaceId, preset: 'assistant' });
    const body = expectProblem(
      await t.api(`/events/${eventId}`, { key, method: 'PATCH', body: { name: 'Renamed' } }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('events:write');
  });

  it('checks the scope before the input, so a key without the scope learns nothing of the fields', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'] });
    const res = await t.api('/events', { key, method: 'POST', body: { name: 42 } });
    expectProblem(res, 403, 'missingScope');
  });

  it('lets any working key call GET /me and GET /workspace', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['sharekit:read'] });
    expect((await t.api('/me', { key })).status).toBe(200);
    expect((await t.api('/workspace', { key })).status).toBe(200);
  });
});

describe('write includes read of the same area', () => {
  it('lets an events:write key list and read events', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:write'] });
    const list = await t.api('/events', { key });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect((await t.api(`/events/${eventId}`, { key })).status).toBe(200);
  });

  it('does not let a write scope of one area read another area', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['attendees:write', 'checkins:write'] });
    const body = expectProblem(await t.api('/events', { key }), 403, 'missingScope');
    expect(body.scope).toBe('events:read');
  });

  it('does not let a read scope write', async () => {
    const { key } = await t.key({ workspaceId, scopes: specReadScopes as unknown as string[] });
    expectProblem(await t.api('/events', { key, method: 'POST', body: eventBody() }), 403, 'missingScope');
  });
});

describe('presets', () => {
  it('dashboard is the read-only set of events, tickets, orders, check-ins and programme', async () => {
    const { key } = await t.key({ workspaceId, preset: 'dashboard' });
    expect(new Set(await scopesOf(key))).toEqual(
      new Set(['events:read', 'tickets:read', 'orders:read', 'checkins:read', 'program:read']),
    );
  });

  it('assistant is every read scope, personal data included, and no write', async () => {
    const { key } = await t.key({ workspaceId, preset: 'assistant' });
    const got = await scopesOf(key);
    expect(new Set(got)).toEqual(new Set(specReadScopes));
    expect(got).toContain('people:read');
  });

  it('everything holds every scope of the spec', async () => {
    const { key } = await t.key({ workspaceId, preset: 'everything' });
    const got = await scopesOf(key);
    for (const s of specScopes) expect(got).toContain(s);
  });

  it('automation is a connector set: it can manage subscriptions and read what they deliver, no more', async () => {
    const { key } = await t.key({ workspaceId, preset: 'automation' });
    const got = await scopesOf(key);
    for (const s of got) expect(specScopes).toContain(s);
    expect(got).toContain('webhooks:write');
    expect(got).toContain('events:read');
    expect(got.length).toBeLessThan(specScopes.length);
  });

  it('refuses an unknown preset or an unknown scope when a key is made', async () => {
    await expect(t.key({ workspaceId, preset: 'admin' })).rejects.toThrow(/preset/i);
    await expect(t.key({ workspaceId, scopes: ['events:read', 'events:delete'] })).rejects.toThrow(
      /events:delete/,
    );
  });

  it('answers scopes in the order of the spec table, without repeats', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['people:read', 'events:read', 'events:read'] });
    expect(await scopesOf(key)).toEqual(['events:read', 'people:read']);
  });
});

describe('keys made before per-area scopes', () => {
  it('rewrites legacy read and write into every read scope plus attendees:write and checkins:write', async () => {
    const { key } = await t.key({ workspaceId, legacy: ['read', 'write'] });
    expect(new Set(await scopesOf(key))).toEqual(
      new Set([...specReadScopes, 'attendees:write', 'checkins:write']),
    );
  });

  it('rewrites legacy read alone into the read scopes only', async () => {
    const { key } = await t.key({ workspaceId, legacy: ['read'] });
    expect(new Set(await scopesOf(key))).toEqual(new Set(specReadScopes));
  });

  it('gives a legacy key no new permission: it reads events but cannot create one', async () => {
    const { key } = await t.key({ workspaceId, legacy: ['read', 'write'] });
    expect((await t.api('/events', { key })).status).toBe(200);
    const body = expectProblem(
      await t.api('/events', { key, method: 'POST', body: eventBody() }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('events:write');
  });
});

describe('write scopes this service adds to the areas the API shows only reads for', () => {
  const added = [
    'orders:write',
    'sponsors:write',
    'leads:write',
    'cfp:write',
    'submissions:write',
    'crew:write',
    'surveys:write',
    'finance:write',
    'logistics:write',
    'certificates:write',
    'sharekit:write',
    'communities:write',
    'people:write',
  ];

  /** An event of the sample whose sponsors and crew modules are on. */
  const eventWith = async (path: string): Promise<string> => {
    const { key } = await t.key({ workspaceId, preset: 'everything' });
    for (const event of (await t.api('/events', { key })).body.data)
      if ((await t.api(`/events/${event.eventId}/${path}`, { key })).status === 200) return event.eventId;
    throw new Error(`no sample event with ${path}`);
  };

  it('everything holds them; dashboard, automation and assistant keep the lists the API names', async () => {
    const { key } = await t.key({ workspaceId, preset: 'everything' });
    expect(new Set(await scopesOf(key))).toEqual(new Set([...specScopes, ...added]));
    for (const preset of ['dashboard', 'automation', 'assistant']) {
      const { key: other } = await t.key({ workspaceId, preset });
      for (const s of await scopesOf(other)) expect(specScopes, `${preset}: ${s}`).toContain(s);
    }
  });

  it('gives a legacy key none of them', async () => {
    const { key } = await t.key({ workspaceId, legacy: ['read', 'write'] });
    for (const s of await scopesOf(key)) expect(added).not.toContain(s);
  });

  it('lets each write read its own area and no other', async () => {
    const sponsorsEvent = await eventWith('sponsors');
    const crewEvent = await eventWith('crew');
    const { key: sponsorsKey } = await t.key({ workspaceId, scopes: ['sponsors:write'] });
    expect((await t.api(`/events/${sponsorsEvent}/sponsors`, { key: sponsorsKey })).status).toBe(200);
    const body = expectProblem(
      await t.api(`/events/${crewEvent}/crew`, { key: sponsorsKey }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('crew:read');
    const { key: crewKey } = await t.key({ workspaceId, scopes: ['crew:write'] });
    expect((await t.api(`/events/${crewEvent}/shifts`, { key: crewKey })).status).toBe(200);
  });

  it('lets cfp:write read submissions, and a speaker-facing submissions:write read none', async () => {
    const cfpEvent = await eventWith('submissions');
    const { key: organiser } = await t.key({ workspaceId, scopes: ['cfp:write'] });
    expect((await t.api(`/events/${cfpEvent}/submissions`, { key: organiser })).status).toBe(200);
    const { key: site } = await t.key({ workspaceId, scopes: ['submissions:write'] });
    const body = expectProblem(
      await t.api(`/events/${cfpEvent}/submissions`, { key: site }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('cfp:read');
  });

  it('lets logistics:write and certificates:write see attendees to link stays and certificates to', async () => {
    const attendeesEvent = await eventWith('attendees');
    for (const scope of ['logistics:write', 'certificates:write']) {
      const { key } = await t.key({ workspaceId, scopes: [scope] });
      expect((await t.api(`/events/${attendeesEvent}/attendees`, { key })).status, scope).toBe(200);
      expectProblem(await t.api(`/events/${attendeesEvent}/orders`, { key }), 403, 'missingScope');
    }
  });

  it("lets a booth's narrow leads:write read the sponsors area and no other", async () => {
    const sponsorsEvent = await eventWith('sponsors');
    const { key } = await t.key({ workspaceId, scopes: ['leads:write', 'people:read'] });
    expect((await t.api(`/events/${sponsorsEvent}/leads`, { key })).status).toBe(200);
    expect((await t.api(`/events/${sponsorsEvent}/sponsor-levels`, { key })).status).toBe(200);
    expectProblem(await t.api('/events', { key }), 403, 'missingScope');
  });

  it('documents every scope in the reference, those it adds marked as extensions', async () => {
    const doc = (await t.api('//api/v1/openapi.json')).body;
    const table: string = doc.components.securitySchemes.bearer.description;
    for (const s of specScopes) expect(table).toMatch(new RegExp(`\\| \`${s}\` \\| [^|]*[^)] \\|`));
    for (const s of added)
      expect(table).toMatch(new RegExp(`\\| \`${s}\` \\| [^|]*\\(Tessera extension\\)\\* \\|`));
  });
});
