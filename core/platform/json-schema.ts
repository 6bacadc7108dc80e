// The one conversion of valibot schemas to JSON Schema (draft 2020-12), for the OpenAPI document
// and the MCP tool schemas alike. Field docs come from v.description, formats and patterns the
// checks do not express from v.metadata.
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: v.GenericSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
  }) as JsonSchema;
  return rest;
}
