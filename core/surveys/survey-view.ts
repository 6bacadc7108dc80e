// The public Survey resource: title and questions by language, when it is open (UTC and venue
// time) and how many answered.
import * as v from 'valibot';
import type { EventRow, SurveyRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { dateTime, int32, localTime, uuid } from '../platform/schemas';
import { toLocalOrNull } from '../platform/time';
import { byLanguage, questionSchema, questionsOf } from './survey-questions';

export const surveySchema = v.object({
  surveyId: uuid('The survey id.'),
  eventId: uuid('The event id.'),
  title: byLanguage('Its title.'),
  questions: v.array(questionSchema),
  opensUtc: v.nullable(dateTime('When it opens; null: open from the start.')),
  closesUtc: v.nullable(dateTime('When it closes; null: it stays open.')),
  opensLocal: v.nullable(localTime('When it opens')),
  closesLocal: v.nullable(localTime('When it closes')),
  responses: int32('How many answered.'),
  updatedUtc: v.nullable(dateTime('Last change of the survey.')),
});

export type SurveyView = v.InferOutput<typeof surveySchema>;

/** Views of a page of surveys, with their response counts. */
export async function surveyViews(
  ctx: Ctx,
  event: EventRow,
  rows: SurveyRow[],
): Promise<Map<string, SurveyView>> {
  const counts =
    rows.length === 0
      ? []
      : await ctx.db
          .selectFrom('survey_responses')
          .select(['survey_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where(
            'survey_id',
            'in',
            rows.map((r) => r.id),
          )
          .groupBy('survey_id')
          .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        surveyId: row.id,
        eventId: row.event_id,
        title: JSON.parse(row.title) as Record<string, string>,
        questions: questionsOf(row.questions),
        opensUtc: row.opens_utc,
        closesUtc: row.closes_utc,
        opensLocal: toLocalOrNull(row.opens_utc, event.time_zone),
        closesLocal: toLocalOrNull(row.closes_utc, event.time_zone),
        responses: Number(counts.find((c) => c.survey_id === row.id)?.n ?? 0),
        updatedUtc: row.updated_utc,
      },
    ]),
  );
}
