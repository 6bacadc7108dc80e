// The sponsor's own download of its leads, as its level allows: the organiser's list of every
// sponsor's leads (list_leads, the API's) stays as it is; this is what a sponsor is handed.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { requireLeadDownload } from './lead-download';
import { leadItemPage, leadPagingFields, sharedLeadsPage } from './lead-page';
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
    ...leadPagingFields,
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
    return sharedLeadsPage(ctx, input, { name: 'sponsorLeads', eventId: event.id, sponsorId: sponsor.id });
  },
});
