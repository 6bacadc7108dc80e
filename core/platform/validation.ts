// Turns valibot issues into the spec's problems: wrong types in a JSON body are invalidBody,
// anything else missing or wrong is invalidRequest; both list each field in `errors`.
import * as v from 'valibot';
import { problem } from './problems';

export interface FieldError {
  field: string;
  message: string;
}

export function issuePath(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join('.');
}

export function parseInput<S extends v.GenericSchema>(
  schema: S,
  raw: unknown,
  bodyFields: ReadonlySet<string> = new Set(),
): v.InferOutput<S> {
  const result = v.safeParse(schema, raw);
  if (result.success) return result.output;
  const errors: FieldError[] = result.issues.map((issue) => ({
    field: issuePath(issue),
    message: issue.input === undefined ? 'Required.' : issue.message,
  }));
  // A value outside a list of allowed values (picklist, enum) has the right type but a wrong
  // value: invalidRequest, like any other wrong value.
  const wrongTypeInBody = result.issues.some(
    (issue) =>
      issue.kind === 'schema' &&
      issue.type !== 'custom' &&
      issue.type !== 'picklist' &&
      issue.type !== 'enum' &&
      issue.input !== undefined &&
      bodyFields.has(String(issue.path?.[0]?.key ?? '')),
  );
  const summary = errors.map((e) => `${e.field || 'input'}: ${e.message}`).join(' ');
  return throwIt(wrongTypeInBody ? 'invalidBody' : 'invalidRequest', summary, errors);
}

function throwIt(code: 'invalidBody' | 'invalidRequest', summary: string, errors: FieldError[]): never {
  const lead =
    code === 'invalidBody' ? 'A field has the wrong type.' : 'A field or parameter is missing or wrong.';
  throw problem(code, `${lead} ${summary}`, { errors });
}
