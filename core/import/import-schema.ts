// The JSON Schema (draft 2020-12) of the import format, made from the same valibot schema the
// import checks files with, so the published format and the check never differ.
import { jsonSchemaOf } from '../platform/docs/json-schema';
import { importFormat } from './format';

let body: Record<string, unknown> | undefined;

export function importJsonSchema(origin: string): Record<string, unknown> {
  body ??= jsonSchemaOf(importFormat);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${origin}/api/v1/import-schema.json`,
    ...body,
  };
}
