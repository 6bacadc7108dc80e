// The one conversion of valibot schemas to JSON Schema (draft 2020-12), for the OpenAPI document
// and the MCP tool schemas alike. Field docs come from v.description, formats and patterns the
// checks do not express from v.metadata. Named schemas (the OpenAPI components) are referred to
// with $ref wherever the same schema object appears. An input's objects are closed, as the server
// refuses what they do not declare.
import {
  type ConversionConfig,
  type JsonSchema as ConvertedSchema,
  type OverrideSchemaContext,
  toJsonSchema,
  toJsonSchemaDefs,
} from '@valibot/to-json-schema';
import type * as v from 'valibot';

export type JsonSchema = Record<string, unknown>;

export interface NamedSchemas {
  /** Name -> schema; a schema object found among them becomes a $ref. */
  schemas: Record<string, v.GenericSchema>;
  /** Where the names live, e.g. '#/components/schemas/'. */
  prefix: string;
}

/**
 * Fields documented as required although the schema lets them be absent: the operation refuses
 * their absence itself, with the contract's own code (a registration without attendees is `empty`,
 * an attendee without a name is `invalid` naming it), where valibot would say invalidRequest.
 */
const requiredInDocs = new WeakSet<v.GenericSchema>();

export function documentedAsRequired<S extends v.GenericSchema>(schema: S): S {
  requiredInDocs.add(schema);
  return schema;
}

function withDocumentedRequired({
  valibotSchema,
  jsonSchema,
}: OverrideSchemaContext): ConvertedSchema | null {
  const entries = (valibotSchema as { type?: string; entries?: Record<string, v.GenericSchema> }).entries;
  if ((valibotSchema as { type?: string }).type !== 'object' || !entries) return null;
  const documented = Object.keys(entries).filter((key) => requiredInDocs.has(entries[key]!));
  if (documented.length === 0) return null;
  const required = new Set([...(jsonSchema.required ?? []), ...documented]);
  return { ...jsonSchema, required: Object.keys(entries).filter((key) => required.has(key)) };
}

/**
 * An input's plain objects are closed (additionalProperties: false): the server refuses a key they
 * do not declare (pipeline/unknown-fields.ts). Records, loose objects and objects with a rest stay
 * open, as there; a strict object is closed by the conversion itself.
 */
function closedObject(context: OverrideSchemaContext): ConvertedSchema | null {
  if ((context.valibotSchema as { type?: string }).type !== 'object') return null;
  return { ...(withDocumentedRequired(context) ?? context.jsonSchema), additionalProperties: false };
}

export interface ConversionOptions {
  /** The schema is an input: its objects say what the server refuses (see closedObject). */
  input?: boolean;
}

function config(named?: NamedSchemas, options: ConversionOptions = {}): ConversionConfig {
  return {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    overrideSchema: options.input ? closedObject : withDocumentedRequired,
    ...(named
      ? {
          definitions: named.schemas,
          overrideRef: ({ referenceId }: { referenceId: string }) => `${named.prefix}${referenceId}`,
        }
      : {}),
  };
}

export function jsonSchemaOf(
  schema: v.GenericSchema,
  named?: NamedSchemas,
  options?: ConversionOptions,
): JsonSchema {
  const {
    $schema: _ignored,
    $defs: _definitions,
    ...rest
  } = toJsonSchema(schema, config(named, options)) as JsonSchema;
  return rest;
}

/** The named schemas themselves, each referring to the others by name. */
export function jsonSchemasOf(named: NamedSchemas, options?: ConversionOptions): Record<string, JsonSchema> {
  return toJsonSchemaDefs(named.schemas, config(named, options)) as Record<string, JsonSchema>;
}
