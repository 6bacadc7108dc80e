// JSON Schemas of tool inputs and outputs, derived from the operations' valibot schemas.
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

export function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
  }) as Record<string, unknown>;
  return rest;
}
