// Issue 24, item 7: a wrong value is answered in our own words over HTTPS and to an MCP client,
// naming the field: a limit too high, an id that is no UUID, a value not in the list, a text too long.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Own words');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const libraryWording = /Expected|received|Invalid (type|length|value|key|input)/;

/** The problem's one error, after checking the detail says the same without valibot's words. */
function onlyError(body: Record<string, any>): { field: string; message: string } {
  expect(body.detail).not.toMatch(libraryWording);
  expect(body.errors).toHaveLength(1);
  expect(body.detail).toContain(`${body.errors[0].field}: ${body.errors[0].message}`);
  return body.errors[0];
}

describe('over HTTPS', () => {
  it('limit=501 must be at most 500', async () => {
    const problem = expectProblem(await t.api('/events?limit=501', { key }), 400, 'invalidRequest');
    expect(onlyError(problem)).toEqual({ field: 'limit', message: 'Must be at most 500.' });
  });

  it('an event id that is no UUID must be a UUID', async () => {
    const problem = expectProblem(await t.api('/events/not-a-uuid', { key }), 400, 'invalidRequest');
    const error = onlyError(problem);
    expect(error.field).toBe('eventId');
    expect(error.message).toMatch(/^Must be a UUID such as [0-9a-f-]{36}\.$/);
  });

  it('a status not in the list names the ones that are', async () => {
    const problem = expectProblem(await t.api('/events?status=live', { key }), 400, 'invalidRequest');
    expect(onlyError(problem)).toEqual({ field: 'status', message: 'Must be one of: draft, published.' });
  });

  it('a name too long says how long it may be', async () => {
    const body = { ...eventBody(), name: 'x'.repeat(201) };
    const problem = expectProblem(
      await t.api('/events', { key, method: 'POST', body }),
      400,
      'invalidRequest',
    );
    expect(onlyError(problem)).toEqual({ field: 'name', message: 'Must be at most 200 characters.' });
  });

  it('a number sent as text in a body is the wrong type, said plainly', async () => {
    const body = { ...eventBody(), online: 'yes' };
    const problem = expectProblem(await t.api('/events', { key, method: 'POST', body }), 400, 'invalidBody');
    expect(onlyError(problem)).toEqual({ field: 'online', message: 'Must be true or false.' });
  });
});

describe('to an MCP client', () => {
  it('says the same for each', async () => {
    const client = await t.mcp(key);
    const errorOf = async (name: string, args: Record<string, unknown>) => {
      const refused = await callTool(client, name, args);
      expect(refused.isError).toBe(true);
      expect(refused.data.code).toBe('invalidRequest');
      return onlyError(refused.data);
    };
    expect(await errorOf('list_events', { limit: 501 })).toEqual({
      field: 'limit',
      message: 'Must be at most 500.',
    });
    expect((await errorOf('get_event', { eventId: 'not-a-uuid' })).message).toMatch(/^Must be a UUID/);
    expect(await errorOf('list_events', { status: 'live' })).toEqual({
      field: 'status',
      message: 'Must be one of: draft, published.',
    });
    expect(await errorOf('create_event', { ...eventBody(), name: 'x'.repeat(201) })).toEqual({
      field: 'name',
      message: 'Must be at most 200 characters.',
    });
    await client.close();
  });
});
