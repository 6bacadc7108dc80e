import * as v from 'valibot';
import { submissionStatuses } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { submissionSchema, submissionViews } from './submission-view';

export const listSubmissions = defineOperation({
  name: 'listSubmissions',
  title: 'List call-for-speakers submissions',
  description:
    "Lists an event's call-for-speakers submissions; filter by status. Speaker details need people:read. Needs cfp:read.",
  scope: 'cfp:read',
  effect: 'read',
  module: 'cfp',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    status: v.optional(
      v.pipe(
        v.picklist(submissionStatuses),
        v.description('draft, submitted, underReview, accepted, waitlisted, rejected or withdrawn.'),
      ),
    ),
    ...cursorFields,
  }),
  output: pageOf(submissionSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'submissions',
      filters: { eventId: event.id, status: input.status },
    });
    let query = ctx.db.selectFrom('submissions').selectAll().where('event_id', '=', event.id);
    if (input.status) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('submissions')));
    const views = await submissionViews(ctx, rows.slice(0, plan.limit));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => views.get(row.id)!);
  },
});
