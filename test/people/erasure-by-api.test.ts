// Erasure at a person's request through the API (an extension, scope people:write), the same
// erasure as `tessera person erase`: the rows say erased, attendee.erased reaches a receiver signed
// and as its schema says, the bytes leave the SQLite files, and the rules of any write hold (scope,
// demonstration, validation, unknown attendee). An assistant does the same with its tool.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { eventBody, expectProblem } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { type Receiver, startReceiver } from '../support/receiver';
import { startTestServer, type TestServer } from '../support/server';
import { onPostgres } from '../support/test-store';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let key: string;
let workspaceId: string;
let eventId: string;
let ticketTypeId: string;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'erasure-by-api-test-master-key-0123456789' },
    delivery: { allowPrivate: true, timeoutMs: 10_000 },
  });
  ({ workspaceId } = await t.workspace('Erasure by API'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  receiver = await startReceiver();
  ({ eventId } = (await t.api('/events', { key, method: 'POST', body: eventBody() })).body);
  const made = await t.api(`/events/${eventId}/ticket-types`, {
    key,
    method: 'POST',
    body: { name: 'Free', price: 0, vatRate: 0 },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  ticketTypeId = made.body.ticketTypeId;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function register(firstName: string, email: string): Promise<string> {
  const res = await t.api(`/events/${eventId}/attendees`, {
    key,
    method: 'POST',
    body: { attendees: [{ ticketTypeId, firstName, lastName: 'Erasable', email }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attendees[0].attendeeId;
}

function occurrences(text: string): number {
  let n = 0;
  for (const file of ['tessera.db', 'tessera.db-wal']) {
    const path = join(t.dataDir, file);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + 1)) n += 1;
  }
  return n;
}

describe('POST /people/erasure', () => {
  it('erases the person, sends attendee.erased and leaves no bytes of them in the files', async () => {
    const email = 'quirinalia.erasable@example.org';
    const made = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url(), eventTypes: ['attendee.erased'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const attendeeId = await register('Quirinalia', email);
    if (!onPostgres) expect(occurrences(email)).toBeGreaterThan(0);

    const res = await t.api('/people/erasure', { key, method: 'POST', body: { email } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attendees).toBe(1);
    expect(res.body.orders).toBe(1);
    const attendee = (await t.api(`/events/${eventId}/attendees/${attendeeId}`, { key })).body;
    expect(attendee).toMatchObject({ erased: true, personalData: 'erased', firstName: null, email: null });
    if (!onPostgres) {
      expect(occurrences(email)).toBe(0);
      expect(occurrences('Quirinalia')).toBe(0);
    }

    const [body] = await verifiedBodies(t, key, made.body.secret, await receiver.waitFor(1));
    expect(body.type).toBe('attendee.erased');
    expect(body.data.attendee.attendeeId).toBe(attendeeId);

    // Asked again, nothing more is erased.
    const again = await t.api('/people/erasure', { key, method: 'POST', body: { email } });
    expect(again.status).toBe(200);
    expect(again.body.attendees).toBe(0);
  });

  it('finds the person by one of their attendee ids', async () => {
    const attendeeId = await register('Ottoline', 'ottoline.erasable@example.org');
    const res = await t.api('/people/erasure', { key, method: 'POST', body: { attendeeId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attendees).toBe(1);
  });

  it('needs people:write: attendees:write with people:read is not enough', async () => {
    const { key: writer } = await t.key({ workspaceId, scopes: ['attendees:write', 'people:read'] });
    const body = expectProblem(
      await t.api('/people/erasure', { key: writer, method: 'POST', body: { email: 'a@example.org' } }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('people:write');
  });

  it('refuses the demonstration workspace, a body naming nobody or both, and an unknown attendee', async () => {
    expectProblem(
      await t.api('/people/erasure', { key: demoKey.key, method: 'POST', body: { email: 'a@example.org' } }),
      403,
      'demoWorkspace',
    );
    expectProblem(await t.api('/people/erasure', { key, method: 'POST', body: {} }), 400, 'invalidRequest');
    expectProblem(
      await t.api('/people/erasure', {
        key,
        method: 'POST',
        body: { email: 'a@example.org', attendeeId: '00000000-0000-4000-8000-000000000001' },
      }),
      400,
      'invalidRequest',
    );
    expectProblem(
      await t.api('/people/erasure', {
        key,
        method: 'POST',
        body: { attendeeId: '00000000-0000-4000-8000-000000000001' },
      }),
      404,
      'attendeeNotFound',
    );
  });
});

describe('the erase_person_data tool', () => {
  it('erases through the MCP client, marked destructive and an extension', async () => {
    await register('Philippa', 'philippa.erasable@example.org');
    const client = await t.mcp(key, {}, '?toolsets=people');
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'erase_person_data');
    expect(listed && hintsOf(listed).destructiveHint).toBe(true);
    expect(listed?.description).toContain('Tessera extension');
    const result: any = await client.callTool({
      name: 'erase_person_data',
      arguments: { email: 'philippa.erasable@example.org' },
    });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(result.structuredContent.attendees).toBe(1);
    await client.close();
  });
});
