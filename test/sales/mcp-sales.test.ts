// The sales core through the MCP SDK client: registration with the REST shape,
// refusals as tool errors carrying the REST problem, redaction, capacityBelowTaken, sales pace,
// and tool descriptions an assistant can act on.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { callTool, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let everything: string;
let noPeople: string;
let client: Client;
let ids: ReturnType<typeof sampleIds>;
let summit: string;
let standard: string;

const salesTools = {
  list_events: 'events:read',
  get_event: 'events:read',
  create_event: 'events:write',
  update_event: 'events:write',
  set_event_status: 'events:write',
  get_event_stats: 'events:read',
  list_questions: 'events:read',
  get_answers_schema: 'events:read',
  list_ticket_types: 'tickets:read',
  get_ticket_type: 'tickets:read',
  update_ticket_type: 'tickets:write',
  list_add_ons: 'tickets:read',
  list_discount_codes: 'tickets:read',
  create_discount_code: 'tickets:write',
  list_orders: 'orders:read',
  get_order: 'orders:read',
  get_sales_pace: 'orders:read',
  list_attendees: 'attendees:read',
  search_attendees: 'attendees:read',
  get_attendee: 'attendees:read',
  register_attendees: 'attendees:write',
  update_attendee: 'attendees:write',
  cancel_attendee: 'attendees:write',
} as const;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('MCP sales workspace', true));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything' }));
  ({ key: noPeople } = await t.key({
    workspaceId,
    scopes: ['attendees:read', 'attendees:write', 'tickets:write', 'orders:read'],
  }));
  client = await t.mcp(everything);
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  standard = ids.ticketType('summit', 'standard');
});
afterAll(async () => {
  await client.close();
  await t.close();
});

/** The problem members that do not depend on the call (instance and traceId do). */
const comparable = (p: Record<string, unknown>) => {
  const { instance: _i, traceId: _t, detail: _d, error: _e, ...rest } = p;
  return rest;
};

describe('tools of the sales core', () => {
  it('lists every sales tool with a description naming its scope and an object input schema', async () => {
    const listed = new Map((await client.listTools()).tools.map((x) => [x.name, x]));
    for (const [name, scope] of Object.entries(salesTools)) {
      const found = listed.get(name);
      expect(found, name).toBeDefined();
      expect(found!.description!.length, name).toBeGreaterThanOrEqual(120);
      expect(found!.description, name).toContain(scope);
      expect(found!.inputSchema.type, name).toBe('object');
      expect(hintsOf(found!).readOnlyHint, name).toBe(scope.endsWith(':read'));
      const properties = found!.inputSchema.properties as Record<string, unknown> | undefined;
      if (name !== 'list_events' && name !== 'create_event') {
        expect(found!.inputSchema.required, name).toContain('eventId');
        expect(properties?.eventId, name).toBeDefined();
      }
    }
    expect(hintsOf(listed.get('cancel_attendee')!).destructiveHint).toBe(true);
  });

  it('documents the registration fields an assistant must send', async () => {
    const tool = (await client.listTools()).tools.find((x) => x.name === 'register_attendees')!;
    const properties = tool.inputSchema.properties as Record<string, any>;
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['eventId', 'attendees', 'language', 'buyerName', 'buyerEmail', 'buyerCompany']),
    );
    const item = properties.attendees.items.properties;
    expect(Object.keys(item)).toEqual(
      expect.arrayContaining([
        'ticketTypeId',
        'firstName',
        'lastName',
        'email',
        'company',
        'jobTitle',
        'answers',
      ]),
    );
    expect(tool.description).toMatch(/soldOut/);
    expect(tool.description).toMatch(/invalid/);
  });
});

describe('register_attendees', () => {
  it('takes an idempotencyKey argument: a retry gets the first answer, other arguments are refused', async () => {
    const tool = (await client.listTools()).tools.find((x) => x.name === 'register_attendees')!;
    expect((tool.inputSchema.properties as Record<string, unknown>).idempotencyKey).toBeDefined();
    const listOnly = (await client.listTools()).tools.find((x) => x.name === 'list_attendees')!;
    expect((listOnly.inputSchema.properties as Record<string, unknown>).idempotencyKey).toBeUndefined();

    const key = `mcp-retry-${Date.now()}`;
    const args = { eventId: summit, attendees: [person(standard)], idempotencyKey: key };
    const first = await callTool(client, 'register_attendees', args);
    const retry = await callTool(client, 'register_attendees', args);
    expect(first.isError).toBe(false);
    expect(retry.data).toEqual(first.data);
    const orders = await t.server.services.db
      .selectFrom('orders')
      .select('id')
      .where('id', '=', first.data.orderId)
      .execute();
    expect(orders).toHaveLength(1);
    const tickets = await t.server.services.db
      .selectFrom('attendees')
      .select('id')
      .where('email', '=', String(args.attendees[0]!.email))
      .execute();
    expect(tickets).toHaveLength(1);

    const reused = await callTool(client, 'register_attendees', { ...args, attendees: [person(standard)] });
    expect(reused.isError).toBe(true);
    expect(reused.data).toMatchObject({ code: 'idempotencyKeyReused', status: 422 });
    const bad = await callTool(client, 'register_attendees', { ...args, idempotencyKey: '' });
    expect(bad.data).toMatchObject({ code: 'invalidIdempotencyKey', status: 400 });
  });

  it('registers in one order and answers the same shape as POST /events/{eventId}/attendees', async () => {
    const viaTool = await callTool(client, 'register_attendees', {
      eventId: summit,
      attendees: [person(standard), person(standard)],
    });
    expect(viaTool.isError).toBe(false);
    const viaRest = await register(t, everything, summit, [person(standard), person(standard)]);
    expect(viaRest.status).toBe(201);
    expect(Object.keys(viaTool.data).sort()).toEqual(Object.keys(viaRest.body).sort());
    expect(viaTool.data.reference).toMatch(/^[A-Z0-9]{6}$/);
    expect(viaTool.data.attendees).toHaveLength(2);
    expect(Object.keys(viaTool.data.attendees[0]).sort()).toEqual(
      Object.keys(viaRest.body.attendees[0]).sort(),
    );
    for (const a of viaTool.data.attendees) {
      const read = await t.api(`/events/${summit}/attendees/${a.attendeeId}`, { key: everything });
      expect(read.body).toEqual(a);
    }
    const order = await t.api(`/events/${summit}/orders/${viaTool.data.orderId}`, { key: everything });
    expect(order.body).toMatchObject({ status: 'free', attendees: 2, reference: viaTool.data.reference });
  });

  it('answers soldOut as a tool error with the problem REST gives, naming ticketTypeId', async () => {
    const vip = ids.ticketType('summit', 'vip');
    const { taken } = (await t.api(`/events/${summit}/ticket-types/${vip}`, { key: everything })).body;
    await t.api(`/events/${summit}/ticket-types/${vip}`, {
      key: everything,
      method: 'PATCH',
      body: { capacity: taken },
    });
    const viaTool = await callTool(client, 'register_attendees', {
      eventId: summit,
      attendees: [person(vip)],
    });
    expect(viaTool.isError).toBe(true);
    expect(viaTool.data).toMatchObject({ code: 'soldOut', status: 400, ticketTypeId: vip });
    expect(viaTool.data.instance).toBe('/mcp#register_attendees');
    const viaRest = expectProblem(await register(t, everything, summit, [person(vip)]), 400, 'soldOut');
    expect(comparable(viaTool.data)).toEqual(comparable(viaRest));
  });

  it('answers invalid details as a tool error with the same errors [{attendee, field, code}] as REST', async () => {
    const attendees = [person(standard), { ...person(standard), lastName: '', email: 'nope' }];
    const viaTool = await callTool(client, 'register_attendees', { eventId: summit, attendees });
    expect(viaTool.isError).toBe(true);
    expect(viaTool.data.code).toBe('invalid');
    expect(viaTool.data.errors).toEqual([
      { attendee: 1, field: 'lastName', code: 'required' },
      { attendee: 1, field: 'email', code: 'notEmail' },
    ]);
    const viaRest = expectProblem(await register(t, everything, summit, attendees), 400, 'invalid');
    expect(comparable(viaTool.data)).toEqual(comparable(viaRest));
  });

  it('refuses a key without attendees:write with missingScope, as REST does', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['attendees:read'] });
    const readOnly = await t.mcp(key);
    const res = await callTool(readOnly, 'register_attendees', {
      eventId: summit,
      attendees: [person(standard)],
    });
    expect(res.isError).toBe(true);
    expect(res.data).toMatchObject({ code: 'missingScope', status: 403, scope: 'attendees:write' });
    await readOnly.close();
  });
});

describe('list_attendees', () => {
  it('gives personal fields null with personalData withheld to a key without people:read', async () => {
    const restricted = await t.mcp(noPeople);
    const res = await callTool(restricted, 'list_attendees', { eventId: summit, limit: 50 });
    expect(res.isError).toBe(false);
    expect(res.data.data).toHaveLength(50);
    for (const a of res.data.data) {
      for (const field of ['firstName', 'lastName', 'email', 'company', 'jobTitle', 'answers'])
        expect(a[field], field).toBeNull();
      expect(a.personalData).toBe(a.erased ? 'erased' : 'withheld');
    }
    const rest = await t.api(`/events/${summit}/attendees?limit=50`, { key: noPeople });
    expect(res.data).toEqual(rest.body);
    const byEmail = await callTool(restricted, 'list_attendees', { eventId: summit, email: 'a@example.com' });
    expect(byEmail.data).toMatchObject({ code: 'peopleScope', status: 403 });
    await restricted.close();
  });

  it('gives the personal fields with people:read', async () => {
    const res = await callTool(client, 'list_attendees', { eventId: summit, limit: 5 });
    const included = res.data.data.filter((a: any) => !a.erased);
    expect(included.length).toBeGreaterThan(0);
    for (const a of included) {
      expect(a.personalData).toBe('included');
      expect(a.email).toMatch(/@/);
    }
  });
});

describe('update_ticket_type', () => {
  it('refuses a capacity below the places taken with capacityBelowTaken naming taken', async () => {
    const early = ids.ticketType('summit', 'early');
    const before = (await t.api(`/events/${summit}/ticket-types/${early}`, { key: everything })).body;
    const res = await callTool(client, 'update_ticket_type', {
      eventId: summit,
      ticketTypeId: early,
      capacity: before.taken - 1,
    });
    expect(res.isError).toBe(true);
    expect(res.data).toMatchObject({ code: 'capacityBelowTaken', status: 409, taken: before.taken });
    expect((await t.api(`/events/${summit}/ticket-types/${early}`, { key: everything })).body).toEqual(
      before,
    );
  });

  it('changes the capacity and answers the ticket type as REST shows it', async () => {
    const early = ids.ticketType('summit', 'early');
    const res = await callTool(client, 'update_ticket_type', {
      eventId: summit,
      ticketTypeId: early,
      capacity: 175,
    });
    expect(res.isError).toBe(false);
    expect(res.data.capacity).toBe(175);
    expect((await t.api(`/events/${summit}/ticket-types/${early}`, { key: everything })).body).toEqual(
      res.data,
    );
  });

  it('refuses price as invalidRequest, as REST does', async () => {
    const res = await callTool(client, 'update_ticket_type', {
      eventId: summit,
      ticketTypeId: standard,
      price: 1,
    });
    expect(res.data).toMatchObject({ code: 'invalidRequest', status: 400 });
  });
});

describe('get_sales_pace', () => {
  it('answers what GET /events/{eventId}/sales answers, and refuses days outside 7 to 90', async () => {
    const res = await callTool(client, 'get_sales_pace', { eventId: summit, days: 14 });
    expect(res.isError).toBe(false);
    const rest = await t.api(`/events/${summit}/sales?days=14`, { key: everything });
    expect(res.data).toEqual(rest.body);
    expect(res.data.days).toHaveLength(14);
    expect(res.data.previousSevenDays).not.toBeNull();
    const refused = await callTool(client, 'get_sales_pace', { eventId: summit, days: 91 });
    expect(refused.data).toMatchObject({ code: 'invalidRequest', status: 400 });
  });
});
