// What an organiser sends to make or change a survey: a title and questions by language, and the
// window in which it takes answers. The shape is checked by the schema; the rules it cannot say (a
// title in at least one language, question ids of their own, options with choices only and each
// value once, a window that closes after it opens) are checked here, on the input as sent.
import * as v from 'valibot';
import type { FieldErrors } from '../platform/field-errors';
import { ownRecord } from '../platform/own-record';
import { dateTime, languageTagMessage, languageTagPattern, oneLine } from '../platform/schemas';
import { surveyQuestionKinds } from './survey-questions';

const textsByLanguage = (description: string, max: number) =>
  v.pipe(
    ownRecord(
      v.pipe(v.string(), v.regex(languageTagPattern, languageTagMessage)),
      v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(max)),
    ),
    v.description(`${description} By language tag, such as {"en": "…", "nb": "…"}; at least one.`),
  );

const questionInput = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, _ or -.'),
    v.description('The question id, unique in the survey: answers are keyed by it.'),
  ),
  kind: v.pipe(
    v.picklist(surveyQuestionKinds),
    v.description(
      'rating (1–5 stars), scale (0–10, counted as NPS), choice (one option), multipleChoice (several), yesNo or text.',
    ),
  ),
  label: textsByLanguage('The question.', 500),
  options: v.optional(
    v.pipe(
      v.array(
        v.object({
          value: v.pipe(
            v.string(),
            oneLine,
            v.minLength(1),
            v.maxLength(100),
            v.description('What an answer holds when this option is chosen.'),
          ),
          label: textsByLanguage('What people see.', 200),
        }),
      ),
      v.maxLength(50),
      v.description('choice and multipleChoice questions only: 2 to 50 options.'),
    ),
  ),
});

export type QuestionInput = v.InferOutput<typeof questionInput>;

export const surveyFields = {
  title: textsByLanguage('Its title.', 500),
  questions: v.pipe(
    v.array(questionInput),
    v.minLength(1),
    v.maxLength(100),
    v.description('1 to 100 questions, in the order people see them.'),
  ),
  opensUtc: v.optional(v.nullable(dateTime('When it starts taking answers; null: at once.'))),
  closesUtc: v.optional(v.nullable(dateTime('When it stops taking answers; null: it stays open.'))),
};

const isObject = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === 'object' && !Array.isArray(x);

/** A text by language holds at least one language. */
function checkTexts(value: unknown, field: string, errors: FieldErrors): void {
  if (isObject(value) && Object.keys(value).length === 0)
    errors.add(field, 'Give it in at least one language.');
}

/** The rules of a survey's title and questions the schema cannot say, on the input as sent. */
export function checkSurveyFields(input: Record<string, unknown>, errors: FieldErrors): void {
  checkTexts(input.title, 'title', errors);
  if (!Array.isArray(input.questions)) return;
  const seen = new Set<unknown>();
  input.questions.forEach((q, i) => {
    if (!isObject(q)) return;
    const at = `questions.${i}`;
    if (seen.has(q.id)) errors.add(`${at}.id`, `Another question already has the id ${String(q.id)}.`);
    seen.add(q.id);
    checkTexts(q.label, `${at}.label`, errors);
    const choice = q.kind === 'choice' || q.kind === 'multipleChoice';
    const options = Array.isArray(q.options) ? q.options : [];
    if (!choice && q.options !== undefined)
      errors.add(`${at}.options`, 'Options go with choice and multipleChoice questions only.');
    if (choice && options.length < 2) errors.add(`${at}.options`, 'A choice needs at least two options.');
    const values = new Set<unknown>();
    options.forEach((o, j) => {
      if (!isObject(o)) return;
      if (values.has(o.value))
        errors.add(`${at}.options.${j}.value`, `The value ${String(o.value)} is twice.`);
      values.add(o.value);
      checkTexts(o.label, `${at}.options.${j}.label`, errors);
    });
  });
}

/** A survey's window closes after it opens. */
export function checkWindow(opens: string | null, closes: string | null, errors: FieldErrors): void {
  if (opens && closes && Date.parse(closes) <= Date.parse(opens))
    errors.add('closesUtc', 'It must close after it opens.');
}

/** The questions as they are kept: options only for choices. */
export function questionsToKeep(questions: QuestionInput[]) {
  return questions.map((q) => ({
    id: q.id,
    kind: q.kind,
    label: q.label,
    ...(q.kind === 'choice' || q.kind === 'multipleChoice' ? { options: q.options ?? [] } : {}),
  }));
}

/** A time as sent, kept in UTC; null or absent as null. */
export const utcOrNull = (at: string | null | undefined): string | null =>
  at ? new Date(at).toISOString() : null;
