// For rules valibot cannot express (a real time zone, a real currency, an end after its start):
// the same invalidRequest problem, naming each field.

import type { DetailPart } from './mentions';
import { problem } from './problems';

/**
 * One field's problem, as a problem's `errors` list names it. A message that mentions an operation is
 * kept in parts, which each adapter renders (problemBody).
 */
export interface FieldError {
  field: string;
  message: string | DetailPart[];
}

export class FieldErrors {
  private readonly errors: FieldError[] = [];

  add(field: string, message: string | DetailPart[]): this {
    this.errors.push({ field, message });
    return this;
  }

  get list(): readonly FieldError[] {
    return this.errors;
  }

  throwIfAny(): void {
    if (this.errors.length === 0) return;
    const summary = this.errors.flatMap((e) => [' ', `${e.field}: `, ...[e.message].flat()]);
    throw problem('invalidRequest', ['A field or parameter is missing or wrong.', ...summary], {
      errors: this.errors,
    });
  }
}

/** A value of an input not yet validated, when it is text (rules see the input as sent). */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The rule of every name a person gives: not blank (valibot has said it is text of the right length). */
export function nameNotBlank(input: Record<string, unknown>, errors: FieldErrors): void {
  if (textOf(input.name)?.trim() === '') errors.add('name', 'The name cannot be blank.');
}
