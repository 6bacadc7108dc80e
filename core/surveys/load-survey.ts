// A survey of one event, with its view: another event's or workspace's id answers 404 notFound.
import type { EventRow, SurveyRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { type SurveyView, surveyViews } from './survey-view';

/** The survey at its event (loadEventRow). */
export function loadSurvey(ctx: Ctx, event: EventRow, surveyId: string): Promise<SurveyRow> {
  return loadEventRow(ctx, 'surveys', event.id, surveyId, 'survey');
}

export async function surveyView(ctx: Ctx, event: EventRow, row: SurveyRow): Promise<SurveyView> {
  return (await surveyViews(ctx, event, [row])).get(row.id)!;
}
