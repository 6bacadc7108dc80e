// What a survey's answers add up to, question by question, computed from the stored answers every
// time (never kept totals) and never saying who answered: options with their counts, yes counts,
// the average of 1–5 ratings, NPS of 0–10 scales (promoters 9–10 less detractors 0–6, in percent
// of those who answered), and the texts. An answer outside its question's range is not counted.
import * as v from 'valibot';
import { averageOf } from '../platform/average';
import { int32, text } from '../platform/schemas';
import { byLanguage, type SurveyQuestion, surveyQuestionKinds } from './survey-questions';

export const questionResultSchema = v.object({
  questionId: text('The question id.'),
  kind: v.picklist(surveyQuestionKinds),
  label: byLanguage('The question.'),
  answered: int32('How many answered it.'),
  options: v.optional(
    v.pipe(
      v.array(
        v.object({ value: text('The option.'), label: byLanguage('Its label.'), count: int32('Chosen by.') }),
      ),
      v.description('choice and multipleChoice questions: each option with how many chose it.'),
    ),
  ),
  yes: v.optional(int32('yesNo questions: how many said yes.')),
  average: v.optional(
    v.nullable(
      v.pipe(v.number(), v.description('rating questions: the average of 1–5 stars, two decimals.')),
    ),
  ),
  nps: v.optional(
    v.nullable(
      v.pipe(
        v.number(),
        v.integer(),
        v.description('scale questions (0–10): Net Promoter Score, −100 to 100.'),
      ),
    ),
  ),
  texts: v.optional(v.pipe(v.array(v.string()), v.description('text questions: the answers, oldest first.'))),
});

export type QuestionResult = v.InferOutput<typeof questionResultSchema>;

const isInt = (x: unknown, min: number, max: number): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;

/** Results of each question over the answers (each an object keyed by question id). */
export function resultsOf(questions: SurveyQuestion[], answers: Record<string, unknown>[]): QuestionResult[] {
  return questions.map((q) => {
    const given = answers.map((a) => a[q.id]).filter((x) => x !== undefined && x !== null);
    const base = { questionId: q.id, kind: q.kind, label: q.label };
    switch (q.kind) {
      case 'rating': {
        const stars = given.filter((x) => isInt(x, 1, 5)) as number[];
        return { ...base, answered: stars.length, average: averageOf(stars) };
      }
      case 'scale': {
        const scores = given.filter((x) => isInt(x, 0, 10)) as number[];
        const promoters = scores.filter((s) => s >= 9).length;
        const detractors = scores.filter((s) => s <= 6).length;
        const nps = scores.length ? Math.round(((promoters - detractors) / scores.length) * 100) : null;
        return { ...base, answered: scores.length, nps };
      }
      case 'choice':
      case 'multipleChoice': {
        const values = new Set((q.options ?? []).map((o) => o.value));
        const chosen = given
          .map((x) => (q.kind === 'choice' ? [x] : Array.isArray(x) ? x : []))
          .map((list) => [
            ...new Set(list.filter((x): x is string => typeof x === 'string' && values.has(x))),
          ])
          .filter((list) => list.length > 0);
        const options = (q.options ?? []).map((o) => ({
          value: o.value,
          label: o.label,
          count: chosen.filter((list) => list.includes(o.value)).length,
        }));
        return { ...base, answered: chosen.length, options };
      }
      case 'yesNo': {
        const said = given.filter((x) => typeof x === 'boolean') as boolean[];
        return { ...base, answered: said.length, yes: said.filter(Boolean).length };
      }
    }
    // text
    const texts = given.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    return { ...base, answered: texts.length, texts };
  });
}
