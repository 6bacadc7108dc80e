import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { surveySchema, surveyViews } from './survey-view';

export const listSurveys = defineOperation({
  name: 'listSurveys',
  title: 'List surveys',
  description:
    "Lists an event's surveys: questions, opening times, answer count. For totals use get_survey_results. Needs surveys:read.",
  scope: 'surveys:read',
  effect: 'read',
  module: 'feedback',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(surveySchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'surveys', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('surveys').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('surveys')));
    const views = await surveyViews(ctx, event, rows.slice(0, plan.limit));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => views.get(row.id)!);
  },
});
