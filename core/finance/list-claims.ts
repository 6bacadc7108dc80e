import * as v from 'valibot';
import { claimStatuses } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { claimSchema, claimView } from './claim-view';

export const listClaims = defineOperation({
  name: 'listClaims',
  title: 'List expense claims',
  description:
    "Lists an event's expense claims of speakers and crew, oldest change first; filter by status. Names and email need people:read. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  extension: true,
  module: 'budget',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    status: v.optional(
      v.pipe(v.picklist(claimStatuses), v.description('submitted, approved, paid or rejected.')),
    ),
    ...cursorFields,
  }),
  output: pageOf(claimSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'expenseClaims',
      filters: { eventId: event.id, status: input.status },
    });
    let query = ctx.db.selectFrom('expense_claims').selectAll().where('event_id', '=', event.id);
    if (input.status) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('expense_claims')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => claimView(row, ctx.actor));
  },
});
