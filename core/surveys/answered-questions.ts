// Changing the questions of a survey people have answered: results are computed from the stored
// answers against the questions as they are now, so a question someone answered keeps its id and
// kind, and a choice keeps every option someone chose. Anything else may change: labels, the order,
// new questions, new options, and questions nobody answered may go.
import type { Ctx } from '../platform/context';
import type { FieldError } from '../platform/field-errors';
import { problem } from '../platform/problems';
import type { SurveyQuestion } from './survey-questions';

/** Refuses (questionAnswered, naming each) new questions that would orphan stored answers. */
export async function refuseOrphanedAnswers(
  ctx: Ctx,
  surveyId: string,
  before: SurveyQuestion[],
  after: SurveyQuestion[],
): Promise<void> {
  const answers = (
    await ctx.db.selectFrom('survey_responses').select('answers').where('survey_id', '=', surveyId).execute()
  ).map((a) => JSON.parse(a.answers) as Record<string, unknown>);
  if (answers.length === 0) return;
  const errors: FieldError[] = [];
  for (const question of before) {
    const given = answers.map((a) => a[question.id]).filter((x) => x !== undefined && x !== null);
    if (given.length === 0) continue;
    const now = after.find((q) => q.id === question.id);
    const field = `questions.${question.id}`;
    if (!now) errors.push({ field, message: `${given.length} people answered it; it cannot be removed.` });
    else if (now.kind !== question.kind)
      errors.push({
        field,
        message: `${given.length} people answered it as ${question.kind}; its kind stays.`,
      });
    else if (question.options) {
      const kept = new Set((now.options ?? []).map((o) => o.value));
      const chosen = new Set(given.flatMap((x) => (Array.isArray(x) ? x : [x])).map(String));
      for (const value of chosen)
        if (!kept.has(value))
          errors.push({ field, message: `The option ${value} was chosen; it cannot be removed.` });
    }
  }
  if (errors.length === 0) return;
  const summary = errors.map((e) => `${e.field}: ${e.message}`).join(' ');
  throw problem(
    'questionAnswered',
    `A question people have answered cannot be removed, change its kind or lose a chosen option. ${summary}`,
    { errors },
  );
}
