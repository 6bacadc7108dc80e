import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { leadItemView } from './lead-view';
import { loadLead } from './sponsor-rows';

export const deleteLead = defineOperation({
  name: 'deleteLead',
  title: 'Remove a lead',
  description:
    'Removes a lead and everything it kept about the visitor; capturing the visitor again makes a new one. Needs leads:write.',
  scope: 'leads:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'leads',
  activity: { resourceType: 'lead', resourceId: (_input, deleted) => deleted.leadId },
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('leads', (input) => input.leadId),
    async current(ctx, input) {
      return leadItemView(ctx.actor, await loadLead(ctx, input.eventId, input.leadId));
    },
  },
  input: v.object({ eventId: uuid('The event id.'), leadId: uuid('The lead id.') }),
  output: v.object({ leadId: uuid('The lead removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const lead = await loadLead(ctx, event.id, input.leadId);
    await deleteEventRow(ctx, 'leads', lead.id, 'lead');
    return { leadId: lead.id, deleted: true as const };
  },
});
