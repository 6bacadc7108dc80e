// Issue 24, item 7: every validation failure of every operation is said in our own words. This
// walks the input schema of every route, tool and operator command, builds a wrong value for each
// field and each rule on it (wrong type, too small, too large, not whole, too long, not a UUID, not
// one of the values, ...), and checks that each failure names its field and none speaks valibot's
// notation ("Invalid type: Expected number but received "x"").
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { importFormat } from '../../core/import/format';
import { issueMessage, messageOfIssue, ourWords } from '../../core/platform/issue-messages';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { parseInput } from '../../core/platform/pipeline/validation';
import { isProblem } from '../../core/platform/problems';
import { tools } from '../../mcp/tools';
import { routes } from '../../rest/routes';
import { operatorOperations } from '../../src/operator-operations';

const libraryWording = /Expected|received|Invalid (type|length|value|key|input)/;

type Node = v.GenericSchema & {
  wrapped?: Node;
  pipe?: Node[];
  entries?: Record<string, Node>;
  item?: Node;
  options?: unknown[];
  value?: Node;
  requirement?: unknown;
};

interface WrongValue {
  path: string[];
  value: unknown;
  why: string;
}

const wrappers = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable']);

/** A value of the wrong type for a schema of this type. */
function wrongType(type: string): unknown {
  if (type === 'string' || type === 'picklist' || type === 'literal') return 42;
  if (type === 'number' || type === 'boolean') return 'x';
  if (type === 'object' || type === 'strict_object' || type === 'array' || type === 'record') return 'x';
  return undefined;
}

/** A text that the pattern refuses. */
function notMatching(pattern: RegExp): string {
  return ['!', ' ', 'x'.repeat(300), '0', 'a-b-c'].find((candidate) => !pattern.test(candidate))!;
}

/** The value that breaks one rule (a pipe's action) of a field. */
function breaking(action: Node, base: string): WrongValue['value'] | undefined {
  const requirement = action.requirement;
  const text = base === 'string';
  switch (action.type) {
    case 'min_value':
      return Number(requirement) - 1;
    case 'max_value':
      return Number(requirement) + 1;
    case 'integer':
      return 1.5;
    case 'min_length':
      return Number(requirement) > 0 ? (text ? '' : []) : undefined;
    case 'max_length':
    case 'length':
      // A list of many thousand items is as wrong as a short one, only slower to refuse.
      if (!text && Number(requirement) > 1000) return undefined;
      return text ? 'x'.repeat(Number(requirement) + 1) : Array(Number(requirement) + 1).fill('x');
    case 'uuid':
      return 'not-a-uuid';
    case 'email':
      return 'not-an-email';
    case 'url':
      return 'not a url';
    case 'iso_timestamp':
    case 'iso_date':
      return 'soon';
    case 'regex':
      return notMatching(requirement as RegExp);
    case 'starts_with':
      return 'nope';
    default:
      return undefined;
  }
}

/** Every wrong value of a field and of the fields below it. */
function wrongValues(schema: Node, path: string[]): WrongValue[] {
  if (wrappers.has(schema.type)) return wrongValues(schema.wrapped!, path);
  const out: WrongValue[] = [];
  const type = wrongType(schema.type);
  if (type !== undefined) out.push({ path, value: type, why: `not a ${schema.type}` });
  if (schema.type === 'picklist') out.push({ path, value: 'no-such-value', why: 'not one of the values' });
  for (const action of schema.pipe?.slice(1) ?? []) {
    const value = breaking(action, schema.type);
    if (value !== undefined) out.push({ path, value, why: action.type });
  }
  if (schema.entries)
    for (const [key, entry] of Object.entries(schema.entries))
      out.push(...wrongValues(entry, [...path, key]));
  if (schema.type === 'array' && schema.item) out.push(...wrongValues(schema.item, [...path, '0']));
  if (schema.type === 'record' && schema.value) out.push(...wrongValues(schema.value, [...path, 'key']));
  return out;
}

/** The input holding a wrong value at its path (an array where the path's next step is 0). */
function inputWith(path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const inner = inputWith(rest, value);
  return head === '0' ? [inner] : { [head!]: inner };
}

const operations = new Map<string, AnyOperation>();
for (const { operation } of [...routes, ...tools]) operations.set(operation.name, operation as AnyOperation);
for (const operation of operatorOperations) operations.set(operation.name, operation);

describe('a wrong value in any field of any operation', () => {
  it('is refused in our own words, naming the field', () => {
    let checked = 0;
    const kinds = new Set<string>();
    for (const operation of operations.values()) {
      for (const wrong of wrongValues(operation.input as Node, [])) {
        const field = wrong.path.join('.');
        let errors: { field: string; message: string }[] = [];
        try {
          parseInput(operation.input, inputWith(wrong.path, wrong.value), new Set(), operation.rules);
        } catch (error) {
          if (!isProblem(error)) throw error;
          errors = (error.extras as { errors: typeof errors }).errors;
          for (const e of errors)
            expect(e.message, `${operation.name} ${e.field}`).not.toMatch(libraryWording);
          expect(error.detail, operation.name).not.toMatch(libraryWording);
        }
        // A list too long may be refused item by item first: those errors name the field too.
        const about = errors.find((e) => e.field === field || e.field.startsWith(`${field}.`));
        const seen = JSON.stringify(errors.slice(0, 3));
        expect(about, `${operation.name} ${field} (${wrong.why}): ${seen}`).toBeDefined();
        checked++;
        kinds.add(wrong.why);
      }
    }
    // The walk reached every kind of field the operations have.
    expect(checked).toBeGreaterThan(500);
    for (const kind of ['max_value', 'min_value', 'integer', 'max_length', 'uuid', 'iso_timestamp', 'regex'])
      expect([...kinds], kind).toContain(kind);
    expect([...kinds]).toContain('not one of the values');
  });
});

describe('a wrong value anywhere in an import file', () => {
  it('is refused in our own words, at its path', () => {
    let checked = 0;
    for (const wrong of wrongValues(importFormat as unknown as Node, [])) {
      const result = v.safeParse(importFormat, inputWith(wrong.path, wrong.value), ourWords);
      expect(result.success).toBe(false);
      const issues = result.issues ?? [];
      for (const issue of issues)
        expect(messageOfIssue(issue), wrong.path.join('.')).not.toMatch(libraryWording);
      const field = wrong.path.join('.');
      const paths = issues.map((issue) => (issue.path ?? []).map((item) => String(item.key)).join('.'));
      expect(
        paths.some((path) => path === field || path.startsWith(`${field}.`)),
        `${field} (${wrong.why})`,
      ).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('the words', () => {
  const said = (schema: v.GenericSchema, value: unknown) => {
    const result = v.safeParse(schema, value, { message: issueMessage });
    return result.success ? 'accepted' : result.issues.map((issue) => issue.message).join(' ');
  };

  it('say what the value must be', () => {
    const limit = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500));
    expect(said(limit, 501)).toBe('Must be at most 500.');
    expect(said(limit, 0)).toBe('Must be at least 1.');
    expect(said(limit, 2.5)).toBe('Must be a whole number.');
    expect(said(limit, '10')).toBe('Must be a number.');
    expect(said(v.picklist(['draft', 'published']), 'live')).toBe('Must be one of: draft, published.');
    expect(said(v.pipe(v.string(), v.uuid()), 'abc')).toMatch(/^Must be a UUID/);
    expect(said(v.pipe(v.string(), v.maxLength(200)), 'x'.repeat(201))).toBe(
      'Must be at most 200 characters.',
    );
    expect(said(v.pipe(v.array(v.string()), v.maxLength(2)), ['a', 'b', 'c'])).toBe(
      'Must be at most 2 items.',
    );
    expect(said(v.pipe(v.string(), v.isoTimestamp()), 'soon')).toMatch(
      /^Must be a date-time .*2026-05-01T09:00:00Z/,
    );
    expect(said(v.union([v.string(), v.number()]), true)).toBe('Must be text or a number.');
    expect(said(v.literal(true), 1)).toBe('Must be true.');
    expect(said(v.strictObject({ a: v.string() }), { a: 'x', b: 1 })).toBe('Not a field.');
    expect(said(v.boolean(), 'yes')).toBe('Must be true or false.');
  });

  it('leave a schema’s own message as it is', () => {
    expect(said(v.pipe(v.string(), v.maxLength(3, 'Three at most.')), 'abcd')).toBe('Three at most.');
  });
});
