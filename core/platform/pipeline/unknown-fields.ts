// valibot's v.object drops keys it does not know, so a typo ("capcity") would be lost without a
// word. This walks the input beside its schema and names every key no object schema declares, with
// the declared key it most likely meant. Records, loose objects and objects with a rest stay open;
// a strict object is left to valibot, which refuses its unknown keys itself.
import * as v from 'valibot';
import type { FieldError } from '../field-errors';

type Node = v.GenericSchema & {
  entries?: Record<string, v.GenericSchema>;
  wrapped?: v.GenericSchema;
  item?: v.GenericSchema;
  items?: v.GenericSchema[];
  options?: v.GenericSchema[];
  key?: string;
  getter?: (input: unknown) => v.GenericSchema;
};

const wrappers = new Set([
  'optional',
  'exact_optional',
  'nullable',
  'nullish',
  'undefinedable',
  'non_optional',
  'non_nullable',
  'non_nullish',
]);

/** Every key of `value` (at any depth) that its object schema does not declare. */
export function unknownFields(schema: v.GenericSchema, value: unknown, path: string[] = []): FieldError[] {
  const node = schema as Node;
  if (wrappers.has(node.type)) return node.wrapped ? unknownFields(node.wrapped, value, path) : [];
  if (node.type === 'lazy' && node.getter) return unknownFields(node.getter(value), value, path);
  if (node.type === 'object' && node.entries) return unknownInObject(node.entries, value, path);
  if (node.type === 'array' && node.item && Array.isArray(value))
    return value.flatMap((item, i) => unknownFields(node.item!, item, [...path, String(i)]));
  if (node.type === 'tuple' && node.items && Array.isArray(value))
    return node.items.flatMap((item, i) => unknownFields(item, value[i], [...path, String(i)]));
  if ((node.type === 'union' || node.type === 'variant') && node.options)
    return unknownInUnion(node, value, path);
  if (node.type === 'intersect' && node.options) return unknownInIntersection(node.options, value, path);
  return [];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function unknownInObject(
  entries: Record<string, v.GenericSchema>,
  value: unknown,
  path: string[],
): FieldError[] {
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const entry = entries[key];
    if (entry) return unknownFields(entry, inner, [...path, key]);
    // The declared keys are listed only for a key that is not one (every request passes here).
    return [{ field: [...path, key].join('.'), message: notAField(key, Object.keys(entries)) }];
  });
}

/**
 * A union names what the option the value is meant for does not know: for a variant the option
 * its discriminator picks, among the options the value fits the one leaving the fewest keys unknown.
 */
function unknownInUnion(node: Node, value: unknown, path: string[]): FieldError[] {
  let options = node.options!;
  if (node.type === 'variant' && node.key && isPlainObject(value)) {
    const picked = options.filter((option) => {
      const discriminator = (option as Node).entries?.[node.key!] as Node | undefined;
      return (discriminator as { literal?: unknown } | undefined)?.literal === value[node.key!];
    });
    if (picked.length > 0) options = picked;
  }
  // An option the value does not fit (text where an object came) would know no keys to miss.
  const fitting = options.filter((option) => v.safeParse(option, value).success);
  if (fitting.length > 0) options = fitting;
  const candidates = options.map((option) => unknownFields(option, value, path));
  return candidates.reduce((best, next) => (next.length < best.length ? next : best), candidates[0] ?? []);
}

/** An intersection knows a key any of its parts declares. */
function unknownInIntersection(options: v.GenericSchema[], value: unknown, path: string[]): FieldError[] {
  const entries = Object.assign({}, ...options.map((option) => (option as Node).entries ?? {}));
  return unknownInObject(entries, value, path);
}

/** "Not a field; did you mean capacity?" when a declared key is close, else "Not a field." */
export function notAField(key: string, known: readonly string[]): string {
  const meant = nearestKey(key, known);
  return meant ? `Not a field; did you mean ${meant}?` : 'Not a field.';
}

/** The declared key a typo most likely meant: the same but for case, _ and -, or a slip or two away. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  const wanted = plain(key);
  // Short names are a slip away from many others: one edit for up to 5 letters, two beyond.
  const allowed = wanted.length <= 5 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(wanted, plain(name));
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
