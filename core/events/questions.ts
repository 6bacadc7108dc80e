// Registration questions: their public shape, the JSON Schema of an answers object, and the check
// of one answer (codes required, tooLong, notEmail, notOption, as a refused registration names them).
import * as v from 'valibot';
import type { QuestionRow } from '../../db/schema';
import { type QuestionKind, questionKinds } from '../../db/values';
import type { FieldErrors } from '../platform/field-errors';
import { int32, lineFault, oneLine, text, uuid } from '../platform/schemas';

export { type QuestionKind, questionKinds };

const byLanguage = v.pipe(v.record(v.string(), v.string()), v.description('Text by language tag.'));

export const questionSchema = v.object({
  questionId: uuid('The question id; answers are keyed by it.'),
  eventId: uuid('The event id.'),
  label: byLanguage,
  kind: v.pipe(v.picklist(questionKinds), v.description('What kind of answer it takes.')),
  required: v.pipe(
    v.boolean(),
    v.description('Required on the public registration form (never through the API).'),
  ),
  options: v.array(v.object({ value: text('Stored value.'), label: byLanguage })),
  maxLength: v.nullable(int32('Longest text answer.')),
  ticketTypeIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Asked only of these ticket types; empty for all.'),
  ),
  sortOrder: int32('Place on the form.'),
});

export type QuestionView = v.InferOutput<typeof questionSchema>;

export function questionView(row: QuestionRow): QuestionView {
  return {
    questionId: row.id,
    eventId: row.event_id,
    label: JSON.parse(row.label) as Record<string, string>,
    kind: row.kind,
    required: row.required === 1,
    options: JSON.parse(row.options) as QuestionView['options'],
    maxLength: row.max_length,
    ticketTypeIds: JSON.parse(row.ticket_type_ids) as string[],
    sortOrder: row.sort_order,
  };
}

const defaultMaxLength: Partial<Record<QuestionKind, number>> = {
  text: 500,
  longText: 5000,
  phone: 40,
  email: 254,
};
const emailCheck = v.pipe(v.string(), v.email());
const fileAnswer = v.object({
  upload: v.pipe(v.string(), v.uuid()),
  name: v.pipe(v.string(), oneLine, v.maxLength(255)),
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  contentType: v.pipe(v.string(), oneLine, v.maxLength(255)),
});

/** The JSON Schema of the answers object, one property per question. */
export function answersJsonSchema(questions: QuestionView[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const q of questions) {
    const title = q.label.en ?? Object.values(q.label)[0];
    const values = q.options.map((o) => o.value);
    const maxLength = q.maxLength ?? defaultMaxLength[q.kind];
    const schema: Record<string, unknown> = (() => {
      switch (q.kind) {
        case 'email':
          return { type: 'string', format: 'email', maxLength };
        case 'number':
          return { type: 'number' };
        case 'date':
          return { type: 'string', format: 'date' };
        case 'choice':
          return { type: 'string', enum: values };
        case 'multiChoice':
          return { type: 'array', items: { type: 'string', enum: values }, uniqueItems: true };
        case 'checkbox':
          return { type: 'boolean' };
        case 'file':
          return {
            type: 'object',
            required: ['upload', 'name', 'size', 'contentType'],
            properties: {
              upload: { type: 'string', format: 'uuid' },
              name: { type: 'string' },
              size: { type: 'integer', minimum: 0 },
              contentType: { type: 'string' },
            },
          };
        default:
          return { type: 'string', maxLength };
      }
    })();
    properties[q.questionId] = {
      title,
      ...schema,
      ...(q.ticketTypeIds.length ? { 'x-ticketTypeIds': q.ticketTypeIds } : {}),
    };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    additionalProperties: false,
    'x-requiredOnForm': questions.filter((q) => q.required).map((q) => q.questionId),
  };
}

/**
 * Control characters in text answers (issue 50): a long text may run over lines (LF, CRLF, tab), any
 * other text answer is one line. Named as the answer's field, before the answers' own codes.
 */
export function answerLineFaults(
  questions: ReadonlyMap<string, QuestionView>,
  answers: Record<string, unknown>,
  prefix: string,
  errors: FieldErrors,
): void {
  for (const [questionId, answer] of Object.entries(answers)) {
    const question = questions.get(questionId);
    if (!question) continue;
    const lines = question.kind === 'longText' ? 'multi' : 'one';
    const texts = Array.isArray(answer) ? answer : [answer];
    const fault = texts
      .map((text) => (typeof text === 'string' ? lineFault(text, lines) : null))
      .find((found) => found !== null);
    if (fault) errors.add(`${prefix}${questionId}`, fault);
  }
}

/** Checks one answer; answers the refusal code, or null when it is acceptable. */
export function checkAnswer(q: QuestionView, answer: unknown): 'tooLong' | 'notEmail' | 'notOption' | null {
  const maxLength = q.maxLength ?? defaultMaxLength[q.kind];
  const values = new Set(q.options.map((o) => o.value));
  switch (q.kind) {
    case 'text':
    case 'longText':
    case 'phone':
      if (typeof answer !== 'string') return 'notOption';
      return maxLength !== undefined && answer.length > maxLength ? 'tooLong' : null;
    case 'email':
      if (typeof answer !== 'string') return 'notEmail';
      if (answer.length > 254) return 'tooLong';
      return v.is(emailCheck, answer) ? null : 'notEmail';
    case 'number':
      return typeof answer === 'number' && Number.isFinite(answer) ? null : 'notOption';
    case 'date':
      return typeof answer === 'string' &&
        /^\d{4}-\d{2}-\d{2}$/.test(answer) &&
        !Number.isNaN(Date.parse(answer))
        ? null
        : 'notOption';
    case 'choice':
      return typeof answer === 'string' && values.has(answer) ? null : 'notOption';
    case 'multiChoice':
      return Array.isArray(answer) && answer.every((a) => typeof a === 'string' && values.has(a))
        ? null
        : 'notOption';
    case 'checkbox':
      return typeof answer === 'boolean' ? null : 'notOption';
    case 'file':
      return v.is(fileAnswer, answer) ? null : 'notOption';
  }
}
