// Budget lines written through the API (issue 26, item 2), over HTTPS and through the MCP client:
// added, changed (ETag, If-Match 412) and removed; amounts net of VAT with a VAT rate beside them, so
// the budget summary (GET /events/{eventId}/budget), computed from the rows, follows every change;
// the API's rules (finance:write, budget module, strict bodies naming each field, the currency's
// decimals, Idempotency-Key, demo refusal, paging and updatedSince).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { eventBody, expectProblem } from '../support/fixtures';
import { callTool, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let organiser: string;
let financeReader: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Budget lines');
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: financeReader } = await t.key({ workspaceId, scopes: ['finance:read'], expires: 'never' }));
});
afterAll(async () => t?.close());

async function newEvent(): Promise<string> {
  const res = await t.api('/events', { key: organiser, method: 'POST', body: eventBody() });
  expect(res.status).toBe(201);
  return res.body.eventId;
}

const add = (
  eventId: string,
  body: Record<string, unknown>,
  key = organiser,
  headers?: Record<string, string>,
) => t.api(`/events/${eventId}/budget-lines`, { key, method: 'POST', body, headers });

const budget = async (eventId: string) => {
  const res = await t.api(`/events/${eventId}/budget`, { key: financeReader });
  expect(res.status).toBe(200);
  return res.body;
};

describe('budget lines over HTTPS', () => {
  it('adds, changes and removes lines, and the budget summary follows each change', async () => {
    const eventId = await newEvent();
    const venue = await add(eventId, {
      category: 'venue',
      name: 'Main hall',
      kind: 'cost',
      budgeted: 12000,
      committed: 10000,
      vatRate: 25,
    });
    expect(venue.status, JSON.stringify(venue.body)).toBe(201);
    expect(venue.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(venue.body).toMatchObject({
      eventId,
      category: 'venue',
      kind: 'cost',
      budgeted: 12000,
      committed: 10000,
      actual: 0,
      forecast: 12000,
      vatRate: 25,
      currency: 'EUR',
    });
    const sponsors = await add(eventId, {
      category: 'sponsorship',
      name: 'Gold',
      kind: 'income',
      budgeted: 5000.5,
    });
    expect(sponsors.status).toBe(201);
    let summary = await budget(eventId);
    // Net of VAT: the 25% on the venue is not in the costs.
    expect(summary.costs).toMatchObject({ budgeted: 12000, committed: 10000, forecast: 12000 });
    expect(summary.income).toMatchObject({ budgeted: 5000.5 });
    expect(summary.result.budgeted).toBe(-6999.5);

    const path = `/events/${eventId}/budget-lines/${venue.body.lineId}`;
    expectProblem(
      await t.api(path, {
        key: organiser,
        method: 'PATCH',
        body: { actual: 11000 },
        headers: { 'if-match': '"stale"' },
      }),
      412,
      'preconditionFailed',
    );
    const changed = await t.api(path, {
      key: organiser,
      method: 'PATCH',
      body: { actual: 11000, forecast: 11500 },
      headers: { 'if-match': venue.headers.get('etag')! },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ actual: 11000, forecast: 11500, budgeted: 12000 });
    expect(changed.headers.get('etag')).not.toBe(venue.headers.get('etag'));
    summary = await budget(eventId);
    expect(summary.costs).toMatchObject({ actual: 11000, forecast: 11500 });
    expect(summary.categories.find((c: any) => c.category === 'venue')).toMatchObject({
      lines: 1,
      actual: 11000,
    });

    const removed = await t.api(`/events/${eventId}/budget-lines/${sponsors.body.lineId}`, {
      key: organiser,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    summary = await budget(eventId);
    expect(summary.income.budgeted).toBe(0);
    expect(summary.categories.map((c: any) => c.category)).toEqual(['venue']);
    expectProblem(
      await t.api(`/events/${eventId}/budget-lines/${sponsors.body.lineId}`, {
        key: organiser,
        method: 'DELETE',
      }),
      404,
      'notFound',
    );
  });

  it('refuses unknown fields, blank names and more decimals than the currency has, naming each', async () => {
    const eventId = await newEvent();
    const res = expectProblem(
      await add(eventId, { category: ' ', name: 'x', kind: 'gift', budgeted: 1.234, colour: 'red' }),
      400,
      'invalidRequest',
    );
    const fields = (res.errors as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['category', 'colour', 'kind']);
    const decimals = expectProblem(
      await add(eventId, { category: 'venue', name: 'x', kind: 'cost', budgeted: 1.234, committed: 0.001 }),
      400,
      'invalidRequest',
    );
    expect((decimals.errors as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'budgeted',
      'committed',
    ]);
    expectProblem(
      await add(eventId, { category: 'a', name: 'b', kind: 'cost', budgeted: -1 }),
      400,
      'invalidRequest',
    );
  });

  it('needs finance:write to write, the budget module on, and is refused in the demonstration workspace', async () => {
    const eventId = await newEvent();
    const body = { category: 'venue', name: 'Hall', kind: 'cost', budgeted: 100 };
    expect(expectProblem(await add(eventId, body, financeReader), 403, 'missingScope').scope).toBe(
      'finance:write',
    );
    await t.api(`/events/${eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { modules: { budget: false } },
    });
    expect(expectProblem(await add(eventId, body), 409, 'moduleOff').module).toBe('budget');
    expectProblem(await t.api(`/events/${eventId}/budget-lines`, { key: financeReader }), 409, 'moduleOff');
    const summit = sampleIds(demoWorkspaceId).event('summit');
    expectProblem(await add(summit, body, t.server.demoKey), 403, 'demoWorkspace');
  });

  it('replays an addition sent again with the same Idempotency-Key: one line', async () => {
    const eventId = await newEvent();
    const body = { category: 'catering', name: 'Lunch', kind: 'cost', budgeted: 900 };
    const headers = { 'idempotency-key': `line-${eventId}` };
    const first = await add(eventId, body, organiser, headers);
    const second = await add(eventId, body, organiser, headers);
    expect(second.body).toEqual(first.body);
    expect((await t.api(`/events/${eventId}/budget-lines`, { key: financeReader })).body.data).toHaveLength(
      1,
    );
  });

  it('pages the lines by cursor and by updatedSince', async () => {
    const eventId = await newEvent();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push(
        (await add(eventId, { category: 'misc', name: `Line ${i}`, kind: 'cost', budgeted: i })).body.lineId,
      );
    const first = (await t.api(`/events/${eventId}/budget-lines?limit=3`, { key: financeReader })).body;
    const rest = (
      await t.api(`/events/${eventId}/budget-lines?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`, {
        key: financeReader,
      })
    ).body;
    expect([...first.data, ...rest.data].map((l: any) => l.lineId)).toEqual(ids);
    const since = new Date(Date.parse(first.data.at(-1).updatedUtc) + 1).toISOString();
    await t.api(`/events/${eventId}/budget-lines/${ids[0]}`, {
      key: organiser,
      method: 'PATCH',
      body: { actual: 1 },
    });
    const changed = (
      await t.api(`/events/${eventId}/budget-lines?updatedSince=${encodeURIComponent(since)}`, {
        key: financeReader,
      })
    ).body.data.map((l: any) => l.lineId);
    expect(changed).toContain(ids[0]);
    expect(changed).not.toContain(ids[1]);
  });
});

describe('budget lines through the MCP client', () => {
  let client: Client;
  beforeAll(async () => {
    client = await t.mcp(organiser, {}, '?toolsets=events,finance');
  });
  afterAll(async () => client?.close());

  it('lets an assistant add, change, list and remove lines, and read the summary they make', async () => {
    const event = await callTool(client, 'create_event', eventBody());
    const eventId = event.data.eventId;
    const made = await callTool(client, 'create_budget_line', {
      eventId,
      category: 'tickets',
      name: 'Early bird',
      kind: 'income',
      budgeted: 2000,
      vatRate: 12,
      idempotencyKey: 'mcp-line-1',
    });
    expect(made.isError, JSON.stringify(made.data)).toBe(false);
    const changed = await callTool(client, 'update_budget_line', {
      eventId,
      lineId: made.data.lineId,
      actual: 1500,
    });
    expect(changed.data).toMatchObject({ actual: 1500, vatRate: 12 });
    const listed = await callTool(client, 'list_budget_lines', { eventId });
    expect(listed.data.data.map((l: any) => l.lineId)).toEqual([made.data.lineId]);
    expect((await callTool(client, 'get_budget', { eventId })).data.income.actual).toBe(1500);
    const removed = await callTool(client, 'delete_budget_line', { eventId, lineId: made.data.lineId });
    expect(removed.data).toEqual({ lineId: made.data.lineId, deleted: true });
    expect((await callTool(client, 'get_budget', { eventId })).data.income.actual).toBe(0);
    const refused = await callTool(client, 'create_budget_line', {
      eventId,
      category: 'x',
      name: 'y',
      kind: 'cost',
    });
    expect(refused.isError).toBe(true);
  });
});
