// The document's top-level `webhooks` (OpenAPI 3.1): what Tessera sends, made from the one registry
// of event types (core/webhooks/event-types.ts), so it says what the dispatcher sends. Each type has
// two entries: the signed body an endpoint (/webhooks) receives with its Standard Webhooks headers,
// and the unsigned body an automation subscription (/hooks) receives. Each body is a named schema
// (AttendeeRegisteredWebhook, AttendeeRegisteredHook), so a generated client has a type per payload.
// Endpoints also receive test messages (WebhookTestMessage), and WebhookMessage is any signed body,
// told apart by its type, for a receiver of several types.
import type * as v from 'valibot';
import { exampleOf } from '../core/platform/docs/json-examples';
import {
  type EventTypeDefinition,
  eventTypes,
  hookBodySchema,
  signedBodySchema,
  testMessageSchema,
  testMessageType,
} from '../core/webhooks';
import { extensionMarks } from './openapi-extension';
import { areas } from './routes';

type Json = Record<string, unknown>;

/** attendee.registered -> AttendeeRegistered; shift.signed_up -> ShiftSignedUp. */
const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

export const signedBodyName = (type: string) => `${pascal(type)}Webhook`;
export const hookBodyName = (type: string) => `${pascal(type)}Hook`;

/** The entry names: the type itself for the signed body, "<type> (hook)" for the subscription's. */
export const hookEntryName = (type: string) => `${type} (hook)`;

/** The test message an endpoint receives on request (POST /webhooks/{webhookId}/test). */
const testBodyName = 'WebhookTestMessage';

/** Both bodies of every type, and the test message's, by name. */
export function webhookBodySchemas(): Record<string, v.GenericSchema> {
  return {
    ...Object.fromEntries(
      [...eventTypes.values()].flatMap((definition) => [
        [signedBodyName(definition.type), signedBodySchema(definition)],
        [hookBodyName(definition.type), hookBodySchema(definition)],
      ]),
    ),
    [testBodyName]: testMessageSchema,
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Any signed body: an endpoint receives every type it chose, and test messages, at one address. */
export function webhookMessageSchema(): Json {
  const names: [string, string][] = [
    ...[...eventTypes.keys()].map((type): [string, string] => [type, signedBodyName(type)]),
    [testMessageType, testBodyName],
  ];
  return {
    description:
      'Any signed message an endpoint receives: one of the types it chose, or a test message; told apart by type.',
    oneOf: names.map(([, name]) => ref(name)),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(names.map(([type, name]) => [type, `#/components/schemas/${name}`])),
    },
  };
}

/** The Standard Webhooks headers of a signed message (spec "Signed delivery"). */
export const signingHeaders: Json = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The message id: msg_ and 32 hex characters, the same on every attempt, so a repeat can be recognised.',
    schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' },
    example: 'msg_8f14e45fceea167a5a36dedd4bea2543',
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When it was signed, in Unix seconds: refuse a message more than five minutes old.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1809500400',
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      "v1, and the Base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (its part after whsec_, Base64-decoded). While a secret is being replaced, two signatures separated by a space: accept the message when one matches.",
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};

const parameter = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** What the receiver's answer does, for both channels. */
function answers(gone: string): Json {
  return {
    '2XX': { description: 'Received: any 2xx answer ends the delivery.' },
    '410': { description: `Gone: ${gone}` },
    default: {
      description:
        'Any other answer, or none within the time-out, fails the attempt: it is tried again later on the retry schedule (after Retry-After, when a 429 or 503 gives one).',
    },
  };
}

const scopeWords = (definition: EventTypeDefinition) =>
  `A key needs ${definition.scopes.join(', ')} (and webhooks:write) to subscribe to it.`;

const camel = (name: string) => `${name[0]!.toLowerCase()}${name.slice(1)}`;

/** A signed message's entry: its body, the signing headers, what the answer does. */
function signed(name: string, summary: string, description: string, named: Record<string, Json>): Json {
  return {
    post: {
      operationId: camel(name),
      summary,
      description: `${description} Signed (Standard Webhooks; User-Agent Tessera-Webhooks/1): check webhook-signature before trusting the body.`,
      tags: [areas.webhooks.name],
      security: [],
      parameters: ['WebhookId', 'WebhookTimestamp', 'WebhookSignature'].map(parameter),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(name), example: exampleOf(ref(name), named) } },
      },
      responses: answers('the endpoint is switched off (disabledReason gone) and sent nothing more.'),
    },
  };
}

const signedEntry = (definition: EventTypeDefinition, named: Record<string, Json>) =>
  markedIf(
    definition,
    signed(
      signedBodyName(definition.type),
      definition.summary,
      `${definition.description} Sent to the webhook endpoints (POST /webhooks) that chose ${definition.type}. ${scopeWords(definition)}`,
      named,
    ),
  );

/** A type beyond the spec's 22 is marked as the operations beyond it are (x-tessera-extension). */
function markedIf(definition: EventTypeDefinition, entry: Json): Json {
  if (!definition.extension) return entry;
  const post = entry.post as Json;
  return { post: { ...post, ...extensionMarks(post.description as string) } };
}

function hookEntry(definition: EventTypeDefinition, named: Record<string, Json>): Json {
  const name = hookBodyName(definition.type);
  return markedIf(definition, {
    post: {
      operationId: camel(name),
      summary: `${definition.summary} (automation subscription)`,
      description: `${definition.description} Sent, unsigned (User-Agent Tessera-Hooks/1), to the callbacks of automation subscriptions (POST /hooks) to ${definition.type}: the message's id, type and timestamp, and its data's fields at the top level. ${scopeWords(definition)}`,
      tags: [areas.hooks.name],
      security: [],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(name), example: exampleOf(ref(name), named) } },
      },
      responses: answers('the subscription is removed and sent nothing more.'),
    },
  });
}

/** The entry of any signed message, whose body a receiver of several types can be typed by. */
export const anyMessageEntryName = 'any signed message';

/**
 * Both entries of every type, the test message's and any signed message's; `named` holds the
 * component schemas the examples are made from.
 */
export function webhooksOf(named: Record<string, Json>): Json {
  return {
    ...Object.fromEntries(
      [...eventTypes.values()].flatMap((definition) => [
        [definition.type, signedEntry(definition, named)],
        [hookEntryName(definition.type), hookEntry(definition, named)],
      ]),
    ),
    [testMessageType]: signed(
      testBodyName,
      'A test message',
      'Sent when asked for (POST /webhooks/{webhookId}/test), to that endpoint only: nothing happened.',
      named,
    ),
    [anyMessageEntryName]: signed(
      'WebhookMessage',
      'Any signed message',
      'What one endpoint receives at its address: a message of any type it chose, or a test message; tell them apart by type. Each type has its own entry.',
      named,
    ),
  };
}
