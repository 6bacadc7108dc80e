// Query strings are text; the operation's schema says which parameters are numbers or booleans.
import type * as v from 'valibot';
import type { InputSchema } from '../core/platform/pipeline/operation';

type Kind = 'number' | 'boolean' | 'array' | 'other';

function kindOf(schema: v.GenericSchema): Kind {
  const s = schema as v.GenericSchema & { wrapped?: v.GenericSchema; pipe?: v.GenericSchema[] };
  if (s.type === 'optional' || s.type === 'nullable' || s.type === 'nullish') return kindOf(s.wrapped!);
  if (s.type === 'number') return 'number';
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'array') return 'array';
  return 'other';
}

export function coerceQuery(
  input: InputSchema,
  query: Record<string, string | string[] | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const entry = input.entries[name] as v.GenericSchema | undefined;
    const kind = entry ? kindOf(entry) : 'other';
    const value = Array.isArray(raw) && kind !== 'array' ? raw[raw.length - 1]! : raw;
    if (kind === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
      out[name] = Number(value);
    else if (kind === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
    else if (kind === 'array') out[name] = Array.isArray(value) ? value : String(value).split(',');
    else out[name] = value;
  }
  return out;
}
