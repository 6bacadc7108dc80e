// A survey takes answers from when it opens (none: from the start) until it closes (none: always).
import type { SurveyRow } from '../../db/schema';
import { problem } from '../platform/problems';

export function refuseOutsideWindow(survey: Pick<SurveyRow, 'opens_utc' | 'closes_utc'>, now: Date): void {
  if (survey.opens_utc && now < new Date(survey.opens_utc))
    throw problem('surveyNotOpen', `The survey opens at ${survey.opens_utc}; it takes no answers before.`, {
      opensUtc: survey.opens_utc,
    });
  if (survey.closes_utc && now >= new Date(survey.closes_utc))
    throw problem('surveyNotOpen', `The survey closed at ${survey.closes_utc}; it takes no more answers.`, {
      closesUtc: survey.closes_utc,
    });
}
