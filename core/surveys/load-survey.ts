// A survey of one event, with its view: another event's or workspace's id answers 404 notFound.
import type { EventRow, SurveyRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { type SurveyView, surveyViews } from './survey-view';

export async function loadSurvey(ctx: Ctx, event: EventRow, surveyId: string): Promise<SurveyRow> {
  const row = await ctx.db
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', surveyId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No survey ${surveyId} at this event.`);
  return row;
}

export async function surveyView(ctx: Ctx, event: EventRow, row: SurveyRow): Promise<SurveyView> {
  return (await surveyViews(ctx, event, [row])).get(row.id)!;
}
