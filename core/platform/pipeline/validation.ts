// Turns valibot issues, and the field rules an operation adds, into the spec's problems: wrong
// types in a JSON body are invalidBody, anything else missing or wrong is invalidRequest; both list
// every field at once in `errors`, each in our own words (issue-messages.ts). A key no object
// schema declares is refused too (invalidRequest), with the key most likely meant: valibot would
// drop it without a word.
import * as v from 'valibot';
import { type FieldError, FieldErrors } from '../field-errors';
import { messageOfIssue, ourWords } from '../issue-messages';
import { problem } from '../problems';
import { unknownFields } from './unknown-fields';

/** Field rules valibot cannot express, checked on the input as sent (values of any type). */
export type FieldRules = (input: Record<string, unknown>, errors: FieldErrors) => void;

export function issuePath(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join('.');
}

export function parseInput<S extends v.GenericSchema>(
  schema: S,
  raw: unknown,
  bodyFields: ReadonlySet<string> = new Set(),
  rules?: FieldRules,
): v.InferOutput<S> {
  const result = v.safeParse(schema, raw, ourWords);
  const ruled = new FieldErrors();
  if (rules && raw !== null && typeof raw === 'object') rules(raw as Record<string, unknown>, ruled);
  const unknown = unknownFields(schema, raw);
  if (result.success && ruled.list.length === 0 && unknown.length === 0) return result.output;
  const issues = result.success ? [] : result.issues;
  const errors: FieldError[] = issues.map((issue) => ({
    field: issuePath(issue),
    message: issue.input === undefined ? 'Required.' : messageOfIssue(issue),
  }));
  // A field the schema already refused is not reported again by a rule.
  const refused = new Set(errors.map((e) => e.field));
  errors.push(...ruled.list.filter((e) => !refused.has(e.field)), ...unknown);
  // A value outside a list of allowed values (picklist, enum) has the right type but a wrong
  // value: invalidRequest, like any other wrong value.
  const wrongTypeInBody = issues.some(
    (issue) =>
      issue.kind === 'schema' &&
      issue.type !== 'custom' &&
      issue.type !== 'picklist' &&
      issue.type !== 'enum' &&
      issue.input !== undefined &&
      bodyFields.has(String(issue.path?.[0]?.key ?? '')),
  );
  const summary = errors.map((e) => `${e.field || 'input'}: ${e.message}`).join(' ');
  const code = wrongTypeInBody ? 'invalidBody' : 'invalidRequest';
  const lead =
    code === 'invalidBody' ? 'A field has the wrong type.' : 'A field or parameter is missing or wrong.';
  throw problem(code, `${lead} ${summary}`, { errors });
}
