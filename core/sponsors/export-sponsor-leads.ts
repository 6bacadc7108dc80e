// The sponsor's own download of its leads, as its level allows: the organiser's list of every
// sponsor's leads (list_leads, the API's) stays as it is; this is what a sponsor is handed.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { requireLeadDownload } from './lead-download';
import { leadItemView, leadQuery } from './lead-view';
import { leadItemPage, leadsDefaultLimit, leadsMaxLimit } from './list-leads';
import { loadSponsor } from './sponsor-rows';

export const exportSponsorLeads = defineOperation({
  name: 'exportSponsorLeads',
  title: "Export a sponsor's leads",
  description:
    "One sponsor's shared leads, newest first, while its level includes the lead download and its window is open; otherwise refused, saying why. Needs sponsors:read and people:read.",
  scope: 'sponsors:read',
  effect: 'read',
  extension: true,
  module: 'leads',
  aboutPeople: 'Leads are about people: exporting them needs the people:read scope.',
  problems: ['notFound', 'leadDownloadClosed'],
  input: v.object({
    eventId: uuid('The event id.'),
    sponsorId: uuid('The sponsor id.'),
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
    const sponsor = await loadSponsor(ctx, event.id, input.sponsorId);
    const level = sponsor.level_id
      ? await ctx.db
          .selectFrom('sponsor_levels')
          .selectAll()
          .where('id', '=', sponsor.level_id)
          .executeTakeFirst()
      : undefined;
    requireLeadDownload(ctx, event, sponsor.name, level ?? null);
    const plan = planPage(
      ctx,
      { ...input, limit: input.limit ?? leadsDefaultLimit },
      {
        list: 'sponsorLeads',
        filters: { eventId: event.id, sponsorId: sponsor.id },
        defaultSort: '-created',
      },
    );
    // As in the organiser's list, a visitor who did not agree to share is never listed.
    const query = leadQuery(ctx.db)
      .where('leads.event_id', '=', event.id)
      .where('leads.sponsor_id', '=', sponsor.id)
      .where('leads.shared', '=', 1);
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
