// Whether an answer fits its question, the one rule for answers given live and imported alike:
// results are computed from the answers as stored (survey-results.ts), so none is kept that does not fit.
import { lineFault } from '../platform/schemas';
import type { SurveyQuestion } from './survey-questions';

/** The longest text answer kept. */
export const maxTextAnswer = 5000;

/** Why an answer does not fit its question, or null when it does. */
export function misfit(question: SurveyQuestion, answer: unknown): string | null {
  const values = new Set((question.options ?? []).map((o) => o.value));
  const whole = (min: number, max: number) =>
    Number.isInteger(answer) && (answer as number) >= min && (answer as number) <= max;
  switch (question.kind) {
    case 'rating':
      return whole(1, 5) ? null : 'A rating is a whole number from 1 to 5.';
    case 'scale':
      return whole(0, 10) ? null : 'A scale answer is a whole number from 0 to 10.';
    case 'choice':
      return typeof answer === 'string' && values.has(answer) ? null : 'Not one of the options.';
    case 'multipleChoice':
      return Array.isArray(answer) && answer.every((a) => typeof a === 'string' && values.has(a))
        ? null
        : 'A list of the options.';
    case 'yesNo':
      return typeof answer === 'boolean' ? null : 'true or false.';
    case 'text':
      if (typeof answer !== 'string' || answer.length > maxTextAnswer)
        return `Text of ${maxTextAnswer} characters at most.`;
      // A free-text answer may run over lines, with no other control character (issue 50).
      return lineFault(answer, 'multi');
  }
}
