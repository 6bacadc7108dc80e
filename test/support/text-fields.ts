// Every string an input schema takes, found by walking the valibot schema, with the kind of text
// it is: one-line or multi-line (core/platform/schemas.ts), a format that admits no control
// character (a UUID, an address, a time, an anchored pattern of plain characters), or unchecked.
import type * as v from 'valibot';
import { multiLinePattern, oneLinePattern } from '../../core/platform/schemas';

export type TextKind = 'oneLine' | 'multiLine' | 'format' | 'unchecked';

export interface TextField {
  path: string;
  kind: TextKind;
}

type Node = {
  type: string;
  kind?: string;
  pipe?: readonly Node[];
  entries?: Record<string, Node>;
  wrapped?: Node;
  item?: Node;
  items?: Node[];
  options?: Node[];
  key?: Node;
  value?: Node;
  rest?: Node;
  requirement?: unknown;
  metadata?: Record<string, unknown>;
};

/** Checks whose values can never hold a control character. */
const formats = new Set([
  'uuid',
  'email',
  'iso_timestamp',
  'iso_date',
  'iso_time',
  'iso_date_time',
  'length',
]);

/**
 * A pattern admits no control character when it is anchored at both ends and names only plain
 * characters: no dot outside a class, no negated class, no \s \S \W \D, no escape of a control.
 */
export function plainPattern(pattern: RegExp): boolean {
  const source = pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$') || pattern.flags.includes('m')) return false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      if (/[sSWDbBuxcnrtfv0]/.test(source[i + 1] ?? '')) return false;
      i++;
    } else if (c === '[') {
      if (source[i + 1] === '^') return false;
      inClass = true;
    } else if (c === ']') inClass = false;
    else if (c === '.' && !inClass) return false;
  }
  return true;
}

/** The checks of a string, those of a piped schema it starts from included. */
function actionsOf(node: Node): Node[] {
  return (node.pipe ?? []).flatMap((item) => (item.kind === 'schema' ? actionsOf(item) : [item]));
}

function kindOf(node: Node): TextKind {
  const actions = actionsOf(node);
  for (const action of actions) {
    if (action.type === 'regex' && action.requirement === oneLinePattern) return 'oneLine';
    if (action.type === 'regex' && action.requirement === multiLinePattern) return 'multiLine';
  }
  for (const action of actions) {
    if (action.type === 'regex' && plainPattern(action.requirement as RegExp)) return 'format';
    if (formats.has(action.type)) return 'format';
    if (action.type === 'metadata' && Array.isArray(action.metadata?.enum)) return 'format';
    // A moment checked by the operation's own rule (paging's invalidUpdatedSince), documented so.
    if (action.type === 'metadata' && action.metadata?.format === 'date-time') return 'format';
  }
  return 'unchecked';
}

/** The string fields of a schema, by their dotted path ([] for an array item, {key} for a record key). */
export function textFields(schema: v.GenericSchema, path = ''): TextField[] {
  const node = schema as unknown as Node;
  const at = (more: string) => (path ? `${path}.${more}` : more);
  switch (node.type) {
    case 'string':
      return [{ path: path || '(input)', kind: kindOf(node) }];
    case 'optional':
    case 'exact_optional':
    case 'nullable':
    case 'nullish':
    case 'undefinedable':
    case 'non_optional':
    case 'non_nullable':
    case 'non_nullish':
      return node.wrapped ? textFields(node.wrapped as never, path) : [];
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'object_with_rest':
      return Object.entries(node.entries ?? {}).flatMap(([key, entry]) =>
        textFields(entry as never, at(key)),
      );
    case 'array':
      return textFields(node.item as never, `${path}[]`);
    case 'tuple':
    case 'strict_tuple':
    case 'loose_tuple':
      return (node.items ?? []).flatMap((item, i) => textFields(item as never, at(String(i))));
    case 'record':
      return [
        ...textFields(node.key as never, at('{key}')),
        ...textFields(node.value as never, at('{value}')),
      ];
    case 'union':
    case 'variant':
    case 'intersect':
      return (node.options ?? []).flatMap((option) => textFields(option as never, path));
    default:
      return [];
  }
}
