// Nothing fails silently: a fault inside an MCP tool is logged with its
// trace id as REST's are; a key-activity write that fails is logged; a count that would go below
// zero stays at zero and the inconsistency is logged instead of hidden.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person, register, sampleIds } from '../support/sales';
import { capturingLogger, startTestServer, type TestServer } from '../support/server';
import { onPostgres } from '../support/test-store';

let t: TestServer;
let key: string;
let ids: ReturnType<typeof sampleIds>;
const { logger, lines } = capturingLogger();

beforeAll(async () => {
  t = await startTestServer({ logger });
  const { workspaceId } = await t.workspace('Nothing silent', true);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ids = sampleIds(workspaceId);
});
afterAll(async () => t.close());

const logged = (message: string) => lines.filter((l) => l.msg === message);

describe('counts that would go below zero', () => {
  it('keep a ticket type at zero taken and log that its count and its tickets disagree', async () => {
    const summit = ids.event('summit');
    const ticketTypeId = ids.ticketType('summit', 'standard');
    const made = await register(t, key, summit, [person(ticketTypeId)]);
    expect(made.status).toBe(201);
    await t.server.services.db
      .updateTable('ticket_types')
      .set({ taken: 0 })
      .where('id', '=', ticketTypeId)
      .execute();
    const attendeeId = made.body.attendees[0].attendeeId;
    expect(
      (await t.api(`/events/${summit}/attendees/${attendeeId}/cancel`, { key, method: 'POST' })).status,
    ).toBe(200);
    expect((await t.api(`/events/${summit}/ticket-types/${ticketTypeId}`, { key })).body.taken).toBe(0);
    const warnings = logged(
      'a place was given back where none was taken: the taken count and the tickets disagree',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, table: 'ticket_types', id: ticketTypeId });
  });

  it('keep a door at nobody inside and log that its count and its presence rows disagree', async () => {
    const summit = ids.event('summit');
    const made = await register(t, key, summit, [person(ids.ticketType('summit', 'standard'))]);
    const attendeeId = made.body.attendees[0].attendeeId;
    const scan = (direction: 'in' | 'out') =>
      t.api(`/events/${summit}/attendees/${attendeeId}/check-in`, {
        key,
        method: 'POST',
        body: { direction },
      });
    const admitted = await scan('in');
    expect(admitted.body.result).toBe('welcome');
    const doorId = admitted.body.door.doorId;
    // Nobody counted inside: on the door's row, nor in its slots (PostgreSQL, migration 0036).
    await t.server.services.db.updateTable('doors').set({ inside: 0 }).where('id', '=', doorId).execute();
    await t.server.services.db.deleteFrom('door_inside').where('door_id', '=', doorId).execute();
    expect((await scan('out')).body.result).toBe('out');
    const warnings = logged(
      'someone left a door with nobody inside: its inside count and the presence rows disagree',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, doorId });
  });
});

describe('faults', () => {
  beforeAll(async () => {
    // A table the tools read is gone: every call reaching it fails on the service's side.
    // PostgreSQL drops the references to it with it only when told to.
    await sql
      .raw(onPostgres ? 'drop table tracks cascade' : 'drop table tracks')
      .execute(t.server.services.db);
  });

  it('log a failed MCP tool call with its trace id, which the tool error carries', async () => {
    const client = await t.mcp(key);
    const res = await client.callTool({ name: 'list_tracks', arguments: { eventId: ids.event('summit') } });
    expect(res.isError).toBe(true);
    const problem = JSON.parse((res.content as { text: string }[])[0]!.text);
    expect(problem.code).toBe('serverError');
    const failures = logged('tool call failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 50, traceId: problem.traceId, tool: 'list_tracks' });
    expect(failures[0]!.err.message).toMatch(/no such table: tracks|relation "tracks" does not exist/);
    await client.close();
  });

  it('log a failed REST call with its trace id, as before', async () => {
    const res = await t.api(`/events/${ids.event('summit')}/tracks`, { key });
    expect(res.status).toBe(500);
    expect(logged('request failed').map((l) => l.traceId)).toContain(res.body.traceId);
  });

  it('log a key-activity write that fails', async () => {
    await sql`drop table key_activity`.execute(t.server.services.db);
    expect((await t.api('/me', { key })).status).toBe(200);
    await t.server.services.activity.flush();
    const failures = logged('key activity could not be recorded');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatchObject({ level: 50 });
    expect(failures[0]!.records).toBeGreaterThan(0);
  });
});
