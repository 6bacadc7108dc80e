// Every validation failure in our own words. valibot's default ("Invalid type: Expected number but
// received "x"") speaks of its own notation; this one function, given to every parse as its
// message, says what the value must be instead. A schema that sets its own message keeps it
// (valibot prefers a schema's message to the parse's).
import type * as v from 'valibot';

type Issue = v.BaseIssue<unknown>;

/** The words for one of valibot's type names in its `expected` notation. */
const typeWords: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  Object: 'an object',
  Array: 'a list',
  null: 'null',
  bigint: 'a whole number',
  Date: 'a date',
};

/** valibot's `expected` ("(\"a\" | \"b\" | number)") as the values or kinds it lists. */
function expectedItems(expected: string | null): string[] {
  if (!expected) return [];
  const inner = expected.startsWith('(') && expected.endsWith(')') ? expected.slice(1, -1) : expected;
  return inner
    .split(/ [|&] /)
    .filter((item) => item !== 'undefined' && item !== 'never')
    .map((item) =>
      item.startsWith('"') && item.endsWith('"') ? item.slice(1, -1) : (typeWords[item] ?? item),
    );
}

const isLiteral = (expected: string) => /^"|^-?\d|^true$|^false$/.test(expected);

/** "Must be one of: a, b, c." for values; "Must be text or null." for kinds. */
function mustBe(expected: string | null): string {
  const items = expectedItems(expected);
  if (items.length === 0) return 'Is not an allowed value.';
  const raw = expected!.replace(/^\(|\)$/g, '').split(/ [|&] /);
  const allValues = raw.filter((item) => item !== 'undefined').every(isLiteral);
  if (allValues && items.length > 1) return `Must be one of: ${items.join(', ')}.`;
  if (allValues) return `Must be ${items[0]}.`;
  const last = items.pop();
  return `Must be ${items.length > 0 ? `${items.join(', ')} or ` : ''}${last}.`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A length for text in characters, for a list in items. */
function lengthOf(issue: Issue, count: number): string {
  return Array.isArray(issue.input) ? plural(count, 'item') : plural(count, 'character');
}

/** The message of one issue valibot raised without a message of the schema's own. */
export function issueMessage(issue: Issue): string {
  const requirement = (issue as { requirement?: unknown }).requirement;
  if (issue.kind === 'schema' && issue.input === undefined) return 'Required.';
  switch (issue.type) {
    case 'min_value':
      return `Must be at least ${String(requirement)}.`;
    case 'max_value':
      return `Must be at most ${String(requirement)}.`;
    case 'min_length':
      return `Must be at least ${lengthOf(issue, Number(requirement))}.`;
    case 'max_length':
      return `Must be at most ${lengthOf(issue, Number(requirement))}.`;
    case 'length':
      return `Must be exactly ${lengthOf(issue, Number(requirement))}.`;
    case 'non_empty':
      return 'Must not be empty.';
    case 'integer':
      return 'Must be a whole number.';
    case 'uuid':
      return 'Must be a UUID such as 3f2b8c4e-1d2a-4e5f-9a6b-7c8d9e0f1a2b.';
    case 'email':
      return 'Must be an email address such as ada@example.com.';
    case 'url':
      return 'Must be a web address such as https://example.com/.';
    case 'iso_timestamp':
      return 'Must be a date-time with its zone, such as 2026-05-01T09:00:00Z (UTC).';
    case 'iso_date':
      return 'Must be a date such as 2026-05-01.';
    case 'starts_with':
      return `Must start with ${String(requirement)}.`;
    case 'regex':
      return `Must match the pattern ${requirement instanceof RegExp ? requirement.source : String(requirement)}.`;
    case 'strict_object':
      // A key a strict object does not declare.
      if (issue.expected === 'never') return 'Not a field.';
      return mustBe(issue.expected);
    case 'custom':
    case 'check':
      return 'Is not an allowed value.';
    default:
      return issue.kind === 'schema' ? mustBe(issue.expected) : 'Is not an allowed value.';
  }
}

/**
 * The message of an issue as a problem lists it: for a key of a record that is not one of the
 * keys allowed, the key is named, since the field named is the key itself.
 */
export function messageOfIssue(issue: Issue): string {
  const last = issue.path?.[issue.path.length - 1] as { origin?: string; key?: unknown } | undefined;
  if (last?.origin === 'key' && issue.type !== 'strict_object')
    return `"${String(last.key)}" is not a key here. ${issue.message}`;
  return issue.message;
}

/** The parse configuration every input is checked with. */
export const ourWords: v.Config<Issue> = { message: issueMessage };
