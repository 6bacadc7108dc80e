// The catalogue of webhook event types (spec "### WebhookEventType", "## Events"): the 22 types of
// the spec, in its order, then the Tessera extensions (each marked so in its description), each with its scopes, a JSON Schema (draft 2020-12) of the signed body and an
// example the schema accepts; and every message the service really wrote to its outbox is accepted
// by the schema of its type. REST and MCP answer the same catalogue.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { markOrderPaid } from '../../core/admin/mark-order-paid';
import { operatorContext } from '../../core/admin/operator';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { attendeeFields, expectProblem, specScopes } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { callTool, outbox, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

/** The spec's "## Events" line, in its order: the oracle. */
const specTypes = [
  'attendee.registered',
  'attendee.updated',
  'attendee.cancelled',
  'attendee.erased',
  'order.paid',
  'checkin.created',
  'feedback.given',
  'lead.captured',
  'certificate.issued',
  'content.published',
  'stay.requested',
  'stay.assigned',
  'stay.changed',
  'stay.cancelled',
  'member.joined',
  'member.left',
  'travel.changed',
  'claim.submitted',
  'claim.approved',
  'claim.paid',
  'shift.signed_up',
  'shift.dropped',
];

/** Types beyond the spec's 22, after them, each description saying it is a Tessera extension. */
const extensionTypes = ['order.approved', 'order.declined'];

const attendeeFamily = ['attendee.registered', 'attendee.updated', 'attendee.cancelled'];

interface EventTypeEntry {
  type: string;
  summary?: string;
  description?: string;
  scopes: string[];
  schema: Record<string, any>;
  example: Record<string, any>;
}

let t: TestServer;
let workspaceId: string;
let key: string;
let catalogue: EventTypeEntry[];

function newAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'catalogue-test-master-key-0123456789abcdef' },
    delivery: { allowPrivate: false },
    dispatcher: false,
  });
  ({ workspaceId } = await t.workspace('Catalogue', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const res = await t.api('/webhooks/event-types', { key });
  expect(res.status).toBe(200);
  catalogue = res.body.data;
});
afterAll(async () => t?.close());

const entry = (type: string) => {
  const found = catalogue.find((c) => c.type === type);
  expect(found, type).toBeDefined();
  return found!;
};

describe('GET /webhooks/event-types', () => {
  it("answers 200 { data } with the spec's 22 types in its order, then the marked extensions", async () => {
    const res = await t.api('/webhooks/event-types', { key });
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.map((c: EventTypeEntry) => c.type)).toEqual([...specTypes, ...extensionTypes]);
    for (const c of res.body.data as EventTypeEntry[])
      expect(c.description!.startsWith('Tessera extension:'), c.type).toBe(extensionTypes.includes(c.type));
  });

  it('gives each type a summary, a description, scopes, a schema and an example', () => {
    for (const c of catalogue) {
      expect(Object.keys(c).sort(), c.type).toEqual(
        ['type', 'summary', 'description', 'scopes', 'schema', 'example'].sort(),
      );
      expect(typeof c.summary, c.type).toBe('string');
      expect(c.summary!.length, c.type).toBeGreaterThan(0);
      expect(typeof c.description, c.type).toBe('string');
      expect(c.description!.length, c.type).toBeGreaterThan(0);
      expect(Array.isArray(c.scopes), c.type).toBe(true);
      expect(c.scopes.length, c.type).toBeGreaterThan(0);
      expect(new Set(c.scopes).size, c.type).toBe(c.scopes.length);
      for (const scope of c.scopes) expect(specScopes, `${c.type}: ${scope}`).toContain(scope);
      expect(typeof c.schema, c.type).toBe('object');
      expect(typeof c.example, c.type).toBe('object');
    }
  });

  it('asks attendees:read and people:read, exactly, for the attendee family', () => {
    for (const type of attendeeFamily)
      expect([...entry(type).scopes].sort(), type).toEqual(['attendees:read', 'people:read']);
  });

  it('never asks a write scope, or a webhooks scope, to receive a type', () => {
    for (const c of catalogue) {
      for (const scope of c.scopes) {
        expect(scope.endsWith(':read'), `${c.type}: ${scope}`).toBe(true);
        expect(scope.startsWith('webhooks:'), `${c.type}: ${scope}`).toBe(false);
      }
    }
  });

  it('needs webhooks:read', async () => {
    const { key: other } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const res = await t.api('/webhooks/event-types', { key: other });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('webhooks:read');
    const { key: reader } = await t.key({ workspaceId, scopes: ['webhooks:read'], expires: 'never' });
    expect((await t.api('/webhooks/event-types', { key: reader })).body.data).toEqual(catalogue);
  });
});

describe('schemas and examples', () => {
  it('are JSON Schema draft 2020-12 that Ajv compiles in strict mode', () => {
    const ajv = newAjv();
    for (const c of catalogue) {
      if ('$schema' in c.schema)
        expect(c.schema.$schema, c.type).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(() => ajv.compile(c.schema), c.type).not.toThrow();
    }
  });

  it('require type, timestamp and data, with type constrained to the own name', () => {
    const ajv = newAjv();
    for (const c of catalogue) {
      expect(c.schema.type, c.type).toBe('object');
      expect(c.schema.required, c.type).toEqual(expect.arrayContaining(['type', 'timestamp', 'data']));
      const validate = ajv.compile(c.schema);
      // The type member takes its own name and nothing else.
      const typeSchema = c.schema.properties?.type;
      expect(typeSchema, c.type).toBeDefined();
      expect(ajv.validate(typeSchema, c.type), c.type).toBe(true);
      for (const other of [...specTypes.filter((x) => x !== c.type), 'webhook.test', ''])
        expect(ajv.validate(typeSchema, other), `${c.type} accepts ${other}`).toBe(false);
      // The body as a whole: missing members and a foreign type are refused.
      for (const member of ['type', 'timestamp', 'data']) {
        const { [member]: _gone, ...rest } = c.example;
        expect(validate(rest), `${c.type} without ${member}`).toBe(false);
      }
      const foreign = c.type === 'order.paid' ? 'attendee.registered' : 'order.paid';
      expect(validate({ ...c.example, type: foreign }), c.type).toBe(false);
      expect(validate({ ...c.example, timestamp: 'yesterday' }), c.type).toBe(false);
    }
  });

  it('each example is accepted by its own schema', () => {
    const ajv = newAjv();
    for (const c of catalogue) {
      const validate = ajv.compile(c.schema);
      const ok = validate(c.example);
      expect(ok, `${c.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(c.example.type, c.type).toBe(c.type);
      expect(Object.keys(c.example).sort(), c.type).toEqual(['data', 'timestamp', 'type']);
      expect(Number.isNaN(Date.parse(c.example.timestamp)), c.type).toBe(false);
    }
  });

  it('gives the attendee family data = { event: { eventId, slug, name }, attendee: Attendee }', () => {
    for (const type of attendeeFamily) {
      const { example, schema } = entry(type);
      expect(Object.keys(example.data).sort(), type).toEqual(['attendee', 'event']);
      expect(Object.keys(example.data.event).sort(), type).toEqual(['eventId', 'name', 'slug']);
      expect(Object.keys(example.data.attendee).sort(), type).toEqual([...attendeeFields].sort());
      // The schema asks the same of every message, not only of the example.
      const data = schema.properties.data;
      expect([...data.required].sort(), type).toEqual(['attendee', 'event']);
      expect([...data.properties.event.required].sort(), type).toEqual(['eventId', 'name', 'slug']);
      expect([...data.properties.attendee.required].sort(), type).toEqual(
        expect.arrayContaining(['attendeeId', 'eventId', 'orderId', 'status', 'valid']),
      );
      expect(Object.keys(data.properties.attendee.properties).sort(), type).toEqual(
        [...attendeeFields].sort(),
      );
    }
  });
});

describe('messages the service really wrote', () => {
  let e: DoorEvent;

  beforeAll(async () => {
    // Real changes through the API: registrations, a correction, a cancellation, door scans; and an
    // order paid and a person erased by the operator.
    e = await seedDoorEvent(t, workspaceId, key);
    const [a, b, c] = await e.register(e.general, 3);
    const corrected = await t.api(`/events/${e.eventId}/attendees/${a}`, {
      key,
      method: 'PATCH',
      body: { firstName: 'Corrected', company: 'Fixed AS', jobTitle: null },
    });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    const cancelled = await t.api(`/events/${e.eventId}/attendees/${b}/cancel`, { key, method: 'POST' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    for (const body of [{}, { doorId: e.doors.side }, { doorId: e.doors.side, direction: 'out' }]) {
      const scan = await t.api(`/events/${e.eventId}/attendees/${c}/check-in`, { key, method: 'POST', body });
      expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    }

    const ids = sampleIds(workspaceId);
    const summit = ids.event('summit');
    const standard = ids.ticketType('summit', 'standard');
    const someone = person(standard);
    expect((await register(t, key, summit, [someone])).status).toBe(201);
    const pending = (await t.api(`/events/${summit}/orders?sort=-created&status=pending&limit=1`, { key }))
      .body.data[0];
    expect(pending, 'a pending order of the sample').toBeDefined();
    const operator = await operatorContext(t.server.services, workspaceId);
    await markOrderPaid(operator, pending.orderId, 'bank');
    await erasePerson(await operatorContext(t.server.services, workspaceId), {
      email: someone.email as string,
    });
  });

  it('are each accepted by the schema of their type in the catalogue', async () => {
    const rows = await outbox(t, workspaceId);
    const ajv = newAjv();
    const validators = new Map(catalogue.map((c) => [c.type, ajv.compile(c.schema)]));
    expect(rows.length).toBeGreaterThan(10);
    const seen = new Set<string>();
    for (const row of rows) {
      expect(row.payload.type, `row ${row.id}`).toBe(row.type);
      const validate = validators.get(row.type);
      expect(validate, `row ${row.id}: ${row.type} is in the catalogue`).toBeDefined();
      const ok = validate!(row.payload);
      expect(ok, `row ${row.id} (${row.type}): ${ajv.errorsText(validate!.errors)}`).toBe(true);
      seen.add(row.type);
    }
    // What was done above is among them.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'attendee.registered',
        'attendee.updated',
        'attendee.cancelled',
        'attendee.erased',
        'order.paid',
        'checkin.created',
      ]),
    );
  });

  it('include the changes just made, with data as the spec gives for the attendee family', async () => {
    const rows = (await outbox(t, workspaceId)).filter((r) => r.eventId === e.eventId);
    const types = rows.map((r) => r.type);
    expect(types.filter((x) => x === 'attendee.registered')).toHaveLength(3);
    expect(types.filter((x) => x === 'attendee.updated')).toHaveLength(1);
    expect(types.filter((x) => x === 'attendee.cancelled')).toHaveLength(1);
    // In at the main entrance, in at the side, out at the side: three let in or out.
    expect(types.filter((x) => x === 'checkin.created')).toHaveLength(3);
    for (const row of rows.filter((r) => attendeeFamily.includes(r.type))) {
      expect(Object.keys(row.payload.data).sort()).toEqual(['attendee', 'event']);
      expect(Object.keys(row.payload.data.event).sort()).toEqual(['eventId', 'name', 'slug']);
      expect(row.payload.data.event.eventId).toBe(e.eventId);
      expect(Object.keys(row.payload.data.attendee).sort()).toEqual([...attendeeFields].sort());
    }
    const updated = rows.find((r) => r.type === 'attendee.updated')!;
    expect(updated.payload.data.attendee).toMatchObject({ firstName: 'Corrected', company: 'Fixed AS' });
    const cancelled = rows.find((r) => r.type === 'attendee.cancelled')!;
    expect(cancelled.payload.data.attendee.status).toBe('cancelled');
  });

  it('a message broken on purpose is refused by the same validators (they can fail)', async () => {
    const rows = await outbox(t, workspaceId);
    const ajv = newAjv();
    const registered = rows.find((r) => r.type === 'attendee.registered')!;
    const validate = ajv.compile(entry('attendee.registered').schema);
    expect(validate(registered.payload)).toBe(true);
    const { attendee: _attendee, ...noAttendee } = registered.payload.data;
    expect(validate({ ...registered.payload, data: noAttendee })).toBe(false);
    const { slug: _slug, ...noSlug } = registered.payload.data.event;
    expect(validate({ ...registered.payload, data: { ...registered.payload.data, event: noSlug } })).toBe(
      false,
    );
    expect(
      validate({
        ...registered.payload,
        data: { ...registered.payload.data, attendee: { ...registered.payload.data.attendee, valid: 'yes' } },
      }),
    ).toBe(false);
  });
});

describe('MCP list_event_types', () => {
  it('answers the same types as REST, and is marked read-only', async () => {
    const client = await t.mcp(key, {}, '?toolsets=webhooks');
    try {
      const tools = (await client.listTools()).tools;
      const tool = tools.find((x) => x.name === 'list_event_types');
      expect(tool).toBeDefined();
      expect(hintsOf(tool!)).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      const res = await callTool(client, 'list_event_types', {});
      expect(res.isError).toBe(false);
      expect(res.data.data.map((c: EventTypeEntry) => c.type)).toEqual([...specTypes, ...extensionTypes]);
      expect(res.data).toEqual({ data: catalogue });
    } finally {
      await client.close();
    }
  });
});
