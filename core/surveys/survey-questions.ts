// A survey's questions as they are kept (JSON in surveys.questions) and shown: an id, a kind, a
// label by language, and for choices the options. The kind says what an answer is: rating (1 to
// 5 stars), scale (0 to 10, read as NPS), choice (one option's value), multipleChoice (option
// values), yesNo (true or false), text.
import * as v from 'valibot';
import { text } from '../platform/schemas';

export const surveyQuestionKinds = ['rating', 'scale', 'choice', 'multipleChoice', 'yesNo', 'text'] as const;
export type SurveyQuestionKind = (typeof surveyQuestionKinds)[number];

export const byLanguage = (description: string) =>
  v.pipe(v.record(v.string(), v.string()), v.description(`${description} By language tag.`));

export const optionSchema = v.object({
  value: text('What an answer holds when this option is chosen.'),
  label: byLanguage('What people see.'),
});

export const questionSchema = v.object({
  id: text('The question id (answers are keyed by it).'),
  kind: v.pipe(
    v.picklist(surveyQuestionKinds),
    v.description('rating (1–5 stars), scale (0–10, as NPS), choice, multipleChoice, yesNo or text.'),
  ),
  label: byLanguage('The question.'),
  options: v.optional(v.array(optionSchema)),
});

export type SurveyQuestion = v.InferOutput<typeof questionSchema>;

/** The questions kept for a survey (written by this service, so they are trusted as stored). */
export function questionsOf(stored: string): SurveyQuestion[] {
  return JSON.parse(stored) as SurveyQuestion[];
}
