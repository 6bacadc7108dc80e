// Every answer typed (issue 24, item 3): each operation's success answer is a named schema, a list is
// <Resource>List around its named items, and the document's top-level `webhooks` has, for each of
// the 22 event types (and the marked extensions), the signed body with its signing headers and the automation subscription's
// body, each a named schema made from the registry, with an example that schema accepts. Request
// bodies are closed (additionalProperties: false) where the server refuses an unknown field.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventTypes } from '../db/values';
import { startTestServer, type TestServer } from './support/server';

let t: TestServer;
let doc: any;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  doc = (await t.api('/openapi.json')).body;
  const { workspaceId } = await t.workspace('Closed bodies');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every operation's success answer: where it is, and its schema (none for 204). */
function successAnswers(): { at: string; schema: any }[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, op]) => {
      const [status, success] = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))!;
      return {
        at: `${method.toUpperCase()} ${path} ${status}`,
        schema: success.content?.['application/json']?.schema,
      };
    }),
  );
}

let ajv: Ajv2020 | undefined;

/** A validator of one of the document's named schemas, resolving its $refs within the document. */
function validatorOf(name: string) {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'https://tessera.test/openapi.json', components: doc.components });
  }
  return ajv.getSchema(`https://tessera.test/openapi.json#/components/schemas/${name}`)!;
}

describe('the answers', () => {
  it('are each a named schema: no operation answers with an inline one', () => {
    const inline = successAnswers()
      .filter(
        ({ schema }) => schema && !(typeof schema.$ref === 'string' && Object.keys(schema).length === 1),
      )
      .map(({ at }) => at);
    expect(inline).toEqual([]);
    for (const { at, schema } of successAnswers())
      if (schema) expect(doc.components.schemas[schema.$ref.split('/').pop()], at).toBeDefined();
  });

  it('name every list <Resource>List, around its named items', () => {
    const list = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(list('/events/{eventId}/attendees')).toEqual(ref('AttendeeList'));
    expect(list('/communities')).toEqual(ref('CommunityList'));
    expect(list('/webhooks/{webhookId}/deliveries')).toEqual(ref('WebhookDeliveryList'));
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      if (!name.endsWith('List')) continue;
      expect(schema.properties.data.type, name).toBe('array');
      expect(schema.properties.data.items.$ref, name).toMatch(/^#\/components\/schemas\/\w+$/);
    }
    const paged = doc.components.schemas.AttendeeList;
    expect(Object.keys(paged.properties)).toEqual(expect.arrayContaining(['data', 'nextCursor', 'hasMore']));
  });

  it('name the resources the reference once showed inline', () => {
    for (const name of [
      'Community',
      'CommunityMember',
      'Survey',
      'SurveyResults',
      'SessionRatings',
      'Webhook',
      'WebhookDelivery',
      'Hook',
      'WebhookEventType',
    ])
      expect(doc.components.schemas[name]?.type, name).toBe('object');
    const hook = doc.paths['/hooks/{hookId}'].get.responses['200'].content['application/json'].schema;
    expect(hook).toEqual(ref('Hook'));
    const types = doc.components.schemas.WebhookEventTypeList.properties.data.items;
    expect(types).toEqual(ref('WebhookEventType'));
  });
});

describe('the webhooks', () => {
  const pascal = (type: string) =>
    type
      .split(/[._]/)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('');

  it("have, for each event type (the spec's 22 and the marked extensions), its signed body and its automation-subscription body", () => {
    expect(webhookEventTypes).toHaveLength(22 + 2);
    for (const type of webhookEventTypes) {
      const signed = doc.webhooks[type]?.post;
      expect(signed, type).toBeDefined();
      expect(signed.requestBody.content['application/json'].schema).toEqual(ref(`${pascal(type)}Webhook`));
      const hook = doc.webhooks[`${type} (hook)`]?.post;
      expect(hook, `${type} (hook)`).toBeDefined();
      expect(hook.requestBody.content['application/json'].schema).toEqual(ref(`${pascal(type)}Hook`));
    }
  });

  it('mark the types beyond the spec x-tessera-extension, both entries, and no type of the spec', () => {
    const extensions = ['order.approved', 'order.declined'];
    for (const type of webhookEventTypes)
      for (const entry of [type, `${type} (hook)`])
        expect(doc.webhooks[entry].post['x-tessera-extension'], entry).toBe(
          extensions.includes(type) ? true : undefined,
        );
  });

  it('document the signing headers on the signed entries only', () => {
    const names = (op: any) =>
      (op.parameters ?? []).map((p: any) => doc.components.parameters[p.$ref.split('/').pop()].name);
    for (const type of webhookEventTypes) {
      expect(names(doc.webhooks[type].post)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      expect(names(doc.webhooks[`${type} (hook)`].post)).toEqual([]);
    }
  });

  it('name the bodies as the dispatcher sends them: { type, timestamp, data } signed, data lifted for hooks', () => {
    const signed = doc.components.schemas.AttendeeRegisteredWebhook;
    expect(signed.required).toEqual(['type', 'timestamp', 'data']);
    expect(signed.properties.type.const).toBe('attendee.registered');
    expect(signed.properties.data.properties.attendee).toEqual(ref('Attendee'));
    const hook = doc.components.schemas.AttendeeRegisteredHook;
    expect(hook.required).toEqual(['id', 'type', 'timestamp', 'event', 'attendee']);
    expect(hook.properties.attendee).toEqual(ref('Attendee'));
    expect(hook.properties.event).toEqual(ref('EventRef'));
    const member = doc.components.schemas.MemberJoinedHook;
    expect(Object.keys(member.properties)).toEqual(['id', 'type', 'timestamp', 'community', 'member']);
  });

  it("say what the catalogue says: each accepts the other's example of the signed body", async () => {
    const catalogue = (await t.api('/webhooks/event-types', { key })).body.data;
    expect(catalogue).toHaveLength(22 + 2);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const { type, schema, example } of catalogue) {
      const name = doc.webhooks[type].post.requestBody.content['application/json'].schema.$ref
        .split('/')
        .pop();
      expect(validatorOf(name)(example), `${type} catalogue example`).toBe(true);
      const documented = doc.webhooks[type].post.requestBody.content['application/json'].example;
      expect(ajv.validate(schema, documented), `${type} document example`).toBe(true);
    }
  });

  it('give every body an example its schema accepts, and any signed message is one of them', () => {
    for (const [name, entry] of Object.entries<any>(doc.webhooks)) {
      const media = entry.post.requestBody.content['application/json'];
      const validate = validatorOf(media.schema.$ref.split('/').pop());
      expect(validate(media.example), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validatorOf('WebhookMessage')(media.example), name).toBe(!name.endsWith('(hook)'));
    }
  });
});

describe('the request bodies', () => {
  /** Every object schema in a body, at any depth, named ones followed once; where it is. */
  function objectsOf(schema: any, at: string, seen = new Set<string>()): { at: string; schema: any }[] {
    if (!schema || typeof schema !== 'object') return [];
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop();
      if (seen.has(name)) return [];
      seen.add(name);
      return objectsOf(doc.components.schemas[name], name, seen);
    }
    const inner = [
      ...Object.entries<any>(schema.properties ?? {}).map(([k, s]) => objectsOf(s, `${at}.${k}`, seen)),
      objectsOf(schema.items, `${at}[]`, seen),
      ...['anyOf', 'oneOf', 'allOf'].flatMap((k) =>
        (schema[k] ?? []).map((s: any) => objectsOf(s, at, seen)),
      ),
    ].flat();
    return schema.type === 'object' ? [{ at, schema }, ...inner] : inner;
  }

  const bodies = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item)
        .filter(([, op]) => op.requestBody)
        .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );

  it('close every object the server checks field by field; records stay open', () => {
    const open: string[] = [];
    for (const { method, path, op } of bodies())
      for (const { at, schema } of objectsOf(op.requestBody.content['application/json'].schema, 'body'))
        if (schema.properties && schema.additionalProperties !== false) open.push(`${method} ${path} ${at}`);
    expect(open).toEqual([]);
    const answers =
      doc.paths['/events/{eventId}/attendees/{attendeeId}'].patch.requestBody.content['application/json']
        .schema.properties.answers;
    expect(answers.additionalProperties).toEqual({});
    expect(doc.components.schemas.NewAttendee.additionalProperties).toBe(false);
  });

  it('are refused, each, with a field they do not declare, as the closed schema says', async () => {
    const someId = '0196ab12-3c4d-7e5f-8a6b-7c8d9e0f1a2b';
    for (const { method, path, op } of bodies()) {
      const media = op.requestBody.content['application/json'];
      const res = await t.api(path.replace(/\{\w+\}/g, someId), {
        key,
        method,
        body: { ...media.example, notAField: true },
      });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.errors, `${method} ${path}`).toContainEqual({
        field: 'notAField',
        message: 'Not a field.',
      });
    }
  });
});
