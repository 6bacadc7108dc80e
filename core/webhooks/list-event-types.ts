import * as v from 'valibot';
import { webhookEventTypes } from '../../db/values';
import { exampleOf } from '../platform/docs/json-examples';
import { type JsonSchema, jsonSchemaOf } from '../platform/docs/json-schema';
import { defineOperation } from '../platform/pipeline/operation';
import { text } from '../platform/schemas';
import { scopes as allScopes } from '../platform/scopes';
import { eventTypes, signedBodySchema } from './event-types';

export const eventTypeSchema = v.object({
  type: v.picklist(webhookEventTypes),
  summary: text('In a few words.'),
  description: text('When it is sent and what its data carries.'),
  scopes: v.pipe(
    v.array(v.picklist(allScopes)),
    v.description('Scopes a key needs to subscribe to it (through /hooks or an endpoint).'),
  ),
  schema: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description('JSON Schema (draft 2020-12) of the signed body { type, timestamp, data }.'),
  ),
  example: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description('A body of this type; the schema accepts it.'),
  ),
});

let catalogue: v.InferOutput<typeof eventTypeSchema>[] | null = null;

/** The catalogue, made once from the registry. */
export function eventTypeCatalogue(): v.InferOutput<typeof eventTypeSchema>[] {
  catalogue ??= [...eventTypes.values()].map((definition) => {
    const schema: JsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      ...jsonSchemaOf(signedBodySchema(definition)),
    };
    return {
      type: definition.type,
      summary: definition.summary,
      description: definition.description,
      scopes: definition.scopes,
      schema,
      example: exampleOf(schema, {}) as Record<string, unknown>,
    };
  });
  return catalogue;
}

export const listEventTypes = defineOperation({
  name: 'listEventTypes',
  title: 'List webhook event types',
  description:
    'Lists the webhook event types: when each is sent, scopes needed, message schema and example. Needs webhooks:read.',
  scope: 'webhooks:read',
  effect: 'read',
  problems: [],
  input: v.object({}),
  output: v.object({ data: v.array(eventTypeSchema) }),
  async handler() {
    return { data: eventTypeCatalogue() };
  },
});
