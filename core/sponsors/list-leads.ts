import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { leadItemSchema, leadItemView, leadQuery } from './lead-view';

/** The spec's leads page: smaller than other lists' (default 25, up to 100). */
export const leadsDefaultLimit = 25;
export const leadsMaxLimit = 100;

/** A page of lead items: the organiser's list and a sponsor's export answer the same. */
export const leadItemPage = pageOf(leadItemSchema);

export const listLeads = defineOperation({
  name: 'listLeads',
  title: 'List leads',
  description:
    'Lists the leads sponsors captured from visitors who agreed to share, newest first. Needs sponsors:read and people:read.',
  scope: 'sponsors:read',
  effect: 'read',
  module: 'leads',
  aboutPeople: 'Leads are about people: listing them needs the people:read scope.',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    cursor: cursorFields.cursor,
    updatedSince: cursorFields.updatedSince,
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(leadsMaxLimit),
        v.description('Default 25, at most 100.'),
      ),
    ),
  }),
  output: leadItemPage,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(
      ctx,
      { ...input, limit: input.limit ?? leadsDefaultLimit },
      { list: 'leads', filters: { eventId: event.id }, defaultSort: '-created' },
    );
    // A visitor who did not agree to share is never listed.
    const query = leadQuery(ctx.db).where('leads.event_id', '=', event.id).where('leads.shared', '=', 1);
    const rows = await applyPlan(query, plan, {
      txn: 'leads.change_txn',
      seq: 'leads.change_seq',
      updated: 'leads.updated_utc',
      created: 'leads.captured_utc',
      id: 'leads.id',
    }).execute();
    return finishPage(
      ctx,
      plan,
      rows,
      (row) => ({ txn: row.change_txn, seq: row.change_seq, created: row.captured_utc, id: row.id }),
      (row) => leadItemView(ctx.actor, row),
    );
  },
});
