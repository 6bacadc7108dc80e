// A page of shared leads, newest first: the organiser's list (the API's) and a sponsor's own export
// take the same paging fields and answer the same page; only their filters differ.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import {
  applyPlan,
  cursorFields,
  finishPage,
  type PageInput,
  pageOf,
  planPage,
  readPage,
} from '../platform/pipeline/paging';
import { leadItemSchema, leadItemView, leadQuery } from './lead-view';

/** The spec's leads page: smaller than other lists' (default 25, up to 100). */
export const leadsDefaultLimit = 25;
export const leadsMaxLimit = 100;

/** A page of lead items. */
export const leadItemPage = pageOf(leadItemSchema);

/** The paging fields of a leads list. */
export const leadPagingFields = {
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
};

/**
 * One page of the event's shared leads (of one sponsor when given). A visitor who did not agree to
 * share is never listed.
 */
export async function sharedLeadsPage(
  ctx: Ctx,
  input: PageInput & { limit?: number },
  list: { name: string; eventId: string; sponsorId?: string },
) {
  const filters = { eventId: list.eventId, ...(list.sponsorId ? { sponsorId: list.sponsorId } : {}) };
  const plan = planPage(
    ctx,
    { ...input, limit: input.limit ?? leadsDefaultLimit },
    { list: list.name, filters, defaultSort: '-created' },
  );
  let query = leadQuery(ctx.db).where('leads.event_id', '=', list.eventId).where('leads.shared', '=', 1);
  if (list.sponsorId) query = query.where('leads.sponsor_id', '=', list.sponsorId);
  const rows = await readPage(
    ctx.db,
    applyPlan(query, plan, {
      txn: 'leads.change_txn',
      seq: 'leads.change_seq',
      updated: 'leads.updated_utc',
      created: 'leads.captured_utc',
      id: 'leads.id',
    }),
  );
  return finishPage(
    ctx,
    plan,
    rows,
    (row) => ({ txn: row.change_txn, seq: row.change_seq, created: row.captured_utc, id: row.id }),
    (row) => leadItemView(ctx.actor, row),
  );
}
