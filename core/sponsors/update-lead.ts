import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { leadFields } from './lead-fields';
import { leadItemSchema, leadItemView } from './lead-view';
import { loadLead } from './sponsor-rows';

export const updateLead = defineOperation({
  name: 'updateLead',
  title: 'Change a lead',
  description:
    "Changes a lead's rating, note or answers; send only what changes. Answers only for a visitor who agreed to share; once the visitor erased their data, neither answers nor a note about them (the rating still can). Needs leads:write.",
  scope: 'leads:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'leads',
  activity: { resourceType: 'lead', resourceId: (_input, item) => item.lead.leadId },
  problems: ['notFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('leads', (input) => input.leadId),
    async current(ctx, input) {
      return leadItemView(ctx.actor, await loadLead(ctx, input.eventId, input.leadId));
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    leadId: uuid('The lead id.'),
    rating: v.optional(leadFields.rating),
    answers: v.optional(leadFields.answers),
    note: v.optional(leadFields.note),
  }),
  output: leadItemSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): an erasure of the visitor meanwhile is waited for,
    // so this sees the row erased instead of writing their answers back.
    const lead = await loadLead(ctx, event.id, input.leadId);
    const errors = new FieldErrors();
    if (input.answers !== undefined && (lead.shared === 0 || lead.erased === 1))
      errors.add('answers', 'Answers are kept only for a visitor who agreed to share their details.');
    // The note is about the visitor and went with their erasure (lead-view.ts): none is written again.
    if (input.note != null && lead.erased === 1)
      errors.add('note', 'The visitor erased their data; no note about them is kept.');
    errors.throwIfAny();
    await updateEventRow(ctx, 'leads', lead.id, 'lead', {
      ...(input.rating === undefined ? {} : { rating: input.rating }),
      ...(input.answers === undefined ? {} : { answers: JSON.stringify(input.answers) }),
      ...(input.note === undefined ? {} : { note: input.note }),
      ...(await changedNow(ctx)),
    });
    return leadItemView(ctx.actor, await loadLead(ctx, event.id, lead.id));
  },
});
