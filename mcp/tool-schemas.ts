// The schemas a tool shows in tools/list, made compact for an assistant's context: a key's list
// has to leave it room to think (tests hold each preset to a budget). Inputs keep every argument,
// every description that says something and the numeric ranges, but not the text limits the
// server checks anyway and names in its refusal, nor the paging fields kept for older REST
// clients; the paging arguments are explained once, in the server's instructions. Outputs are an
// outline: the fields always present, by name; a result that is another tool's ("as get_session
// returns") says so instead. The structured result stays valid against it, so clients may check.
// Argument objects are closed (additionalProperties: false): the server refuses what they do not declare.
import type * as v from 'valibot';
import { type JsonSchema, jsonSchemaOf } from '../core/platform/docs/json-schema';
import type { AnyOperation } from '../core/platform/pipeline/operation';
import { cursorFields, legacyPageFields } from '../core/platform/pipeline/paging';

type ObjectSchema = { type: 'object'; [k: string]: unknown };

/** Idempotent operations take the key as an argument, as REST takes the header (see the instructions). */
const idempotencyKeyProperty = { type: 'string' };

/** Conditional writes take the entity tag read, as REST takes If-Match (see the instructions). */
const ifMatchProperty = { type: 'string' };

const legacyFields = new Set<v.GenericSchema>([legacyPageFields.page, legacyPageFields.pageSize]);

/** The paging arguments every list takes, explained once in the server's instructions. */
const terse = new Map<v.GenericSchema, JsonSchema>([
  [cursorFields.cursor, { type: 'string' }],
  [cursorFields.limit, { type: 'integer' }],
  [cursorFields.updatedSince, { type: 'string', format: 'date-time' }],
]);

/**
 * Checks the server makes anyway, answering with the field and the rule, that an assistant rarely
 * meets or that the field's description says in words (a slug's letters, a colour's #rrggbb).
 * Numeric ranges stay: a rate of 0 to 100, 1 to 50 people, 90 days at most are worth knowing first.
 */
const serverChecked = ['pattern', 'minLength', 'maxLength', 'propertyNames'];

/** The largest a column holds (int32, or a safe integer): no limit an assistant meets. */
const storageBound = 2_147_483_647;

/** Descriptions that only restate the name, the enum or a limit the server checks anyway. */
const restating = [/^The [\w -]+ id\.$/, /^(At most|Up to) [\d,]+ characters\.?$/, /^Optional\.?$/];

/**
 * Drops a description that tells an assistant nothing the schema does not; an enum's "x (the
 * default)" becomes default: x.
 */
function leanDescription(out: JsonSchema): void {
  const text = out.description;
  if (typeof text !== 'string') return;
  if (restating.some((re) => re.test(text))) {
    delete out.description;
    return;
  }
  if (!Array.isArray(out.enum)) return;
  const values = out.enum.filter((x): x is string => typeof x === 'string');
  const byDefault = values.find(
    (x) => text.includes(`${x} (the default)`) || text.includes(`${x} (default)`),
  );
  let rest = text.replace(/\((the )?default\)/g, '');
  for (const x of [...values].sort((a, b) => b.length - a.length)) rest = rest.replaceAll(x, '');
  if (/^[\s,.;]*(?:(?:or|and)[\s,.;]*)*$/.test(rest)) {
    delete out.description;
    if (byDefault !== undefined) out.default = byDefault;
  }
}

function compactInput(schema: JsonSchema): JsonSchema {
  // Nullable fields keep anyOf [X, null]: one type per branch is what most clients map best.
  const out: JsonSchema = { ...schema };
  for (const k of serverChecked) delete out[k];
  if (typeof out.maximum === 'number' && out.maximum >= storageBound) delete out.maximum;
  // An id is a UUID by its name; the server says so when it is not.
  if (out.format === 'uuid') delete out.format;
  leanDescription(out);
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, JsonSchema>).map(([k, s]) => [k, compactInput(s)]),
    );
  }
  if (out.items && typeof out.items === 'object') out.items = compactInput(out.items as JsonSchema);
  if (Array.isArray(out.anyOf)) out.anyOf = (out.anyOf as JsonSchema[]).map(compactInput);
  return out;
}

/**
 * A tool's arguments. `twin` is the tool whose like-named arguments mean the same (create_session
 * for update_session): those lose their description here, and the tool says "as in create_session".
 */
export function toolInputSchema(operation: AnyOperation, twin?: ObjectSchema): ObjectSchema {
  const entries = operation.input.entries as Record<string, v.GenericSchema>;
  const shown = Object.fromEntries(Object.entries(entries).filter(([, s]) => !legacyFields.has(s)));
  const schema = compactInput(
    jsonSchemaOf({ ...operation.input, entries: shown } as v.GenericSchema, undefined, { input: true }),
  );
  const properties = schema.properties as Record<string, JsonSchema>;
  const twinProperties = (twin?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, field] of Object.entries(shown)) {
    const short = terse.get(field);
    if (short) properties[name] = short;
    // A field that takes anything is only there to be refused with its own reason (a price
    // cannot change): an assistant is better off not seeing it.
    else if (Object.keys(properties[name] ?? {}).length === 0) delete properties[name];
    else if (JSON.stringify(properties[name]) === JSON.stringify(twinProperties[name]))
      properties[name] = withoutDescriptions(properties[name]!);
    else if (properties[name]?.description === twinProperties[name]?.description)
      delete properties[name]!.description;
  }
  if (Array.isArray(schema.required) && schema.required.length === 0) delete schema.required;
  const extra = {
    ...(operation.idempotent ? { idempotencyKey: idempotencyKeyProperty } : {}),
    ...(operation.ifMatch ? { ifMatch: ifMatchProperty } : {}),
  };
  return { ...schema, type: 'object', properties: { ...properties, ...extra } };
}

/** The same schema with no description at any depth (said once, on the twin tool). */
function withoutDescriptions(schema: object): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'description') out[k] = withoutDescriptionsIn(v);
  return out;
}

/** A part of a schema (a list of schemas, a schema, a value) with no description at any depth. */
function withoutDescriptionsIn(part: unknown): unknown {
  if (Array.isArray(part)) return part.map(withoutDescriptionsIn);
  return part !== null && typeof part === 'object' ? withoutDescriptions(part) : part;
}

/** The tool a result shape belongs to, and how to refer to it. */
export type ResultOf = (schema: unknown) => { tool: string; says: string } | undefined;

const referTo = (says: string): JsonSchema => ({ type: 'object', description: says });

/**
 * A result's outline: the fields always present, by name (types and meanings are the REST
 * reference's; an assistant reads them off the result itself). A list shows its items' fields.
 */
function outline(schema: JsonSchema, items?: string): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const itemSchema = properties.data?.items as JsonSchema | undefined;
  // A page ({data, nextCursor, hasMore}, as the instructions say): its items' fields.
  if (properties.data?.type === 'array' && itemSchema?.type === 'object' && 'nextCursor' in properties)
    return {
      type: 'object',
      properties: { data: { type: 'array', items: items ? referTo(items) : outline(itemSchema) } },
    };
  const out: JsonSchema = { type: 'object' };
  if (Array.isArray(schema.required)) out.required = schema.required;
  return out;
}

export function toolOutputSchema(operation: AnyOperation, name: string, resultOf: ResultOf): ObjectSchema {
  const same = resultOf(operation.output);
  if (same && same.tool !== name) return referTo(same.says) as ObjectSchema;
  const entries = (operation.output as { entries?: Record<string, { item?: unknown }> }).entries;
  const items = entries?.data?.item ? resultOf(entries.data.item) : undefined;
  return outline(
    jsonSchemaOf(operation.output),
    items && items.tool !== name ? items.says : undefined,
  ) as ObjectSchema;
}
