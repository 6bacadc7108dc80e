// A survey of one event, with its view: another event's or workspace's id answers 404 notFound.
import { changingRow } from '../../db/dialect';
import type { EventRow, SurveyRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { type SurveyView, surveyViews } from './survey-view';

/**
 * `forChange` locks the survey on PostgreSQL (db/dialect.ts changingRow) for a change checked against
 * its other columns (opening against closing): another change of it waits, so the check sees the row
 * the update writes over.
 */
export async function loadSurvey(
  ctx: Ctx,
  event: EventRow,
  surveyId: string,
  forChange = false,
): Promise<SurveyRow> {
  const query = ctx.db
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', surveyId)
    .where('event_id', '=', event.id);
  const row = await (forChange ? changingRow(ctx.db, query) : query).executeTakeFirst();
  if (!row) throw problem('notFound', `No survey ${surveyId} at this event.`);
  return row;
}

export async function surveyView(ctx: Ctx, event: EventRow, row: SurveyRow): Promise<SurveyView> {
  return (await surveyViews(ctx, event, [row])).get(row.id)!;
}
